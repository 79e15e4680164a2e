#include "cli/sweep_cmd.h"

#include "sweep/slurm.h"

namespace ptxfu::cli {

CLI::App* add_sweep_subcommand(CLI::App& app, SweepCmdOptions& options) {
  sweep::RunOptions& o = options.run;
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Sweep a design space on the SM model: every point of SPEC (a YAML file of parameters, programs and metrics, "
      "see\n"
      "configs/sweeps/) runs on one of --jobs workers (with more than one, or with --timeout, each point in a\n"
      "process of its own); each result is appended to DIR/results.csv and DIR/results.jsonl as it completes.\n"
      "Interrupted or crashed sweeps resume: the same command computes only the missing points. One- and\n"
      "two-parameter sweeps are plotted with gnuplot when it is installed.");
  sweep->add_option("SPEC", o.spec_path, "the sweep spec (YAML)");
  sweep
      ->add_option(
          "--jobs,-j", o.jobs,
          "points run at a time (default: one per CPU); 1 without --timeout: in this process, else each in a child")
      ->check(CLI::Range(1u, 4096u));
  sweep->add_option("--out,-o", o.out_dir, "result directory (default: out/sweep-NAME)");
  sweep->add_option("--shard", o.shard, "run only the K-th of N slices of the points, K/N (default 1/1)");
  sweep->add_flag("--retry-failed", o.retry_failed, "recompute points recorded as failed");
  sweep->add_option("--timeout", o.timeout_s, "seconds a point may run before its worker is killed (default: no limit)")
      ->check(CLI::Range(0.0, 1e9));
  sweep->add_flag("--quiet,-q", o.quiet, "no progress line per point");
  sweep->add_flag("--no-plots", o.no_plots, "do not draw charts");
  sweep->add_flag("--dry-run", o.dry_run, "list this shard's points (key and values) and run nothing");
  sweep->add_flag("--emit-slurm", o.emit_slurm,
                  "write DIR/sweep.sbatch (a job array, one task per shard) and DIR/merge.sbatch");
  sweep->add_option("--shards", o.shards, "array tasks for --emit-slurm (default 4)")->check(CLI::Range(1u, 100000u));
  sweep
      ->add_option("--slurm-option", o.slurm_options,
                   "extra #SBATCH option for --emit-slurm without its dashes, e.g. partition=cpu (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  CLI::App* merge = sweep->add_subcommand(
      "merge", "Merge the result directories of shards (or of separate runs) into one, and plot it.");
  merge->add_option("DIR", options.merge_dirs, "result directories to merge")->required();
  merge->add_option("--out,-o", options.merge_out, "merged result directory")->required();
  merge->add_flag("--no-plots", o.no_plots, "do not draw charts");
  return sweep;
}

int run_sweep_cmd(const CLI::App& sweep_cmd, const SweepCmdOptions& options, std::ostream& out, std::ostream& err) {
  const sweep::RunOptions& o = options.run;
  if (sweep_cmd.got_subcommand("merge"))
    return sweep::merge(options.merge_dirs, options.merge_out, !o.no_plots, out, err);
  if (o.spec_path.empty()) {
    err << "ptxfu sweep: a SPEC file is required (or `ptxfu sweep merge DIR... --out DIR`)\n";
    return 2;
  }
  return sweep::run_sweep(o, out, err);
}

}  // namespace ptxfu::cli
