#include "isa/target_options.h"

#include <fmt/format.h>

namespace ptxfu::isa {

std::optional<Capabilities> resolve_capabilities(const TargetOptions& options,
                                                 const std::optional<std::string>& fallback_target,
                                                 std::optional<uint16_t> fallback_ptx, bool default_to_newest,
                                                 std::string& error) {
  std::optional<Target> target;
  const auto& name = options.target ? options.target : fallback_target;
  if (name) {
    target = find_target(*name);
    if (!target) {
      error =
          fmt::format("unknown target '{}' (expected sm_53 ... sm_121, optionally with an 'a' or 'f' suffix)", *name);
      return std::nullopt;
    }
  } else if (default_to_newest) {
    target = newest_target();
  } else {
    error = "no target: give --target sm_NN or a .target directive";
    return std::nullopt;
  }
  uint16_t ptx = fallback_ptx.value_or(kNewestPtx);
  if (options.ptx_version) {
    const auto v = parse_ptx_version(*options.ptx_version);
    if (!v) {
      error = fmt::format("bad --ptx-version '{}' (expected MAJOR.MINOR, e.g. 8.6)", *options.ptx_version);
      return std::nullopt;
    }
    ptx = *v;
  }
  if (ptx > kNewestPtx) {
    error = fmt::format("PTX ISA .version {} is newer than the newest ptxfu knows ({})", format_ptx_version(ptx),
                        format_ptx_version(kNewestPtx));
    return std::nullopt;
  }
  if (ptx < target->min_ptx) {
    error = fmt::format("PTX .version {} does not support .target {}", format_ptx_version(ptx), target->name);
    return std::nullopt;
  }
  if (!apply_feature_overrides(target->mask, options.add_features, options.remove_features, error)) return std::nullopt;
  return capabilities_of(*target, ptx);
}

}  // namespace ptxfu::isa
