// Fuzz target: the YAML architecture-config loader (models::load_config_text).
// Any input either loads or throws models::ConfigError with a message that
// names the origin; any other exception (a yaml-cpp conversion error, a
// std::bad_alloc, ...) escapes and is reported as a crash. A config that
// loads has values inside the ranges the loader promises.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "models/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return -1;  // configs are small; keep the search there
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ptxfu::models::ArchConfig c = ptxfu::models::load_config_text(text, "fuzz.yaml");
    bool ok = c.sub_partitions >= 1 && c.sub_partitions <= 8 && c.max_warps >= 1 && c.max_warps <= 256 &&
              c.issue_width >= 1 && c.issue_width <= 4;
    for (const auto& u : c.units) ok &= u.lanes >= 1 && u.lanes <= 32 && 32 % u.lanes == 0 && u.latency >= 1;
    for (const auto* t : {&c.multi_instruction, &c.half_precision})
      ok &= t->lanes >= 1 && t->lanes <= 32 && 32 % t->lanes == 0 && t->latency >= 1;
    if (!ok) {
      std::fprintf(stderr, "fuzz_config: a loaded config has a value out of range\n");
      std::abort();
    }
  } catch (const ptxfu::models::ConfigError& e) {
    if (std::string(e.what()).rfind("fuzz.yaml", 0) != 0) {
      std::fprintf(stderr, "fuzz_config: error does not name the file: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
