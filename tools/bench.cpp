#include "bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "cli_lists.hpp"
#include "config_override.hpp"
#include "cuda_driver.hpp"
#include "normjit/normjit.hpp"
#include "heuristics.hpp"
#include "launch.hpp"
#include "op_registry.hpp"
#include "ops_rmsnorm.hpp"
#include "params.cuh"
#include "runtime.hpp"
#include "nvrtc_compiler.hpp"
#include "support/reference.hpp"

namespace normjit::tools {
namespace {

using detail::check;
using detail::driver;
using Clock = std::chrono::steady_clock;

// bench's lists (--op, --dtype, --weight-dtype, --tokens, --hidden), parsed before anything
// touches the GPU, each entry with the name the user gave.
struct BenchLists {
  std::vector<std::pair<std::string, Op>> ops;
  std::vector<std::pair<std::string, DType>> dtypes;
  std::vector<std::pair<std::string, DType>> weight_dtypes;  // empty: the activation dtype
  std::vector<std::int64_t> tokens, hidden;
};

BenchLists parse_lists(const BenchArgs& a) {
  BenchLists l;
  l.ops = split_list<std::pair<std::string, Op>>(a.ops, "op", [](const std::string& n, std::pair<std::string, Op>* e) {
    if (!parse_op(n, &e->second)) {
      std::string known;
      for (Op o : all_ops()) known += (known.empty() ? "" : ", ") + std::string(op_name(o));
      throw std::invalid_argument(fmt::format("bench --op: unknown op {} ({})", n, known));
    }
    e->first = n;
    return true;
  });
  // bf16, f16 or f32, for rows (--dtype) or the weight (--weight-dtype): `what` names the role.
  auto dtypes = [](const char* option, const char* what, const std::vector<std::string>& args) {
    return split_list<std::pair<std::string, DType>>(
        args, option, [option, what](const std::string& n, std::pair<std::string, DType>* e) {
          DType& dt = e->second;
          if (!parse_dtype(n, &dt) || (dt != DType::bf16 && dt != DType::f16 && dt != DType::f32))
            throw std::invalid_argument(fmt::format("bench --{}: {} is not {} (bf16, f16, f32)", option, n, what));
          e->first = n;
          return true;
        });
  };
  l.dtypes = dtypes("dtype", "an activation dtype", a.dtypes);
  l.weight_dtypes = dtypes("weight-dtype", "a weight dtype", a.weight_dtypes);
  auto counts = [](const char* option, const std::vector<std::string>& args) {
    return split_list<std::int64_t>(args, option, [option](const std::string& t, std::int64_t* v) {
      if (!parse_positive(t, v))
        throw std::invalid_argument(fmt::format("bench --{}: expected positive integers, got {}", option, t));
      return true;
    });
  };
  l.tokens = counts("tokens", a.tokens);
  l.hidden = counts("hidden", a.hidden);
  for (const auto& [option, empty] : {std::pair{"--op", l.ops.empty()}, std::pair{"--dtype", l.dtypes.empty()},
                                      std::pair{"--tokens", l.tokens.empty()}, std::pair{"--hidden", l.hidden.empty()}})
    if (empty) throw std::invalid_argument(fmt::format("bench {}: the list is empty", option));
  if (a.reps < 1) throw std::invalid_argument(fmt::format("bench --reps: expected at least 1, got {}", a.reps));
  if (a.heads < 0) throw std::invalid_argument(fmt::format("bench --heads: expected a head count >= 1, got {}", a.heads));
  if (a.qkv_heads != 0 && a.heads == 0)
    throw std::invalid_argument("bench --qkv-heads: needs --heads (the heads of the view)");
  if (a.qkv_heads != 0 && a.qkv_heads < a.heads)
    throw std::invalid_argument(fmt::format(
        "bench --qkv-heads: expected at least --heads ({}) heads between tokens, got {}", a.heads, a.qkv_heads));
  if (a.heads > 0)
    for (const auto& [name, op] : l.ops)
      if (detail::op_info(op).residual)
        throw std::invalid_argument(
            fmt::format("bench --heads: {} takes 2-D rows only (per-head rows: rmsnorm, gemma_rmsnorm)", name));
  return l;
}

// An activation dtype with a weight dtype, as the table's dtype column names it: "bf16", or
// "bf16/f32" where the weight's differs.
struct DtypePair {
  std::string label;
  DType dt, wdt;
};

std::vector<DtypePair> dtype_pairs(const BenchLists& l) {
  std::vector<DtypePair> pairs;
  for (const auto& [dtn, dt] : l.dtypes) {
    if (l.weight_dtypes.empty()) pairs.push_back({dtn, dt, dt});
    for (const auto& [wn, wdt] : l.weight_dtypes)
      pairs.push_back({wdt == dt ? dtn : fmt::format("{}/{}", dtn, wn), dt, wdt});
  }
  return pairs;
}

struct Buffer {
  CUdeviceptr p = 0;
  size_t bytes = 0;
  explicit Buffer(size_t n) : bytes(n) { check(driver().cuMemAlloc(&p, n ? n : 1), "cuMemAlloc"); }
  ~Buffer() { driver().cuMemFree(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* get() const { return reinterpret_cast<void*>(p); }
};

void make_current() {
  CUcontext cur = nullptr;
  check(driver().cuCtxGetCurrent(&cur), "cuCtxGetCurrent");
  CUcontext ctx = detail::Runtime::get().primary_context(0);
  if (cur != ctx) check(driver().cuCtxPushCurrent(ctx), "cuCtxPushCurrent");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
}

// One kernel of the benchmark's own (not a normjit template), compiled from `source` for device
// 0 and loaded for the object's lifetime; launch() runs it with the given config and arguments.
class BenchKernel {
 public:
  // `names`: the source's entry points, launched by their index (the first by default).
  BenchKernel(const char* source, std::initializer_list<const char*> names) {
    const detail::Binary b = detail::compile_source(source, std::string(*names.begin()) + ".cu",
                                                    detail::Runtime::get().device_arch(0));
    check(driver().cuLibraryLoadData(&lib_, b.bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
          "cuLibraryLoadData");
    for (const char* name : names) {
      CUkernel k = nullptr;
      check(driver().cuLibraryGetKernel(&k, lib_, name), "cuLibraryGetKernel");
      k_.push_back(k);
    }
  }
  BenchKernel(const char* source, const char* name) : BenchKernel(source, {name}) {}
  ~BenchKernel() { driver().cuLibraryUnload(lib_); }
  BenchKernel(const BenchKernel&) = delete;
  BenchKernel& operator=(const BenchKernel&) = delete;
  void launch(const CUlaunchConfig& lc, void** args, const char* what, size_t entry = 0) const {
    check(driver().cuLaunchKernelEx(&lc, reinterpret_cast<CUfunction>(k_.at(entry)), args, nullptr), what);
  }
  // `blocks` blocks of 256 threads on s with programmatic stream serialization (PDL), as the
  // library launches its kernels on sm_90+.
  void launch_pdl(unsigned blocks, CUstream s, void** args, const char* what, size_t entry = 0) const;

 private:
  CUlibrary lib_ = nullptr;
  std::vector<CUkernel> k_;
};

// A 1-D launch of `blocks` blocks of 256 threads on s, for the grid-stride helper kernels below.
CUlaunchConfig grid_stride_launch(unsigned blocks, CUstream s) {
  CUlaunchConfig lc{};
  lc.gridDimX = std::max(1u, blocks);
  lc.gridDimY = lc.gridDimZ = 1;
  lc.blockDimX = 256;
  lc.blockDimY = lc.blockDimZ = 1;
  lc.hStream = s;
  return lc;
}

void BenchKernel::launch_pdl(unsigned blocks, CUstream s, void** args, const char* what, size_t entry) const {
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig lc = grid_stride_launch(blocks, s);
  lc.attrs = &attr;
  lc.numAttrs = 1;
  launch(lc, args, what, entry);
}

// Reads a 256 MiB buffer: evicts the L2 without leaving dirty lines whose write-back would
// be charged to the next timed kernel (a memset flush would).
class L2Flush {
 public:
  L2Flush() : buf_(size_t(256) << 20), sink_(16), kernel_(R"(
extern "C" __global__ void flush(const uint4* p, unsigned long long n, uint4* sink) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint4 v = __ldcg(p + i);
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if (acc.x == 0x12345678u && acc.y == 0x9abcdef0u) *sink = acc;  // keeps the loads alive
})", "flush") {
    check(driver().cuMemsetD8(buf_.p, 1, buf_.bytes), "memset");
  }
  void operator()(CUstream s) {
    unsigned long long n = buf_.bytes / 16;
    void* sink = sink_.get();
    const void* p = buf_.get();
    void* args[] = {&p, &n, &sink};
    kernel_.launch(grid_stride_launch(132 * 8, s), args, "flush");
  }

 private:
  Buffer buf_, sink_;
  BenchKernel kernel_;
};

// Events around `fn(i, j)` for samples i < reps of each of `k` candidates j, interleaved: sample
// i runs every candidate once, from a rotating start, each after an L2 flush, so that clock
// drift and input addresses (set i) fall on all alike. Returns each candidate's samples (us).
// With `warm_up`, first ~5 ms of flush passes: the SM clock drops while the GPU idles (e.g. while
// the host compiles the next config) and a series of short samples would otherwise start below
// full clock.
template <class Fn>
std::vector<std::vector<double>> time_interleaved(CUstream s, L2Flush& flush, int reps, int k, Fn&& fn,
                                                  bool warm_up = true) {
  const auto& d = driver();
  std::vector<CUevent> ev(size_t(2 * reps * k));
  for (CUevent& e : ev) check(d.cuEventCreate(&e, 0), "cuEventCreate");
  if (warm_up)
    for (int i = 0; i < 80; ++i) flush(s);
  for (int i = 0; i < reps; ++i) {
    for (int n = 0; n < k; ++n) {
      const int j = (i + n) % k;
      const size_t at = size_t(2 * (i * k + j));
      flush(s);
      check(d.cuEventRecord(ev[at], s), "cuEventRecord");
      fn(i, j);
      check(d.cuEventRecord(ev[at + 1], s), "cuEventRecord");
    }
  }
  check(d.cuStreamSynchronize(s), "cuStreamSynchronize");
  std::vector<std::vector<double>> us(static_cast<size_t>(k));
  for (int i = 0; i < reps; ++i) {
    for (int j = 0; j < k; ++j) {
      float ms = 0;
      const size_t at = size_t(2 * (i * k + j));
      check(d.cuEventElapsedTime(&ms, ev[at], ev[at + 1]), "cuEventElapsedTime");
      us[size_t(j)].push_back(double(ms) * 1000.0);
    }
  }
  for (CUevent& e : ev) d.cuEventDestroy(e);
  return us;
}

// Events around `fn(i)`, one sample each, L2 flushed before each sample.
template <class Fn>
std::vector<double> time_samples(CUstream s, L2Flush& flush, int reps, Fn&& fn, bool warm_up = true) {
  return time_interleaved(s, flush, reps, 1, [&](int i, int) { fn(i); }, warm_up)[0];
}

// A plain copy kernel launched like a decode-size norm (PDL wait and trigger at start, one
// 16-byte vector per thread, one wave): the per-launch time of moving a norm's activation bytes
// through a CUDA graph, with no reduction between the load and the store. `bench --latency`
// prints it beside each decode size as the reference a norm kernel cannot beat by much.
class PdlCopy {
 public:
  PdlCopy() : kernel_(R"(
extern "C" __global__ void __launch_bounds__(256) pdl_copy(const uint4* src, uint4* dst, unsigned n) {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) dst[i] = src[i];
})", "pdl_copy") {}
  // Copies `bytes` (a multiple of 16) from src to dst on s, launched with PDL.
  void operator()(CUdeviceptr src, CUdeviceptr dst, size_t bytes, CUstream s) const {
    unsigned n = unsigned(bytes / 16);
    void* args[] = {&src, &dst, &n};
    const int sms = detail::Runtime::get().sm_count(0);
    kernel_.launch_pdl(std::min((n + 255) / 256, unsigned(sms) * 8), s, args, "pdl_copy");
  }

