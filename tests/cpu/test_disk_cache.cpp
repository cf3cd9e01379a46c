// DiskCache on a private root: miss -> compile -> hit, entry layout, every kind of corruption
// quarantined and rebuilt, unwritable roots, offline mode and its prewarm hint.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>

#include "cache_test_util.hpp"
#include "cpu_test_util.hpp"
#include "disk_cache.hpp"
#include "heuristics.hpp"
#include "kernel_config.hpp"
#include "normjit/errors.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"

using namespace normjit;
using namespace normjit::detail;
using cachetest::config;  // the config ops and prewarm choose
using cachetest::header_of;
using cachetest::make_cache;
using cachetest::reference;
using cachetest::with_header;
using cputest::contains;
using cputest::TempDir;
namespace fs = std::filesystem;

namespace {

// The build callback handed to the cache: compiles with NVRTC and counts its calls.
struct CountingBuild {
  KernelConfig cfg;
  int calls = 0;
  std::function<Binary()> fn() {
    return [this] {
      ++calls;
      return compile(cfg);
    };
  }
};

void check_no_temp_files(const fs::path& root) {
  const auto tmp = cputest::files_containing(root, ".tmp.");
  INFO("temp files left: " << tmp.size() << (tmp.empty() ? "" : " e.g. " + tmp.front()));
  CHECK(tmp.empty());
}

std::vector<std::string> quarantined(const DiskCache& dc) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dc.dir() / "quarantine", ec))
    out.push_back(e.path().filename().string());
  return out;
}

