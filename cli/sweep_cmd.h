// `ptxfu sweep SPEC` and `ptxfu sweep merge DIR...`: the options of the
// sweep library (sweep/), declared on the command line.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sweep/run.h"

namespace ptxfu::cli {

struct SweepCmdOptions {
  sweep::RunOptions run;
  // sweep merge
  std::vector<std::string> merge_dirs;
  std::string merge_out;
};

// Declares `sweep` (and its `merge` subcommand) on the top-level app.
CLI::App* add_sweep_subcommand(CLI::App& app, SweepCmdOptions& options);

// Runs whichever of `sweep` / `sweep merge` was parsed. Exit status: 0 every
// point ok, 1 some point failed (recorded), 2 bad spec or usage,
// 128+signal when interrupted (completed points are kept; rerun to resume).
int run_sweep_cmd(const CLI::App& sweep_cmd, const SweepCmdOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
