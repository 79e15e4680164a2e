// Compares hardware tables written by mufu_dump with ptxfu's interpolation
// model: loads DIR/<function>.tab for the four half functions and prints, per
// function, how many outputs differ from the model and by how many units of
// the last place at most. Exit status: 0 every table loaded and equal to the
// model, 1 a table missing, a file failed to load (the loader's file:line
// message is printed) or any output differs, 77 no tables in DIR (skip).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "approx/half_table.h"

namespace {

using ptxfu::approx::HalfFn;

// Distance in representable values between two 16-bit patterns of the same
// sign-magnitude format (NaNs compare as equal when both are NaN).
int ordinal(uint16_t v) { return (v & 0x8000) ? -(v & 0x7fff) : (v & 0x7fff); }

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  int loaded = 0;
  int missing = 0;
  int differing_tables = 0;
  for (size_t i = 0; i < ptxfu::approx::kHalfFnCount; ++i) {
    const auto fn = static_cast<HalfFn>(i);
    const std::string path = dir + "/" + std::string(ptxfu::approx::half_fn_name(fn)) + ".tab";
    if (!std::ifstream(path)) {
      ++missing;
      continue;
    }
    try {
      const ptxfu::approx::LoadedTable t = ptxfu::approx::read_table_file(path);
      if (t.fn != fn) {
        std::fprintf(stderr, "%s: holds %s\n", path.c_str(), std::string(ptxfu::approx::half_fn_name(t.fn)).c_str());
        return 1;
      }
      const ptxfu::approx::HalfTable model = ptxfu::approx::model_table(fn);
      int differ = 0;
      int worst = 0;
      for (size_t x = 0; x < t.table.size(); ++x) {
        if (t.table[x] == model[x]) continue;
        ++differ;
        const int d = std::abs(ordinal(t.table[x]) - ordinal(model[x]));
        if (d > worst) worst = d;
      }
      std::printf("%s: %d of 65536 outputs differ from the model, by at most %d ulp\n",
                  std::string(ptxfu::approx::half_fn_name(fn)).c_str(), differ, worst);
      ++loaded;
      if (differ > 0) ++differing_tables;
    } catch (const ptxfu::approx::TableError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
  }
  if (loaded == 0) {
    std::printf("no tables in %s; skipped\n", dir.c_str());
    return 77;
  }
  return missing == 0 && differing_tables == 0 ? 0 : 1;
}
