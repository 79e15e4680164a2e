// Fuzz target: the sweep spec loader (sweep::load_spec_text), which
// validates every point of the product (config built and checked) before
// anything runs. Any input either loads, with at least one point and each
// point's choices inside its parameters and its base one of the spec's, or throws models::ConfigError naming
// the file; any other exception escapes and is reported as a crash.
// The spec's origin is "fuzz.yaml", so relative paths in it (base:,
// programs:) resolve against the working directory (the repository root
// under scripts/fuzz.sh).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sweep/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8 * 1024) return -1;  // specs are small; keep the search there
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string origin = "fuzz.yaml";
  try {
    const ptxfu::sweep::Spec spec = ptxfu::sweep::load_spec_text(text, origin);
    for (const auto& p : spec.points) {
      bool ok =
          p.program < spec.programs.size() && p.base < spec.bases.size() && p.choice.size() == spec.parameters.size();
      for (size_t i = 0; ok && i < p.choice.size(); ++i) ok = p.choice[i] < spec.parameters[i].values.size();
      if (!ok) {
        std::fprintf(stderr, "fuzz_sweep_spec: a loaded point is out of range\n");
        std::abort();
      }
    }
  } catch (const ptxfu::models::ConfigError& e) {
    if (std::string(e.what()).find("fuzz.yaml") == std::string::npos) {
      std::fprintf(stderr, "fuzz_sweep_spec: error does not name the file: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
