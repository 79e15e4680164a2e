// Where NVIDIA's ptxas is, for the tests that compare with it: $PTXFU_PTXAS,
// else the CUDA install. Empty when there is none (the tests then skip).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ptxfu::testing_support {

inline std::string find_ptxas() {
  if (const char* env = std::getenv("PTXFU_PTXAS")) return env;
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::FILE* f = std::fopen(p, "rb")) {
      std::fclose(f);
      return p;
    }
  return "";
}

}  // namespace ptxfu::testing_support
