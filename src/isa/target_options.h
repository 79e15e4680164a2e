// Resolves --target / --ptx-version / --add-feature / --remove-feature into
// the capabilities the legality checker consults.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "isa/decode.h"

namespace ptxfu::isa {

struct TargetOptions {
  std::optional<std::string> target;       // --target sm_NN
  std::optional<std::string> ptx_version;  // --ptx-version X.Y
  std::vector<std::string> add_features;   // --add-feature ID
  std::vector<std::string> remove_features;
};

// `fallback_target`/`fallback_ptx` come from a file's directives; the
// command-line options win. Without any target, `default_to_newest` picks the
// newest target the table knows (eval), else it is an error (check).
std::optional<Capabilities> resolve_capabilities(const TargetOptions& options,
                                                 const std::optional<std::string>& fallback_target,
                                                 std::optional<uint16_t> fallback_ptx, bool default_to_newest,
                                                 std::string& error);

}  // namespace ptxfu::isa
