// Cache operations (`normjit cache ls|verify|prune|clear|path` and src/cache_admin) and the
// read-only prebuilt cache (NORMJIT_PREBUILT_CACHE_DIR).
#include <sys/stat.h>
#include <sys/time.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <ctime>
#include <memory>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "cache_admin.hpp"
#include "cache_test_util.hpp"
#include "file_lock.hpp"
#include "normjit/errors.hpp"
#include "prelude.hpp"

using namespace cachetest;
using cputest::contains;
using cputest::TempDir;
namespace admin = normjit::detail::admin;

namespace {

njtest::ProcessResult cli(const std::vector<std::string>& args, const std::string& cache_dir,
                          njtest::EnvList extra = {}) {
  std::vector<std::string> argv = {cputest::cli_path()};
  argv.insert(argv.end(), args.begin(), args.end());
  njtest::EnvList env = clean_env(cache_dir);
  for (const auto& kv : extra) set(&env, kv.first, kv.second);
  return njtest::run(argv, env);
}

nlohmann::json cli_json(const std::vector<std::string>& args, const std::string& cache_dir,
                        int expect_exit = 0, njtest::EnvList extra = {}) {
  const njtest::ProcessResult r = cli(args, cache_dir, std::move(extra));
  INFO("normjit " << args[0] << " " << (args.size() > 1 ? args[1] : "") << " output:\n" << r.output);
  CHECK(r.exit_code == expect_exit);
  const nlohmann::json j = nlohmann::json::parse(r.output, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

// Fills `root` with entries for `configs` (in-process, through DiskCache).
void fill(const fs::path& root, const std::vector<KernelConfig>& configs) {
  DiskCache dc = make_cache(root);
  for (const KernelConfig& c : configs) {
    CacheOutcome outcome;
    dc.get_or_build(c, [&] { return reference(c); }, &outcome);
  }
}

// Rewrites an entry's sidecar "created" (the prune order); the entry stays valid.
void set_created(const fs::path& root, const KernelConfig& c, std::int64_t created) {
  const fs::path s = sidecar_of(root, c);
  nlohmann::json j = nlohmann::json::parse(cputest::read_file(s));
  j["created"] = created;
  cputest::write_file(s, j.dump(2));
}

void set_atime(const fs::path& p, std::int64_t atime) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  const timeval times[2] = {{time_t(atime), 0}, {st.st_mtime, 0}};
  REQUIRE(::utimes(p.c_str(), times) == 0);
}

std::set<std::string> listed_slugs(const nlohmann::json& ls) {
  std::set<std::string> out;
  for (const auto& e : ls.at("entries")) out.insert(e.at("slug").get<std::string>());
  return out;
}

const std::vector<KernelConfig>& six_configs() {
  static const std::vector<KernelConfig> v = {
      config(90, 4096), config(90, 8192), config(90, 4096, Op::fused_add_rmsnorm),
      config(80, 4096), config(80, 2048, Op::gemma_rmsnorm), config(100, 128, Op::rmsnorm, DType::f16, DType::f16, true)};
  return v;
}

}  // namespace

TEST_CASE("cache admin: sizes and durations parse, and bad ones are rejected by name", "[cache][admin]") {
  CHECK(admin::parse_size("4096") == 4096);
  CHECK(admin::parse_size("100K") == 100 * 1024);
  CHECK(admin::parse_size("500M") == 500ull << 20);
  CHECK(admin::parse_size("2G") == 2ull << 30);
  CHECK(admin::parse_size("2g") == 2ull << 30);
  CHECK(admin::parse_size("1.5GiB") == 3ull << 29);
  CHECK(admin::parse_size("10MB") == 10ull << 20);
  CHECK(admin::parse_size("1T") == 1ull << 40);
  CHECK(admin::parse_size("0") == 0);
  for (const char* bad : {"", "M", "12Q", "-1G", "1.2.3M", "ten", "5 M"}) {
    INFO("size '" << bad << "'");
    try {
      admin::parse_size(bad, "--max-size");
      FAIL("accepted");
    } catch (const ValidationError& e) {
      CHECK(contains(e.what(), "--max-size"));
      CHECK(contains(e.what(), "500M"));
    }
  }
  CHECK(admin::parse_duration("45s") == 45);
  CHECK(admin::parse_duration("30m") == 1800);
  CHECK(admin::parse_duration("12h") == 12 * 3600);
  CHECK(admin::parse_duration("7d") == 7 * 86400);
  CHECK(admin::parse_duration("2w") == 14 * 86400);
  CHECK(admin::parse_duration("1d12h") == 36 * 3600);
  for (const char* bad : {"", "7", "d", "7x", "-7d", "7 d", "1.5h"}) {
    INFO("duration '" << bad << "'");
    CHECK_THROWS_AS(admin::parse_duration(bad, "--older-than"), ValidationError);
  }
  CHECK(admin::format_size(512) == "512B");
  CHECK(admin::format_size(1536) == "1.5K");
  CHECK(admin::format_size(200ull << 20) == "200M");
  CHECK(admin::format_age(5) == "5s");
  CHECK(admin::format_age(3 * 3600) == "3h");
  CHECK(admin::format_age(3 * 86400) == "3d");
}

TEST_CASE("cache ls: entries with slug, arch, size and age, filtered by op, arch or fingerprint",
          "[cache][admin][cli]") {
  TempDir cache("admin-ls");
  fill(cache.path(), six_configs());
  const nlohmann::json all = cli_json({"cache", "ls", "--json"}, cache.str());
  CHECK(all.at("root") == cache.str());
  CHECK(all.at("current_fingerprint") == toolchain_fingerprint());
  REQUIRE(all.at("entries").size() == 6);
  std::set<std::string> want;
  for (const KernelConfig& c : six_configs()) want.insert(slug(c));
  CHECK(listed_slugs(all) == want);
  std::uint64_t sum = 0;
  for (const auto& e : all.at("entries")) {
    CHECK(e.at("current") == true);
    CHECK(e.at("complete") == true);
    CHECK(e.at("age_seconds").get<std::int64_t>() >= 0);
    CHECK(e.at("age_seconds").get<std::int64_t>() < 600);
    const fs::path p = e.at("path").get<std::string>();
    fs::path side = p;
    side.replace_extension(".json");
    CHECK(e.at("bytes") == fs::file_size(p) + fs::file_size(side));
    sum += e.at("bytes").get<std::uint64_t>();
    // Registers and stack a thread, as the cubin's resource attributes give them.
    CHECK(e.at("registers").get<int>() > 0);
    CHECK(e.at("registers").get<int>() <= 255);
    CHECK(e.at("stack_bytes").get<int>() >= 0);
  }
  CHECK(all.at("bytes") == sum);
  for (const KernelConfig& c : six_configs()) {
    const std::optional<KernelResources> r = kernel_resources(reference(c).bytes, kEntryName);
    REQUIRE(r.has_value());
    for (const auto& e : all.at("entries"))
      if (e.at("slug") == slug(c)) CHECK(e.at("registers") == r->registers);
  }

  CHECK(cli_json({"cache", "ls", "--json", "--arch", "sm_80"}, cache.str()).at("entries").size() == 2);
  CHECK(cli_json({"cache", "ls", "--json", "--arch", "sm_90"}, cache.str()).at("entries").size() == 3);
  CHECK(cli_json({"cache", "ls", "--json", "--op", "rmsnorm"}, cache.str()).at("entries").size() == 4);
  CHECK(cli_json({"cache", "ls", "--json", "--op", "gemma_rmsnorm", "--arch", "80"}, cache.str())
            .at("entries")
            .size() == 1);
  const std::string fp = toolchain_fingerprint();
  CHECK(cli_json({"cache", "ls", "--json", "--fingerprint", fp.substr(0, 6)}, cache.str()).at("entries").size() == 6);
  CHECK(cli_json({"cache", "ls", "--json", "--fingerprint", "zzzz"}, cache.str()).at("entries").empty());

  const njtest::ProcessResult text = cli({"cache", "ls", "--arch", "sm_90"}, cache.str());
  INFO(text.output);
  CHECK(text.exit_code == 0);
  CHECK(contains(text.output, "SLUG"));
  CHECK(contains(text.output, "REGS"));
  CHECK(contains(text.output, slug(config(90, 8192))));
  CHECK(contains(text.output, "sm_90a"));
  CHECK_FALSE(contains(text.output, slug(config(80, 4096))));
  CHECK(contains(text.output, "3 entries"));

  // An entry that fails validation is listed without figures (`cache verify` says why).
  const fs::path broken = entry_of(cache.path(), six_configs().front());
  fs::resize_file(broken, fs::file_size(broken) / 2);
  const auto listing = cli_json({"cache", "ls", "--json"}, cache.str());  // outlives the loop
  for (const auto& e : listing.at("entries"))
    CHECK(e.at("registers").is_null() == (e.at("slug") == slug(six_configs().front())));

  const njtest::ProcessResult bad = cli({"cache", "ls", "--op", "layernorm_x"}, cache.str());
  CHECK(bad.exit_code != 0);
  CHECK(contains(bad.output, "layernorm_x"));
  const njtest::ProcessResult bad_arch = cli({"cache", "ls", "--arch", "sm_75"}, cache.str());
  CHECK(bad_arch.exit_code != 0);
  CHECK(contains(bad_arch.output, "sm_75"));
}

TEST_CASE("cache verify: finds what lookups reject, --fix quarantines it, then all is clean",
          "[cache][admin][cli]") {
  TempDir cache("admin-verify");
  const std::vector<KernelConfig>& cfgs = six_configs();
  fill(cache.path(), cfgs);
  const nlohmann::json clean = cli_json({"cache", "verify", "--json"}, cache.str());
  CHECK(clean.at("checked") == 6);
  CHECK(clean.at("ok") == 6);
  CHECK(clean.at("problems").empty());

  // Damage four entries, each differently, and leave an orphan sidecar and a dead writer's
  // temp file behind.
  const fs::path root = cache.path();
  {
    const fs::path e = entry_of(root, cfgs[0]);
    cputest::write_file(e, cputest::read_file(e).substr(0, 100));  // truncated
  }
  {
    const fs::path e = entry_of(root, cfgs[1]);
    std::string b = cputest::read_file(e);
    b[b.size() - 7] = char(b[b.size() - 7] ^ 1);  // flipped payload byte
    cputest::write_file(e, b);
  }
  {
    const fs::path e = entry_of(root, cfgs[2]);
    CacheEntryHeader h = header_of(cputest::read_file(e));
    h.nvrtc_version = 12080;  // another NVRTC
    cputest::write_file(e, with_header(cputest::read_file(e), h));
  }
  fs::remove(sidecar_of(root, cfgs[3]));  // sidecar missing
  const KernelConfig orphan = config(90, 1024);
  fs::create_directories(sidecar_of(root, orphan).parent_path());
  cputest::write_file(sidecar_of(root, orphan), R"({"key": "orphan"})");
  const fs::path temp = entry_of(root, cfgs[4]).parent_path() /
                        fmt::format(".{}.tmp.{}.1.0", entry_of(root, cfgs[4]).filename().string(), dead_pid());
  cputest::write_file(temp, "half");

  // verify and the lookups agree on exactly which entries are bad.
  DiskCache dc = make_cache(root);
  std::set<std::string> bad_by_lookup;
  for (const KernelConfig& c : cfgs)
    if (!dc.find(c)) bad_by_lookup.insert(entry_of(root, c).string());
  CHECK(bad_by_lookup.size() == 4);

  const nlohmann::json report = cli_json({"cache", "verify", "--json"}, cache.str(), /*exit=*/1);
  CHECK(report.at("checked") == 6);
  CHECK(report.at("ok") == 2);
  std::set<std::string> bad_by_verify;
  std::map<std::string, std::string> why;
  for (const auto& p : report.at("problems")) {
    why[p.at("path")] = p.at("why");
    CHECK(p.at("action") == "");
    if (fs::path(p.at("path").get<std::string>()).extension() == ".cubin")
      bad_by_verify.insert(p.at("path").get<std::string>());
  }
  CHECK(bad_by_verify == bad_by_lookup);
  CHECK(contains(why[entry_of(root, cfgs[0]).string()], "header says"));  // truncated payload
  CHECK(contains(why[entry_of(root, cfgs[1]).string()], "checksum"));
  CHECK(contains(why[entry_of(root, cfgs[2]).string()], "NVRTC 12.8"));
  CHECK(contains(why[entry_of(root, cfgs[3]).string()], "sidecar missing"));
  CHECK(contains(why[sidecar_of(root, orphan).string()], "orphan sidecar"));
  CHECK(contains(why[temp.string()], "writer that died"));
  CHECK(report.at("problems").size() == 6);

  const njtest::ProcessResult text = cli({"cache", "verify"}, cache.str());
  CHECK(text.exit_code == 1);
  CHECK(contains(text.output, "6 problems"));
  CHECK(contains(text.output, "--fix"));

  const nlohmann::json fixed = cli_json({"cache", "verify", "--fix", "--json"}, cache.str(), 0);
  CHECK(fixed.at("fixed") == true);
  for (const auto& p : fixed.at("problems")) {
    const std::string path = p.at("path");
    CHECK(p.at("action") == (fs::path(path).extension() == ".cubin" ? "quarantined" : "removed"));
    CHECK_FALSE(fs::exists(path));
  }
  // Quarantined: the four .cubin files and the three sidecars that existed.
  size_t quarantined = 0;
  for (const auto& q : fs::directory_iterator(fingerprint_dir(root) / "quarantine")) {
    (void)q;
    ++quarantined;
  }
  CHECK(quarantined == 7);
  const nlohmann::json after = cli_json({"cache", "verify", "--json"}, cache.str());
  CHECK(after.at("checked") == 2);
  CHECK(after.at("problems").empty());
  CHECK(temp_files(root).empty());
  // And lookups rebuild what was moved aside.
  for (const KernelConfig& c : cfgs) {
    CacheOutcome outcome;
    CHECK(dc.get_or_build(c, [&] { return reference(c); }, &outcome).bytes == reference(c).bytes);
  }
  CHECK(cli_json({"cache", "verify", "--json"}, cache.str()).at("ok") == 6);
}

TEST_CASE("cache prune: oldest by sidecar 'created' first (never by atime), --max-size, --older-than",
          "[cache][admin][cli]") {
  TempDir cache("admin-prune");
  const fs::path root = cache.path();
  const std::vector<KernelConfig>& cfgs = six_configs();
  fill(root, cfgs);
  const std::int64_t now = std::time(nullptr);
  // cfgs[i] was created i+1 days ago: cfgs[5] is the oldest. Access times say the opposite.
  for (size_t i = 0; i < cfgs.size(); ++i) {
    set_created(root, cfgs[i], now - std::int64_t(i + 1) * 86400);
    set_atime(entry_of(root, cfgs[i]), now - std::int64_t(cfgs.size() - i) * 86400);
  }
  // Quarantined leftovers go first.
  fs::create_directories(fingerprint_dir(root) / "quarantine");
  cputest::write_file(fingerprint_dir(root) / "quarantine" / "x.cubin.1.2.3", std::string(5000, 'q'));

  SECTION("--older-than") {
    const nlohmann::json r = cli_json({"cache", "prune", "--older-than", "3d12h", "--json"}, cache.str());
    CHECK(r.at("entries") == 3);  // created 4, 5 and 6 days ago
    CHECK(r.at("files") == 1);
    std::set<std::string> gone;
    for (const auto& it : r.at("items"))
      if (it.at("slug") != "") gone.insert(it.at("slug").get<std::string>());
    CHECK(gone == std::set<std::string>{slug(cfgs[3]), slug(cfgs[4]), slug(cfgs[5])});
    for (size_t i = 0; i < cfgs.size(); ++i) {
      INFO(slug(cfgs[i]));
      CHECK(fs::exists(entry_of(root, cfgs[i])) == (i < 3));
      CHECK(fs::exists(sidecar_of(root, cfgs[i])) == (i < 3));
    }
    CHECK_FALSE(fs::exists(fingerprint_dir(root) / "quarantine" / "x.cubin.1.2.3"));
  }
  SECTION("--max-size, with a dry run first") {
    std::uint64_t keep3 = 0;  // the three newest entries plus fingerprint.json
    for (size_t i = 0; i < 3; ++i)
      keep3 += fs::file_size(entry_of(root, cfgs[i])) + fs::file_size(sidecar_of(root, cfgs[i]));
    keep3 += fs::file_size(fingerprint_dir(root) / "fingerprint.json");
    const std::string limit = std::to_string(keep3 + 100);
    const auto before = cputest::snapshot(root);
    const nlohmann::json dry = cli_json({"cache", "prune", "--max-size", limit, "--dry-run", "--json"}, cache.str());
    CHECK(dry.at("dry_run") == true);
    CHECK(dry.at("entries") == 3);
    CHECK(cputest::snapshot(root) == before);

    const njtest::ProcessResult text = cli({"cache", "prune", "--max-size", limit}, cache.str());
    INFO(text.output);
    CHECK(text.exit_code == 0);
    CHECK(contains(text.output, "removed " + slug(cfgs[5])));
    CHECK(contains(text.output, "prune: removed 3 entries"));
    // Oldest first: the output lists them in removal order.
    CHECK(text.output.find(slug(cfgs[5])) < text.output.find(slug(cfgs[4])));
    CHECK(text.output.find(slug(cfgs[4])) < text.output.find(slug(cfgs[3])));
    for (size_t i = 0; i < cfgs.size(); ++i) CHECK(fs::exists(entry_of(root, cfgs[i])) == (i < 3));
    CHECK(admin::scan(root).total_bytes <= keep3 + 100);
    // The survivors are intact.
    DiskCache dc = make_cache(root);
    for (size_t i = 0; i < 3; ++i) CHECK(dc.find(cfgs[i]));
  }
  SECTION("bad arguments") {
    const njtest::ProcessResult none = cli({"cache", "prune"}, cache.str());
    CHECK(none.exit_code != 0);
    CHECK(contains(none.output, "--max-size"));
    const njtest::ProcessResult bad = cli({"cache", "prune", "--max-size", "lots"}, cache.str());
    CHECK(bad.exit_code != 0);
    CHECK(contains(bad.output, "'lots'"));
    const njtest::ProcessResult bad_d = cli({"cache", "prune", "--older-than", "7"}, cache.str());
    CHECK(bad_d.exit_code != 0);
    CHECK(contains(bad_d.output, "--older-than"));
    CHECK(cputest::files_with_extension(root, ".cubin").size() == 6);
  }
}

TEST_CASE("cache clear: everything, one arch, or one fingerprint", "[cache][admin][cli]") {
  TempDir cache("admin-clear");
  const fs::path root = cache.path();
  fill(root, six_configs());
  // Another toolchain's directory: copy the tree under another fingerprint.
  const fs::path other = root / kCacheLayoutDir / "00000000deadbeef";
  fs::copy(fingerprint_dir(root), other, fs::copy_options::recursive);
  CHECK(cli_json({"cache", "ls", "--json"}, cache.str()).at("entries").size() == 12);

  SECTION("--arch") {
    const nlohmann::json r = cli_json({"cache", "clear", "--arch", "sm_80", "--json"}, cache.str());
    CHECK(r.at("removed") == 4);  // two per fingerprint
    CHECK(cli_json({"cache", "ls", "--json", "--arch", "sm_80"}, cache.str()).at("entries").empty());
    CHECK(cli_json({"cache", "ls", "--json"}, cache.str()).at("entries").size() == 8);
  }
  SECTION("--fingerprint") {
    const nlohmann::json r = cli_json({"cache", "clear", "--fingerprint", "00000000", "--json"}, cache.str());
    CHECK(r.at("removed") == 6);
    CHECK_FALSE(fs::exists(other));  // another toolchain's directory goes entirely
    CHECK(cli_json({"cache", "ls", "--json"}, cache.str()).at("entries").size() == 6);
  }
  SECTION("everything") {
    fs::create_directories(fingerprint_dir(root) / "quarantine");
    cputest::write_file(fingerprint_dir(root) / "quarantine" / "junk", "x");
    const njtest::ProcessResult r = cli({"cache", "clear"}, cache.str());
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.output, "clear: removed 12 entries"));
    CHECK(cputest::files_with_extension(root, ".cubin").empty());
    CHECK(cputest::files_with_extension(root, ".lock").empty());
    CHECK_FALSE(fs::exists(other));
    CHECK_FALSE(fs::exists(fingerprint_dir(root) / "quarantine"));
    // The current toolchain's directory stays usable by processes that have it open.
    CHECK(fs::is_directory(fingerprint_dir(root)));
    fill(root, {config(90, 4096)});
    CHECK(make_cache(root).find(config(90, 4096)));
  }
}

