// Reads a whole text file with a size limit, so that a path to something
// huge or endless (a log by mistake, /dev/zero, /dev/urandom) is refused with
// a clear error after limit + 1 bytes instead of being read until memory
// runs out (std::bad_alloc). Shared by the config, program and sweep loaders.
#pragma once
#include <cstddef>
#include <fstream>
#include <string>

namespace ptxfu::models {

inline constexpr size_t kMaxConfigBytes = size_t{1} << 20;    // configs and sweep specs: 1 MiB
inline constexpr size_t kMaxProgramBytes = size_t{16} << 20;  // sim programs: 16 MiB

enum class ReadStatus { ok, cannot_open, too_large };

inline ReadStatus read_text_file(const std::string& path, size_t limit, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ReadStatus::cannot_open;
  out.clear();
  char buf[1 << 16];
  while (in.read(buf, sizeof buf), in.gcount() > 0) {
    out.append(buf, static_cast<size_t>(in.gcount()));
    if (out.size() > limit) return ReadStatus::too_large;
  }
  return ReadStatus::ok;
}

}  // namespace ptxfu::models
