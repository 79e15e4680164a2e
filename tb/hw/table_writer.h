// Writes one hardware table in ptxfu's format (src/approx/half_table.h) with
// plain stdio, so that mufu_dump.cu (compiled by nvcc) and the unit tests
// (compiled by the host compiler) share the very same writer. The file is
// written as PATH.partial and renamed to PATH only when complete.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace ptxfu::hw {

// outputs[x] is the result for input bit pattern x, x = 0 .. 65535.
inline bool write_half_table_file(const std::string& path, const char* function, const std::string& source,
                                  const uint16_t* outputs) {
  const std::string tmp = path + ".partial";
  FILE* fp = std::fopen(tmp.c_str(), "w");
  if (!fp) {
    std::perror(tmp.c_str());
    return false;
  }
  std::fprintf(fp, "# ptxfu MUFU table: one line per input, 0xINPUT 0xOUTPUT (bit patterns)\n");
  std::fprintf(fp, "# source: %s\n", source.c_str());
  std::fprintf(fp, "function %s\n", function);
  for (unsigned i = 0; i < 65536; ++i) std::fprintf(fp, "0x%04x 0x%04x\n", i, outputs[i]);
  const bool ok = std::fflush(fp) == 0 && !std::ferror(fp);
  if (std::fclose(fp) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::perror(path.c_str());
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace ptxfu::hw