TEST_CASE("cache path prints the root, the fingerprint directory and the prebuilt caches",
          "[cache][admin][cli]") {
  TempDir cache("admin-path");
  TempDir pre("admin-path-prebuilt");
  fs::create_directories(fingerprint_dir(pre.path()));
  const std::string prebuilt = pre.str() + ":/nonexistent/normjit-prebuilt";
  const nlohmann::json j =
      cli_json({"cache", "path", "--json"}, cache.str(), 0, {{"NORMJIT_PREBUILT_CACHE_DIR", prebuilt}});
  CHECK(j.at("root") == cache.str());
  CHECK(j.at("fingerprint") == toolchain_fingerprint());
  CHECK(j.at("dir") == fingerprint_dir(cache.path()).string());
  REQUIRE(j.at("prebuilt").size() == 2);
  CHECK(j.at("prebuilt")[0].at("usable") == true);
  CHECK(j.at("prebuilt")[1].at("usable") == false);
  const njtest::ProcessResult text = cli({"cache", "path"}, cache.str());
  INFO(text.output);
  CHECK(text.exit_code == 0);
  CHECK(contains(text.output, "root:        " + cache.str()));
  CHECK(contains(text.output, fingerprint_dir(cache.path()).string()));
  // `cache path` creates nothing.
  CHECK(cputest::snapshot(cache.path()).empty());
  CHECK_FALSE(fs::exists(cache.path() / kCacheLayoutDir));
}

