// The ptxfu command line: one subcommand per job. Each subcommand's logic
// lives in its own file (check_cmd.cc, eval_cmd.cc, ...); this file only
// declares the options.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "approx/half_table.h"
#include "cli/check_cmd.h"
#include "cli/eval_cmd.h"
#include "cli/mma_cmd.h"
#include "cli/model_cmds.h"
#include "cli/run_cmd.h"
#include "cli/sweep_cmd.h"
#ifdef PTXFU_HAVE_COSIM
#include "cosim/cosim_cli.h"
#endif

namespace {

using ptxfu::cli::TargetOptions;

void add_target_options(CLI::App& sub, TargetOptions& t) {
  sub.add_option("--target", t.target, "sm target whose feature mask applies (sm_53 ... sm_121, a/f suffixes too)");
  sub.add_option("--ptx-version", t.ptx_version, "PTX ISA version in force, e.g. 8.6 (default: the newest known, 9.1)");
  sub.add_option("--add-feature", t.add_features, "add a named feature to the target's mask (repeatable), e.g. oob");
  sub.add_option("--remove-feature", t.remove_features, "remove a named feature from the target's mask (repeatable)");
}

// The top-level help lists each subcommand with one line: its summary here,
// else the first line of its description (its own --help shows all of it).
const std::map<std::string, const char*> kSummaries = {
    {"check", "check PTX as ptxas reads it (a whole .ptx module, or loose statements) for an sm target"},
    {"eval", "compute instructions bit-exactly: one per line, source operands as 0x bit patterns"},
    {"sim", "run a PTX kernel, or a straight-line program, on the cycle-approximate SM model"},
    {"bench", "the model's latency and throughput (built-in benches, any form) beside published figures"},
    {"run", "run a host program written as YAML: buffers, module variables, several launches, copies out"},
    {"sweep", "sweep a design space on the SM model: resumable, results as CSV and JSON lines, charts"},
    {"mma", "tensor-core D = A B + C bit-exactly for an sm target: matrices of 0x bit patterns in files"},
    {"cosim", "co-simulate the reference RTL (half-precision datapath) against the exact core"},
};

class SummaryFormatter : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App* sub) const override {
    std::string line;
    const auto it = kSummaries.find(sub->get_name());
    if (it != kSummaries.end()) {
      line = it->second;
    } else {
      line = sub->get_description();
      line = line.substr(0, line.find('\n'));
    }
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true), line, column_width_);
    return out.str();
  }
};

// Opens FILE or stdin ("-"); the deleter closes only real files.
std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_input(const std::string& path) {
  if (path == "-") return {stdin, [](std::FILE*) { return 0; }};
  return {std::fopen(path.c_str(), "rb"), [](std::FILE* f) { return f ? std::fclose(f) : 0; }};
}

}  // namespace

// --mufu-tables DIR: another GPU's exact outputs for the half-precision MUFU forms
// (written by tb/hw/mufu_dump.cu) replace the built-in H100 outputs.
bool load_mufu_tables(const std::string& dir, const char* sub) {
  if (dir.empty()) return true;
  try {
    const int n = ptxfu::approx::install_hardware_tables_from_dir(dir);
    if (n == 0) {
      std::cerr << "ptxfu " << sub << ": no MUFU tables (*.tab) in " << dir << "\n";
      return false;
    }
    std::cerr << "ptxfu " << sub << ": loaded " << n << " hardware MUFU table(s) from " << dir << "\n";
    return true;
  } catch (const ptxfu::approx::TableError& e) {
    std::cerr << "ptxfu " << sub << ": " << e.what() << "\n";
    return false;
  }
}

