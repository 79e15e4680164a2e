// tensor_probe's H100 numerics (tb/data/tensor-probe-h100.tar.xz, extracted
// at configure time) against ptxfu's engine: every tile of every form must
// agree bit for bit (docs/mma.md, "The sm_90 probe"). The archive is
// committed, so a missing file, form or tile is a failure, not a skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "probe_check.h"
#include "probe_host.h"

namespace ptxfu::probe_check {
namespace {

std::vector<std::string> numerics_files() {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(PTXFU_PROBE_DATA_DIR, ec)) return files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(PTXFU_PROBE_DATA_DIR, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("numerics_", 0) == 0 && e.path().extension() == ".txt") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The reading a form's D must match on every tile: the engine (dense forms),
// the ISA's popcount definition (b1), and for mma.sp the stored K/2 values
// against the B rows the metadata picks as one dense m16n8k(K/2), measured
// on the H100. The other mma.sp reading (the dense A with its zeros as two
// chained m16n8k(K/2)) must fail somewhere, or the data would not tell the
// two apart.
const Agreement* find_reading(const FormReport& r, const std::string& prefix) {
  for (const Agreement& g : r.readings) {
    if (g.reference.rfind(prefix, 0) == 0) return &g;
  }
  return nullptr;
}

void expect_form_reproduced(const FormReport& r, const probe::FormInfo& info) {
  ASSERT_TRUE(r.error.empty()) << r.error;
  const char* want = info.bitop != probe::BitOp::none ? "host b1" : info.sparse ? "engine, stored A" : "engine";
  const Agreement* g = find_reading(r, want);
  ASSERT_NE(g, nullptr) << r.id << ": no reading '" << want << "'";
  EXPECT_EQ(g->tiles, static_cast<std::size_t>(info.default_tiles)) << r.id;
  EXPECT_EQ(g->tiles_matched, g->tiles) << describe(r);
  EXPECT_EQ(g->elements_matched, g->elements) << r.id;
  if (info.sparse) {
    const Agreement* dense = find_reading(r, "engine, dense A");
    ASSERT_NE(dense, nullptr);
    EXPECT_LT(dense->tiles_matched, dense->tiles) << r.id << ": the data does not tell the mma.sp readings apart";
  }
}

TEST(TensorProbeData, EveryTileAgreesWithTheEngine) {
  const std::vector<std::string> files = numerics_files();
  ASSERT_FALSE(files.empty()) << "no probe data in " << PTXFU_PROBE_DATA_DIR
                              << " (extracted from tb/data/tensor-probe-h100.tar.xz at configure time)";
  std::set<std::string> seen;
  for (const std::string& path : files) {
    const FormReport r = check_form(read_numerics(path));
    std::printf("%s", describe(r).c_str());
    ::testing::Test::RecordProperty(r.id, describe(r));
    const probe::FormInfo* info = probe::find_form(r.id);
    ASSERT_NE(info, nullptr) << path << ": form '" << r.id << "' is not one tensor_probe runs";
    EXPECT_TRUE(seen.insert(r.id).second) << r.id << " twice";
    expect_form_reproduced(r, *info);
  }
  for (const probe::FormInfo& f : probe::kForms) EXPECT_EQ(seen.count(f.id), 1u) << f.id << ": no numerics file";
}

}  // namespace
}  // namespace ptxfu::probe_check