 private:
  BenchKernel kernel_;
};

// The same bytes moved as the decode kernels lay a call out: one CTA of 256 threads a row, all of
// a thread's vectors of the row loaded before any is stored, the PDL wait and trigger first; for
// the fused add's bytes the rows of two tensors, both stored. At 128 rows of 4096-8192 it ran up to
// 0.2 us faster than the grid-stride copy (scripts/decode_anatomy.cu's `copy` and `fused copy`,
// H200, session 18: rmsnorm 128 x 8192's bytes 1.201 against 1.426 us a launch), so `bench
// --latency` times both and takes the faster as the same-bytes copy.
class PdlRowCopy {
 public:
  PdlRowCopy() : kernel_(R"(
template <int kItems, bool kPair>
__device__ __forceinline__ void row_copy(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                         unsigned long long tensor, unsigned vectors) {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif
  const unsigned long long at = (unsigned long long)blockIdx.x * vectors + threadIdx.x;
  uint4 a[kItems], b[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    a[i] = src[at + i * 256];
    if (kPair) b[i] = src[tensor + at + i * 256];
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    dst[at + i * 256] = a[i];
    if (kPair) dst[tensor + at + i * 256] = b[i];
  }
}
#define ROW_COPY(N)                                                                                      \
  extern "C" __global__ void __launch_bounds__(256)                                                      \
      row_copy##N(const uint4* src, uint4* dst, unsigned long long tensor, unsigned vectors) {           \
    row_copy<N, false>(src, dst, tensor, vectors);                                                       \
  }                                                                                                      \
  extern "C" __global__ void __launch_bounds__(256)                                                      \
      row_copy_pair##N(const uint4* src, uint4* dst, unsigned long long tensor, unsigned vectors) {      \
    row_copy<N, true>(src, dst, tensor, vectors);                                                        \
  }
ROW_COPY(1) ROW_COPY(2) ROW_COPY(4) ROW_COPY(8)
)", {"row_copy1", "row_copy_pair1", "row_copy2", "row_copy_pair2", "row_copy4", "row_copy_pair4", "row_copy8",
      "row_copy_pair8"}) {}
  // Whether rows of `hidden` 16-bit elements fit its layouts (256 threads, 1, 2, 4 or 8 vectors each).
  static bool fits(std::int64_t hidden) {
    const std::int64_t items = hidden / 8 / 256;
    return hidden % (8 * 256) == 0 && (items == 1 || items == 2 || items == 4 || items == 8);
  }
  // `rows` rows of `hidden` 16-bit elements from src to dst on s (and with `pair`, the rows of the
  // tensor that follows each in memory too), launched with PDL.
  void operator()(CUdeviceptr src, CUdeviceptr dst, std::int64_t rows, std::int64_t hidden, bool pair,
                  CUstream s) const {
    unsigned vectors = unsigned(hidden / 8);
    unsigned long long tensor = (unsigned long long)(rows) * vectors;
    void* args[] = {&src, &dst, &tensor, &vectors};
    // Entry points in pairs by items 1, 2, 4, 8 (fits): log2(items) picks the pair.
    const size_t entry = 2 * size_t(__builtin_ctz(vectors / 256)) + (pair ? 1 : 0);
    kernel_.launch_pdl(unsigned(rows), s, args, "row_copy", entry);
  }

 private:
  BenchKernel kernel_;
};

