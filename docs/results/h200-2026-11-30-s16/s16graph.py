# Per-launch device time of normjit rmsnorm in a CUDA graph of 50 chained launches (PDL as the
# library defaults), for the template set and rows-per-thread of this process's environment.
import statistics, sys
import torch
import normjit
tag = sys.argv[1]
for s in sys.argv[2].split(","):
    T, H = map(int, s.split("x"))
    x = torch.randn(T, H, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    w = torch.rand(H, device="cuda", dtype=torch.bfloat16) + 0.5
    normjit.rmsnorm(x, w, 1e-6, out=y)
    torch.cuda.synchronize()
    st = torch.cuda.Stream()
    with torch.cuda.stream(st):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, stream=st):
            for _ in range(50):
                normjit.rmsnorm(x, w, 1e-6, out=y)
    torch.cuda.synchronize()
    us = []
    for _ in range(25):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); torch.cuda.synchronize()
        us.append(a.elapsed_time(b) * 1000 / 50)
    print(f"graph {tag:14} rmsnorm {T}x{H}: {statistics.median(us):.3f} us per launch", flush=True)