namespace {

// Every subcommand's options, and the subcommand that holds them.
struct Commands {
  ptxfu::cli::CheckOptions check;
  std::string check_input = "-";
  CLI::App* check_cmd = nullptr;
  ptxfu::cli::EvalOptions eval;
  std::string eval_input = "-";
  std::string eval_tables;
  CLI::App* eval_cmd = nullptr;
  ptxfu::cli::SimCmdOptions sim;
  std::string sim_tables;
  CLI::App* sim_cmd = nullptr;
  ptxfu::cli::BenchCmdOptions bench;
  CLI::App* bench_cmd = nullptr;
  ptxfu::cli::RunCmdOptions run;
  CLI::App* run_cmd = nullptr;
  ptxfu::cli::SweepCmdOptions sweep;
  CLI::App* sweep_cmd = nullptr;
  ptxfu::cli::MmaCmdOptions mma;
  CLI::App* mma_cmd = nullptr;
#ifdef PTXFU_HAVE_COSIM
  ptxfu::cosim::CosimOptions cosim;
  CLI::App* cosim_cmd = nullptr;
#endif
};

void add_check(CLI::App& app, Commands& c) {
  auto& check = c.check;
  auto& check_input = c.check_input;
  CLI::App* check_cmd = c.check_cmd = app.add_subcommand(
      "check",
      "Check PTX for an sm target the way ptxas reads it.\n"
      "A module (any directive: .version, .target, .entry, .reg, ...): every statement, directive and symbol is\n"
      "checked, printing FILE:LINE:COL: error: MESSAGE diagnostics (nothing when it is accepted). Loose statements\n"
      "(no directive), one per line as in a .ptx file (`fma.rn.f32 %f1, %f2, %f3, %f4;`): `ok` or\n"
      "`error: LINE:COL: MESSAGE` per statement. Messages use ptxas's words. Exit 1 if anything is rejected.");
  add_target_options(*check_cmd, check.target);
  check_cmd->add_option("FILE", check_input, "input file, or - for standard input (default)");
}

void add_eval(CLI::App& app, Commands& c) {
  auto& eval = c.eval;
  auto& eval_input = c.eval_input;
  auto& eval_tables = c.eval_tables;
  CLI::App* eval_cmd = c.eval_cmd = app.add_subcommand(
      "eval",
      "Compute PTX arithmetic instructions bit-exactly.\n"
      "Input: one instruction per line, the opcode as PTX spells it then the source operands as 0x bit patterns\n"
      "(`fma.rn.f16 0x3c00 0x4000 0x3c00`; carry-reading forms end with cc=0|1). Output: one line per instruction,\n"
      "the destination in 0x hex of its width (plus cc=0|1 for .cc forms), or `error: LINE:COL: MESSAGE`.\n"
      "Blank lines and # or // comments give no output. Streams any input size in constant memory.");
  add_target_options(*eval_cmd, eval.target);
  eval_cmd->add_option("FILE", eval_input, "input file, or - for standard input (default)");
  eval_cmd->add_option(
      "--mufu-tables", eval_tables,
      "directory of another GPU's MUFU tables (tanh/ex2 f16/bf16, from tb/hw/mufu_dump.cu) that replace the\n"
      "built-in H100 outputs");
}

void add_sim(CLI::App& app, Commands& c) {
  auto& sim = c.sim;
  auto& sim_tables = c.sim_tables;
  CLI::App* sim_cmd = c.sim_cmd = app.add_subcommand(
      "sim",
      "Run a PTX kernel (a file with an .entry, as nvcc writes it) on the cycle-approximate SM model: its CTAs\n"
      "launched as the config's limits allow, every lane computed exactly. Reports cycles, IPC, CTAs, unit\n"
      "utilisation and stall reasons (--profile: per PTX line), and writes the buffers (--out-dir).\n"
      "A straight-line program (.reg declarations and statements, no .entry or .func) runs as one CTA of\n"
      "--warps warps (%tid.x = warp*32+lane) on the same model, ending with an exit; its report adds warp 0's\n"
      "final registers.");
  sim_cmd->add_option("--config", sim.config_path,
                      "architecture config: an embedded name (sm_70 ... sm_120) or a YAML file; default: sm_90");
  sim_cmd->add_option("--warps", sim.warps, "warps that run the program (spread over the sub-partitions)")
      ->check(CLI::Range(1u, 100000000u));
  sim_cmd->add_option("--mode", sim.style,
                      "lt: loosely timed (b_transport, fast); at: approximately timed (nb_transport)");
  sim_cmd->add_option("--trace", sim.vcd_path, "write pipe occupancy as VCD (GTKWave)");
  sim_cmd->add_option("--kanata", sim.kanata_path, "write a Kanata pipeline log (Konata viewer)");
  sim_cmd->add_flag("--json", sim.json, "print one JSON object instead of the summary");
  sim_cmd->add_flag("--rtl-half", sim.rtl_half,
                    "co-simulate: the FMA units run f16/bf16 add/sub/mul/fma on the verilated rtl_ref HFMA2 and check\n"
                    "every thread and the latency against the exact core and the config (implies --mode at;\n"
                    "exit status 3 on a mismatch)");
  sim_cmd->add_flag("--rtl-tensor", sim.rtl_tensor,
                    "co-simulate the tensor core: every block the engine computes for an mma or wmma.mma (W products\n"
                    "and c) also runs on the verilated rtl_ref block FMA built with its numerics row's parameters and\n"
                    "is compared bit for bit (either --mode; exit status 3 on a mismatch)");
  sim_cmd->add_option("PROGRAM", sim.program_path, "the .ptx kernel or straight-line program")->required();
  sim_cmd->add_option("--entry", sim.entry, "the kernel's .entry (default: the file's only one)");
  sim_cmd->add_option("--grid", sim.grid, "grid of CTAs, X[,Y[,Z]] (default 1)");
  sim_cmd->add_option("--block", sim.block, "threads per CTA, X[,Y[,Z]] (default 1)");
  sim_cmd->add_option("--cluster", sim.cluster,
                      "CTAs per thread-block cluster, X[,Y[,Z]] (sm_90+; default: the kernel's .reqnctapercluster, or "
                      "none)");
  sim_cmd->add_option("--arg", sim.args,
                      "one per kernel parameter, in order: u32:1024, s32:-3, u64:7, s64:-1, f32:0.5, f64:2,\n"
                      "raw bits (f32:0x3f000000); buffers (the parameter gets the address): buf:FILE,\n"
                      "buf:zeros:BYTES, buf:random:BYTES:SEED (SplitMix64); any buffer with +OFFSET: the address\n"
                      "OFFSET bytes into it; texture and surface objects:\n"
                      "tex:FILE|zeros:format=f32|f16|unorm8|unorm16|u8|u16|u32|s32,width=W[,height=H]\n"
                      "[,address=clamp|wrap|mirror|border][,filter=point|linear][,normalized=0|1];\n"
                      "tensor maps (CUtensorMap, docs/sim.md) over a buffer of their own or argN's:\n"
                      "tmap:FILE|zeros:BYTES|random:BYTES:SEED|argN:type=f32,dims=W[xH..],box=BW[xBH..]\n"
                      "[,strides=..][,estrides=..][,swizzle=none|32B|64B|128B][,oob=zero|nan][,offset=BYTES]");
  sim_cmd->add_option("--const", sim.constants,
                      "fill a module .const (__constant__) or .global variable before the launch: NAME=FILE (its\n"
                      "bytes; the size must match) or NAME=random:SEED (SplitMix64); repeatable");
  sim_cmd->add_flag("--no-printf", sim.no_printf, "do not print the kernel's printf output");
  sim_cmd->add_option("--out-dir", sim.out_dir, "after the run, write each buffer or tex argument N to DIR/argN.bin");
  sim_cmd->add_option("--shared-bytes", sim.shared_bytes, "dynamic (.extern .shared) bytes per CTA (default 0)");
  sim_cmd
      ->add_option("--max-cycles", sim.max_cycles, "stop a kernel that has not ended after this many cycles (an error)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62));
  sim_cmd
      ->add_option("--regs-per-thread", sim.registers_per_thread,
                   "registers per thread for the residency (default: the kernel's declared registers, at most 255)")
      ->check(CLI::Range(1u, 255u));
  sim_cmd->add_flag("--racecheck", sim.racecheck,
                    "report shared-memory hazards between warps with no barrier between them, and cp.async\n"
                    "destinations read or written before their wait, as compute-sanitizer's racecheck (exit status 4)");
  sim_cmd->add_option("--racecheck-lines", sim.racecheck_lines,
                      "--racecheck: how many hazard sites to print (default 10)");
  sim_cmd->add_flag("--profile", sim.profile,
                    "annotate the PTX listing per line: warp-instructions, active lanes, stall cycles by reason, unit");
  sim_cmd->add_option("--mufu-tables", sim_tables,
                      "directory of another GPU's MUFU tables that replace the built-in H100 outputs");
}

void add_bench(CLI::App& app, Commands& c) {
  auto& bench = c.bench;
  CLI::App* bench_cmd = c.bench_cmd = app.add_subcommand(
      "bench",
      "Run the built-in microbenchmarks (a dependent chain and an independent stream per instruction class)\n"
      "and print the model's latency and throughput beside each config's published reference numbers.");
  auto* bench_config =
      bench_cmd->add_option("--config", bench.config_path,
                            "architecture config: an embedded name (sm_70 ... sm_120) or a YAML file; default: sm_90");
  bench_cmd->add_flag("--all", bench.all, "every embedded config, sm_70 ... sm_120")->excludes(bench_config);
  bench_cmd->add_flag("--json", bench.json, "print a JSON array, one object per (config, benchmark)");
  auto* bench_form = bench_cmd->add_option(
      "--form", bench.form,
      "measure any form of the instruction table, spelled as eval reads it (ex2.approx.ftz.f32): a dependent\n"
      "chain (latency) and an independent stream over all resident warps (throughput); an mma.sync form; or\n"
      "ld.shared.u32, a shared-memory pointer chase (load-to-load latency)");
  bench_cmd
      ->add_option("--consumer", bench.consumer,
                   "with --form: the latency from the form's issue to the earliest issue of this dependent form")
      ->needs(bench_form);
  bench_cmd
      ->add_flag("--references", bench.references,
                 "the fidelity table: every reference of the config(s) measured as --form measures it, with the\n"
                 "ratio and the source")
      ->excludes(bench_form);
}

void add_mma(CLI::App& app, Commands& c) {
  auto& mma = c.mma;
  CLI::App* mma_cmd = c.mma_cmd = app.add_subcommand("mma", ptxfu::cli::kMmaHelp);
  mma_cmd
      ->add_option(
          "--instruction", mma.instruction,
          "the instruction as PTX spells it: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32,\n"
          "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16, wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16")
      ->required();
  mma_cmd->add_option("--target", mma.target, "sm target whose tensor core computes it (default sm_80)");
  mma_cmd->add_flag("--matmul", mma.matmul, "chain the instruction over a K larger than its k; M and N any size");
  mma_cmd->add_option("-o,--output", mma.out_path, "write D to this file (default: standard output)");
  mma_cmd->add_option("A", mma.a_path, "file of A (M x K)")->required();
  mma_cmd->add_option("B", mma.b_path, "file of B (K x N)")->required();
  mma_cmd->add_option("C", mma.c_path, "file of C (M x N)")->required();
}

// An unknown subcommand is an error, with --help or without (CLI11 would
// print the top-level help for `ptxfu nosuch --help` and exit 0).
bool known_subcommand(CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    const auto subcommands = app.get_subcommands([](CLI::App*) { return true; });
    if (std::none_of(subcommands.begin(), subcommands.end(), [&](CLI::App* sub) { return sub->check_name(argv[i]); })) {
      std::string names;
      for (const CLI::App* sub : subcommands) names += (names.empty() ? "" : ", ") + sub->get_name();
      std::cerr << "ptxfu: unknown subcommand '" << argv[i] << "' (the subcommands: " << names
                << "; see ptxfu --help)\n";
      return false;
    }
    break;
  }
  return true;
}

// Runs the parsed subcommand.
int dispatch(Commands& c) {
  if (*c.eval_cmd) {
    if (!load_mufu_tables(c.eval_tables, "eval")) return 2;
    auto in = open_input(c.eval_input);
    if (!in) {
      std::cerr << "ptxfu eval: cannot open '" << c.eval_input << "'\n";
      return 2;
    }
    return ptxfu::cli::run_eval(in.get(), stdout, std::cerr, c.eval);
  }
  if (*c.mma_cmd) return ptxfu::cli::run_mma(c.mma, std::cout, std::cerr);
  if (*c.sim_cmd && c.sim.rtl_half && c.sim_cmd->count("--mode") == 0) c.sim.style = "at";
  if (*c.sim_cmd) return load_mufu_tables(c.sim_tables, "sim") ? ptxfu::cli::run_sim(c.sim, std::cout, std::cerr) : 2;
  if (*c.bench_cmd) return ptxfu::cli::run_bench(c.bench, std::cout, std::cerr);
  if (*c.run_cmd) return ptxfu::cli::run_program(c.run, std::cout, std::cerr);
#ifdef PTXFU_HAVE_COSIM
  if (*c.cosim_cmd) return ptxfu::cosim::run_cosim(c.cosim, std::cout);
#endif
  if (*c.sweep_cmd) return ptxfu::cli::run_sweep_cmd(*c.sweep_cmd, c.sweep, std::cout, std::cerr);

  if (*c.check_cmd) {
    auto in = open_input(c.check_input);
    if (!in) {
      std::cerr << "ptxfu check: cannot open '" << c.check_input << "'\n";
      return 2;
    }
    c.check.input_name = c.check_input == "-" ? "<stdin>" : c.check_input;
    return ptxfu::cli::run_check(in.get(), std::cout, std::cerr, c.check);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ptxfu: a bit-exact model of NVIDIA GPU arithmetic functional units. It checks PTX modules as ptxas\n"
      "does, computes instructions bit-exactly, runs kernels and straight-line programs on a cycle-approximate\n"
      "SM model, measures the model against published figures, sweeps design spaces and co-simulates the\n"
      "reference RTL. `ptxfu SUBCOMMAND --help` explains each subcommand."};
  app.formatter(std::make_shared<SummaryFormatter>());
  app.set_version_flag("--version", std::string("ptxfu ") + PTXFU_VERSION);
  app.require_subcommand(1);

  Commands c;
  add_check(app, c);
  add_eval(app, c);
  add_sim(app, c);
  add_bench(app, c);
  c.run_cmd = ptxfu::cli::add_run_subcommand(app, c.run);
  c.sweep_cmd = ptxfu::cli::add_sweep_subcommand(app, c.sweep);
  add_mma(app, c);
#ifdef PTXFU_HAVE_COSIM
  c.cosim_cmd = app.add_subcommand("cosim", ptxfu::cosim::kCosimHelp);
  ptxfu::cosim::add_cosim_options(*c.cosim_cmd, c.cosim);
#endif
  if (!known_subcommand(app, argc, argv)) return 2;
  CLI11_PARSE(app, argc, argv);
  return dispatch(c);
}
