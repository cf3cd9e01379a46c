#!/usr/bin/env python3
"""Session 14: the template variants of calls 2-4, rebuilt from git (run from the repo root; they
land in build-tmp/tpl14-*, which template_ab.py and sass_diff.sh take as NAME=DIR).
  From e06f047 (the serial sum of the warp sums):
    warpred  every warp reduces the block's warp sums by shuffles (one shared read per lane)
    divfast  sum * (1/hidden) instead of the IEEE division (changes rounding; experiment only)
    both     warpred + divfast
    nopdl    griddepcontrol compiled out (run with --no-pdl)
    tri      Triton's form: one warp reduces the warp sums, a second barrier, one read per thread
    triwl    tri + re-read rows read the weight evict-last in L1 and L2
    prev     e06f047 unchanged (call 4's baseline)
  From e595b59 (shuffles for 32 warps):
    k16      shuffles from 16 warps on (lanes past the warp count add zeros, lane 0 broadcasts)
    k16pad   k16 + 3200 bytes of padding in the reduction's static shared memory (call 7: with a
             16 KiB carveout, 3 CTAs of 512 threads fit an SM, not 4)
"""
import os, shutil, subprocess
root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
FILES = ["common.cuh", "params.cuh", "reduce.cuh", "rms_norm.cuh"]

def mk(name, commit, edits=()):
    d = f"{root}/build-tmp/tpl14-{name}"
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    for f in FILES:
        text = subprocess.check_output(["git", "show", f"{commit}:kernel_templates/{f}"], text=True)
        open(f"{d}/{f}", "w").write(text)
    for fname, old, new in edits:
        p = f"{d}/{fname}"; s = open(p).read()
        assert old in s, (name, old[:50]); open(p, "w").write(s.replace(old, new))

SERIAL = '''    const float* mine = smem + (warp / kWarps) * kWarps;
    float s = 0.f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s += mine[w];
    v = s;'''
WARPRED = ("reduce.cuh", SERIAL, '''    const float* mine = smem + (warp / kWarps) * kWarps;
    const int lane = threadIdx.x & 31;
    v = warp_group_sum<kWarps>(lane < kWarps ? mine[lane] : 0.f);
    if constexpr (kWarps < 32) v = __shfl_sync(0xffffffffu, v, 0);  // lanes past kWarps summed zeros''')
DIVFAST = ("rms_norm.cuh", "const float ms = div_rn(ss, float(Cfg::kHidden));",
           "const float ms = mul_rn(ss, 1.f / float(Cfg::kHidden));")
TRI = ("reduce.cuh", SERIAL, '''    float* mine = smem + (warp / kWarps) * kWarps;
    if (warp % kWarps == 0) {
      const int lane = threadIdx.x & 31;
      float s = warp_group_sum<kWarps>(lane < kWarps ? mine[lane] : 0.f);
      if (lane == 0) mine[0] = s;
    }
    __syncthreads();
    v = mine[0];''')
WL = ("rms_norm.cuh",
      "else if constexpr (Cfg::kResidency == 1 && kCluster == 1) wl.template load_act<3>(w + col_of(it));",
      "else if constexpr ((Cfg::kResidency == 1 || Cfg::kResidency == 2) && kCluster == 1) wl.template load_act<3>(w + col_of(it));")

mk("warpred", "e06f047", [WARPRED])
mk("divfast", "e06f047", [DIVFAST])
mk("both", "e06f047", [WARPRED, DIVFAST])
mk("nopdl", "e06f047", [
    ("common.cuh", '''  if constexpr (kEnabled) asm volatile("griddepcontrol.wait;" ::: "memory");''', ""),
    ("common.cuh", '''  if constexpr (kEnabled) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");''', "")])
mk("tri", "e06f047", [TRI])
mk("triwl", "e06f047", [TRI, WL])
mk("prev", "e06f047")
mk("k16", "e595b59", [("reduce.cuh", '''      v = warp_group_sum<32>(mine[threadIdx.x & 31]);
    } else {''', '''      v = warp_group_sum<32>(mine[threadIdx.x & 31]);
    } else if constexpr (kWarps >= 16) {
      const int lane = threadIdx.x & 31;
      v = __shfl_sync(0xffffffffu, warp_group_sum<kWarps>(lane < kWarps ? mine[lane] : 0.f), 0);
    } else {''')])
shutil.rmtree(f"{root}/build-tmp/tpl14-k16pad", ignore_errors=True)
shutil.copytree(f"{root}/build-tmp/tpl14-k16", f"{root}/build-tmp/tpl14-k16pad")
p = f"{root}/build-tmp/tpl14-k16pad/rms_norm.cuh"; s = open(p).read()
old = "__shared__ float red[RowReduceSmem<kGroup, kRows>::kFloats];"
assert old in s
open(p, "w").write(s.replace(old, "__shared__ float red[RowReduceSmem<kGroup, kRows>::kFloats + 800];  // EXPERIMENT: 3200-byte pad"))
print("variants in build-tmp/tpl14-*")