// Fills a buffer with a byte value by a kernel, not by cuMemsetD8 (bench --latency --fill kernel).
class FillKernel {
 public:
  FillKernel() : kernel_(R"(
extern "C" __global__ void fill_words(unsigned* p, unsigned long long n, unsigned v) {
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v;
})", "fill_words") {}
  // Sets `bytes` (a multiple of 4) at p to `value` on s.
  void operator()(CUdeviceptr p, size_t bytes, unsigned char value, CUstream s) const {
    unsigned long long n = bytes / 4;
    unsigned v = value * 0x01010101u;
    void* args[] = {&p, &n, &v};
    kernel_.launch(grid_stride_launch(unsigned(std::min<unsigned long long>((n + 255) / 256, 1024)), s), args,
                   "fill_words");
  }

 private:
  BenchKernel kernel_;
};

double copy_bandwidth(CUstream s, L2Flush& flush) {
  const size_t bytes = size_t(1) << 30;
  Buffer a(bytes), b(bytes);
  check(driver().cuMemsetD8(a.p, 1, bytes), "memset");
  const auto us = time_samples(s, flush, 10, [&](int) {
    check(driver().cuMemcpyDtoDAsync(b.p, a.p, bytes, s), "cuMemcpyDtoDAsync");
  });
  return 2.0 * double(bytes) / (median(us) * 1e-6) / 1e9;  // read + write, GB/s
}

// One timed shape: tokens x hidden rows, or (heads > 0) per-head rows [tokens, heads, hidden]
// whose tokens lie `token_heads` heads of `hidden` apart (a view of q or k in a fused qkv
// tensor where token_heads > heads); the per-head output is a new contiguous tensor.
struct Shape {
  Op op;
  DType dt;
  DType wdt;  // the weight's dtype
  std::int64_t T, H;
  std::int64_t heads = 0, token_heads = 0;

  std::int64_t row_heads() const { return heads > 0 ? heads : 1; }
  std::int64_t rows() const { return T * row_heads(); }
  // Elements between the input's tokens, and between the output's.
  std::int64_t in_token_stride() const { return (heads > 0 ? token_heads : 1) * H; }
  std::int64_t out_token_stride() const { return row_heads() * H; }
  // The hidden column of the table: "4096", "32x128", or "32x128/48" for a strided view.
  std::string hidden_text() const {
    if (heads == 0) return std::to_string(H);
    return token_heads == heads ? fmt::format("{}x{}", heads, H) : fmt::format("{}x{}/{}", heads, H, token_heads);
  }
};

// Inputs for one shape: enough sets to rotate through >= 240 MiB (4x the L2) so that every
// timed call reads from HBM; outputs validated against the float64 reference.
class ShapeBench {
 public:
  ShapeBench(const Shape& sh, std::mt19937_64& rng, bool pdl, CUstream s) : sh_(sh), s_(s) {
    const auto& d = driver();
    fused_ = detail::op_info(sh.op).residual;
    const std::int64_t es = dtype_size(sh.dt);
    row_bytes_ = size_t(sh.rows() * sh.H * es);
    in_bytes_ = size_t(sh.T * sh.in_token_stride() * es);
    w_ = std::make_unique<Buffer>(size_t(sh.H * dtype_size(sh.wdt)));
    wh_.resize(size_t(sh.H * dtype_size(sh.wdt)));
    njtest::fill_random(sh.wdt, wh_.data(), sh.H, rng, 0.5, 1.0);
    check(d.cuMemcpyHtoD(w_->p, wh_.data(), wh_.size()), "upload");
    const size_t per_set = in_bytes_ + row_bytes_;
    sets_ = int(std::clamp<std::int64_t>(std::int64_t((size_t(240) << 20) / std::max<size_t>(1, per_set)) + 1, 2,
                                        std::int64_t((size_t(8) << 30) / (per_set + 1)) + 1));
    sets_ = std::min(sets_, 256);
    std::vector<unsigned char> host(in_bytes_);
    // Random values for at most 2^24 elements a set, repeated over the rest: drawing normals for
    // a 4096 x 262144 set took most of a minute, and a timed call reads the same bytes either way.
    const std::int64_t n = std::int64_t(in_bytes_) / es, drawn = std::min<std::int64_t>(n, std::int64_t(1) << 24);
    for (int i = 0; i < sets_; ++i) {
      xs_.push_back(std::make_unique<Buffer>(in_bytes_));
      ys_.push_back(std::make_unique<Buffer>(row_bytes_));  // the output, or the residual for fused ops
      if (i < 4) {
        njtest::fill_random(sh.dt, host.data(), drawn, rng);
        for (std::int64_t at = drawn; at < n; at += drawn)
          std::memcpy(host.data() + at * es, host.data(), size_t(std::min(drawn, n - at) * es));
      }
      check(d.cuMemcpyHtoD(xs_.back()->p, host.data(), in_bytes_), "upload");
      check(d.cuMemcpyHtoD(ys_.back()->p, host.data(), row_bytes_), "upload");
    }
    check(d.cuCtxSynchronize(), "sync after uploads");  // pageable copies may still run
    o_.stream = reinterpret_cast<Stream>(s);
    o_.enable_pdl = pdl;
  }

  // The bytes a call must move: its rows read and written (and the residual's), and the weight.
  double bytes() const {
    return double(row_bytes_) * (fused_ ? 4 : 2) + double(sh_.H * dtype_size(sh_.wdt));
  }

  void call(int i) {
    const int k = i % sets_;
    if (fused_) {
      FusedAddRmsnormArgs f = fused_args(k);
      (sh_.op == Op::fused_add_rmsnorm ? fused_add_rmsnorm : gemma_fused_add_rmsnorm)(f, o_);
    } else {
      RmsnormArgs r = rmsnorm_args(k);
      (sh_.op == Op::rmsnorm ? rmsnorm : gemma_rmsnorm)(r, o_);
    }
  }

  // The config a call runs now (the heuristic's, or the installed override's), as the call
  // itself chooses it from its tensors.
  detail::KernelConfig config() const {
    return fused_ ? detail::prepare_fused_add(sh_.op, fused_args(0), o_).config
                  : detail::prepare_rmsnorm(sh_.op, rmsnorm_args(0), o_).config;
  }

  // Runs set 0 once and checks its first and last tokens; restores in-place inputs.
  void validate() {
    const auto& d = driver();
    std::vector<unsigned char> xin(in_bytes_), rin(row_bytes_), got(row_bytes_);
    check(d.cuMemcpyDtoH(xin.data(), xs_[0]->p, in_bytes_), "download");
    check(d.cuMemcpyDtoH(rin.data(), ys_[0]->p, row_bytes_), "download");
    call(0);
    check(d.cuStreamSynchronize(s_), "sync");
    check(d.cuMemcpyDtoH(got.data(), fused_ ? xs_[0]->p : ys_[0]->p, row_bytes_), "download");
    check(d.cuMemcpyHtoD(xs_[0]->p, xin.data(), in_bytes_), "upload");
    check(d.cuMemcpyHtoD(ys_[0]->p, rin.data(), row_bytes_), "upload");
    check(d.cuCtxSynchronize(), "sync");
    const std::int64_t H = sh_.H;
    std::vector<double> v(static_cast<size_t>(H)), wd(static_cast<size_t>(H)), y;
    for (std::int64_t j = 0; j < H; ++j) wd[size_t(j)] = njtest::get(sh_.wdt, wh_.data(), j);
    const double off = detail::op_info(sh_.op).gemma ? 1.0 : 0.0;
    for (std::int64_t token : {std::int64_t(0), sh_.T - 1}) {
      for (std::int64_t head = 0; head < sh_.row_heads(); ++head) {
        const std::int64_t in_at = token * sh_.in_token_stride() + head * H;
        const std::int64_t out_at = token * sh_.out_token_stride() + head * H;
        for (std::int64_t j = 0; j < H; ++j) {
          double x = njtest::get(sh_.dt, xin.data(), in_at + j);
          if (fused_) x = double(float(x) + float(njtest::get(sh_.dt, rin.data(), out_at + j)));
          v[size_t(j)] = x;
        }
        njtest::rms_row(v, wd, off, 1e-6, &y);
        for (std::int64_t j = 0; j < H; ++j)
          if (!njtest::within_steps(sh_.dt, njtest::get(sh_.dt, got.data(), out_at + j), y[size_t(j)]))
            throw std::runtime_error(fmt::format("bench: {} {}x{} output wrong at token {} head {} col {}",
                                                 op_name(sh_.op), sh_.T, sh_.hidden_text(), token, head, j));
      }
    }
  }

