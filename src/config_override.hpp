// The text form of a config override (`normjit bench --config` and `--compare`): key=value pairs
// joined by ','. Parsing and printing live together so that a config one command prints (a
// sweep's best) pastes into another.
#pragma once
#include <string>

#include "kernel_config.hpp"
#include "op_registry.hpp"

namespace normjit::detail {

// "tpr=128,residency=2,trigger=early,..." -> the override those fields force (the others keep the
// heuristic's). Keys: tpr (threads_per_row), rpb (rows_per_block), vec, residency, minb
// (min_blocks), loads, stores, cluster, split, weight_first, keep_out, keep_tail (MiB), pin_weight, rpt
// (rows_per_thread), trigger (also auto, early, end), prefetch (also none, or weight, residual,
// input joined by '+'), reconvert, dense, weight_shared, head_blocks, reg_usage (-1: ptxas's default,
// 0-10). Throws std::invalid_argument naming the pair that is wrong.
ConfigOverride parse_config_override(const std::string& text);

// Every tunable field of `c` in that syntax: forcing it gives `c` back for the same problem on
// the same GPU (the CPU test "a config's override text gives the config back").
std::string config_override_text(const KernelConfig& c);

}  // namespace normjit::detail
