#include "cache_cmd.hpp"

#include <fmt/format.h>

#include <ctime>
#include <optional>
#include <nlohmann/json.hpp>

#include "arch.hpp"
#include "cache_admin.hpp"
#include "normjit/errors.hpp"
#include "normjit/runtime.hpp"

namespace normjit::tools {
namespace fs = std::filesystem;
namespace admin = detail::admin;
using nlohmann::json;

namespace {

fs::path require_root() {
  const admin::PathInfo p = admin::path_info();
  if (p.root.empty()) {
    throw Error("normjit cache: no cache directory: set NORMJIT_CACHE_DIR (or XDG_CACHE_HOME / "
                "HOME), or pass --cache-dir DIR");
  }
  return p.root;
}

admin::Filter make_filter(const std::string& op, const std::string& arch, const std::string& fp) {
  admin::Filter f;
  if (!op.empty()) {
    Op parsed;
    if (!parse_op(op, &parsed)) {
      std::string known;
      for (Op o : all_ops()) known += (known.empty() ? "" : ", ") + std::string(op_name(o));
      throw ValidationError(ValidationError::Kind::InvalidArgument,
                            fmt::format("normjit cache: --op: unknown op '{}' (known: {})", op, known));
    }
    f.op = op;
  }
  if (!arch.empty()) f.arch_cc = detail::Arch::parse(arch).cc;
  f.fingerprint = fp;
  return f;
}

std::string arch_label(const admin::Entry& e) {
  if (!e.target.empty()) return e.target;
  return e.arch_cc ? fmt::format("sm_{}", e.arch_cc) : "?";
}

int cmd_ls(const std::string& op, const std::string& arch, const std::string& fp, bool as_json) {
  const fs::path root = require_root();
  const admin::Filter f = make_filter(op, arch, fp);
  const std::string current = admin::current_fingerprint();
  const admin::Scan s = admin::scan(root, fp);
  const std::int64_t now = std::time(nullptr);
  struct Listed {
    const admin::Entry* e;
    std::optional<detail::KernelResources> res;  // registers and stack a thread
  };
  std::vector<Listed> shown;
  std::uint64_t bytes = 0;
  for (const admin::Entry& e : s.entries) {
    if (!f.matches(e)) continue;
    shown.push_back({&e, admin::entry_resources(e)});
    bytes += e.bytes;
  }
  if (as_json) {
    json entries = json::array();
    for (const auto& [e, res] : shown) {
      entries.push_back({{"fingerprint", e->fingerprint}, {"current", e->fingerprint == current},
                         {"slug", e->slug}, {"key", e->key.hex()}, {"op", e->op},
                         {"arch", arch_label(*e)}, {"bytes", e->bytes}, {"created", e->created},
                         {"age_seconds", e->created ? now - e->created : -1},
                         {"path", (e->has_cubin ? e->cubin : e->sidecar).string()},
                         {"complete", e->has_cubin && e->has_sidecar},
                         {"registers", res ? json(res->registers) : json(nullptr)},
                         {"stack_bytes", res ? json(res->stack_bytes) : json(nullptr)}});
    }
    fmt::print("{}\n", json({{"root", root.string()}, {"current_fingerprint", current},
                             {"entries", entries}, {"bytes", bytes},
                             {"total_bytes", s.total_bytes},
                             {"quarantined", s.quarantined.size()}})
                           .dump(2));
    return 0;
  }
  fmt::print("cache {} (current fingerprint {})\n", root.string(), current.empty() ? "unknown" : current);
  if (!shown.empty()) {
    size_t w = 4;
    for (const Listed& l : shown) w = std::max(w, l.e->slug.size());
    fmt::print("{:<17} {:<{}} {:<8} {:>4} {:>5} {:>6} {:>5}\n", "FINGERPRINT", "SLUG", w, "ARCH", "REGS", "STACK",
               "SIZE", "AGE");
    for (const auto& [e, res] : shown) {
      fmt::print("{:<17} {:<{}} {:<8} {:>4} {:>5} {:>6} {:>5}{}\n",
                 e->fingerprint + (e->fingerprint == current ? "*" : ""), e->slug, w, arch_label(*e),
                 res ? std::to_string(res->registers) : "-", res ? std::to_string(res->stack_bytes) : "-",
                 admin::format_size(e->bytes), e->created ? admin::format_age(now - e->created) : "?",
                 e->has_cubin && e->has_sidecar ? "" : "  (incomplete)");
    }
  }
  fmt::print("{} entr{}, {}; {} under {} ({} quarantined file{}); * = current toolchain\n",
             shown.size(), shown.size() == 1 ? "y" : "ies", admin::format_size(bytes),
             admin::format_size(s.total_bytes), (root / detail::kCacheLayoutDir).string(),
             s.quarantined.size(), s.quarantined.size() == 1 ? "" : "s");
  return 0;
}

int cmd_verify(const std::string& fp, bool fix, bool as_json) {
  const fs::path root = require_root();
  admin::Filter f;
  f.fingerprint = fp;
  const admin::VerifyReport r = admin::verify(root, f, fix, admin::current_fingerprint());
  const bool ok = r.problems.empty() || (fix && r.all_fixed());
  if (as_json) {
    json problems = json::array();
    for (const admin::Problem& p : r.problems)
      problems.push_back({{"path", p.path.string()}, {"why", p.why}, {"action", p.action}});
    fmt::print("{}\n", json({{"root", root.string()}, {"checked", r.checked}, {"ok", r.ok},
                             {"problems", problems}, {"fixed", fix && r.all_fixed()}})
                           .dump(2));
    return ok ? 0 : 1;
  }
  for (const admin::Problem& p : r.problems) {
    fmt::print("bad  {}: {}{}\n", p.path.string(), p.why, p.action.empty() ? "" : " -> " + p.action);
  }
  fmt::print("verify: {} entries checked in {}: {} ok, {} problem{}{}\n", r.checked, root.string(),
             r.ok, r.problems.size(), r.problems.size() == 1 ? "" : "s",
             r.problems.empty() ? ""
             : fix              ? (r.all_fixed() ? " (all fixed)" : " (some could not be fixed)")
                                : " (run `normjit cache verify --fix` to quarantine them)");
  return ok ? 0 : 1;
}

int cmd_prune(const std::string& max_size, const std::string& older_than, bool dry_run, bool as_json) {
  if (max_size.empty() && older_than.empty())
    throw CLI::ValidationError("cache prune: give --max-size SIZE and/or --older-than DURATION");
  admin::PruneOptions o;
  if (!max_size.empty()) o.max_bytes = admin::parse_size(max_size, "--max-size");
  if (!older_than.empty()) o.older_than_seconds = admin::parse_duration(older_than, "--older-than");
  o.dry_run = dry_run;
  const fs::path root = require_root();
  const admin::RemovalReport r = admin::prune(root, o);
  const std::int64_t now = std::time(nullptr);
  int entries = 0, files = 0;
  for (const admin::Removal& x : r.items) (x.slug.empty() ? files : entries) += dry_run || x.removed;
  if (as_json) {
    json items = json::array();
    for (const admin::Removal& x : r.items)
      items.push_back({{"path", x.path.string()}, {"slug", x.slug}, {"bytes", x.bytes},
                       {"created", x.created}, {"removed", x.removed}, {"note", x.note}});
    fmt::print("{}\n", json({{"root", root.string()}, {"dry_run", dry_run}, {"items", items},
                             {"entries", entries}, {"files", files},
                             {"bytes_before", r.bytes_before}, {"bytes_after", r.bytes_after}})
                           .dump(2));
    return 0;
  }
  for (const admin::Removal& x : r.items) {
    if (x.slug.empty()) continue;
    fmt::print("{} {} ({}, {} old){}\n", dry_run ? "would remove" : x.removed ? "removed" : "kept",
               x.slug, admin::format_size(x.bytes),
               x.created ? admin::format_age(now - x.created) : "?",
               x.note.empty() || dry_run ? "" : ": " + x.note);
  }
  fmt::print("prune: {} {} entr{} and {} quarantined/temp file{}; {} -> {}\n",
             dry_run ? "would remove" : "removed", entries, entries == 1 ? "y" : "ies", files,
             files == 1 ? "" : "s", admin::format_size(r.bytes_before), admin::format_size(r.bytes_after));
  return 0;
}

int cmd_clear(const std::string& op, const std::string& arch, const std::string& fp, bool as_json) {
  const fs::path root = require_root();
  const admin::RemovalReport r =
      admin::clear(root, make_filter(op, arch, fp), admin::current_fingerprint());
  int entries = 0, kept = 0;
  for (const admin::Removal& x : r.items) {
    if (x.slug.empty()) continue;
    (x.removed ? entries : kept) += 1;
  }
  if (as_json) {
    fmt::print("{}\n", json({{"root", root.string()}, {"removed", entries}, {"kept", kept},
                             {"bytes_before", r.bytes_before}, {"bytes_after", r.bytes_after}})
                           .dump(2));
    return kept ? 1 : 0;
  }
  for (const admin::Removal& x : r.items)
    if (!x.slug.empty() && !x.removed) fmt::print("kept {}: {}\n", x.slug, x.note);
  fmt::print("clear: removed {} entr{} from {}; {} -> {}\n", entries, entries == 1 ? "y" : "ies",
             root.string(), admin::format_size(r.bytes_before), admin::format_size(r.bytes_after));
  return kept ? 1 : 0;
}

int cmd_path(bool as_json) {
  const admin::PathInfo p = admin::path_info();
  if (as_json) {
    json pre = json::array();
    for (const admin::PrebuiltInfo& i : p.prebuilt)
      pre.push_back({{"root", i.root.string()}, {"dir", i.dir.string()}, {"usable", i.usable}});
    fmt::print("{}\n", json({{"root", p.root.string()}, {"fingerprint", p.fingerprint},
                             {"dir", p.dir.string()}, {"prebuilt", pre}})
                           .dump(2));
    return 0;
  }
  fmt::print("root:        {}\n", p.root.empty() ? "(none: kernels are kept in memory only)" : p.root.string());
  fmt::print("fingerprint: {}\n", p.fingerprint.empty() ? "(unknown: NVRTC cannot be loaded)" : p.fingerprint);
  fmt::print("directory:   {}\n", p.dir.empty() ? "-" : p.dir.string());
  for (const admin::PrebuiltInfo& i : p.prebuilt) {
    fmt::print("prebuilt:    {} ({})\n", i.root.string(),
               i.usable ? "used: " + i.dir.string() : "ignored: nothing for this fingerprint");
  }
  return 0;
}

}  // namespace

CacheCommand::CacheCommand(CLI::App& app, std::string* cache_dir) {
  cache_ = app.add_subcommand("cache", "Inspect and maintain the kernel cache (ls, verify, prune, clear, path)");
  cache_->require_subcommand(1);
  ls_ = cache_->add_subcommand("ls", "List entries: slug, arch, registers and stack a thread, size, age");
  ls_->add_option("--op", op_, "Only this op");
  ls_->add_option("--arch", arch_, "Only this arch (sm_90 also matches sm_90a)");
  ls_->add_option("--fingerprint", fingerprint_, "Only this toolchain fingerprint (a prefix is enough)");
  verify_ = cache_->add_subcommand("verify", "Re-check every entry's checksums and sidecar");
  verify_->add_flag("--fix", fix_, "Move bad entries to quarantine/, remove dead writers' leftovers");
  verify_->add_option("--fingerprint", fingerprint_, "Only this toolchain fingerprint (prefix)");
  prune_ = cache_->add_subcommand("prune", "Remove the oldest entries (by creation time)");
  prune_->add_option("--max-size", max_size_, "Shrink the cache to at most this size (500M, 2G ...)");
  prune_->add_option("--older-than", older_than_, "Remove entries created longer ago (7d, 12h ...)");
  prune_->add_flag("--dry-run", dry_run_, "Only say what would be removed");
  clear_ = cache_->add_subcommand("clear", "Remove every entry, or those of one fingerprint/arch/op");
  clear_->add_option("--fingerprint", fingerprint_, "Only this toolchain fingerprint (prefix)");
  clear_->add_option("--arch", arch_, "Only this arch");
  clear_->add_option("--op", op_, "Only this op");
  path_ = cache_->add_subcommand("path", "Print the cache root and the current fingerprint directory");
  for (CLI::App* sub : {ls_, verify_, prune_, clear_, path_}) {
    sub->add_flag("--json", json_, "Machine-readable output");
    sub->add_option("--cache-dir", *cache_dir, "Cache root");
  }
  cache_->add_option("--cache-dir", *cache_dir, "Cache root");
}

bool CacheCommand::parsed() const { return cache_->parsed(); }

int CacheCommand::run() {
  if (ls_->parsed()) return cmd_ls(op_, arch_, fingerprint_, json_);
  if (verify_->parsed()) return cmd_verify(fingerprint_, fix_, json_);
  if (prune_->parsed()) return cmd_prune(max_size_, older_than_, dry_run_, json_);
  if (clear_->parsed()) return cmd_clear(op_, arch_, fingerprint_, json_);
  if (path_->parsed()) return cmd_path(json_);
  return 0;
}

}  // namespace normjit::tools
