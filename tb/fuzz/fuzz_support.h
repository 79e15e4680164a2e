// What the PTX fuzz targets share: a failed property aborts with a message
// (libFuzzer keeps the input), and the capabilities of a named target.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "isa/target_options.h"

namespace ptxfu::fuzz {

[[noreturn]] inline void fail(const char* target, const char* what, std::string_view detail) {
  std::fprintf(stderr, "%s: %s: '%.*s'\n", target, what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline isa::Capabilities capabilities_named(const char* target, const char* name) {
  isa::TargetOptions o;
  o.target = name;
  std::string error;
  const auto c = isa::resolve_capabilities(o, std::nullopt, std::nullopt, false, error);
  if (!c) fail(target, "no capabilities", error);
  return *c;
}

}  // namespace ptxfu::fuzz