 private:
  // Set k's tensors: the input as the shape lays it out (rank 3 for per-head rows), the output
  // (or residual) contiguous.
  TensorView input(int k) const {
    if (sh_.heads == 0) return make_tensor(xs_[size_t(k)]->get(), sh_.dt, {sh_.T, sh_.H});
    TensorView t = make_tensor(xs_[size_t(k)]->get(), sh_.dt, {sh_.T, sh_.heads, sh_.H});
    t.stride[0] = sh_.in_token_stride();
    return t;
  }
  TensorView rows_out(int k) const {
    return sh_.heads == 0 ? make_tensor(ys_[size_t(k)]->get(), sh_.dt, {sh_.T, sh_.H})
                          : make_tensor(ys_[size_t(k)]->get(), sh_.dt, {sh_.T, sh_.heads, sh_.H});
  }
  RmsnormArgs rmsnorm_args(int k) const {
    return RmsnormArgs{input(k), make_tensor(w_->get(), sh_.wdt, {sh_.H}), 1e-6, rows_out(k)};
  }
  FusedAddRmsnormArgs fused_args(int k) const {
    return FusedAddRmsnormArgs{input(k), rows_out(k), make_tensor(w_->get(), sh_.wdt, {sh_.H}), 1e-6};
  }

  Shape sh_;
  CUstream s_;
  bool fused_ = false;
  size_t row_bytes_ = 0, in_bytes_ = 0;
  int sets_ = 0;
  std::unique_ptr<Buffer> w_;
  std::vector<unsigned char> wh_;
  std::vector<std::unique_ptr<Buffer>> xs_, ys_;
  LaunchOptions o_;
};

std::string config_label(const detail::KernelConfig& c) {
  return fmt::format("t{}r{}v{}{}", c.threads_per_row, c.rows_per_block, c.vec, detail::tuning_tags(c));
}

// The columns every line of the bench table starts with: op, dtype, tokens, hidden.
std::string row_head(const std::string& opn, const std::string& dtn, const Shape& sh) {
  return fmt::format("{:<18} {:>5} {:>6} {:>6}", opn, dtn, sh.T, sh.hidden_text());
}

// One line of the bench table: op, dtype, shape, config, median / p10 / p90 us, GB/s (the bytes
// that must move) and % of the device copy.
std::string result_row(const std::string& opn, const std::string& dtn, const Shape& sh, const std::string& label,
                       const std::vector<double>& us, double bytes, double copy_gbs) {
  const double med = median(us);
  const double gbs = bytes / (med * 1e-6) / 1e9;
  return fmt::format("{} {:>16} {:>9.2f} {:>8.2f} {:>8.2f} {:>7.0f} {:>5.1f}%", row_head(opn, dtn, sh), label, med,
                     pct(us, 0.1), pct(us, 0.9), gbs, 100.0 * gbs / copy_gbs);
}

// A config (an entry of --config or --compare, or the heuristic's: "default") that does not fit
// the shape: a line of the table saying why.
void report_not_valid(const std::string& opn, const std::string& dtn, const Shape& sh, const std::string& config,
                      const ValidationError& e) {
  fmt::print("{} {}: not valid here ({})\n", row_head(opn, dtn, sh), config, e.what());
}

// A config that fails to compile, to launch or to compute the right output in a sweep or a compare
// is reported on its own line and left out, so that one bad config does not hide the others. A
// failure that took the CUDA context with it (a sticky error: every later call would fail too)
// ends the run instead.
void report_config_failure(const std::string& opn, const std::string& dtn, const Shape& sh, const std::string& config,
                           const std::exception& e) {
  fmt::print("{} {:>16} FAILED: {}\n", row_head(opn, dtn, sh), config, e.what());
  std::fflush(stdout);
  const std::string what = fmt::format(
      "the context check after config {} of {} {}x{} (the context is lost: nothing after it can run in this process)",
      config, opn, sh.T, sh.hidden_text());
  check(driver().cuCtxSynchronize(), what.c_str());
}

// One --compare entry, parsed once for every shape: the heuristic's config ("default" or "") or
// an override in --config's syntax.
struct CompareEntry {
  std::string text;
  bool heuristic;
  detail::ConfigOverride o;
};

std::vector<CompareEntry> parse_compare(const std::vector<std::string>& configs) {
  std::vector<CompareEntry> out;
  for (const std::string& text : configs) {
    const bool heuristic = text.empty() || text == "default";
    out.push_back({heuristic ? "default" : text, heuristic, heuristic ? detail::ConfigOverride{} : detail::parse_config_override(text)});
  }
  return out;
}

// bench --compare: `configs` timed against each other on one shape, interleaved
// (time_interleaved). A config that does not fit the shape, or fails (report_config_failure), is
// reported and left out; `failures` counts the latter.
void run_compare(const std::vector<CompareEntry>& configs, const Shape& sh, const std::string& opn,
                 const std::string& dtn, ShapeBench& b, CUstream s, L2Flush& flush, int reps, double copy_gbs,
                 int* failures) {
  struct Candidate {
    const CompareEntry* entry;
    std::string label;
  };
  std::vector<Candidate> cands;
  for (const CompareEntry& entry : configs) {
    Candidate c{&entry, ""};
    detail::set_config_override(entry.heuristic ? nullptr : &entry.o);
    try {
      c.label = config_label(b.config());
      b.validate();
      for (int i = 0; i < 3; ++i) b.call(i);
    } catch (const ValidationError& e) {
      detail::set_config_override(nullptr);
      report_not_valid(opn, dtn, sh, c.entry->text, e);
      continue;
    } catch (const std::exception& e) {
      detail::set_config_override(nullptr);
      ++*failures;
      report_config_failure(opn, dtn, sh, c.entry->text, e);
      continue;
    }
    cands.push_back(c);
  }
  detail::set_config_override(nullptr);
  if (cands.empty()) return;
  const auto us = time_interleaved(s, flush, reps, int(cands.size()), [&](int i, int j) {
    const CompareEntry& entry = *cands[size_t(j)].entry;
    detail::set_config_override(entry.heuristic ? nullptr : &entry.o);
    b.call(i);
  });
  detail::set_config_override(nullptr);
  const double first = median(us[0]);
  for (size_t j = 0; j < cands.size(); ++j) {
    const double med = median(us[j]);
    // The medians of the first and second half of the samples: how far the figure drifted.
    const std::vector<double> h1(us[j].begin(), us[j].begin() + std::ptrdiff_t(us[j].size() / 2));
    const std::vector<double> h2(us[j].begin() + std::ptrdiff_t(us[j].size() / 2), us[j].end());
    fmt::print("{}  x{:.3f}  halves {:.2f}/{:.2f}  [{}]\n",
               result_row(opn, dtn, sh, cands[j].label, us[j], b.bytes(), copy_gbs), med / first,
               h1.empty() ? med : median(h1), median(h2), cands[j].entry->text);
  }
}

}  // namespace