bool quarantine_has(const DiskCache& dc, const fs::path& original, std::string* bytes = nullptr) {
  for (const std::string& n : quarantined(dc)) {
    if (n.rfind(original.filename().string() + ".", 0) == 0) {
      if (bytes) *bytes = cputest::read_file(dc.dir() / "quarantine" / n);
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("disk cache: miss compiles, the next lookup hits without building", "[cache]") {
  TempDir tmp("cache-basic");
  const fs::path root = tmp.path() / "cache";
  const KernelConfig c = config(90);
  const CacheKey k = cache_key(c);
  DiskCache dc = make_cache(root);
  CHECK(dc.readable());
  CHECK(dc.writable());
  CHECK_FALSE(dc.offline());
  CHECK(dc.fingerprint() == toolchain_fingerprint());
  CHECK(std::regex_match(dc.fingerprint(), std::regex("[0-9a-f]{16}")));
  CHECK(dc.dir() == root / "v1" / toolchain_fingerprint());
  CHECK(fs::is_regular_file(dc.dir() / "fingerprint.json"));

  CountingBuild b{c};
  CacheOutcome outcome = CacheOutcome::Hit;
  const Binary first = dc.get_or_build(c, b.fn(), &outcome);
  CHECK(outcome == CacheOutcome::Compiled);
  CHECK(b.calls == 1);
  CHECK(first.bytes == reference(c).bytes);
  CHECK(first.target == "sm_90a");

  // Entry layout: <dir>/<key[0:2]>/<slug>-<key>.cubin with a .json sidecar holding the key.
  const fs::path entry = dc.entry_path(c, k);
  CHECK(entry.filename().string() == slug(c) + "-" + k.hex() + ".cubin");
  CHECK(entry.parent_path() == dc.dir() / k.hex().substr(0, 2));
  REQUIRE(fs::is_regular_file(entry));
  const fs::path side = dc.sidecar_path(c, k);
  CHECK(side.filename().string() == slug(c) + "-" + k.hex() + ".json");
  REQUIRE(fs::is_regular_file(side));
  const nlohmann::json sj = nlohmann::json::parse(cputest::read_file(side));
  CHECK(sj.at("key") == k.hex());
  CHECK(sj.at("slug") == slug(c));
  CHECK(sj.at("config") == nlohmann::json::parse(canonical_json(c)));
  CHECK(sj.at("target") == "sm_90a");

  const std::string file = cputest::read_file(entry);
  const CacheEntryHeader h = header_of(file);
  CHECK(std::string(h.magic, 8) == "NJITCUB1");
  CHECK(h.format_version == kCacheFormatVersion);
  CHECK(h.kind == std::uint32_t(Binary::Kind::Cubin));
  CHECK(h.arch_cc == 90);
  CHECK(h.header_size == sizeof(CacheEntryHeader));
  CHECK(h.key_hi == k.hi);
  CHECK(h.key_lo == k.lo);
  CHECK(h.payload_size == first.bytes.size());
  CHECK(file.substr(sizeof h) == first.bytes);

  const Binary second = dc.get_or_build(c, b.fn(), &outcome);
  CHECK(outcome == CacheOutcome::Hit);
  CHECK(b.calls == 1);
  CHECK(second.bytes == first.bytes);
  CHECK(second.target == "sm_90a");
  CHECK(second.kind == Binary::Kind::Cubin);

  // A fresh instance (another process) sees the entry too.
  DiskCache again = make_cache(root);
  CountingBuild b2{c};
  CHECK(again.get_or_build(c, b2.fn(), &outcome).bytes == first.bytes);
  CHECK(outcome == CacheOutcome::Hit);
  CHECK(b2.calls == 0);

  // Another config is another entry.
  const KernelConfig c80 = config(80);
  CountingBuild b80{c80};
  CHECK(dc.get_or_build(c80, b80.fn(), &outcome).target == "sm_80");
  CHECK(outcome == CacheOutcome::Compiled);
  CHECK(b80.calls == 1);
  CHECK(dc.entry_path(c80, cache_key(c80)) != entry);
  CHECK(cputest::files_with_extension(root, ".cubin").size() == 2);
  CHECK(quarantined(dc).empty());
  check_no_temp_files(root);
}

TEST_CASE("disk cache: every corrupted entry is quarantined and rebuilt", "[cache]") {
  std::random_device rd;
  const unsigned seed = rd();
  std::mt19937 rng(seed);
  INFO("random seed " << seed);

  const KernelConfig c = config(90);
  const KernelConfig c80 = config(80);             // same problem, another arch
  const KernelConfig other = config(90, 8192);     // another key, same arch

  struct Ctx {
    fs::path entry, side;
    std::string pristine;      // the valid entry file
    std::string pristine_side;
    std::string entry80, other_entry, other_side;
  };
  struct Case {
    const char* name;
    bool sidecar;  // the sidecar (not the .cubin) is the damaged file
    std::function<void(Ctx&)> corrupt;
  };
  const std::vector<Case> cases = {
      {"truncated to 10 bytes", false,
       [](Ctx& x) { cputest::write_file(x.entry, x.pristine.substr(0, 10)); }},
      {"empty file", false, [](Ctx& x) { cputest::write_file(x.entry, ""); }},
      {"truncated to header + half the payload", false,
       [](Ctx& x) {
         const size_t payload = x.pristine.size() - sizeof(CacheEntryHeader);
         cputest::write_file(x.entry, x.pristine.substr(0, sizeof(CacheEntryHeader) + payload / 2));
       }},
      {"one flipped payload byte", false,
       [&rng](Ctx& x) {
         std::string f = x.pristine;
         const size_t payload = f.size() - sizeof(CacheEntryHeader);
         const size_t at = sizeof(CacheEntryHeader) + rng() % payload;
         const unsigned char mask = static_cast<unsigned char>(1u << (rng() % 8));
         f[at] = char(f[at] ^ mask);
         cputest::write_file(x.entry, f);
       }},
      {"one extra byte appended", false,
       [](Ctx& x) { cputest::write_file(x.entry, x.pristine + "\x01"); }},
      {"wrong magic", false,
       [](Ctx& x) {
         std::string f = x.pristine;
         f[0] = 'X';
         cputest::write_file(x.entry, f);
       }},
      {"header checksum broken", false,
       [](Ctx& x) {
         std::string f = x.pristine;
         f[offsetof(CacheEntryHeader, payload_size)] ^= 0x10;
         cputest::write_file(x.entry, f);
       }},
      {"other format version (header re-hashed)", false,
       [](Ctx& x) {
         CacheEntryHeader h = header_of(x.pristine);
         h.format_version = kCacheFormatVersion + 1;
         cputest::write_file(x.entry, with_header(x.pristine, h));
       }},
      {"header for another arch: the sm_80 entry copied over", false,
       [](Ctx& x) { cputest::write_file(x.entry, x.entry80); }},
      {"header for another arch: only arch_cc changed (header re-hashed)", false,
       [](Ctx& x) {
         CacheEntryHeader h = header_of(x.pristine);
         h.arch_cc = 80;
         cputest::write_file(x.entry, with_header(x.pristine, h));
       }},
      {"unknown payload kind (header re-hashed)", false,
       [](Ctx& x) {
         CacheEntryHeader h = header_of(x.pristine);
         h.kind = 7;
         cputest::write_file(x.entry, with_header(x.pristine, h));
       }},
      {"entry of another key copied over", false,
       [](Ctx& x) { cputest::write_file(x.entry, x.other_entry); }},
      {"sidecar deleted", true, [](Ctx& x) { fs::remove(x.side); }},
      {"sidecar garbage", true,
       [&rng](Ctx& x) {
         std::string g(200, '\0');
         for (char& ch : g) ch = char(rng() % 256);
         cputest::write_file(x.side, "{ not json " + g);
       }},
      {"sidecar of another entry", true,
       [](Ctx& x) { cputest::write_file(x.side, x.other_side); }},
  };

  for (const Case& cs : cases) {
    INFO("case: " << cs.name);
    TempDir tmp("cache-corrupt");
    const fs::path root = tmp.path() / "cache";
    DiskCache dc = make_cache(root);
    CacheOutcome outcome;
    Ctx x;
    x.entry = dc.entry_path(c, cache_key(c));
    x.side = dc.sidecar_path(c, cache_key(c));

    CountingBuild b{c};
    dc.get_or_build(c, b.fn(), &outcome);
    REQUIRE(b.calls == 1);
    x.pristine = cputest::read_file(x.entry);
    x.pristine_side = cputest::read_file(x.side);
    {
      CountingBuild b80{c80};
      dc.get_or_build(c80, b80.fn(), &outcome);
      x.entry80 = cputest::read_file(dc.entry_path(c80, cache_key(c80)));
      CountingBuild bo{other};
      dc.get_or_build(other, bo.fn(), &outcome);
      x.other_entry = cputest::read_file(dc.entry_path(other, cache_key(other)));
      x.other_side = cputest::read_file(dc.sidecar_path(other, cache_key(other)));
    }

    cs.corrupt(x);
    const std::string damaged = cputest::read_file(cs.sidecar ? x.side : x.entry);
    const bool side_exists = fs::exists(x.side);

    const Binary got = dc.get_or_build(c, b.fn(), &outcome);
    CHECK(outcome == CacheOutcome::Compiled);
    CHECK(b.calls == 2);
    CHECK(got.bytes == reference(c).bytes);
    CHECK(got.target == "sm_90a");

    // The bad file was moved aside (not loaded, not silently deleted).
    std::string moved;
    if (!cs.sidecar) {
      CHECK(quarantine_has(dc, x.entry, &moved));
      CHECK(moved == damaged);
    } else {
      CHECK(quarantine_has(dc, x.entry));
      if (side_exists) {
        CHECK(quarantine_has(dc, x.side, &moved));
        CHECK(moved == damaged);
      }
    }
    // The rebuilt entry is valid: byte-identical to the original one, and it hits.
    CHECK(cputest::read_file(x.entry) == x.pristine);
    CHECK(nlohmann::json::parse(cputest::read_file(x.side)).at("key") == cache_key(c).hex());
    const Binary again = dc.get_or_build(c, b.fn(), &outcome);
    CHECK(outcome == CacheOutcome::Hit);
    CHECK(b.calls == 2);
    CHECK(again.bytes == reference(c).bytes);
    // The neighbours were not touched.
    CHECK(cputest::read_file(dc.entry_path(other, cache_key(other))) == x.other_entry);
    CHECK(cputest::read_file(dc.entry_path(c80, cache_key(c80))) == x.entry80);
    check_no_temp_files(root);
  }
}

TEST_CASE("disk cache: an unusable root still returns binaries (memory only)", "[cache]") {
  TempDir tmp("cache-readonly");
  fs::path root;
  if (::geteuid() != 0) {
    // Permission bits stop an ordinary user from creating the cache directories.
    root = tmp.path() / "ro";
    fs::create_directory(root);
    REQUIRE(::chmod(root.c_str(), 0555) == 0);
  } else {
    // root ignores permission bits: put the root under a regular file instead.
    cputest::write_file(tmp.path() / "file", "not a directory\n");
    root = tmp.path() / "file" / "cache";
  }
  const auto before = cputest::snapshot(tmp.path());
  const KernelConfig c = config(90);
  DiskCache dc = make_cache(root);
  CHECK_FALSE(dc.writable());
  CHECK_FALSE(dc.readable());

  CountingBuild b{c};
  CacheOutcome outcome = CacheOutcome::Hit;
  const Binary got = dc.get_or_build(c, b.fn(), &outcome);
  CHECK(outcome == CacheOutcome::Compiled);
  CHECK(b.calls == 1);
  CHECK(got.bytes == reference(c).bytes);
  CHECK(got.target == "sm_90a");
  // Nothing is kept on disk, so the next lookup builds again.
  CHECK(dc.get_or_build(c, b.fn(), &outcome).bytes == reference(c).bytes);
  CHECK(b.calls == 2);
  CHECK(cputest::snapshot(tmp.path()) == before);
  check_no_temp_files(tmp.path());

  if (::geteuid() != 0) {
    // A warm cache made read-only afterwards: entries are still used.
    const fs::path warm = tmp.path() / "warm";
    {
      DiskCache w = make_cache(warm);
      CountingBuild bw{c};
      w.get_or_build(c, bw.fn(), &outcome);
    }
    const fs::path fp_dir = warm / "v1" / toolchain_fingerprint();
    REQUIRE(::chmod(fp_dir.c_str(), 0555) == 0);
    DiskCache ro = make_cache(warm);
    CHECK(ro.readable());
    CHECK_FALSE(ro.writable());
    CountingBuild br{c};
    CHECK(ro.get_or_build(c, br.fn(), &outcome).bytes == reference(c).bytes);
    CHECK(outcome == CacheOutcome::Hit);
    CHECK(br.calls == 0);
  }
}

TEST_CASE("disk cache: offline mode throws CacheMissError on a cold cache and hits a warm one",
          "[cache][offline]") {
  TempDir tmp("cache-offline");
  const fs::path root = tmp.path() / "cache";
  const KernelConfig c = config(90, 5120);
  CacheOutcome outcome;

  DiskCache cold = make_cache(root, /*offline=*/true);
  CHECK(cold.offline());
  CountingBuild b{c};
  bool thrown = false;
  try {
    cold.get_or_build(c, b.fn(), &outcome);
  } catch (const CacheMissError& e) {
    thrown = true;
    INFO(e.what());
    CHECK(contains(e.what(), slug(c)));
    CHECK(contains(e.what(), "normjit prewarm"));
    CHECK(contains(e.what(), e.prewarm_command()));
    CHECK(e.slug() == slug(c));
    CHECK(e.prewarm_command().rfind("normjit prewarm", 0) == 0);
    CHECK(contains(e.prewarm_command(), "--hidden 5120"));
    CHECK(contains(e.prewarm_command(), "--op rmsnorm"));
  }
  CHECK(thrown);
  CHECK(b.calls == 0);
  CHECK(cputest::files_with_extension(root, ".cubin").empty());

  // Warm it (online), then an offline cache hits without building.
  {
    DiskCache online = make_cache(root);
    CountingBuild bw{c};
    online.get_or_build(c, bw.fn(), &outcome);
    CHECK(bw.calls == 1);
  }
  DiskCache warm = make_cache(root, /*offline=*/true);
  const Binary got = warm.get_or_build(c, b.fn(), &outcome);
  CHECK(outcome == CacheOutcome::Hit);
  CHECK(b.calls == 0);
  CHECK(got.bytes == reference(c).bytes);

  // A damaged entry is never loaded offline: it is a miss, not a crash or a bad binary.
  const fs::path entry = warm.entry_path(c, cache_key(c));
  cputest::write_file(entry, cputest::read_file(entry).substr(0, 100));
  CHECK_THROWS_AS(warm.get_or_build(c, b.fn(), &outcome), CacheMissError);
  CHECK(b.calls == 0);

  // Memory-only and offline: always a miss.
  DiskCache none = make_cache(fs::path(), /*offline=*/true);
  CHECK_THROWS_AS(none.get_or_build(c, b.fn(), &outcome), CacheMissError);
  CHECK(b.calls == 0);
  check_no_temp_files(root);
}

TEST_CASE("disk cache: the prewarm command of an offline miss produces exactly the missing kernel",
          "[cache][offline][cli]") {
  struct Probe {
    const char* name;
    KernelConfig cfg;
  };
  const std::vector<Probe> probes = {
      {"default rmsnorm bf16 sm_90", config(90, 4096)},
      {"gemma per-head f16 with f32 weight sm_80",
       config(80, 111, Op::gemma_rmsnorm, DType::f16, DType::f32, /*rank3=*/true)},
      {"fused add f32 sm_100", config(100, 2048, Op::fused_add_rmsnorm, DType::f32, DType::f32)},
      // A call whose tensors are only 4-byte aligned selects 2-wide bf16 vectors.
      {"rmsnorm bf16 with max_vec 2 (misaligned tensors) sm_90",
       config(90, 4096, Op::rmsnorm, DType::bf16, DType::bf16, false, /*max_vec=*/2)},
  };
  for (const Probe& p : probes) {
    INFO("probe: " << p.name << "\nconfig: " << canonical_json(p.cfg));
    TempDir tmp("cache-prewarm-hint");
    const fs::path root = tmp.path() / "cache";
    CacheOutcome outcome;
    std::string cmd;
    try {
      DiskCache offline = make_cache(root, true);
      CountingBuild b{p.cfg};
      offline.get_or_build(p.cfg, b.fn(), &outcome);
    } catch (const CacheMissError& e) {
      cmd = e.prewarm_command();
    }
    INFO("command: " << cmd);
    REQUIRE(cmd.rfind("normjit prewarm", 0) == 0);
    std::vector<std::string> argv;
    std::istringstream ss(cmd);
    for (std::string w; ss >> w;) argv.push_back(w);
    argv[0] = cputest::cli_path();
    const njtest::ProcessResult r = njtest::run(argv, cputest::cli_env(root.string()));
    INFO("output:\n" << r.output);
    REQUIRE(r.exit_code == 0);
    DiskCache offline = make_cache(root, true);
    CountingBuild b{p.cfg};
    bool hit = false;
    try {
      hit = offline.get_or_build(p.cfg, b.fn(), &outcome).bytes == reference(p.cfg).bytes &&
            outcome == CacheOutcome::Hit;
    } catch (const CacheMissError& e) {
      INFO("still missing after running the suggested command: " << e.what());
      CHECK(false);
    }
    CHECK(hit);
  }
}
