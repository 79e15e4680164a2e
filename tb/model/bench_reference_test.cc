// For every shipped config, the model reproduces the reference numbers in
// the config's own `reference:` section: dependent latency within +-1 cycle,
// throughput within 10%.
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
    ASSERT_NE(r.reference, nullptr) << r.config << " has no reference entry for " << r.bench;
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
  EXPECT_GE(checked, 70u);
}

}  // namespace
}  // namespace ptxfu::models