TEST_CASE("file lock: a holder may delete the lock file and waiters then lock the new file",
          "[cache][admin][lock]") {
  TempDir tmp("lock-remove");
  const std::string path = tmp.str() + "/k.lock";
  std::atomic<bool> b_locked{false}, release_b{false};
  auto a = std::make_unique<FileLock>(path, std::chrono::milliseconds(1000));
  REQUIRE(a->locked());
  std::thread b([&] {
    FileLock l(path, std::chrono::milliseconds(10000));
    b_locked = l.locked();
    while (!release_b) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(b_locked);
  a->remove_file();
  a.reset();  // B wakes up on the deleted file, notices, and locks the path's new file
  for (int i = 0; i < 400 && !b_locked; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(b_locked);
  CHECK(fs::exists(path));
  {
    FileLock c(path, std::chrono::milliseconds(100));
    CHECK_FALSE(c.locked());  // B holds the file the path names now: no second holder
    CHECK(contains(c.error(), "timed out"));
  }
  release_b = true;
  b.join();
  FileLock d(path, std::chrono::milliseconds(0));
  CHECK(d.locked());
}

TEST_CASE("prebuilt cache: searched first, never written, validated like the writable one",
          "[cache][prebuilt]") {
  TempDir pre("prebuilt-root");
  TempDir work("prebuilt-work");
  const KernelConfig c = config(90, 4096), d = config(90, 8192);
  fill(pre.path(), {c});
  const auto pre_before = cputest::snapshot(pre.path());

  SECTION("a hit there is a disk hit and is not copied") {
    DiskCache dc = make_cache(work.path(), false, {pre.path()});
    REQUIRE(dc.prebuilt_dirs().size() == 1);
    int builds = 0;
    CacheOutcome outcome;
    const Binary b = dc.get_or_build(c, [&] { ++builds; return reference(c); }, &outcome);
    CHECK(outcome == CacheOutcome::Hit);
    CHECK(builds == 0);
    CHECK(b.bytes == reference(c).bytes);
    const auto loc = dc.find(c);
    REQUIRE(loc);
    CHECK(loc->prebuilt);
    CHECK(cputest::files_with_extension(work.path(), ".cubin").empty());
    // A miss there is built into the writable cache, not the prebuilt one.
    dc.get_or_build(d, [&] { ++builds; return reference(d); }, &outcome);
    CHECK(outcome == CacheOutcome::Compiled);
    CHECK(builds == 1);
    CHECK(dc.find(d));
    CHECK_FALSE(dc.find(d)->prebuilt);
    CHECK(cputest::snapshot(pre.path()) == pre_before);
  }
  SECTION("an invalid prebuilt entry is skipped (not quarantined) and the kernel built") {
    const fs::path e = entry_of(pre.path(), c);
    std::string bytes = cputest::read_file(e);
    bytes[bytes.size() - 3] = char(bytes[bytes.size() - 3] ^ 4);
    cputest::write_file(e, bytes);
    const auto damaged = cputest::snapshot(pre.path());
    DiskCache dc = make_cache(work.path(), false, {pre.path()});
    int builds = 0;
    CacheOutcome outcome;
    CHECK(dc.get_or_build(c, [&] { ++builds; return reference(c); }, &outcome).bytes == reference(c).bytes);
    CHECK(outcome == CacheOutcome::Compiled);
    CHECK(builds == 1);
    CHECK(cputest::snapshot(pre.path()) == damaged);
    CHECK_FALSE(dc.find(c)->prebuilt);
  }
  SECTION("offline: a prebuilt hit serves; a miss names the prebuilt caches searched") {
    DiskCache dc = make_cache(work.path(), true, {pre.path()});
    CacheOutcome outcome;
    CHECK(dc.get_or_build(c, [] { return Binary{}; }, &outcome).bytes == reference(c).bytes);
    try {
      dc.get_or_build(d, [] { return Binary{}; }, &outcome);
      FAIL("no CacheMissError");
    } catch (const CacheMissError& e) {
      CHECK(contains(e.what(), "prebuilt " + fingerprint_dir(pre.path()).string()));
    }
  }
  SECTION("the same directory as prebuilt and writable cache is searched once") {
    DiskCache dc = make_cache(pre.path(), false, {pre.path()});
    CHECK(dc.prebuilt_dirs().empty());
  }
}

TEST_CASE("prebuilt cache from NORMJIT_PREBUILT_CACHE_DIR: a colon list, mismatches ignored with one warning",
          "[cache][prebuilt][env]") {
  TempDir pre("prebuilt-env");
  TempDir stale("prebuilt-env-stale");
  TempDir work("prebuilt-env-work");
  const KernelConfig c = config(90, 4096);
  fill(pre.path(), {c});
  // A cache made by another toolchain: it has a directory, but not for this fingerprint.
  fs::create_directories(stale.path() / kCacheLayoutDir / "0123456789abcdef" / "aa");
  const std::string list = stale.str() + ":" + pre.str() + ":/nonexistent/normjit-prebuilt";
  const auto pre_before = cputest::snapshot(pre.path());

  njtest::EnvList env = clean_env("");
  set(&env, "NJ_CHILD_CACHE", work.str());
  set(&env, "NJ_CHILD_CONFIGS", "90:4096,90:4096,90:2048");
  set(&env, "NORMJIT_PREBUILT_CACHE_DIR", list);
  const njtest::ProcessResult r = run_with({njtest::self_exe(), "[.cache_child]"}, env, {});
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(child_lines(r.output, "result " + slug(c) + " hit").size() == 2);
  CHECK(child_lines(r.output, "result " + slug(config(90, 2048)) + " compiled").size() == 1);
  CHECK(child_lines(r.output, "stats compiles=1 disk_hits=2").size() == 1);
  const std::string w = the_one_warning(r.output);
  CHECK(contains(w, stale.str()));
  CHECK(contains(w, "0123456789abcdef"));
  CHECK(contains(w, "/nonexistent/normjit-prebuilt"));
  CHECK(contains(w, toolchain_fingerprint()));
  CHECK(cputest::snapshot(pre.path()) == pre_before);
  CHECK_FALSE(fs::exists(entry_of(work.path(), c)));
  CHECK(fs::exists(entry_of(work.path(), config(90, 2048))));

  // `normjit prewarm` counts prebuilt hits as cached and writes nothing for them.
  const njtest::ProcessResult p =
      cli({"prewarm", "--arch", "sm_90", "--op", "rmsnorm", "--hidden", "4096", "--progress", "lines"},
          work.str(), {{"NORMJIT_PREBUILT_CACHE_DIR", pre.str()}});
  INFO(p.output);
  CHECK(p.exit_code == 0);
  CHECK(contains(p.output, "cached    " + slug(c) + "  (prebuilt)"));
  CHECK(contains(p.output, "1 already cached"));
  CHECK_FALSE(fs::exists(entry_of(work.path(), c)));
}
