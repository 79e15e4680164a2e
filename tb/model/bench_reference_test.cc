// For every shipped config, the built-in benches reproduce the published
// figures of configs/references.yaml (as the config loader attaches them):
// dependent latency within +-1 cycle, throughput within 10%. A bench with no
// published figure for a part has no entry.
#include <gtest/gtest.h>

#include <cmath>

#include "models/microbench.h"

namespace ptxfu::models {
namespace {

TEST(BenchReference, EveryConfigReproducesItsReferences) {
  std::vector<ArchConfig> configs;
  for (const auto& e : embedded_configs())
    configs.push_back(load_config_text(std::string(e.text), std::string(e.name)));
  ASSERT_GE(configs.size(), 7u);
  size_t checked = 0;
  for (const BenchResult& r : run_benches(configs)) {
    if (!r.reference) continue;
    EXPECT_FALSE(r.reference->source.empty()) << r.config << " " << r.bench;
    if (r.reference->latency) {
      EXPECT_LE(std::fabs(r.latency - *r.reference->latency), 1.0) << r.config << " " << r.bench;
      ++checked;
    }
    if (r.reference->throughput) {
      EXPECT_LE(std::fabs(r.throughput / *r.reference->throughput - 1.0), 0.10) << r.config << " " << r.bench;
      ++checked;
    }
  }
  std::cout << "reference numbers reproduced: " << checked << "\n";
  EXPECT_EQ(checked, 76u);  // the built-in benches' figures in configs/references.yaml
}

}  // namespace
}  // namespace ptxfu::models
