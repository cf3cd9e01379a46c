#include "cache_admin.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "file_lock.hpp"
#include "normjit/errors.hpp"
#include "prelude.hpp"

namespace normjit::detail::admin {
namespace fs = std::filesystem;

namespace {

// How long an admin operation waits for a key's lock: a compile takes about a second, so a
// lock held longer belongs to a stuck process; the entry is then skipped, not waited for.
constexpr std::chrono::milliseconds kAdminLockWait{10000};

std::uint64_t size_of(const fs::path& p) {
  std::error_code ec;
  const auto n = fs::file_size(p, ec);
  return ec ? 0 : std::uint64_t(n);
}

bool is_shard_name(const std::string& n) {
  return n.size() == 2 && std::isxdigit(static_cast<unsigned char>(n[0])) &&
         std::isxdigit(static_cast<unsigned char>(n[1]));
}

std::vector<fs::path> sorted_children(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Fills what the sidecar (or, failing that, the header) says about an entry.
void describe(Entry* e) {
  if (e->has_sidecar) {
    std::ifstream in(e->sidecar);
    std::stringstream ss;
    ss << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (j.is_object()) {
      if (j.contains("slug") && j["slug"].is_string()) e->slug = j["slug"].get<std::string>();
      if (j.contains("target") && j["target"].is_string()) e->target = j["target"].get<std::string>();
      if (j.contains("created") && j["created"].is_number_integer())
        e->created = j["created"].get<std::int64_t>();
      if (j.contains("config") && j["config"].is_object()) {
        const nlohmann::json& c = j["config"];
        if (c.contains("op") && c["op"].is_string()) e->op = c["op"].get<std::string>();
        if (c.contains("arch") && c["arch"].is_string()) {
          try {
            e->arch_cc = Arch::parse(c["arch"].get<std::string>()).cc;
          } catch (const std::exception&) {
          }
        }
      }
    }
  }
  if (e->arch_cc == 0 && e->has_cubin) {
    CacheEntryHeader h{};
    std::ifstream in(e->cubin, std::ios::binary);
    if (in.read(reinterpret_cast<char*>(&h), sizeof h) && h.arch_cc < 10000) e->arch_cc = int(h.arch_cc);
  }
  if (e->slug.empty()) {
    // "<slug>-<32 hex>.cubin"
    const std::string stem = (e->has_cubin ? e->cubin : e->sidecar).stem().string();
    e->slug = stem.size() > 33 ? stem.substr(0, stem.size() - 33) : stem;
  }
}

void scan_shard(const fs::path& shard, const std::string& fp, Scan* s) {
  std::map<std::string, Entry> groups;
  for (const fs::path& f : sorted_children(shard)) {
    const std::string name = f.filename().string();
    const std::uint64_t size = size_of(f);
    s->total_bytes += size;
    if (is_temp_name(name)) {
      s->temps.push_back(f);
      continue;
    }
    const std::string ext = f.extension().string();
    CacheKey key;
    if (ext == ".lock") continue;
    if ((ext != ".cubin" && ext != ".json") || !key_from_file_name(name, &key)) {
      s->unknown.push_back(f);
      continue;
    }
    Entry& e = groups[f.stem().string()];
    e.key = key;
    e.fingerprint = fp;
    e.cubin = shard / (f.stem().string() + ".cubin");
    e.sidecar = shard / (f.stem().string() + ".json");
    e.lock = shard / (f.stem().string() + ".lock");
    (ext == ".cubin" ? e.has_cubin : e.has_sidecar) = true;
    e.bytes += size;
  }
  for (auto& [stem, e] : groups) {
    describe(&e);
    s->entries.push_back(std::move(e));
  }
}

// Removes an entry's files under its lock: the .cubin first, so that a reader never sees a
// cubin without its sidecar, then the sidecar and the lock file itself.
bool remove_entry(const Entry& e, std::string* note) {
  FileLock lock(e.lock.string(), kAdminLockWait);
  if (!lock.locked()) {
    *note = "skipped: its lock is busy (" + lock.error() + ")";
    return false;
  }
  std::error_code ec;
  fs::remove(e.cubin, ec);
  fs::remove(e.sidecar, ec);
  lock.remove_file();
  return true;
}

}  // namespace

bool Filter::matches(const Entry& e) const {
  if (!op.empty() && e.op != op) return false;
  if (arch_cc && e.arch_cc != arch_cc) return false;
  if (!fingerprint.empty() && e.fingerprint.rfind(fingerprint, 0) != 0) return false;
  return true;
}

Scan scan(const fs::path& root, const std::string& fingerprint) {
  Scan s;
  s.root = root;
  if (root.empty()) return s;
  for (const fs::path& fpdir : sorted_children(root / kCacheLayoutDir)) {
    std::error_code ec;
    const std::string fp = fpdir.filename().string();
    if (!fs::is_directory(fpdir, ec)) {
      s.unknown.push_back(fpdir);
      s.total_bytes += size_of(fpdir);
      continue;
    }
    if (!fingerprint.empty() && fp.rfind(fingerprint, 0) != 0) continue;
    s.fingerprints.push_back(fp);
    for (const fs::path& child : sorted_children(fpdir)) {
      const std::string name = child.filename().string();
      if (name == "fingerprint.json") {
        s.total_bytes += size_of(child);
      } else if (name == "quarantine" && fs::is_directory(child, ec)) {
        for (const fs::path& q : sorted_children(child)) {
          s.quarantined.push_back(q);
          s.total_bytes += size_of(q);
        }
      } else if (is_shard_name(name) && fs::is_directory(child, ec)) {
        scan_shard(child, fp, &s);
      } else {
        s.unknown.push_back(child);
        s.total_bytes += size_of(child);
      }
    }
  }
  std::stable_sort(s.entries.begin(), s.entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.fingerprint, a.slug) < std::tie(b.fingerprint, b.slug);
  });
  return s;
}

