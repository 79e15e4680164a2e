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

// `ptxfu bench --form`: any form of the instruction table, spelled as `ptxfu
// eval` reads it, on one config; with a consumer form, producer to consumer.
struct FormBenchSpec {
  const ArchConfig* config = nullptr;
  std::string form;      // "ex2.approx.ftz.f32"
  std::string consumer;  // empty: a dependent instance of the form itself
};

struct FormBenchResult {
  std::string config;
  std::string form;      // canonical spelling
  std::string consumer;  // canonical spelling; empty: none asked for
  // What read the producer's first destination in the latency measurement:
  // the consumer, the form itself, or "mov.bN" where the form cannot read
  // its own result (setp's predicate, cvt between widths).
  std::string chained_through;
  std::string error;      // non-empty: the form is not legal on this config (nothing measured)
  double latency = 0;     // cycles from the producer's issue to its dependent's issue
  double throughput = 0;  // thread-instructions (mma: warp-instructions) per clock per SM, all resident warps
  Unit unit = Unit::fma;  // the form's unit
  const Reference* reference = nullptr;  // the config's, under the bench's name, the form or "FORM -> CONSUMER"
};

// An mma.sync form ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"): a
// kernel statement, not a form of the table. Its latency is the chain D -> C
// of the next mma, its throughput mma (warp-instructions) per clock per SM.
bool is_mma_form(const std::string& form);

// A load form ("ld.shared.u32"): a pointer chase through shared memory, the
// published p-chase microbenchmark. Its latency is one dependent load's,
// load to load; its throughput thread-loads per clock per SM.
bool is_load_form(const std::string& form);

// Checks that `form` is a form of the instruction table, independent of any
// target. Returns an empty string, or the reason it is not.
std::string form_error(const std::string& form);

// What a `reference:` entry measures: a built-in bench's form, a form, or
// "FORM -> CONSUMER" (the keys scripts/calibrate.sh writes).
FormBenchSpec spec_of(const ArchConfig& config, const Reference& reference);

// Runs every spec in one SystemC elaboration (one simulate()). A
// spec whose form (or consumer) is illegal on its config gets `error`.
std::vector<FormBenchResult> run_form_benches(const std::vector<FormBenchSpec>& specs);

}  // namespace ptxfu::models
