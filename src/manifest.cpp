// Prewarm manifests: JSON lists of the problems a deployment needs (format: cache/README.md).
// In the library (not only the CLI) so that the C ABI can prewarm from a manifest too.
#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "heuristics.hpp"
#include "normjit/errors.hpp"
#include "normjit/runtime.hpp"
#include "op_registry.hpp"

namespace normjit {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMaxIncludeDepth = 8;

[[noreturn]] void bad(const std::string& origin, const std::string& where, const std::string& what) {
  throw ValidationError(ValidationError::Kind::InvalidArgument,
                        fmt::format("manifest {}: {}: {}", origin, where, what));
}

void check_fields(const json& obj, const std::set<std::string>& known, const std::string& origin,
                  const std::string& where) {
  for (const auto& [k, v] : obj.items()) {
    if (!known.count(k)) {
      bad(origin, where.empty() ? k : where + "." + k,
          fmt::format("unknown field (expected {})", fmt::join(known, ", ")));
    }
  }
}

std::vector<std::string> strings(const json& j, const std::string& origin, const std::string& where) {
  if (!j.is_array() || j.empty()) bad(origin, where, "expected a non-empty list of strings");
  std::vector<std::string> out;
  for (const json& e : j) {
    if (!e.is_string()) bad(origin, where, fmt::format("expected strings, got {}", e.dump()));
    out.push_back(e.get<std::string>());
  }
  return out;
}

std::vector<std::int64_t> positive_ints(const json& j, const std::string& origin,
                                        const std::string& where) {
  if (!j.is_array() || j.empty()) bad(origin, where, "expected a non-empty list of positive integers");
  std::vector<std::int64_t> out;
  for (const json& e : j) {
    if (!e.is_number_integer() || e.get<std::int64_t>() < 1)
      bad(origin, where, fmt::format("expected positive integers, got {}", e.dump()));
    if (e.get<std::int64_t>() > detail::kMaxRmsHidden) {
      bad(origin, where, fmt::format("{} is larger than the largest supported row ({})",
                                     e.get<std::int64_t>(), detail::kMaxRmsHidden));
    }
    out.push_back(e.get<std::int64_t>());
  }
  return out;
}

std::vector<DType> dtypes(const json& j, const std::string& origin, const std::string& where) {
  std::vector<DType> out;
  for (const std::string& s : strings(j, origin, where)) {
    DType t;
    if (!parse_dtype(s, &t)) bad(origin, where, fmt::format("unknown dtype '{}'", s));
    if (t != DType::bf16 && t != DType::f16 && t != DType::f32)
      bad(origin, where, fmt::format("dtype '{}' is not one the ops take (bf16, f16, f32)", s));
    out.push_back(t);
  }
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in) {
    throw ValidationError(ValidationError::Kind::InvalidArgument,
                          fmt::format("manifest {}: cannot read the file", p.string()));
  }
  return ss.str();
}

// The installation prefix of this library: <prefix>/lib[64|/<triplet>]/libnormjit.so.
std::vector<fs::path> installed_manifest_dirs() {
  std::vector<fs::path> out;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&installed_manifest_dirs), &info) && info.dli_fname) {
    std::error_code ec;
    const fs::path lib = fs::weakly_canonical(info.dli_fname, ec);
    for (fs::path p = lib.parent_path(); !p.empty() && out.size() < 2; p = p.parent_path()) {
      out.push_back(p.parent_path() / "share" / "normjit" / "manifests");
      if (p == p.parent_path()) break;
    }
  }
  return out;
}