int run_bench(const BenchArgs& a) {
  // A malformed --config or --compare entry is reported before anything touches the GPU.
  detail::ConfigOverride forced;
  if (!a.config.empty()) forced = detail::parse_config_override(a.config);
  const std::vector<CompareEntry> compare = parse_compare(a.compare);
  const BenchLists lists = parse_lists(a);
  make_current();
  const auto& d = driver();
  CUstream s = nullptr;
  check(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  L2Flush flush;
  const double copy_gbs = copy_bandwidth(s, flush);
  fmt::print("device-to-device copy (1 GiB, read+write): {:.0f} GB/s\n", copy_gbs);
  fmt::print("{:<18} {:>5} {:>6} {:>6} {:>16} {:>9} {:>8} {:>8} {:>7} {:>6}\n", "op", "dtype",
             "tokens", "hidden", "config", "median_us", "p10_us", "p90_us", "GB/s", "%copy");
  std::mt19937_64 rng(std::random_device{}());
  int failures = 0;  // configs that failed or did not fit (reported on their lines): exit status 1
  for (const auto& op_entry : lists.ops) {
    const std::string& opn = op_entry.first;
    const Op op = op_entry.second;
    for (const DtypePair& pair : dtype_pairs(lists)) {
      const std::string& dtn = pair.label;
      const DType dt = pair.dt;
      for (const std::int64_t hidden : lists.hidden) {
        for (const std::int64_t tokens : lists.tokens) {
          const Shape sh{op, dt, pair.wdt, tokens, hidden, a.heads, a.qkv_heads > 0 ? a.qkv_heads : a.heads};
          ShapeBench b(sh, rng, a.pdl, s);
          std::vector<detail::ConfigOverride> variants;
          if (a.sweep) {
            // Threads per row from 16 vectors per thread down to one; every residency; the load
            // policies that fit the residency (plain or streaming for a row read once, plain or
            // L2-hinted for a re-read one) unless --config fixes one.
            const detail::Arch arch = detail::Runtime::get().device_arch(0);
            const std::int64_t vec = detail::vector_width(sh.H, dtype_size(dt), 0);
            const std::int64_t vectors = sh.H / vec;
            // The fused add with its row in registers also tries both residual store orders.
            const bool fused_op = detail::op_info(sh.op).residual;
            // Whether --config leaves a residency / load policy free or fixes this one.
            auto allows_residency = [&](int res) { return forced.residency < 0 || res == forced.residency; };
            auto allows_loads = [&](int l) { return forced.loads < 0 || l == forced.loads; };
            // st < 0: a config without a store order (rmsnorm, re-read rows).
            auto allows_stores = [&](int st) { return forced.stores < 0 || st < 0 || st == forced.stores; };
            // The weight pinned ahead of the row's use (KernelConfig::pin_weight) on no item, on
            // every item and, where a lane's last item is part-filled, on the items every lane
            // fills: where the row is held with its weight and the residual stored after the
            // loads, unless --config fixes it. Left to the heuristic, the sweep had not seen the
            // fused add's rows of 129-255 vectors run 5-14 % faster with their last item
            // unpinned (session 29).
            auto pins_for = [&](const detail::ConfigOverride& o, int residency, int st) {
              if (residency != 0 || o.pin_weight >= 0 || st == 1 || forced.weight_first == 1) return std::vector<int>{o.pin_weight};
              const std::int64_t share = vectors / std::max(1, o.cluster);
              if (o.threads_per_row > 0 && share % o.threads_per_row != 0) return std::vector<int>{0, 1, 2};
              return std::vector<int>{0, 1};
            };
            auto add_loads = [&](detail::ConfigOverride o, int residency) {
              // Arrays, not a ?: of initializer lists: those lists' arrays die with the
              // full-expression, and the sweep read 0, 0 for both (it never timed loads 1|3 or
              // stores 1; found in the fourth H200 run's duplicate rows).
              const std::array<int, 2> loads = residency == 2 ? std::array<int, 2>{0, 3} : std::array<int, 2>{0, 1};
              const std::vector<int> stores = fused_op && residency < 2 ? std::vector<int>{0, 1} : std::vector<int>{-1};
              for (int l : loads) {
                if (!allows_loads(l)) continue;
                o.loads = l;
                for (int st : stores) {
                  if (!allows_stores(st)) continue;
                  if (st >= 0) o.stores = st;
                  for (int pin : pins_for(o, residency, st)) {
                    detail::ConfigOverride op = o;
                    op.pin_weight = pin;
                    variants.push_back(op);
                  }
                }
              }
            };
            for (std::int64_t tpr = 1; tpr <= std::min<std::int64_t>(1024, vectors); tpr *= 2) {
              if (vectors / tpr > 16) continue;
              for (int res = 0; res <= 2; ++res) {
                if (!allows_residency(res)) continue;
                detail::ConfigOverride o = forced;
                o.threads_per_row = int(tpr);
                o.rows_per_block = 0;
                o.residency = res;
                if (!forced.cluster) o.cluster = 1;  // one CTA per row (clusters: below)
                if (!forced.rows_per_thread) o.rows_per_thread = 1;  // two rows per thread: below
                // No occupancy floor, and the most blocks an SM holds (32 registers a thread):
                // the latter only where a thread holds <= 2 vectors; with more, it spills and
                // runs 2-10x slower (H200 sweep), which only costs sweep time.
                const int block = int(tpr >= 128 ? tpr : 128);
                for (int minb : {0, arch.max_threads_per_sm() / block}) {
                  if (minb && (vectors + tpr - 1) / tpr > 2) continue;
                  if (forced.min_blocks >= 0 && minb != forced.min_blocks) continue;
                  o.min_blocks = minb;
                  add_loads(o, res);
                }
                // Two, four and eight rows per thread where a row's threads fit a warp, the row is
                // held with its weight (rmsnorm; KernelConfig::rows_per_thread) and a thread holds
                // at most 16 vectors, each addressed from the run-time strides and (dense rows,
                // KernelConfig::dense; the bench's rows are) from one base, with the weight read by
                // each thread or once a block (weight_shared; invalid, so skipped, with one row
                // group a block), and strided per-head rows by head blocks or not (head_blocks;
                // invalid, so skipped, where the heads do not fill the block; contiguous per-head
                // rows are flat, 2-D, and never take it).
                if (res == 0 && tpr <= 32 && !fused_op && !forced.rows_per_thread && forced.min_blocks <= 0) {
                  const bool strided_heads = sh.heads > 0 && sh.token_heads != sh.heads;
                  for (int per : {2, 4, 8}) {
                    if ((vectors + tpr - 1) / tpr * per > 16) continue;
                    detail::ConfigOverride o2 = o;
                    o2.min_blocks = 0;
                    o2.pin_weight = 0;
                    o2.rows_per_thread = per;
                    for (int dense : {0, 1}) {
                      if (forced.dense >= 0 && dense != forced.dense) continue;
                      o2.dense = dense;
                      for (int shared : {0, 1}) {
                        if (forced.weight_shared >= 0 && shared != forced.weight_shared) continue;
                        o2.weight_shared = shared;
                        for (int hb : {0, 1}) {
                          if ((forced.head_blocks >= 0 && hb != forced.head_blocks) || (hb && !strided_heads)) continue;
                          o2.head_blocks = hb;
                          add_loads(o2, res);
                        }
                      }
                    }
                  }
                }
              }
            }
            // Rows split over a thread-block cluster (sm_90+). Rows one CTA holds well (<= 2048
            // vectors) try 2, 4 and 8 CTAs with the heuristic's per-CTA shape; wider rows every
            // CTA shape: 128-1024 threads holding up to 16 vectors of the share, held or
            // re-read, with and without a 64-register bound (the cluster code costs registers).
            if (arch.cc >= 90 && !forced.threads_per_row && vectors <= 2048 && forced.residency < 3) {
              for (int n = 2; n <= detail::kMaxCluster; n *= 2) {
                detail::ConfigOverride o = forced;
                o.cluster = n;
                variants.push_back(o);
              }
            } else if (arch.cc >= 90 && !forced.threads_per_row) {
              for (int n = 2; n <= detail::kMaxCluster; n *= 2) {
                if (sh.H % (vec * n) != 0) continue;
                const std::int64_t share = vectors / n;
                for (std::int64_t tpr = 128; tpr <= 1024; tpr *= 2) {
                  if (share / tpr > 16 || tpr > share) continue;
                  for (int res : {0, 2}) {
                    if (!allows_residency(res)) continue;
                    std::vector<int> floors{0};
                    if (tpr <= 512) floors.push_back(int(1024 / tpr));  // at most 64 registers
                    for (int minb : floors) {
                      if (forced.min_blocks >= 0 && minb != forced.min_blocks) continue;
                      detail::ConfigOverride o = forced;
                      o.cluster = n;
                      o.threads_per_row = int(tpr);
                      o.residency = res;
                      o.min_blocks = minb;
                      add_loads(o, res);
                    }
                  }
                }
              }
            }
            // Clusters of several rows a block (sm_90+; each CTA a column share of each of its
            // cluster's rows, so it reads 1/n of the weight): n rows over n CTAs on 32-128 threads a
            // row holding up to 16 vectors of the share, with the weight in registers (early or
            // late) or copied into shared memory once a block (pin_weight 4).
            if (arch.cc >= 90 && !forced.threads_per_row && !forced.rows_per_block && forced.residency < 2 &&
                vectors <= 2048) {
              for (int n = 2; n <= detail::kMaxCluster; n *= 2) {
                if (sh.H % (vec * n) != 0) continue;
                const std::int64_t share = vectors / n;
                for (std::int64_t tpr = 32; tpr <= 128; tpr *= 2) {
                  if ((share + tpr - 1) / tpr > 16 || tpr > share || tpr * n > 1024) continue;
                  for (int res : {0, 1, -1}) {  // -1: residency 0 with pin_weight 4
                    if (!allows_residency(res < 0 ? 0 : res)) continue;
                    detail::ConfigOverride o = forced;
                    o.cluster = n;
                    o.rows_per_block = n;
                    o.threads_per_row = int(tpr);
                    o.residency = res < 0 ? 0 : res;
                    o.min_blocks = 0;
                    o.split = 1;
                    if (res < 0) o.pin_weight = 4;
                    variants.push_back(o);
                  }
                }
              }
            }
            // Rows staged in shared memory: one CTA or (sm_90+) a 2-8-CTA cluster per row, 32-1024
            // threads with up to 32 vectors each (the last part-filled where the share is not whole
            // items), by bulk copies (residency 3, sm_90+) or each thread's own copies (4), with
            // and without the evict-first hint (configs whose share exceeds shared memory are
            // skipped as invalid).
            if (!forced.threads_per_row && (allows_residency(3) || allows_residency(4))) {
              for (int n = 1; n <= detail::kMaxCluster; n *= 2) {
                if (forced.cluster && n != forced.cluster) continue;
                if (sh.H % (vec * n) != 0 || (n > 1 && arch.cc < 90)) continue;
                const std::int64_t share = vectors / n;
                for (std::int64_t tpr = 32; tpr <= std::min<std::int64_t>(1024, share); tpr *= 2) {
                  if ((share + tpr - 1) / tpr > 32) continue;
                  for (int res : {3, 4}) {
                    if (!allows_residency(res) || (res == 3 && arch.cc < 90)) continue;
                    for (int l : {0, 1}) {
                      if (!allows_loads(l)) continue;
                      detail::ConfigOverride o = forced;
                      o.cluster = n;
                      o.threads_per_row = int(tpr);
                      o.residency = res;
                      o.loads = l;
                      o.min_blocks = 0;
                      o.split = 1;
                      variants.push_back(o);
                    }
                  }
                }
              }
            }
            // Rows shared by independent CTAs (rmsnorm out of place): 2-8 CTAs, each holding the
            // whole row on 128-1024 threads with whole shares of items, with the weight early or late.
            if (!fused_op && !forced.cluster && !forced.threads_per_row && forced.residency < 3) {
              for (int n = 2; n <= detail::kMaxSplit; n *= 2) {
                for (std::int64_t tpr = 128; tpr <= std::min<std::int64_t>(1024, vectors); tpr *= 2) {
                  const std::int64_t items = vectors / tpr;
                  if (vectors % tpr != 0 || items % n != 0 || items > 16) continue;
                  for (int res : {0, 1}) {
                    if (!allows_residency(res)) continue;
                    detail::ConfigOverride o = forced;
                    o.split = n;
                    o.threads_per_row = int(tpr);
                    o.residency = res;
                    o.cluster = 1;
                    o.min_blocks = 0;
                    add_loads(o, res);
                  }
                }
              }
            }
            // A 16-bit row held in registers, without a residual, converted once or again for its
            // output (KernelConfig::reconvert), unless --config fixes it. Configs it does not apply
            // to once resolved (a cluster row the heuristic re-reads) fail and are skipped.
            if (!fused_op && dtype_size(dt) == 2 && forced.reconvert < 0) {
              const std::size_t n = variants.size();
              for (std::size_t i = 0; i < n; ++i) {
                if (variants[i].residency >= 2) continue;
                detail::ConfigOverride o = variants[i];
                variants[i].reconvert = 0;
                o.reconvert = 1;
                variants.push_back(o);
              }
            }
          } else if (!a.compare.empty()) {
            run_compare(compare, sh, opn, dtn, b, s, flush, a.reps, copy_gbs, &failures);
            continue;
          } else {
            variants.push_back(forced);
          }
          // A sweep times the heuristic's own config first, its reference, and each config once
          // (different overrides may give the same config).
          if (a.sweep) variants.insert(variants.begin(), detail::ConfigOverride{});
          std::set<std::string> seen;
          std::map<std::string, double> timed;  // label -> median us
          double best_us = 1e300;
          std::string best_label, best_text;
          for (const detail::ConfigOverride& o : variants) {
            detail::set_config_override(a.config.empty() && !a.sweep ? nullptr : &o);
            detail::KernelConfig config;
            std::string label;
            std::vector<double> us;
            try {
              config = b.config();
              label = config_label(config);
              if (a.sweep && !seen.insert(label).second) continue;
              b.validate();
              for (int i = 0; i < 3; ++i) b.call(i);
              // A sweep spends few samples on configs far behind the best so far (spilling ones
              // run 2-10x slower and would dominate the sweep's time).
              us = time_samples(s, flush, a.sweep ? 5 : a.reps, [&](int i) { b.call(i); });
              if (a.sweep && !(median(us) > 1.5 * best_us))
                us = time_samples(s, flush, a.reps, [&](int i) { b.call(i); }, /*warm_up=*/false);
            } catch (const ValidationError& e) {
              // A sweep tries every combination, many of them invalid for the shape by design; a
              // shape or --config that is not valid is the user's error (reported, exit status 1).
              if (!a.sweep) {
                report_not_valid(opn, dtn, sh, a.config.empty() ? "default" : a.config, e);
                ++failures;
              }
              continue;
            } catch (const std::exception& e) {
              if (!a.sweep) throw;  // one config: its error is the command's
              ++failures;
              report_config_failure(opn, dtn, sh, label.empty() ? "?" : label, e);
              continue;
            }
            const double med = median(us);
            timed[label] = med;
            if (med < best_us) {
              best_us = med;
              best_label = label;
              best_text = detail::config_override_text(config);
            }
            fmt::print("{}\n", result_row(opn, dtn, sh, label, us, b.bytes(), copy_gbs));
          }
          detail::set_config_override(nullptr);
          if (a.sweep && !best_label.empty()) {
            // The heuristic's time beside the best, and the best in --config's syntax (for
            // --compare "default;..." to time the two interleaved: a sweep times them one after
            // the other, which leaves about 1 % of noise between configs).
            const std::string heuristic = config_label(b.config());
            const auto h = timed.find(heuristic);
            fmt::print("best: {} {} {}x{} {} {:.2f} us (heuristic: {}{}); --config {}\n", opn, dtn, sh.T, sh.hidden_text(),
                       best_label, best_us, heuristic,
                       h == timed.end() ? std::string(", not timed")
                                        : fmt::format(" {:.2f} us, {:.3f}x the best", h->second, h->second / best_us),
                       best_text);
          }
        }
      }
    }
  }
  d.cuStreamDestroy(s);
  if (failures > 0) {
    fmt::print(stderr, "bench: {} config(s) failed or were not valid (see the lines above)\n", failures);
    return 1;
  }
  return 0;
}

int run_latency(const LatencyArgs& la_args) {
  const std::string& config = la_args.config;
  const bool fill_by_kernel = la_args.fill_by_kernel;
  namespace fs = std::filesystem;
  detail::ConfigOverride forced;
  if (!config.empty()) {
    forced = detail::parse_config_override(config);
    detail::set_config_override(&forced);
  }
  struct Reset {
    ~Reset() { detail::set_config_override(nullptr); }
  } reset;
  // A fresh cache so that the first call really compiles.
  char tmpl[] = "/tmp/normjit-latency-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  setenv("NORMJIT_CACHE_DIR", tmpl, 1);
  make_current();  // context creation is not part of any figure below
  const auto& d = driver();
  CUstream s = nullptr;
  check(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  // The buffers' contents (bytes 0x3c: bf16 0.0115) come from cuMemsetD8 or a kernel. They give
  // the same values, but after cuMemsetD8 on freshly allocated buffers of up to a few MiB, every
  // kernel of the process ran slower in graphs replayed after an L2 flush, a minimal norm as much
  // as normjit's (H200, 128 x 4096 rmsnorm 1.38 -> 1.60-1.64 us per launch; neither a kernel's
  // fill, cuMemsetD8 of memory allocated earlier, nor allocating and freeing alone did it;
  // session 19, scripts/decode_anatomy.cu --script, docs/benchmark-history.md). Which state a serving
  // process is in depends on what it did before, so both can be measured.
  std::optional<FillKernel> fill_kernel;
  if (fill_by_kernel) fill_kernel.emplace();
  auto fill_buffer = [&](const Buffer& b) {
    if (fill_kernel) (*fill_kernel)(b.p, b.bytes, 0x3c, s);
    else check(d.cuMemsetD8(b.p, 0x3c, b.bytes), "memset");
  };
  const std::int64_t T = 1, H = 4096;
  Buffer x(size_t(T * H * 2)), w(size_t(H * 2)), y(size_t(T * H * 2));
  fill_buffer(x);
  fill_buffer(w);
  check(d.cuCtxSynchronize(), "sync");
  LaunchOptions o;
  o.stream = reinterpret_cast<Stream>(s);
  const RmsnormArgs args{make_tensor(x.get(), DType::bf16, {T, H}), make_tensor(w.get(), DType::bf16, {H}),
                         1e-6, make_tensor(y.get(), DType::bf16, {T, H})};
  // A forced config may not fit this 1 x 4096 call; the decode sizes below still run.
  detail::PreparedCall single;
  std::string misfit;
  try {
    single = detail::prepare_rmsnorm(Op::rmsnorm, args, o);
  } catch (const ValidationError& e) {
    misfit = e.what();
  }
  double cold_ms = 0, disk_ms = 0, hot_ms = 0, g_pdl = 0, g_nopdl = 0;
  auto timed_call = [&] {
    const auto t0 = Clock::now();
    rmsnorm(args, o);
    check(d.cuStreamSynchronize(s), "sync");
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };

  // Host cost per call, timed over enqueue-only batches (synchronizing between batches so the
  // launch queue never fills and blocks the host). The candidates run in quartets of batches
  // a b b a, so that a drift of clock or caches that is linear over a quartet cancels in its
  // difference; the overhead is the median over quartets of b - a, printed with its p10-p90.
  // (Medians of the two series taken apart, 40 alternating batches each, moved by up to 0.5 us
  // between three runs on one H200 host in session 11.)
  struct HostCost {
    double a_us, b_us, diff_us, diff_p10, diff_p90;
  };
  auto host_us = [&](auto&& launch_a, auto&& launch_b) {
    auto batch = [&](auto&& launch) {
      constexpr int kCalls = 250;
      const auto t0 = Clock::now();
      for (int i = 0; i < kCalls; ++i) launch();
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / kCalls;
      check(d.cuStreamSynchronize(s), "sync");
      return us;
    };
    std::vector<double> per_a, per_b, diff;
    for (int q = 0; q < 60; ++q) {
      const double a1 = batch(launch_a), b1 = batch(launch_b), b2 = batch(launch_b), a2 = batch(launch_a);
      per_a.push_back((a1 + a2) / 2);
      per_b.push_back((b1 + b2) / 2);
      diff.push_back((b1 + b2 - a1 - a2) / 2);
    }
    return HostCost{median(per_a), median(per_b), median(diff), pct(diff, 0.1), pct(diff, 0.9)};
  };
  HostCost host{}, layer{};
  std::string layer_misfit;
  if (misfit.empty()) {
    cold_ms = timed_call();
    reset_memory_cache();
    disk_ms = timed_call();
    hot_ms = timed_call();

    // The launch the library makes for a prepared call (its parameters and config, launch.cpp),
    // without the library around it.
    struct Raw {
      detail::LaunchArgs la;
      const detail::LoadedKernel* k = nullptr;
    };
    auto prepare_raw = [&](const detail::PreparedCall& call, Raw* raw) {
      raw->k = &detail::Runtime::get().kernel(call.config, s);
      detail::prepare_launch(call.config, call.p, detail::uses_pdl(o, call.config.arch),
                             detail::Runtime::get().sm_count(0), s, &raw->la);
    };
    auto launch_raw = [&](Raw& raw) {
      check(d.cuLaunchKernelEx(&raw.la.config, reinterpret_cast<CUfunction>(raw.k->kernel), raw.la.args, nullptr),
            "launch");
    };
    Raw raw_one;
    prepare_raw(single, &raw_one);
    host = host_us([&] { launch_raw(raw_one); }, [&] { rmsnorm(args, o); });

    // The same for a decoder layer's norms in turn (Qwen3-style, one token): the fused add on the
    // hidden row, then per-head rmsnorm on q (32 heads) and k (8 heads) of head_dim 128, each
    // call's problem another than the one before it (the library remembers its last few).
    // A forced config (--config) may not fit these calls: the line then says why.
    try {
      constexpr std::int64_t kQ = 32, kK = 8, kD = 128;
      const Buffer r(size_t(T * H * 2)), q(size_t(T * kQ * kD * 2)), qo(q.bytes), kb(size_t(T * kK * kD * 2)),
          ko(kb.bytes), wd(size_t(kD * 2));
      for (const Buffer* b : {&r, &q, &kb, &wd}) fill_buffer(*b);
      check(d.cuCtxSynchronize(), "sync");
      FusedAddRmsnormArgs add;
      add.input = make_tensor(x.get(), DType::bf16, {T, H});
      add.residual = make_tensor(r.get(), DType::bf16, {T, H});
      add.weight = make_tensor(w.get(), DType::bf16, {H});
      add.eps = 1e-6;
      auto heads = [&](const Buffer& in, const Buffer& out, std::int64_t n) {
        return RmsnormArgs{make_tensor(in.get(), DType::bf16, {T, n, kD}), make_tensor(wd.get(), DType::bf16, {kD}),
                           1e-6, make_tensor(out.get(), DType::bf16, {T, n, kD})};
      };
      const RmsnormArgs qa = heads(q, qo, kQ), ka = heads(kb, ko, kK);
      Raw raw[3];
      prepare_raw(detail::prepare_fused_add(Op::fused_add_rmsnorm, add, o), &raw[0]);
      prepare_raw(detail::prepare_rmsnorm(Op::rmsnorm, qa, o), &raw[1]);
      prepare_raw(detail::prepare_rmsnorm(Op::rmsnorm, ka, o), &raw[2]);
      layer = host_us(
          [&] {
            for (Raw& l : raw) launch_raw(l);
          },
          [&] {
            fused_add_rmsnorm(add, o);
            rmsnorm(qa, o);
            rmsnorm(ka, o);
          });
    } catch (const std::exception& e) {  // a forced config's refusal (ValidationError) or its launch's
      layer_misfit = e.what();
    }
  }

  // Per-launch device time inside a CUDA graph of 100 chained launches, with and without PDL,
  // over the decode sizes (issue 4 target 3: tokens <= 128, hidden <= 8192). The fused add
  // updates its tensors in place; rmsnorm writes a separate output, as serving engines call it.
  L2Flush flush;
  // Device time per launch of `one` (launched once outside the capture, to compile and load).
  auto per_graph_launch = [&](auto&& one) {
    one();
    check(d.cuStreamSynchronize(s), "sync");
    CUgraph g = nullptr;
    CUgraphExec ge = nullptr;
    check(d.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), "capture");
    for (int i = 0; i < 100; ++i) one();
    check(d.cuStreamEndCapture(s, &g), "end capture");
    check(d.cuGraphInstantiate(&ge, g, 0), "instantiate");
    check(d.cuGraphLaunch(ge, s), "graph launch");
    const auto us = time_samples(s, flush, 30, [&](int) { check(d.cuGraphLaunch(ge, s), "graph launch"); });
    d.cuGraphExecDestroy(ge);
    d.cuGraphDestroy(g);
    return median(us) / 100.0;
  };
  auto graph_us = [&](Op op, std::int64_t rows, std::int64_t hidden, bool pdl, bool static_weight = false) {
    Buffer gx(size_t(rows * hidden * 2)), gr(size_t(rows * hidden * 2));
    for (const Buffer* b : {&gx, &gr}) fill_buffer(*b);
    std::deque<Buffer> gw;  // Buffer does not move
    for (int i = 0; i < la_args.weights; ++i) fill_buffer(gw.emplace_back(size_t(hidden * 2)));
    const TensorView tx = make_tensor(gx.get(), DType::bf16, {rows, hidden});
    const TensorView tr = make_tensor(gr.get(), DType::bf16, {rows, hidden});
    LaunchOptions go = o;
    go.enable_pdl = pdl;
    go.static_weight = static_weight;
    std::size_t launches = 0;
    auto one = [&] {
      const TensorView tw = make_tensor(gw[launches++ % gw.size()].get(), DType::bf16, {hidden});
      if (op == Op::rmsnorm) rmsnorm(RmsnormArgs{tx, tw, 1e-6, tr}, go);
      else fused_add_rmsnorm(FusedAddRmsnormArgs{tx, tr, tw, 1e-6}, go);
    };
    return per_graph_launch(one);
  };
  // The same bytes through plain copy kernels (x to a second buffer for rmsnorm, x and r for the
  // fused add, which reads and writes both), laid out two ways (PdlCopy, PdlRowCopy); the faster
  // is the reference.
  const PdlCopy copy_kernel;
  const PdlRowCopy row_copy_kernel;
  struct CopyUs {
    double grid;
    std::optional<double> rows;  // none where PdlRowCopy does not fit the width
    double best() const { return rows ? std::min(grid, *rows) : grid; }
  };
  auto copy_graph_us = [&](Op op, std::int64_t rows, std::int64_t hidden) {
    const bool pair = op == Op::fused_add_rmsnorm;
    const size_t bytes = size_t(rows * hidden * 2) * (pair ? 2 : 1);
    Buffer src(bytes), dst(bytes);
    fill_buffer(src);
    CopyUs us{per_graph_launch([&] { copy_kernel(src.p, dst.p, bytes, s); }), std::nullopt};
    if (PdlRowCopy::fits(hidden))
      us.rows = per_graph_launch([&] { row_copy_kernel(src.p, dst.p, rows, hidden, pair, s); });
    return us;
  };
  if (misfit.empty()) {
    g_pdl = graph_us(Op::rmsnorm, 1, 4096, true);
    g_nopdl = graph_us(Op::rmsnorm, 1, 4096, false);
  }
  // Each size twice: as launched by default, and with LaunchOptions::static_weight (the weight
  // read before the wait for the previous kernel).
  std::string decode;
  double worst = 0, worst_static = 0;  // over target 3's sizes (hidden <= 8192); 16384 beside them
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm})
    for (std::int64_t h : {2048, 4096, 8192, 16384})
      for (std::int64_t t : {1, 8, 32, 128}) {
        const CopyUs us_copy = copy_graph_us(op, t, h);
        // Each column on its own: a forced config may not fit this shape, or may need the
        // static-weight promise (weight_first), and the other column still runs.
        std::string why;
        auto measure = [&](bool static_weight) -> std::optional<double> {
          try {
            return graph_us(op, t, h, true, static_weight);
          } catch (const ValidationError& e) {
            if (why.empty()) why = e.what();
            return std::nullopt;
          }
        };
        const std::optional<double> us = measure(false), us_static = measure(true);
        if (h <= 8192) {
          if (us) worst = std::max(worst, *us);
          if (us_static) worst_static = std::max(worst_static, *us_static);
        }
        auto cell = [](const std::optional<double>& v) {
          return v ? fmt::format("{:6.3f} us", *v) : std::string("   n/a   ");
        };
        decode += fmt::format("    {:<18} {:>4} x {:<5} {}   static weight {}   same-bytes copy {:6.3f} us (grid {:.3f}, {}){}\n",
                              op_name(op), t, h, cell(us), cell(us_static), us_copy.best(), us_copy.grid,
                              us_copy.rows ? fmt::format("a row a CTA {:.3f}", *us_copy.rows) : std::string("no row copy"),
                              why.empty() ? "" : fmt::format("   (n/a: {})", why));
      }
  const RuntimeStats st = runtime_stats();
  fmt::print("rmsnorm bf16 1x4096 on device 0 (cache {}{}; buffers filled by {}{}):\n", tmpl,
             config.empty() ? "" : fmt::format("; forced config {}", config),
             fill_kernel ? "a kernel" : "cuMemsetD8",
             la_args.weights > 1 ? fmt::format("; graph launches cycle over {} weights", la_args.weights) : "");
  if (misfit.empty()) {
    fmt::print("  first call, cold cache (NVRTC compile + load + run): {:8.2f} ms\n", cold_ms);
    fmt::print("  first call, warm disk cache (read + load + run):     {:8.2f} ms\n", disk_ms);
    fmt::print("  steady-state call + sync:                              {:8.3f} ms\n", hot_ms);
    fmt::print("  host cost per call: normjit::rmsnorm {:.3f} us, raw cuLaunchKernelEx {:.3f} us, "
               "overhead {:.3f} us (p10-p90 over 60 a-b-b-a quartets: {:.3f} to {:.3f})\n",
               host.b_us, host.a_us, host.diff_us, host.diff_p10, host.diff_p90);
    if (layer_misfit.empty())
      fmt::print("  host cost per call, a decoder layer's norms in turn (fused add 1 x 4096, per-head q 1 x 32 x 128, "
                 "k 1 x 8 x 128): normjit {:.3f} us, raw {:.3f} us, overhead {:.3f} us (p10-p90 {:.3f} to {:.3f})\n",
                 layer.b_us / 3, layer.a_us / 3, layer.diff_us / 3, layer.diff_p10 / 3, layer.diff_p90 / 3);
    else
      fmt::print("  host cost per call, a decoder layer's norms in turn: n/a: {}\n", layer_misfit);
    fmt::print("  CUDA graph of 100 launches: {:.3f} us per launch with PDL, {:.3f} us without\n",
               g_pdl, g_nopdl);
  } else {
    fmt::print("  first call, host cost, graph of 1 x 4096: n/a: {}\n", misfit);
  }
  fmt::print("  per launch in a CUDA graph with PDL, decode sizes (worst up to hidden 8192 {:.3f} us, "
             "{:.3f} us with static_weight):\n{}",
             worst, worst_static, decode);
  fmt::print("  stats: {} compiles, {} disk hits\n", st.compiles, st.disk_hits);
  d.cuStreamDestroy(s);
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  return 0;
}

}  // namespace normjit::tools
