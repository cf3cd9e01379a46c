# Runs one peer kernel 30 times so that ncu can profile a steady-state launch:
# compile (torch.compile of F.rms_norm, default mode) or copy (a same-size y.copy_(x)).
import sys
import torch
import torch.nn.functional as F

mode, rows, hidden = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.manual_seed(0)
x = torch.randn(rows, hidden, device="cuda", dtype=torch.bfloat16)
w = torch.randn(hidden, device="cuda", dtype=torch.bfloat16)
if mode == "compile":
    f = torch.compile(lambda x, w: F.rms_norm(x, (hidden,), w, 1e-6))
else:
    y = torch.empty_like(x)
    f = lambda x, w: y.copy_(x)
for _ in range(30):
    f(x, w)
torch.cuda.synchronize()
print(mode, rows, hidden, "done")
