import torch, torch.nn.functional as F
from torch._inductor.utils import run_and_get_code
for name, T, H, fused in (("rms", 32768, 8192, False), ("rms", 32768, 4096, False), ("fused", 32768, 8192, True)):
    x = torch.randn(T, H, device="cuda", dtype=torch.bfloat16); r = torch.randn_like(x)
    w = torch.rand(H, device="cuda", dtype=torch.bfloat16) + 1
    for mode in ("default", "max-autotune-no-cudagraphs"):
        torch._dynamo.reset()
        if fused:
            def f(x, r, w):
                r.add_(x); x.copy_(F.rms_norm(r, (H,), w, 1e-6))
        else:
            def f(x, r, w):
                return F.rms_norm(x, (H,), w, 1e-6)
        fn = torch.compile(f, mode=mode, dynamic=False)
        _, codes = run_and_get_code(fn, x, r, w)
        print(f"===== {name} {T}x{H} {mode}")
        for c in codes:
            lines = c.splitlines()
            keep = [l for l in lines if any(k in l for k in ("@triton", "triton_heuristics", "def triton", "tl.load", "tl.store", "XBLOCK", "R0_BLOCK", "RBLOCK", "num_warps", "for r0_offset", "for roffset", "eviction", "grid(", ".run("))]
            print("\n".join(keep[:80]))
