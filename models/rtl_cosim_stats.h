// What the in-model RTL co-simulation's scoreboard saw (rtl_half_unit.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxfu::models {

struct RtlCosimStats {
  uint64_t instructions = 0;         // warp instructions the RTL executed
  uint64_t lanes_checked = 0;        // active threads compared with the exact core
  uint64_t mismatches = 0;           // threads whose RTL result differs
  uint64_t latency_mismatches = 0;   // instructions whose RTL latency != the configured latency
  std::vector<std::string> reports;  // the first few: `# context` lines and `ptxfu eval` input lines
  static constexpr size_t kMaxReports = 8;

  void report(std::string line) {
    if (reports.size() < kMaxReports) reports.push_back(std::move(line));
  }
  void merge(const RtlCosimStats& o) {
    instructions += o.instructions;
    lanes_checked += o.lanes_checked;
    mismatches += o.mismatches;
    latency_mismatches += o.latency_mismatches;
    for (const auto& r : o.reports) report(r);
  }
};

}  // namespace ptxfu::models
