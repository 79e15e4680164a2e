// Charts of a sweep's results, drawn by gnuplot when it is installed: a line
// chart of each plotted metric over the parameter for one-parameter sweeps
// (one line per program), a heat map over the two parameters for
// two-parameter sweeps (one per program). A swept base counts as a program
// does (one line or heat map per program and base), unless it is the only
// parameter that varies: then it is the axis. PNG and SVG, next to results.csv;
// the data (.dat) and gnuplot script (.gp) stay there too.
#pragma once
#include <string>
#include <vector>

#include "sweep/results.h"

namespace ptxfu::sweep {

struct PlotReport {
  std::vector<std::string> files;  // images written
  std::string note;                // why there are none, or what went wrong
};

// Only rows whose key is in `keys` (empty: all rows) are drawn.
PlotReport draw_plots(const std::string& dir, const Manifest& m, const Table& t, const std::set<std::string>& keys);

// A numerics sweep's charts (sweep/numerics.h): each error metric against
// the cell count, one point per parameter set and workload (one series per
// workload), the shipped sets labelled with their targets, estimated costs
// drawn hollow. DIR/METRIC_vs_cells.png and .svg.
PlotReport draw_numerics_plots(const std::string& dir, const Table& t, const std::vector<std::string>& metrics,
                               const std::set<std::string>& keys);

}  // namespace ptxfu::sweep
