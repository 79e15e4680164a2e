// Compares hardware tables written by mufu_dump on a GPU with what ptxfu
// computes (its built-in H100 outputs) and with the interpolation model:
// loads DIR/<function>.tab for the four half functions and prints, per
// function, how many outputs differ from each and by how many units of the
// last place at most. Exit status: 0 every table loaded and equal to ptxfu's
// outputs, 1 a table missing, a file failed to load (the loader's file:line
// message is printed) or any output differs from ptxfu's, 77 no tables in DIR
// (skip).
#include <algorithm>
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

struct Difference {
  int count = 0;  // outputs that differ
  int worst = 0;  // the largest distance, in ulps
};

Difference compare(const ptxfu::approx::HalfTable& a, const ptxfu::approx::HalfTable& b) {
  Difference d;
  for (size_t x = 0; x < a.size(); ++x) {
    if (a[x] == b[x]) continue;
    ++d.count;
    d.worst = std::max(d.worst, std::abs(ordinal(a[x]) - ordinal(b[x])));
  }
  return d;
}

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
      ptxfu::approx::HalfTable ours{};
      for (size_t x = 0; x < ours.size(); ++x) ours[x] = ptxfu::approx::builtin_half(fn, static_cast<uint16_t>(x));
      const std::string name(ptxfu::approx::half_fn_name(fn));
      const Difference from_ours = compare(t.table, ours), from_model = compare(t.table, model);
      std::printf(
          "%s: %d of 65536 outputs differ from ptxfu's (the H100's), by at most %d ulp; %d from the "
          "interpolation model, by at most %d ulp\n",
          name.c_str(), from_ours.count, from_ours.worst, from_model.count, from_model.worst);
      ++loaded;
      if (from_ours.count > 0) ++differing_tables;
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
