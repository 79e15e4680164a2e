// tensor_probe's H100 numerics (tb/data/tensor-probe-h100.tar.xz, extracted
// at configure time) against ptxfu's engine: every tile of every form. Skips
// while the archive is absent: the coordinator adds it after the GPU run
// (docs/mma.md, "The sm_90 probe").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "probe_check.h"

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

TEST(TensorProbeData, EveryTileAgreesWithTheEngine) {
  const std::vector<std::string> files = numerics_files();
  if (files.empty())
    GTEST_SKIP() << "no probe data in " << PTXFU_PROBE_DATA_DIR
                 << " (tb/data/tensor-probe-h100.tar.xz is added after the GPU run)";
  for (const std::string& path : files) {
    const FormReport r = check_form(read_numerics(path));
    std::printf("%s", describe(r).c_str());
    ::testing::Test::RecordProperty(r.id, describe(r));
    ASSERT_TRUE(r.error.empty()) << r.error;
    // mma.sp: two readings of what the hardware does; one of them must hold.
    const bool any = std::any_of(r.readings.begin(), r.readings.end(), [](const Agreement& g) { return g.all(); });
    EXPECT_TRUE(any) << describe(r);
  }
}

}  // namespace
}  // namespace ptxfu::probe_check