std::vector<fs::path> search_path(const std::vector<std::string>& extra) {
  std::vector<fs::path> dirs;
  auto add = [&dirs](const fs::path& d) {
    if (!d.empty() && std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  };
  if (const char* env = std::getenv("NORMJIT_MANIFEST_DIR"); env && *env) {
    std::stringstream ss(env);
    for (std::string item; std::getline(ss, item, ':');) add(item);
  }
  for (const std::string& d : extra) add(d);
  for (const fs::path& d : installed_manifest_dirs()) add(d);
  return dirs;
}

struct Parser {
  std::vector<std::string> search_dirs;
  std::vector<std::string> stack;  // canonical files being parsed (include cycles)

  Manifest parse(const std::string& text, const std::string& origin, const fs::path& base_dir);
  Manifest load_file(const fs::path& p);
  Manifest include(const std::string& ref, const fs::path& base_dir, const std::string& origin,
                   const std::string& where);
  void problem(const json& p, const std::string& origin, const std::string& where, Manifest* m);
  void model(const json& m, const std::string& origin, const std::string& where, Manifest* out);
};

Manifest Parser::load_file(const fs::path& p) {
  std::error_code ec;
  const std::string canon = fs::weakly_canonical(p, ec).string();
  if (std::find(stack.begin(), stack.end(), canon) != stack.end()) {
    bad(stack.back(), "include", fmt::format("{} includes itself (through {})", p.string(),
                                             fmt::join(stack, " -> ")));
  }
  if (stack.size() >= size_t(kMaxIncludeDepth))
    bad(p.string(), "include", fmt::format("includes nest deeper than {}", kMaxIncludeDepth));
  stack.push_back(canon);
  Manifest m = parse(read_text(p), p.string(), p.parent_path());
  stack.pop_back();
  return m;
}

Manifest Parser::include(const std::string& ref, const fs::path& base_dir, const std::string& origin,
                         const std::string& where) {
  std::error_code ec;
  std::vector<fs::path> candidates;
  if (ref.find('/') != std::string::npos || fs::path(ref).extension() == ".json") {
    candidates.push_back(fs::path(ref).is_absolute() || base_dir.empty() ? fs::path(ref)
                                                                          : base_dir / ref);
  } else {
    if (!base_dir.empty()) candidates.push_back(base_dir / (ref + ".json"));
    for (const fs::path& d : search_path(search_dirs)) candidates.push_back(d / (ref + ".json"));
  }
  std::vector<std::string> tried;
  for (const fs::path& c : candidates) {
    if (fs::is_regular_file(c, ec)) return load_file(c);
    tried.push_back(c.string());
  }
  bad(origin, where, fmt::format("included manifest '{}' not found (looked for {})", ref,
                                 fmt::join(tried, ", ")));
}

void Parser::model(const json& j, const std::string& origin, const std::string& where, Manifest* out) {
  if (j.is_string()) {
    out->models.push_back(j.get<std::string>());
    return;
  }
  if (!j.is_object()) bad(origin, where, "expected a model name or an object");
  static const std::set<std::string> kFields = {
      "name", "hf_id", "hidden_size", "head_dim", "num_heads", "num_kv_heads", "num_layers",
      "q_lora_rank", "kv_lora_rank", "intermediate_size", "comment"};
  check_fields(j, kFields, origin, where);
  if (!j.contains("name") || !j["name"].is_string()) bad(origin, where, "missing field 'name' (a string)");
  for (const auto& [k, v] : j.items()) {
    if (k == "name" || k == "hf_id" || k == "comment") {
      if (!v.is_string()) bad(origin, where + "." + k, "expected a string");
    } else if (!v.is_number_integer() || v.get<std::int64_t>() < 1) {
      bad(origin, where + "." + k, fmt::format("expected a positive integer, got {}", v.dump()));
    }
  }
  out->models.push_back(j["name"].get<std::string>());
}

void Parser::problem(const json& p, const std::string& origin, const std::string& where, Manifest* m) {
  if (!p.is_object()) bad(origin, where, "expected an object");
  static const std::set<std::string> kFields = {"ops",     "dtypes",        "weight_dtypes", "hidden", "head_dim",
                                                "rank3",   "static_weight", "max_vec",       "comment"};
  check_fields(p, kFields, origin, where);
  for (const char* req : {"ops", "dtypes"})
    if (!p.contains(req)) bad(origin, where, fmt::format("missing field '{}'", req));
  if (p.contains("hidden") == p.contains("head_dim")) {
    bad(origin, where, "expected exactly one of 'hidden' (row length) and 'head_dim' (per-head "
                       "norm of [tokens, heads, head_dim] inputs)");
  }
  std::vector<Op> ops;
  for (const std::string& s : strings(p["ops"], origin, where + ".ops")) {
    Op op;
    if (!parse_op(s, &op)) {
      std::vector<std::string> known;
      for (Op o : all_ops()) known.emplace_back(op_name(o));
      bad(origin, where + ".ops", fmt::format("unknown op '{}' (known: {})", s, fmt::join(known, ", ")));
    }
    ops.push_back(op);
  }
  const std::vector<DType> dts = dtypes(p["dtypes"], origin, where + ".dtypes");
  std::vector<DType> wdts;
  if (p.contains("weight_dtypes")) wdts = dtypes(p["weight_dtypes"], origin, where + ".weight_dtypes");
  for (DType d : dts) {
    for (DType w : wdts) {
      if (w != d && w != DType::f32) {
        bad(origin, where + ".weight_dtypes",
            fmt::format("weight dtype {} is neither the activation dtype {} nor f32",
                        dtype_name(w), dtype_name(d)));
      }
    }
  }
  const bool per_head = p.contains("head_dim");
  const std::vector<std::int64_t> rows = positive_ints(p[per_head ? "head_dim" : "hidden"], origin,
                                                       where + (per_head ? ".head_dim" : ".hidden"));
  bool rank3 = per_head;
  if (p.contains("rank3")) {
    if (!p["rank3"].is_boolean()) bad(origin, where + ".rank3", "expected true or false");
    rank3 = p["rank3"].get<bool>();
    if (per_head && !rank3) bad(origin, where + ".rank3", "head_dim means a per-head (rank3) norm");
  }
  if (rank3) {
    for (Op op : ops) {
      if (!detail::op_info(op).allows_rank3) {
        bad(origin, where + ".ops",
            fmt::format("{} has no per-head (rank3 / head_dim) form", op_name(op)));
      }
    }
  }
  int max_vec = 0;
  if (p.contains("max_vec")) {
    const json& v = p["max_vec"];
    if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() > 16 ||
        (v.get<int>() & (v.get<int>() - 1)) != 0)
      bad(origin, where + ".max_vec", fmt::format("expected 0, 1, 2, 4, 8 or 16, got {}", v.dump()));
    max_vec = v.get<int>();
  }
  bool static_weight = false;
  if (p.contains("static_weight")) {
    if (!p["static_weight"].is_boolean()) bad(origin, where + ".static_weight", "expected true or false");
    static_weight = p["static_weight"].get<bool>();
  }
  if (p.contains("comment") && !p["comment"].is_string()) bad(origin, where + ".comment", "expected a string");
  // A per-head call whose rows are equally spaced (a contiguous [B, N, D] tensor, or a single
  // token of a fused qkv view) runs the 2-D kernel over head_dim-long rows; other views run the
  // rank3 kernel. A head_dim entry prewarms both.
  for (const bool r3 : per_head ? std::vector<bool>{false, true} : std::vector<bool>{rank3})
    for (ProblemSpec s : expand_problems(ops, dts, wdts, rows, r3, max_vec)) {
      s.static_weight = static_weight;
      m->problems.push_back(s);
    }
}

}  // namespace

