# Kernel-only device durations (CUPTI, torch.profiler) of torch.compile's rmsnorm and normjit's,
# L2 flushed before each call, inputs rotated: which is faster without the event floor.
import json, os, statistics, sys, tempfile
import torch
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
import normjit

shapes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[1].split(",")]
modes = sys.argv[2].split(",") if len(sys.argv) > 2 else ["default"]
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for T, H in shapes:
    sets = max(2, min(20, (240 << 20) // (T * H * 2) + 1))
    xs = [torch.randn(T, H, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
    ys = [torch.empty_like(xs[0]) for _ in range(sets)]
    w = torch.rand(H, device="cuda", dtype=torch.bfloat16) + 0.5
    cands = {"normjit": lambda k: normjit.rmsnorm(xs[k], w, 1e-6, out=ys[k])}
    for m in modes:
        torch._dynamo.reset()
        fn = torch.compile(lambda x, w: F.rms_norm(x, (H,), w, 1e-6), mode=m, dynamic=False)
        cands["compile-" + m[:6]] = lambda k, fn=fn: fn(xs[k], w)
    for c in cands.values():
        for k in range(3): c(k % sets)
    torch.cuda.synchronize()
    durs = {n: [] for n in cands}
    info = {}
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(30):
            for n, c in cands.items():
                flush.fill_(i & 0xff)
                torch.cuda._sleep(20000)
                c(i % sets)
        torch.cuda.synchronize()
    tr = tempfile.mktemp(suffix=".json")
    prof.export_chrome_trace(tr)
    ev = [e for e in json.load(open(tr))["traceEvents"] if e.get("cat") == "kernel"]
    os.remove(tr)
    ev = [e for e in ev if "fill" not in e["name"] and "spin_kernel" not in e["name"] and "elementwise" not in e["name"]]
    names = list(cands)
    if len(ev) != 30 * len(names):
        print(f"{T}x{H}: {len(ev)} kernels for {len(names)} candidates x 30:", sorted(set(e["name"][:60] for e in ev)))
        continue
    # kernels come in candidate order, one each per iteration
    for i, e in enumerate(ev):
        n = names[i % len(names)]
        durs[n].append(e["dur"])
        a = e.get("args", {})
        info[n] = f'{e["name"][:40]} grid {a.get("grid")} block {a.get("block")} regs {a.get("registers per thread")} smem {a.get("shared memory")}'
    for n in names:
        d = sorted(durs[n])
        print(f"{T}x{H:<6} {n:16} median {statistics.median(d):7.3f} us  p10 {d[len(d)//10]:7.3f}  n={len(d)}  {info.get(n)}", flush=True)
