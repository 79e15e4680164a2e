// Beyond one machine: a Slurm job-array script (one array task per shard)
// and the merge of shard directories.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sweep/run.h"
#include "sweep/spec.h"

namespace ptxfu::sweep {

// Writes OUT/sweep.sbatch and OUT/merge.sbatch and prints how to submit them.
int emit_slurm(const Spec& spec, const RunOptions& o, const std::string& out_dir, std::ostream& out, std::ostream& err);

// Merges the results of shard directories into OUT (rows deduplicated by
// key, an ok row preferred over a failed one) and plots them.
int merge(const std::vector<std::string>& dirs, const std::string& out_dir, bool plots, std::ostream& out,
          std::ostream& err);

// This executable's absolute path (for scripts that call it back).
std::string self_exe();

}  // namespace ptxfu::sweep