std::vector<ProblemSpec> expand_problems(const std::vector<Op>& ops, const std::vector<DType>& dtypes,
                                         const std::vector<DType>& weight_dtypes,
                                         const std::vector<std::int64_t>& sizes, bool rank3,
                                         int max_vec) {
  std::vector<ProblemSpec> out;
  for (Op op : ops)
    for (DType d : dtypes)
      for (DType w : (weight_dtypes.empty() ? std::vector<DType>{d} : weight_dtypes))
        for (std::int64_t h : sizes) {
          ProblemSpec p;
          p.op = op;
          p.dtype = d;
          p.weight_dtype = w;
          p.hidden = h;
          p.rank3 = rank3;
          p.max_vec = max_vec;
          out.push_back(p);
        }
  return out;
}

namespace {

Manifest Parser::parse(const std::string& text, const std::string& origin, const fs::path& base_dir) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) bad(origin, "file", "not valid JSON");
  if (!j.is_object()) bad(origin, "file", "expected a JSON object");
  static const std::set<std::string> kTop = {"name",   "description", "model",
                                             "models", "include",     "problems"};
  check_fields(j, kTop, origin, "");
  Manifest m;
  m.origin = origin;
  m.name = fs::path(origin).stem().string();
  for (const char* k : {"name", "description", "model"}) {
    if (j.contains(k) && !j[k].is_string()) bad(origin, k, "expected a string");
  }
  m.name = j.value("name", m.name);
  m.description = j.value("description", "");
  if (j.contains("model")) m.models.push_back(j["model"].get<std::string>());
  if (j.contains("models")) {
    if (!j["models"].is_array()) bad(origin, "models", "expected a list");
    int i = 0;
    for (const json& e : j["models"]) model(e, origin, fmt::format("models[{}]", i++), &m);
  }
  const bool has_problems = j.contains("problems");
  const bool has_include = j.contains("include");
  if (!has_problems && !has_include)
    bad(origin, "problems", "expected a non-empty list (or an 'include' list)");
  if (has_include) {
    int i = 0;
    for (const std::string& ref : strings(j["include"], origin, "include")) {
      const Manifest sub = include(ref, base_dir, origin, fmt::format("include[{}]", i++));
      m.problems.insert(m.problems.end(), sub.problems.begin(), sub.problems.end());
      for (const std::string& name : sub.models)
        if (std::find(m.models.begin(), m.models.end(), name) == m.models.end()) m.models.push_back(name);
    }
  }
  if (has_problems) {
    if (!j["problems"].is_array() || j["problems"].empty())
      bad(origin, "problems", "expected a non-empty list");
    int i = 0;
    for (const json& p : j["problems"]) problem(p, origin, fmt::format("problems[{}]", i++), &m);
  }
  return m;
}

}  // namespace

