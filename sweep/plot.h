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

}  // namespace ptxfu::sweep
