// ptxfu_cosim: the `ptxfu cosim` subcommand as a standalone program, for
// ctest, long exhaustive runs and builds without the ptxfu command line.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cosim/cosim.h"

int main(int argc, char** argv) {
  ptxfu::cosim::CosimOptions o;
  std::string shard;
  CLI::App app{"Co-simulate the reference RTL (rtl_ref/) against ptxfu's exact core."};
  app.add_option("--op", o.op, "PTX form, e.g. fma.rn.f16x2, min.NaN.bf16x2, neg.ftz.f16")->required();
  app.add_option("--unit", o.unit, "hfma2 or hmnmx2 (default: the unit that runs the op)");
  app.add_option("--vectors", o.vectors, "vectors to run: the structured set first, then seeded random");
  app.add_option("--seed", o.seed, "random seed");
  app.add_flag("--exhaustive", o.exhaustive, "every input pair (2^32) or value of a one/two-operand op");
  app.add_option("--shard", shard, "K/N: run part K (0-based) of N");
  app.add_option("--trace", o.trace_file, "write an FST waveform to FILE");
  app.add_option("--stages", o.stages, "RTL pipeline stages (compiled: hfma2 " +
                                           ptxfu::cosim::available_stages("hfma2") + "; hmnmx2 " +
                                           ptxfu::cosim::available_stages("hmnmx2") + ")");
  app.add_option("--golden", o.golden, "core (default) or ref (the MPFR reference)");
  app.add_option("--coverage", o.coverage_file, "write Verilator coverage after a passing run (coverage builds)");
  app.add_option("--stall-rate", o.stall_rate, "0..1: random input bubbles and output backpressure");
  app.add_flag("--broken", o.broken, "use the deliberately broken RTL (harness self test)");
  CLI11_PARSE(app, argc, argv);
  if (!shard.empty() && !ptxfu::cosim::parse_shard(shard, o)) {
    std::cerr << "ptxfu_cosim: --shard wants K/N with 0 <= K < N\n";
    return 2;
  }
  return ptxfu::cosim::run_cosim(o, std::cout);
}