std::optional<KernelResources> entry_resources(const Entry& e) {
  if (!e.has_cubin || !e.has_sidecar) return std::nullopt;
  EntryExpectation expect;
  expect.key = e.key;
  expect.fingerprint = e.fingerprint;
  const EntryCheck c = check_entry(e.cubin, e.sidecar, expect, /*load_payload=*/true);
  if (c.status != EntryStatus::Ok || c.binary.kind != Binary::Kind::Cubin) return std::nullopt;
  return kernel_resources(c.binary.bytes, kEntryName);
}

// ---- verify ---------------------------------------------------------------------------------

bool VerifyReport::all_fixed() const {
  for (const Problem& p : problems)
    if (p.action != "quarantined" && p.action != "removed") return false;
  return true;
}

VerifyReport verify(const fs::path& root, const Filter& filter, bool fix,
                    const std::string& current_fingerprint) {
  VerifyReport r;
  const Scan s = scan(root, filter.fingerprint);
  for (const Entry& e : s.entries) {
    if (!filter.matches(e)) continue;
    const fs::path fp_dir = root / kCacheLayoutDir / e.fingerprint;
    if (!e.has_cubin) {
      // Also the normal state for a moment while a writer publishes (sidecar first): decide
      // under the key's lock.
      Problem p{e.sidecar, "orphan sidecar (its .cubin is missing)", ""};
      if (fix) {
        FileLock lock(e.lock.string(), kAdminLockWait);
        std::error_code ec;
        if (!lock.locked()) p.action = "skipped: its lock is busy";
        else if (fs::exists(e.cubin, ec)) p.action = "skipped: the entry was completed meanwhile";
        else p.action = fs::remove(e.sidecar, ec) ? "removed" : "skipped: " + ec.message();
      }
      r.problems.push_back(p);
      continue;
    }
    ++r.checked;
    EntryExpectation expect;
    expect.key = e.key;
    expect.nvrtc = e.fingerprint == current_fingerprint ? nvrtc_version_code() : 0;
    expect.fingerprint = e.fingerprint;
    EntryCheck c = check_entry(e.cubin, e.sidecar, expect, /*load_payload=*/false);
    const std::string shard = e.cubin.parent_path().filename().string();
    if (c.status == EntryStatus::Ok && shard != e.key.hex().substr(0, 2)) {
      c.status = EntryStatus::Invalid;
      c.why = fmt::format("misplaced: key {} belongs in {}/", e.key.hex(), e.key.hex().substr(0, 2));
    }
    if (c.status == EntryStatus::Ok || c.status == EntryStatus::Missing) {  // Missing: just removed
      ++r.ok;
      continue;
    }
    Problem p{e.cubin, c.why, ""};
    if (fix) {
      FileLock lock(e.lock.string(), kAdminLockWait);
      const EntryCheck again = check_entry(e.cubin, e.sidecar, expect, false);
      if (!lock.locked()) {
        p.action = "skipped: its lock is busy";
      } else if (again.status == EntryStatus::Ok && shard == e.key.hex().substr(0, 2)) {
        p.action = "skipped: it was rebuilt meanwhile";
      } else {
        move_to_quarantine(fp_dir, e.cubin);
        move_to_quarantine(fp_dir, e.sidecar);
        p.action = "quarantined";
      }
    }
    r.problems.push_back(p);
  }
  for (const fs::path& t : s.temps) {
    if (!is_stale_temp(t)) continue;  // a live writer's
    Problem p{t, "temp file of a writer that died", ""};
    std::error_code ec;
    if (fix) p.action = fs::remove(t, ec) ? "removed" : "skipped: " + ec.message();
    r.problems.push_back(p);
  }
  return r;
}

