// GPU architectures: the compute capability a kernel is built for and the NVRTC target used
// for it (sm_90a on Hopper, sm_100a on Blackwell data-centre parts, plain sm_XY elsewhere).
#pragma once
#include <string>
#include <string_view>

namespace normjit::detail {

struct Arch {
  int cc = 0;  // compute capability * 10, e.g. 90
  // Streaming multiprocessors of the device, 0 when unknown (an arch named for prewarm). Only
  // the heuristics read it (a rule that depends on how many rows one wave holds); it is not
  // part of the target, of equality or of a kernel's config (choose_rms_norm drops it).
  int sms = 0;

  // The NVRTC target for this GPU, e.g. "sm_90a".
  std::string target() const;
  bool arch_specific() const { return cc == 90 || cc == 100 || cc == 103; }
  // Programmatic dependent launch (griddepcontrol.wait / launch_dependents) exists from sm_90 on.
  bool has_pdl() const { return cc >= 90; }
  bool operator==(const Arch& o) const { return cc == o.cc; }
  bool operator!=(const Arch& o) const { return cc != o.cc; }
  // The same as far as the heuristics can tell: compute capability and SM count.
  bool same_device(const Arch& o) const { return cc == o.cc && sms == o.sms; }
  // Resident threads an SM holds (CUDA programming guide, compute capabilities table).
  int max_threads_per_sm() const { return cc == 86 || cc == 87 || cc == 89 || cc >= 120 ? 1536 : 2048; }
  // Shared memory one block may use with the opt-in attribute, in bytes (same table).
  int max_smem_per_block() const {
    if (cc == 80 || cc == 87) return 163 * 1024;
    if (cc == 90 || cc == 100 || cc == 103) return 227 * 1024;
    return 99 * 1024;
  }
  // Shared memory an SM holds for all its blocks, in bytes (same table; each block also takes 1
  // KiB of it for the system).
  int max_smem_per_sm() const {
    if (cc == 80 || cc == 87) return 164 * 1024;
    if (cc == 90 || cc == 100 || cc == 103) return 228 * 1024;
    return 100 * 1024;
  }

  // Accepts "sm_90", "sm_90a", "compute_90", "90", "9.0"; throws ValidationError otherwise.
  static Arch parse(std::string_view text);
};

}  // namespace normjit::detail
