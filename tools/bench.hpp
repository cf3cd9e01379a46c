// `normjit bench`: device-time benchmarks on the GPU (method: docs/benchmarks.md).
#pragma once
#include <string>
#include <vector>

namespace normjit::tools {

struct BenchArgs {
  std::vector<std::string> ops{"rmsnorm"};
  std::vector<std::string> dtypes{"bf16"};
  // Weight dtypes, each timed with every --dtype; empty: the activation dtype. f32 with 16-bit
  // activations is the mixed-precision case (spec/rmsnorm.md: weight).
  std::vector<std::string> weight_dtypes;
  std::vector<std::string> tokens{"1,128,2048,32768"};
  std::vector<std::string> hidden{"4096,8192"};
  // Per-head rows (rmsnorm, gemma_rmsnorm): `heads` heads of `hidden` (the head dim) a token,
  // [tokens, heads, hidden]; 0: 2-D rows. Their tokens lie `qkv_heads` heads apart (0: `heads`,
  // contiguous), as q or k viewed in a fused qkv tensor; more than `heads` makes the call strided.
  int heads = 0;
  int qkv_heads = 0;
  int reps = 100;
  bool pdl = true;
  std::string config;  // force fields, e.g. "tpr=256,rpb=1,vec=8,residency=0"
  bool sweep = false;  // time every valid threads-per-row x residency for each shape
  // Configs timed against each other, interleaved sample by sample ("default" or "" for the
  // heuristic's; otherwise --config's syntax), e.g. {"default", "tpr=512,residency=2"}.
  std::vector<std::string> compare;
};

// Times each op x tokens x hidden (L2 flushed before every sample, inputs rotated so they
// come from HBM, CUDA events around one call, median/p10/p90) and prints GB/s and % of a
// device-to-device copy measured in the same process. Validates outputs first.
int run_bench(const BenchArgs& a);

struct LatencyArgs {
  // As bench --config: config fields forced for every call timed, e.g. to see what a
  // thread-block cluster split does to a decode graph.
  std::string config;
  // The timed buffers filled by a kernel, not by cuMemsetD8 (bench --latency --fill kernel).
  bool fill_by_kernel = false;
  // Weights the graph's launches cycle through (bench --latency --weights N): 1, every launch
  // reads one weight, warm in L2 after the first; N >= 100, each reads its own, as the norms of a
  // model's layers do, so after the L2 flush before each replay every launch reads it from HBM.
  int weights = 1;
};

// First-call latency (NVRTC compile + load), warm disk-cache load, host cost of a steady-state
// call against a raw cuLaunchKernelEx of the same kernel, and per-launch time in a CUDA graph.
int run_latency(const LatencyArgs& a);

}  // namespace normjit::tools
