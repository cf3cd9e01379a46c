#!/usr/bin/env python3
"""Session 15: the template variants of call 1, rebuilt from git (run from the repo root; they land
in build-tmp/tpl15-*, which scripts/template_ab.py and scripts/sass_diff.sh take as NAME=DIR).
  From 0117051 (session 14's templates):
    pin        every row held with its weight (residency 0, not weight-first) ORs each item's first
               word with (weight word & (flags >> 31)), a zero ptxas cannot fold: the weight loads
               are issued before the row is used. Committed as KernelConfig::pin_weight (e6de0b3,
               with kFlagNeverSet = 1 << 30 as the zero), from 256 rows only
    pinacc     pin + the held row's sum of squares in 4 interleaved FMA chains (not adopted)
    pinaccdiv  pinacc + DIV_RN by a power-of-two hidden as a multiply by 1/H (not adopted)
"""
import os, shutil, subprocess
root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
FILES = ["common.cuh", "params.cuh", "reduce.cuh", "rms_norm.cuh"]


def mk(name, commit, edits=()):
    d = f"{root}/build-tmp/tpl15-{name}"
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    for f in FILES:
        text = subprocess.check_output(["git", "show", f"{commit}:kernel_templates/{f}"], text=True)
        open(f"{d}/{f}", "w").write(text)
    for fname, old, new in edits:
        p = f"{d}/{fname}"; s = open(p).read()
        assert old in s, (name, old[:50]); open(p, "w").write(s.replace(old, new))


PIN = ("rms_norm.cuh", """    if constexpr (Cfg::kResidual && !kPerItem) {""", """    if constexpr (kEarlyWeight && !Cfg::kWeightFirst) {
      const u32 opaque = u32(p.flags) >> 31;  // 0 at run time
#pragma unroll
      for (int it = 0; it < kItems; ++it) xs[it].u.w[0] |= ws[it].u.w[0] & opaque;
    }
    if constexpr (Cfg::kResidual && !kPerItem) {""")
ACC_FN = ("reduce.cuh", "// Shared memory the reduction needs", "// Sum of the squares of a thread's N values in kAcc interleaved FMA chains, added at the end:\n// N / kAcc + log2(kAcc) dependent operations after the last value lands, not N. A latency-bound\n// call (a few rows) waits for this chain between its loads and its stores; one chain of 16-32\n// values took 64-128 cycles there (sm_90a SASS). Four chains cost no registers where one pairwise\n// tree of all the values took 14-22 more (rmsnorm 4096 on 128 threads: 62 -> 76). The spec\n// leaves the order of the sum to the implementation.\ntemplate <int N, class Get> __device__ __forceinline__ float sum_squares(Get value) {\n  constexpr int kAcc = N >= 8 ? 4 : N >= 2 ? 2 : 1;\n  float acc[kAcc];\n#pragma unroll\n  for (int a = 0; a < kAcc; ++a) acc[a] = 0.f;\n#pragma unroll\n  for (int i = 0; i < N; ++i) {\n    const float v = value(i);\n    acc[i % kAcc] = fma_rn(v, v, acc[i % kAcc]);\n  }\n#pragma unroll\n  for (int n = kAcc; n > 1; n /= 2)\n#pragma unroll\n    for (int a = 0; a < n / 2; ++a) acc[a] = add_rn(acc[a], acc[a + n / 2]);\n  return acc[0];\n}\n\n" + "// Shared memory the reduction needs")
ACC = ("rms_norm.cuh", """#pragma unroll
    for (int it = 0; it < kItems; ++it)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const float v = Cfg::kResidual ? hs[it][j] : xs[it][j];
        ss = fma_rn(v, v, ss);
      }""", """    ss = sum_squares<kItems * kVec>([&](int i) { return Cfg::kResidual ? hs[i / kVec][i % kVec] : xs[i / kVec][i % kVec]; });""")
DIV = ("rms_norm.cuh", "  const float ms = div_rn(ss, float(Cfg::kHidden));", """  constexpr bool kPow2 = (Cfg::kHidden & (Cfg::kHidden - 1)) == 0;
  const float ms = kPow2 ? mul_rn(ss, 1.f / float(Cfg::kHidden)) : div_rn(ss, float(Cfg::kHidden));""")

mk("pin", "0117051", [PIN])
mk("pinacc", "0117051", [PIN, ACC_FN, ACC])
mk("pinaccdiv", "0117051", [PIN, ACC_FN, ACC, DIV])
print("variants in build-tmp/tpl15-*")