std::vector<std::string> manifest_dirs(const std::vector<std::string>& search_dirs) {
  std::vector<std::string> out;
  for (const fs::path& d : search_path(search_dirs)) out.push_back(d.string());
  return out;
}

Manifest parse_manifest(const std::string& json_text, const std::string& origin,
                        const std::vector<std::string>& search_dirs) {
  Parser p{search_dirs, {}};
  std::error_code ec;
  const bool is_file = fs::is_regular_file(origin, ec);
  if (is_file) p.stack.push_back(fs::weakly_canonical(origin, ec).string());
  return p.parse(json_text, origin, is_file ? fs::path(origin).parent_path() : fs::path());
}

Manifest load_manifest(const std::string& spec, const std::vector<std::string>& search_dirs) {
  const size_t first = spec.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && spec[first] == '{') {
    Parser p{search_dirs, {}};
    return p.parse(spec, "<inline json>", fs::path());
  }
  std::error_code ec;
  if (!spec.empty() && fs::is_regular_file(spec, ec)) {
    Parser p{search_dirs, {}};
    return p.load_file(spec);
  }
  if (!spec.empty() && spec.find('/') == std::string::npos) {
    for (const fs::path& d : search_path(search_dirs)) {
      const fs::path cand = d / (spec + ".json");
      if (fs::is_regular_file(cand, ec)) {
        Parser p{search_dirs, {}};
        return p.load_file(cand);
      }
    }
  }
  const std::vector<std::string> known = bundled_manifests(search_dirs);
  throw ValidationError(ValidationError::Kind::InvalidArgument,
                        fmt::format("manifest '{}': no such file, and no bundled manifest of that "
                                    "name (bundled: {}; searched {})",
                                    spec, known.empty() ? "none found" : fmt::format("{}", fmt::join(known, ", ")),
                                    fmt::join(manifest_dirs(search_dirs), ", ")));
}

std::vector<std::string> bundled_manifests(const std::vector<std::string>& search_dirs) {
  std::set<std::string> names;
  for (const fs::path& d : search_path(search_dirs)) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec))
      if (e.path().extension() == ".json") names.insert(e.path().stem().string());
  }
  return {names.begin(), names.end()};
}

}  // namespace normjit
