#include "arch.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "normjit/errors.hpp"

namespace normjit::detail {

std::string Arch::target() const {
  return fmt::format("sm_{}{}", cc, arch_specific() ? "a" : "");
}

Arch Arch::parse(std::string_view text) {
  std::string_view s = text;
  for (std::string_view prefix : {"sm_", "compute_", "sm", "SM"}) {
    if (s.substr(0, prefix.size()) == prefix) {
      s.remove_prefix(prefix.size());
      break;
    }
  }
  if (!s.empty() && (s.back() == 'a' || s.back() == 'f')) s.remove_suffix(1);
  int major = 0, minor = 0;
  bool ok = !s.empty();
  if (ok && s.find('.') != std::string_view::npos) {
    const size_t dot = s.find('.');
    ok = dot > 0 && dot + 2 == s.size() && std::isdigit(s[dot + 1]);
    for (size_t i = 0; ok && i < dot; ++i) ok = std::isdigit(static_cast<unsigned char>(s[i]));
    ok = ok && dot <= 2;
    if (ok) {
      std::from_chars(s.data(), s.data() + dot, major);
      minor = s[dot + 1] - '0';
    }
  } else {
    for (char c : s) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    ok = ok && s.size() >= 2 && s.size() <= 4;  // sm_80 ... sm_1xyz
    if (ok) {
      int v = 0;
      std::from_chars(s.data(), s.data() + s.size(), v);
      major = v / 10;
      minor = v % 10;
    }
  }
  if (!ok || major < 8 || major > 99) {
    throw ValidationError(ValidationError::Kind::InvalidArgument,
                          fmt::format("normjit: arch: expected sm_80 or newer (e.g. sm_80, sm_90, "
                                      "sm_90a, sm_100, 9.0), got '{}'",
                                      text));
  }
  return Arch{major * 10 + minor};
}

}  // namespace normjit::detail
