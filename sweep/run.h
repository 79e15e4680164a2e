// Running a sweep: the missing points of one shard of a spec, appended to a
// result directory as they complete (sweep/results.h), then summarised and
// plotted. `ptxfu sweep SPEC` is this call.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace ptxfu::sweep {

struct RunOptions {
  std::string spec_path;
  std::string out_dir;        // default: out/sweep-NAME
  unsigned jobs = 0;          // points at a time; 0: one per online CPU; 1: in this process (sweep/isolated.h)
  std::string shard = "1/1";  // K/N: run only the K-th of N slices
  bool retry_failed = false;  // recompute points recorded as failed
  double timeout_s = 0;       // per point; 0: none (a limit runs every point in a child process)
  bool quiet = false;         // no per-point progress lines
  bool no_plots = false;
  bool dry_run = false;                    // list the points, run nothing
  bool emit_slurm = false;                 // write a Slurm job-array script instead of running
  unsigned shards = 4;                     // array tasks for --emit-slurm
  std::vector<std::string> slurm_options;  // extra #SBATCH lines, e.g. --partition=cpu
};

// Exit status: 0 every point ok, 1 some point failed (recorded), 2 bad spec
// or result directory, 128+signal when interrupted by SIGINT, SIGTERM or
// SIGHUP (completed points are kept; running it again resumes).
int run_sweep(const RunOptions& options, std::ostream& out, std::ostream& err);

// A spec with `mode: numerics` (sweep/numerics.h), which run_sweep hands
// here: its points run in this process (--jobs and --timeout do not apply;
// --shard and --emit-slurm are refused).
int run_numerics_sweep(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::sweep
