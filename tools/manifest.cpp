#include "manifest.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace normjit::tools {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& origin, const std::string& where, const std::string& what) {
  throw std::runtime_error(fmt::format("manifest {}: {}: {}", origin, where, what));
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

std::vector<DType> dtypes(const json& j, const std::string& origin, const std::string& where) {
  std::vector<DType> out;
  for (const std::string& s : strings(j, origin, where)) {
    DType t;
    if (!parse_dtype(s, &t)) bad(origin, where, fmt::format("unknown dtype '{}'", s));
    out.push_back(t);
  }
  return out;
}

std::vector<fs::path> manifest_dirs() {
  std::vector<fs::path> dirs;
  if (const char* d = std::getenv("NORMJIT_MANIFEST_DIR"); d && *d) dirs.push_back(d);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back(exe.parent_path().parent_path() / "share" / "normjit" / "manifests");
#ifdef NORMJIT_SOURCE_MANIFESTS
  dirs.push_back(NORMJIT_SOURCE_MANIFESTS);
#endif
  return dirs;
}

}  // namespace

std::vector<ProblemSpec> expand(const std::vector<Op>& ops, const std::vector<DType>& dts,
                                const std::vector<DType>& wdts,
                                const std::vector<std::int64_t>& hidden, bool rank3, int max_vec) {
  std::vector<ProblemSpec> out;
  for (Op op : ops)
    for (DType d : dts)
      for (DType w : (wdts.empty() ? std::vector<DType>{d} : wdts))
        for (std::int64_t h : hidden) {
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

Manifest parse_manifest(const std::string& text, const std::string& origin) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) bad(origin, "file", "not valid JSON");
  if (!j.is_object()) bad(origin, "file", "expected a JSON object");
  static const std::set<std::string> kTop = {"name", "description", "problems", "model"};
  for (const auto& [k, v] : j.items())
    if (!kTop.count(k)) bad(origin, k, "unknown field (expected name, description, model, problems)");
  Manifest m;
  m.name = j.value("name", fs::path(origin).stem().string());
  m.description = j.value("description", "");
  if (!j.contains("problems") || !j["problems"].is_array() || j["problems"].empty())
    bad(origin, "problems", "expected a non-empty list");
  static const std::set<std::string> kFields = {"ops", "dtypes", "weight_dtypes", "hidden", "rank3",
                                                "max_vec", "comment"};
  int i = 0;
  for (const json& p : j["problems"]) {
    const std::string where = fmt::format("problems[{}]", i++);
    if (!p.is_object()) bad(origin, where, "expected an object");
    for (const auto& [k, v] : p.items())
      if (!kFields.count(k))
        bad(origin, where + "." + k,
            "unknown field (expected ops, dtypes, weight_dtypes, hidden, rank3, max_vec, comment)");
    for (const char* req : {"ops", "dtypes", "hidden"})
      if (!p.contains(req)) bad(origin, where, fmt::format("missing field '{}'", req));
    std::vector<Op> ops;
    for (const std::string& s : strings(p["ops"], origin, where + ".ops")) {
      Op op;
      if (!parse_op(s, &op)) bad(origin, where + ".ops", fmt::format("unknown op '{}'", s));
      ops.push_back(op);
    }
    const std::vector<DType> dts = dtypes(p["dtypes"], origin, where + ".dtypes");
    std::vector<DType> wdts;
    if (p.contains("weight_dtypes")) wdts = dtypes(p["weight_dtypes"], origin, where + ".weight_dtypes");
    std::vector<std::int64_t> hidden;
    if (!p["hidden"].is_array() || p["hidden"].empty())
      bad(origin, where + ".hidden", "expected a non-empty list of positive integers");
    for (const json& h : p["hidden"]) {
      if (!h.is_number_integer() || h.get<std::int64_t>() < 1)
        bad(origin, where + ".hidden", fmt::format("expected positive integers, got {}", h.dump()));
      hidden.push_back(h.get<std::int64_t>());
    }
    bool rank3 = false;
    if (p.contains("rank3")) {
      if (!p["rank3"].is_boolean()) bad(origin, where + ".rank3", "expected true or false");
      rank3 = p["rank3"].get<bool>();
    }
    int max_vec = 0;
    if (p.contains("max_vec")) {
      if (!p["max_vec"].is_number_integer()) bad(origin, where + ".max_vec", "expected an integer");
      max_vec = p["max_vec"].get<int>();
    }
    for (const ProblemSpec& s : expand(ops, dts, wdts, hidden, rank3, max_vec)) m.problems.push_back(s);
  }
  return m;
}

Manifest load_manifest(const std::string& name_or_path) {
  fs::path path = name_or_path;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    path.clear();
    for (const fs::path& d : manifest_dirs()) {
      const fs::path cand = d / (name_or_path + ".json");
      if (fs::is_regular_file(cand, ec)) {
        path = cand;
        break;
      }
    }
    if (path.empty()) {
      std::string known;
      for (const std::string& n : bundled_manifests()) known += (known.empty() ? "" : ", ") + n;
      throw std::runtime_error(fmt::format("manifest '{}': no such file, and no bundled manifest of "
                                           "that name (bundled: {})",
                                           name_or_path, known.empty() ? "none found" : known));
    }
  }
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in) throw std::runtime_error(fmt::format("manifest {}: cannot read", path.string()));
  return parse_manifest(ss.str(), path.string());
}

std::vector<std::string> bundled_manifests() {
  std::set<std::string> names;
  for (const fs::path& d : manifest_dirs()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec))
      if (e.path().extension() == ".json") names.insert(e.path().stem().string());
  }
  return {names.begin(), names.end()};
}

}  // namespace normjit::tools
