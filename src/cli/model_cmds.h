// `ptxfu sim` and `ptxfu bench`: the cycle-approximate model from the
// command line.
#pragma once
#include <optional>
#include <ostream>
#include <string>

namespace ptxfu::cli {

struct SimCmdOptions {
  std::optional<std::string> config_path;  // default: the embedded sm_90
  std::string program_path;
  unsigned warps = 1;
  std::string style = "lt";  // lt (loosely timed) or at (approximately timed)
  std::string vcd_path;
  std::string kanata_path;
  bool json = false;
  bool rtl_half = false;  // the FMA units run half precision on the verilated RTL
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
int run_bench(const BenchCmdOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