// ---- prune / clear --------------------------------------------------------------------------

int RemovalReport::removed_entries() const {
  int n = 0;
  for (const Removal& r : items) n += r.removed && !r.slug.empty();
  return n;
}

RemovalReport prune(const fs::path& root, const PruneOptions& o) {
  RemovalReport r;
  const std::int64_t now = o.now ? o.now : std::int64_t(std::time(nullptr));
  const Scan s = scan(root);
  r.bytes_before = s.total_bytes;
  std::uint64_t remaining = s.total_bytes;
  auto drop_file = [&](const fs::path& p) {
    Removal x{p, "", size_of(p), 0, false, o.dry_run ? "dry run" : ""};
    std::error_code ec;
    if (!o.dry_run) x.removed = fs::remove(p, ec);
    if (o.dry_run || x.removed) remaining -= std::min(remaining, x.bytes);
    r.items.push_back(x);
  };
  // Garbage first: quarantined files are kept only for inspection; dead writers' temp files
  // will never be finished.
  for (const fs::path& q : s.quarantined) drop_file(q);
  for (const fs::path& t : s.temps)
    if (is_stale_temp(t)) drop_file(t);

  std::vector<const Entry*> order;
  for (const Entry& e : s.entries) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(),
                   [](const Entry* a, const Entry* b) { return a->created < b->created; });
  auto drop_entry = [&](const Entry& e) {
    Removal x{e.has_cubin ? e.cubin : e.sidecar, e.slug, e.bytes, e.created, false,
              o.dry_run ? "dry run" : ""};
    if (!o.dry_run) x.removed = remove_entry(e, &x.note);
    if (o.dry_run || x.removed) remaining -= std::min(remaining, x.bytes);
    r.items.push_back(x);
  };
  size_t next = 0;
  if (o.older_than_seconds) {
    const std::int64_t cutoff = now - *o.older_than_seconds;
    while (next < order.size() && order[next]->created < cutoff) drop_entry(*order[next++]);
  }
  if (o.max_bytes) {
    while (next < order.size() && remaining > *o.max_bytes) drop_entry(*order[next++]);
  }
  r.bytes_after = o.dry_run ? remaining : scan(root).total_bytes;
  return r;
}

RemovalReport clear(const fs::path& root, const Filter& filter, const std::string& current) {
  RemovalReport r;
  const Scan s = scan(root, filter.fingerprint);
  r.bytes_before = s.total_bytes;
  for (const Entry& e : s.entries) {
    if (!filter.matches(e)) continue;
    Removal x{e.has_cubin ? e.cubin : e.sidecar, e.slug, e.bytes, e.created, false, ""};
    x.removed = remove_entry(e, &x.note);
    r.items.push_back(x);
  }
  const bool everything = filter.op.empty() && filter.arch_cc == 0;
  if (everything) {
    std::error_code ec;
    for (const fs::path& q : s.quarantined) {
      Removal x{q, "", size_of(q), 0, fs::remove(q, ec), ""};
      r.items.push_back(x);
    }
    for (const fs::path& t : s.temps) {
      if (!is_stale_temp(t)) continue;  // a live writer renames it in a moment
      Removal x{t, "", size_of(t), 0, fs::remove(t, ec), ""};
      r.items.push_back(x);
    }
    for (const std::string& fp : s.fingerprints) {
      const fs::path dir = root / kCacheLayoutDir / fp;
      for (const fs::path& shard : sorted_children(dir)) {
        if (!is_shard_name(shard.filename().string())) continue;
        for (const fs::path& f : sorted_children(shard)) {
          if (f.extension() != ".lock") continue;
          FileLock lock(f.string(), std::chrono::milliseconds(0));  // only unused ones
          if (lock.locked()) lock.remove_file();
        }
        if (fp != current) fs::remove(shard, ec);  // only when empty
      }
      fs::remove(dir / "quarantine", ec);  // only when empty
      if (fp != current) {
        // Another toolchain's directory: gone entirely once nothing is left in it.
        fs::remove(dir / "fingerprint.json", ec);
        fs::remove(dir, ec);
      }
    }
  }
  r.bytes_after = scan(root).total_bytes;
  return r;
}

