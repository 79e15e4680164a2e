// `ptxfu sim` and `ptxfu bench`: the cycle-approximate model from the
// command line.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptxfu::kernel {
struct Kernel;
}  // namespace ptxfu::kernel

namespace ptxfu::models {
struct SimJob;
struct SimResult;
}  // namespace ptxfu::models

namespace ptxfu::cli {

struct SimCmdOptions {
  std::optional<std::string> config_path;  // default: the embedded sm_90
  std::string program_path;
  unsigned warps = 1;
  std::string style = "lt";  // lt (loosely timed) or at (approximately timed)
  std::string vcd_path;
  std::string kanata_path;
  bool json = false;
  bool rtl_half = false;    // the FMA units run half precision on the verilated RTL
  bool rtl_tensor = false;  // the tensor core's blocks also run on the verilated block FMA
  // A kernel (a file with an .entry):
  std::string entry;  // empty: the file's only .entry
  std::string grid = "1", block = "1";
  std::string cluster;  // CTAs per cluster, X[,Y[,Z]]; empty: the kernel's .reqnctapercluster or none
  std::vector<std::string> args;
  std::string out_dir;
  uint32_t shared_bytes = 0;
  uint64_t max_cycles = 1'000'000'000;
  unsigned registers_per_thread = 0;  // 0: estimated from the kernel's registers
  bool profile = false;
  std::vector<std::string> constants;  // --const NAME=FILE | NAME=random:SEED
  bool no_printf = false;              // keep the kernel's printf text out of the output
  bool racecheck = false;              // report shared-memory hazards (kernel/racecheck.h); exit status 4 on any
  unsigned racecheck_lines = 10;       // ... the first this many sites in full
};

struct BenchCmdOptions {
  std::optional<std::string> config_path;
  bool all = false;  // every embedded config
  bool json = false;
  std::optional<std::string> form;      // measure this form instead of the six built-in benchmarks
  std::optional<std::string> consumer;  // ... to this consumer (producer-to-consumer latency)
  bool references = false;              // every reference of the config(s), measured by --form: the fidelity table
};

int run_sim(const SimCmdOptions& options, std::ostream& out, std::ostream& err);

// The options every simulation takes (mode, traces, the RTL) into `job`;
// false, with a message on `err`, for a bad --mode.
bool apply_sim_options(const SimCmdOptions& options, models::SimJob& job, std::ostream& err);

// --rtl-half's and --rtl-tensor's report, for programs and kernels alike:
// a summary line each with the disagreements as `ptxfu eval` or `ptxfu
// cosim --op mma.block --replay` lines, the JSON objects, and the exit
// status (3 when an RTL disagreed with the core or the configured latency).
void print_rtl_cosim(const models::SimJob& job, const models::SimResult& r, std::ostream& out);
void add_rtl_cosim_json(const models::SimResult& r, nlohmann::json& j);
// Exit status 3 when an RTL disagreed, else 4 when --racecheck found a hazard, else 0.
int sim_status(const models::SimResult& r);
// --racecheck's report: a summary line, the first `lines` sites in
// compute-sanitizer's words, its RACECHECK SUMMARY; and as JSON.
void print_racecheck(const kernel::Kernel& k, const models::SimResult& r, unsigned lines, std::ostream& out);
void add_racecheck_json(const kernel::Kernel& k, const models::SimResult& r, nlohmann::json& j);
int run_bench(const BenchCmdOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
