#include "config_override.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace normjit::detail {

ConfigOverride parse_config_override(const std::string& text) {
  ConfigOverride o;
  std::stringstream ss(text);
  std::string kv;
  while (std::getline(ss, kv, ',')) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("config override: expected key=value, got " + kv);
    const std::string k = kv.substr(0, eq);
    std::string value = kv.substr(eq + 1);
    if (k == "trigger") {  // by name (auto, early, end) or number
      for (int t = 0; t <= 2; ++t)
        if (value == trigger_name(t)) value = std::to_string(t);
    }
    if (k == "prefetch") {  // by name (none, or weight, residual, input joined by '+') or number
      if (const int mask = parse_prefetch(value); mask >= 0) value = std::to_string(mask);
    }
    int v = 0;
    size_t used = 0;
    try {
      v = std::stoi(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != value.size())
      throw std::invalid_argument("config override: " + kv + ": expected an integer value" +
                                  (k == "trigger"    ? std::string(" or auto, early, end")
                                   : k == "prefetch" ? std::string(" or none, or weight, residual, input joined by '+'")
                                                     : std::string()));
    if (k == "tpr" || k == "threads_per_row") o.threads_per_row = v;
    else if (k == "rpb" || k == "rows_per_block") o.rows_per_block = v;
    else if (k == "vec") o.vec = v;
    else if (k == "residency") o.residency = v;
    else if (k == "minb" || k == "min_blocks") o.min_blocks = v;
    else if (k == "loads") o.loads = v;
    else if (k == "stores") o.stores = v;
    else if (k == "cluster") o.cluster = v;
    else if (k == "split") o.split = v;
    else if (k == "weight_first") o.weight_first = v;
    else if (k == "keep_out") o.keep_out = v;
    else if (k == "keep_tail") o.keep_tail = v;
    else if (k == "pin_weight") o.pin_weight = v;
    else if (k == "rpt" || k == "rows_per_thread") o.rows_per_thread = v;
    else if (k == "trigger") o.trigger = v;
    else if (k == "prefetch") o.prefetch = v;
    else if (k == "reconvert") o.reconvert = v;
    else if (k == "dense") o.dense = v;
    else if (k == "weight_shared") o.weight_shared = v;
    else if (k == "head_blocks") o.head_blocks = v;
    else if (k == "reg_usage") {
      if (v < -1) throw std::invalid_argument("config override: " + kv + ": expected -1 (ptxas's default) or a level 0-10");
      o.reg_usage = v;
    }
    else
      throw std::invalid_argument("config override: unknown key " + k +
                                  " (tpr, rpb, vec, residency, minb, loads, stores, cluster, split, weight_first, "
                                  "keep_out, keep_tail, pin_weight, rpt, trigger, prefetch, reconvert, dense, weight_shared, head_blocks, "
                                  "reg_usage)");
  }
  return o;
}

std::string config_override_text(const KernelConfig& c) {
  return fmt::format(
      "tpr={},rpb={},vec={},residency={},minb={},loads={},stores={},cluster={},split={},weight_first={},"
      "keep_out={},keep_tail={},pin_weight={},rpt={},trigger={},prefetch={},reconvert={},dense={},weight_shared={},head_blocks={},"
      "reg_usage={}",
      c.threads_per_row, c.rows_per_block, c.vec, c.residency, c.min_blocks, c.loads, c.stores, c.cluster, c.split,
      int(c.weight_first), int(c.keep_out), c.keep_tail, c.pin_weight, c.rows_per_thread, trigger_name(c.trigger),
      prefetch_name(c.prefetch), int(c.reconvert), int(c.dense), int(c.weight_shared), int(c.head_blocks), c.reg_usage);
}

}  // namespace normjit::detail
