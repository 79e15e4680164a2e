// Built-in microbenchmarks in the style of the published microbenchmark
// papers: a dependent chain (latency) and an independent stream over many
// warps (throughput) per instruction class. Each is measured as the
// difference of two lengths, which cancels pipeline fill and drain.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "models/config.h"

namespace ptxfu::models {

struct MicroBench {
  std::string_view name;      // ffma, hfma2, ...
  std::string_view mnemonic;  // fma.rn.f32
  std::string_view reg_type;  // .reg type of its operands
  unsigned sources;           // source operands
  std::string_view init;      // immediate that starts every register
};

const std::vector<MicroBench>& micro_benches();

// The benchmark programs: `length` dependent instructions, or `rounds` of
// independent instructions over eight accumulators (sweeps use them too).
std::string chain_program(const MicroBench& b, unsigned length);
std::string stream_program(const MicroBench& b, unsigned rounds);

struct BenchResult {
  std::string config;
  std::string bench;
  double latency = 0;                    // cycles per dependent instruction
  double throughput = 0;                 // thread-instructions per clock per SM
  const Reference* reference = nullptr;  // into the config
};

// Runs every benchmark on every config in one SystemC elaboration.
std::vector<BenchResult> run_benches(const std::vector<ArchConfig>& configs);

}  // namespace ptxfu::models
