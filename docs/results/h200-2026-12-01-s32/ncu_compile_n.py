# torch.compile's rmsnorm kernel (static shapes), N launches per shape between
# cudaProfilerStart/Stop so that `ncu --profile-from-start off` profiles exactly those (each with
# ncu's cache flush before it). argv: hidden rows[,rows...] N
import sys
import torch
import torch.nn.functional as F

hidden = int(sys.argv[1])
rows_list = [int(r) for r in sys.argv[2].split(",")]
n = int(sys.argv[3])
torch.manual_seed(0)
w = torch.randn(hidden, device="cuda", dtype=torch.bfloat16)
f = torch.compile(lambda x, w: F.rms_norm(x, (hidden,), w, 1e-6), dynamic=False)
xs = {r: torch.randn(r, hidden, device="cuda", dtype=torch.bfloat16) for r in rows_list}
for r in rows_list:
    for _ in range(10):
        f(xs[r], w)
torch.cuda.synchronize()
for r in rows_list:
    torch.cuda.profiler.start()
    for _ in range(n):
        f(xs[r], w)
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
print("done", hidden, rows_list, n)
