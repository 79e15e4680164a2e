// `ptxfu cosim`: co-simulation of the reference RTL (rtl_ref/) against a
// golden model, lane by lane and cycle by cycle. This is the library behind
// the subcommand; the command line itself lives in cli/.
//
//   ptxfu cosim --op fma.rn.f16x2 --vectors N --seed S [--unit hfma2|hmnmx2]
//               [--exhaustive] [--jobs N] [--shard K/N] [--trace FILE] [--stages N]
//               [--golden core|ref] [--coverage FILE]
//   ptxfu cosim --op mma.block --arch sm_NN --in T --out T ...   (the tensor-core
//               block FMA: block_cosim.h)
//
// Output: on mismatches, the first few failing vectors, each as a
// `ptxfu eval` line followed by a `# expected ... got ...` comment (so the
// output can be piped into `ptxfu eval` to replay them); then exactly one
// last line:  vectors=N mismatches=M vectors_per_s=R
// The line before says what ran: `# exhaustive: input combinations 0x... to
// 0x... (...)` or `# random: N structured vectors, then seeded random`, and
// on how many threads (blocks of 2^18 vectors, each with its own seeds, so
// the report does not depend on the thread count).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

namespace ptxfu::cosim {

struct CosimOptions {
  std::string op;              // PTX mnemonic, e.g. "fma.rn.f16x2", "min.NaN.bf16"
  std::string unit;            // "hfma2" or "hmnmx2"; empty: follows from the op
  uint64_t vectors = 1000000;  // vectors to run (structured set first, then random)
  uint64_t seed = 1;
  bool exhaustive = false;   // every input pair (2^32) or value (2^16); ignores `vectors`
  unsigned shard_index = 0;  // --shard K/N: this run does part K of N (0 <= K < N)
  unsigned shard_count = 1;
  unsigned jobs = 0;            // threads, each with a unit of its own (0: every CPU)
  std::string trace_file;       // non-empty: write an FST waveform here
  int stages = -1;              // RTL pipeline configuration; -1: the unit's default
  std::string golden = "core";  // "core" (ptxfu's exact core) or "ref" (MPFR reference)
  std::string coverage_file;    // non-empty (coverage builds): write after a passing run
  bool broken = false;          // use the deliberately broken RTL build (self test)
  unsigned max_reported = 5;    // failing vectors printed in eval syntax
  double stall_rate = 0.0;      // 0..1: random input bubbles and output backpressure
  // --op mma.block (block_cosim.h): the numerics row to co-simulate.
  std::string arch;            // "sm_80"
  std::string family = "mma";  // mma (mma.sync), wmma or wgmma
  std::string in, out;         // element types: f16, bf16, tf32, e4m3, e5m2, e2m1 ...; f32 or f16
  std::string replay_file;     // non-empty: replay mma.block lines from it ("-": stdin)
};

// Runs one co-simulation and prints its report on `out`. Returns 0 when every
// result matched, 1 on mismatches, 2 on bad options (the reason on `out`).
int run_cosim(const CosimOptions& options, std::ostream& out);

// Parses "K/N" into options.shard_index / shard_count; false if malformed.
bool parse_shard(const std::string& text, CosimOptions& options);

// The pipeline configurations compiled into this build for `unit`, e.g.
// "0 4 6"; the first one is the default.
std::string available_stages(const std::string& unit);

}  // namespace ptxfu::cosim
