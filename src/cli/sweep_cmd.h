// `ptxfu sweep SPEC` and `ptxfu sweep merge DIR...`: design-space sweeps
// over the SystemC model, one worker process per point.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ptxfu::cli {

struct SweepCmdOptions {
  std::string spec_path;
  std::string out_dir;        // default: out/sweep-NAME
  unsigned jobs = 0;          // worker processes; 0: one per online CPU
  std::string shard = "1/1";  // K/N: run only the K-th of N slices
  bool retry_failed = false;  // recompute points recorded as failed
  double timeout_s = 0;       // per point; 0: none
  bool quiet = false;         // no per-point progress lines
  bool no_plots = false;
  bool dry_run = false;                    // list the points, run nothing
  bool emit_slurm = false;                 // write a Slurm job-array script instead of running
  unsigned shards = 4;                     // array tasks for --emit-slurm
  std::vector<std::string> slurm_options;  // extra #SBATCH lines, e.g. --partition=cpu
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
