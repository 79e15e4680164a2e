#include "cosim/cosim_cli.h"

#include "cosim/block_cosim.h"

namespace ptxfu::cosim {

const char* const kCosimHelp =
    "Co-simulate the reference RTL (rtl_ref/) against the exact core, lane by lane and cycle by\n"
    "cycle. Prints the first failing vectors as `ptxfu eval` lines (each followed by a\n"
    "`# expected ... got ...` comment), then `vectors=N mismatches=M vectors_per_s=R`.\n"
    "Exit 0 when everything matched, 1 on mismatches, 2 on bad options.";

void add_cosim_options(CLI::App& cmd, CosimOptions& o) {
  cmd.add_option("--op", o.op,
                 "PTX form, e.g. fma.rn.f16x2, min.NaN.bf16x2, neg.ftz.f16; or mma.block (the tensor-core block FMA)")
      ->required();
  cmd.add_option("--unit", o.unit, "hfma2 or hmnmx2 (default: the unit that runs the op)")
      ->check(CLI::IsMember({"hfma2", "hmnmx2"}));
  cmd.add_option("--vectors", o.vectors,
                 "vectors to run: the structured set first, then seeded random (default 1000000)");
  cmd.add_option("--seed", o.seed, "random seed (default 1)");
  cmd.add_flag("--exhaustive", o.exhaustive, "every input pair (2^32) or value (2^16) of a one/two-operand op");
  cmd.add_option("--jobs", o.jobs,
                 "threads, each driving a verilated unit of its own (default: every CPU; "
                 "the report does not depend on it)")
      ->check(CLI::Range(1u, 1024u));
  cmd.add_option_function<std::string>(
         "--shard",
         [&o](const std::string& s) {
           if (!parse_shard(s, o)) throw CLI::ValidationError("--shard", "wants K/N with 0 <= K < N");
         },
         "K/N: run part K (0-based) of N: a slice of the exhaustive range, or of the structured set (random vectors "
         "then use seed + K)")
      ->type_name("K/N");
  cmd.add_option("--trace", o.trace_file, "write an FST waveform of the run to FILE");
  cmd.add_option("--stages", o.stages,
                 "RTL pipeline stages (compiled: hfma2 " + available_stages("hfma2") + "; hmnmx2 " +
                     available_stages("hmnmx2") + "; first is the default; mma.block: " + available_block_stages() +
                     ")");
  cmd.add_option("--golden", o.golden, "core (default) or ref (the independent MPFR reference)")
      ->check(CLI::IsMember({"core", "ref"}));
  cmd.add_option("--coverage", o.coverage_file, "write Verilator coverage after a passing run (coverage builds)");
  cmd.add_option("--stall-rate", o.stall_rate, "0..1: random input bubbles and output backpressure")
      ->check(CLI::Range(0.0, 0.95));
  cmd.add_flag("--broken", o.broken,
               "use the deliberately broken RTL (PTXFU_BREAK_ROUNDING; mma.block: PTXFU_BREAK_ALIGNMENT), a harness "
               "self test");
  cmd.add_option("--arch", o.arch, "--op mma.block: the target whose numerics row to co-simulate, e.g. sm_80");
  cmd.add_option("--family", o.family, "--op mma.block: mma (mma.sync, default), wmma or wgmma")
      ->check(CLI::IsMember({"mma", "wmma", "wgmma"}));
  cmd.add_option("--in", o.in, "--op mma.block: the a/b element type (f16, bf16, tf32, e4m3, e5m2, ...)");
  cmd.add_option("--out", o.out, "--op mma.block: the c/d type (f32 or f16)");
  cmd.add_option("--replay", o.replay_file,
                 "--op mma.block: replay the `mma.block ...` lines of FILE (- for standard input) through the RTL and "
                 "the engine");
}

}  // namespace ptxfu::cosim