// ---- path -----------------------------------------------------------------------------------

std::string current_fingerprint() noexcept {
  try {
    return toolchain_fingerprint();
  } catch (...) {
    return "";
  }
}

PathInfo path_info() {
  PathInfo p;
  p.root = cache_root_from_env();
  p.fingerprint = current_fingerprint();
  if (!p.root.empty() && !p.fingerprint.empty()) p.dir = p.root / kCacheLayoutDir / p.fingerprint;
  for (const fs::path& r : prebuilt_roots_from_env()) {
    PrebuiltInfo i;
    i.root = r;
    if (!p.fingerprint.empty()) i.dir = r / kCacheLayoutDir / p.fingerprint;
    std::error_code ec;
    i.usable = !i.dir.empty() && fs::is_directory(i.dir, ec);
    p.prebuilt.push_back(i);
  }
  return p;
}

// ---- units ----------------------------------------------------------------------------------

std::uint64_t parse_size(const std::string& text, const std::string& what) {
  auto fail = [&] {
    throw ValidationError(ValidationError::Kind::InvalidArgument,
                          fmt::format("normjit: {}: expected a size such as 500M, 2G, 1.5GiB or "
                                      "4096 (bytes; K, M, G, T are powers of 1024), got '{}'",
                                      what, text));
  };
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) fail();
  char* end = nullptr;
  const std::string num = text.substr(0, i);
  const double v = std::strtod(num.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(v) || v < 0) fail();
  std::string unit = text.substr(i);
  for (char& ch : unit) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  static const std::map<std::string, double> kUnits = {
      {"", 1},           {"B", 1},           {"K", 1024.0},      {"KB", 1024.0},
      {"KIB", 1024.0},   {"M", 1048576.0},   {"MB", 1048576.0},  {"MIB", 1048576.0},
      {"G", 1073741824.0}, {"GB", 1073741824.0}, {"GIB", 1073741824.0},
      {"T", 1099511627776.0}, {"TB", 1099511627776.0}, {"TIB", 1099511627776.0}};
  const auto u = kUnits.find(unit);
  if (u == kUnits.end()) fail();
  const double bytes = v * u->second;
  if (bytes > 1.8e19) fail();
  return std::uint64_t(std::llround(bytes));
}

std::int64_t parse_duration(const std::string& text, const std::string& what) {
  auto fail = [&] {
    throw ValidationError(ValidationError::Kind::InvalidArgument,
                          fmt::format("normjit: {}: expected a duration such as 7d, 12h, 30m, "
                                      "45s, 2w or 1d12h, got '{}'",
                                      what, text));
  };
  if (text.empty()) fail();
  std::int64_t total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j == i || j == text.size() || j - i > 12) fail();
    const std::int64_t n = std::stoll(text.substr(i, j - i));
    std::int64_t unit = 0;
    switch (text[j]) {
      case 's': unit = 1; break;
      case 'm': unit = 60; break;
      case 'h': unit = 3600; break;
      case 'd': unit = 86400; break;
      case 'w': unit = 7 * 86400; break;
      default: fail();
    }
    total += n * unit;
    i = j + 1;
  }
  return total;
}

std::string format_size(std::uint64_t b) {
  if (b < 1024) return fmt::format("{}B", b);
  const char* units[] = {"K", "M", "G", "T"};
  double v = double(b);
  int u = -1;
  while (v >= 1024 && u < 3) {
    v /= 1024;
    ++u;
  }
  return v < 10 ? fmt::format("{:.1f}{}", v, units[u]) : fmt::format("{:.0f}{}", v, units[u]);
}

std::string format_age(std::int64_t s) {
  if (s < 0) s = 0;
  if (s < 120) return fmt::format("{}s", s);
  if (s < 7200) return fmt::format("{}m", s / 60);
  if (s < 2 * 86400) return fmt::format("{}h", s / 3600);
  return fmt::format("{}d", s / 86400);
}

}  // namespace normjit::detail::admin
