#include "cubin_info.hpp"

#include <cstdint>
#include <cstring>

namespace normjit::detail {
namespace {

// ELF64, little-endian (every cubin NVRTC writes). Offsets from the ELF specification.
constexpr std::uint32_t kShtSymtab = 2;
constexpr std::uint32_t kShtCudaInfo = 0x70000000;  // .nv.info, .nv.info.<kernel>
constexpr std::size_t kShdrSize = 64, kSymSize = 24;
// .nv.info records: a format byte, an attribute byte, then a 2-byte value or (EIFMT_SVAL) a
// 2-byte size and that many bytes. REGCOUNT and MIN_STACK_SIZE carry (symbol index, value).
constexpr std::uint8_t kFormatSval = 0x04;
constexpr std::uint8_t kAttrMinStackSize = 0x12, kAttrRegcount = 0x2f;

class Bytes {
 public:
  explicit Bytes(std::string_view b) : b_(b) {}
  bool has(std::uint64_t off, std::uint64_t n) const { return off <= b_.size() && n <= b_.size() - off; }
  template <class T> bool get(std::uint64_t off, T* v) const {
    if (!has(off, sizeof(T))) return false;
    std::memcpy(v, b_.data() + off, sizeof(T));
    return true;
  }
  // The NUL-terminated string at off, within [off, end); false when unterminated.
  bool str(std::uint64_t off, std::uint64_t end, std::string_view* s) const {
    if (end > b_.size() || off >= end) return false;
    const void* nul = std::memchr(b_.data() + off, 0, end - off);
    if (!nul) return false;
    *s = std::string_view(b_.data() + off, static_cast<const char*>(nul) - (b_.data() + off));
    return true;
  }

 private:
  std::string_view b_;
};

struct Section {
  std::uint32_t type = 0, link = 0;
  std::uint64_t offset = 0, size = 0;
};

}  // namespace

std::optional<KernelResources> kernel_resources(std::string_view cubin, std::string_view kernel) {
  const Bytes b(cubin);
  if (!b.has(0, 64) || std::memcmp(cubin.data(), "\x7f" "ELF", 4) != 0 || cubin[4] != 2 || cubin[5] != 1)
    return std::nullopt;
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0;
  if (!b.get(0x28, &shoff) || !b.get(0x3a, &shentsize) || !b.get(0x3c, &shnum) || shentsize != kShdrSize ||
      !b.has(shoff, std::uint64_t(shnum) * kShdrSize))
    return std::nullopt;
  auto section = [&](std::uint32_t i) {
    Section s;
    const std::uint64_t h = shoff + std::uint64_t(i) * kShdrSize;
    b.get(h + 4, &s.type);
    b.get(h + 24, &s.offset);
    b.get(h + 32, &s.size);
    b.get(h + 40, &s.link);
    return s;
  };

  // The kernel's index in the symbol table.
  std::optional<std::uint32_t> symbol;
  for (std::uint32_t i = 0; i < shnum && !symbol; ++i) {
    const Section st = section(i);
    if (st.type != kShtSymtab || st.link >= shnum || !b.has(st.offset, st.size)) continue;
    const Section names = section(st.link);
    if (!b.has(names.offset, names.size)) continue;
    for (std::uint64_t k = 0; k < st.size / kSymSize; ++k) {
      std::uint32_t name = 0;
      std::string_view s;
      if (b.get(st.offset + k * kSymSize, &name) && b.str(names.offset + name, names.offset + names.size, &s) &&
          s == kernel) {
        symbol = static_cast<std::uint32_t>(k);
        break;
      }
    }
  }
  if (!symbol) return std::nullopt;

  // REGCOUNT must be there; without MIN_STACK_SIZE the stack is taken as 0.
  std::optional<int> registers;
  int stack = 0;
  for (std::uint32_t i = 0; i < shnum; ++i) {
    const Section info = section(i);
    if (info.type != kShtCudaInfo || !b.has(info.offset, info.size)) continue;
    for (std::uint64_t p = info.offset, end = info.offset + info.size; p + 4 <= end;) {
      std::uint8_t format = 0, attr = 0;
      std::uint16_t size = 0;
      b.get(p, &format);
      b.get(p + 1, &attr);
      b.get(p + 2, &size);
      if (format != kFormatSval) {
        p += 4;
        continue;
      }
      if (p + 4 + size > end) break;
      std::uint32_t sym = 0, value = 0;
      if (size == 8 && b.get(p + 4, &sym) && b.get(p + 8, &value) && sym == *symbol) {
        if (attr == kAttrRegcount) registers = static_cast<int>(value);
        if (attr == kAttrMinStackSize) stack = static_cast<int>(value);
      }
      p += 4 + size;
    }
  }
  if (!registers) return std::nullopt;
  return KernelResources{*registers, stack};
}

}  // namespace normjit::detail
