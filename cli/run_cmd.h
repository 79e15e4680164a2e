// `ptxfu run PROGRAM.yaml`: a host program as data. Buffers, module
// variables, a list of launches that share them, and the buffers copied
// out; on the host API (host/), so device memory persists across launches.
#pragma once
#include <optional>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

namespace ptxfu::cli {

struct RunCmdOptions {
  std::string program_path;           // the YAML
  std::optional<std::string> config;  // overrides the YAML's config:
  std::string out_dir;                // one NAME.bin per output buffer
  bool json = false;
  bool profile = false;  // per launch, the per-line profile `sim --profile` prints
};

extern const char* const kRunHelp;

// Declares `run` on the top-level app.
CLI::App* add_run_subcommand(CLI::App& app, RunCmdOptions& options);

// Exit status: 0 every launch ended well (and the outputs are written),
// 1 a launch failed, 2 a bad program file or option. Nothing is written
// unless every launch ended well.
int run_program(const RunCmdOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
