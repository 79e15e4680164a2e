// What the in-model RTL co-simulations saw: the HFMA2's scoreboard
// (rtl_half_unit.h) and the tensor core's block FMA (rtl_tensor_check.h).
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

// --rtl-tensor: the blocks the engine computed for mma and wmma.mma, each
// also computed by the block FMA RTL.
struct RtlTensorStats {
  uint64_t instructions = 0;         // mma warp-instructions whose blocks went to the RTL
  uint64_t blocks = 0;               // block results compared
  uint64_t mismatches = 0;           // blocks whose RTL result differs from the engine's, or never came
  std::vector<std::string> models;   // the parameter sets used: "f16->f32 W=8 B=24 carry=6 rz NUM_STAGES=3"
  std::vector<std::string> reports;  // the first few: a `# context` line, then a `ptxfu cosim --replay` line
  static constexpr size_t kMaxReports = 8;

  void report(std::string line) {
    if (reports.size() < kMaxReports) reports.push_back(std::move(line));
  }
};

}  // namespace ptxfu::models
