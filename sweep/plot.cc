#include "sweep/plot.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

namespace ptxfu::sweep {
namespace {

std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string p = path;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    const std::string dir = end > start ? p.substr(start, end - start) : ".";
    std::string exe = dir + "/gnuplot";
    if (::access(exe.c_str(), X_OK) == 0) return exe;
    start = end + 1;
  }
  return "";
}

std::string file_part(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return out;
}

// A gnuplot string literal.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A label in a .dat file: one column, even with spaces (a config file's
// path, a list value such as [oob, relu]).
std::string quoted_if_spaced(const std::string& s) { return s.find(' ') == std::string::npos ? s : quoted(s); }

bool numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return *end == '\0';
}

// Chooses the terminal gnuplot has: pngcairo when built with cairo, else the
// libgd png terminal (Debian's gnuplot-nox may lack cairo).
std::string header(const std::string& title) {
  return "set encoding utf8\n"
         "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) { set terminal pngcairo noenhanced size 900,600 } "
         "else { set terminal png noenhanced size 900,600 }\n"
         "set title " +
         quoted(title) + "\n";
}

std::string outputs(const std::string& base, const std::string& plot) {
  return "set output " + quoted(base + ".png") + "\n" + plot +
         "\nset terminal svg noenhanced size 900,600\nset output " + quoted(base + ".svg") + "\nreplot\nset output\n";
}

bool run_gnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script, std::string& note) {
  const pid_t pid = ::fork();
  if (pid < 0) {
    note = "cannot start gnuplot";
    return false;
  }
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0) _exit(127);
    const int log = ::open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (log >= 0) {
      ::dup2(log, 1);
      ::dup2(log, 2);
    }
    ::execl(gnuplot.c_str(), "gnuplot", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    struct stat st {};
    const std::string log = dir + "/gnuplot.log";
    if (::stat(log.c_str(), &st) == 0 && st.st_size == 0) ::unlink(log.c_str());
    return true;
  }
  note = fmt::format("gnuplot failed on {}/{} (see {}/gnuplot.log)", dir, script, dir);
  return false;
}

// The parameters that are chart axes, and the swept base if it splits the
// data into series instead. A swept base is not an axis: like the program,
// it splits the data (one line per base, or one heat map per base). When
// nothing else varies, it is the (categorical) axis.
struct Axes {
  std::vector<size_t> dims;  // parameter indices: x, then y for a heat map
  long base_k = -1;          // the base parameter when it makes series
};

Axes choose_axes(const Manifest& m) {
  Axes a;
  for (size_t k = 0; k < m.parameters.size(); ++k) {
    if (m.parameters[k].values.size() <= 1) continue;
    if (m.parameters[k].key == "base")
      a.base_k = static_cast<long>(k);
    else
      a.dims.push_back(k);
  }
  if (a.dims.empty() && a.base_k >= 0) {
    a.dims.push_back(static_cast<size_t>(a.base_k));
    a.base_k = -1;
  }
  return a;
}

// A series is a program and a base (indices in the manifest, so series come
// in spec order); its points map (i, j), the axes' value indices, to the row's key.
using Series = std::pair<size_t, size_t>;
using SeriesCells = std::map<Series, std::map<std::pair<long, long>, std::string>>;

// The charts of one result table, drawn one metric at a time.
class Charts {
 public:
  Charts(const std::string& dir, const Manifest& m, const Table& t, const Axes& axes, std::string gnuplot)
      : dir_(dir), m_(m), t_(t), axes_(axes), gnuplot_(std::move(gnuplot)) {
    for (const auto& r : t.rows) by_key_[r[0]] = &r;
  }

  // cells[series][i][j] = the row's key, from ok rows only (of `keys`, unless empty).
  SeriesCells collect(const std::set<std::string>& keys, size_t status, size_t program, size_t base_col) const {
    SeriesCells cells;
    for (const auto& r : t_.rows) {
      if (r[status] != "ok" || (!keys.empty() && !keys.count(r[0]))) continue;
      const auto p = std::find(m_.programs.begin(), m_.programs.end(), r[program]);
      const long b = axes_.base_k >= 0 ? index_of(static_cast<size_t>(axes_.base_k), r[base_col]) : 0;
      const long i = index_of(axes_.dims[0], r[t_.column(m_.parameters[axes_.dims[0]].key)]);
      const long j =
          axes_.dims.size() > 1 ? index_of(axes_.dims[1], r[t_.column(m_.parameters[axes_.dims[1]].key)]) : 0;
      if (p == m_.programs.end() || b < 0 || i < 0 || j < 0) continue;
      cells[{static_cast<size_t>(p - m_.programs.begin()), static_cast<size_t>(b)}][{i, j}] = r[0];
    }
    return cells;
  }

  // Line chart: the metric over the parameter, one line per series.
  bool line_chart(const std::string& metric, size_t c, const SeriesCells& cells, PlotReport& report) const {
    const auto& px = m_.parameters[axes_.dims[0]];
    bool x_numeric = true;
    for (const auto& v : px.values) x_numeric &= numeric(v);
    const std::string base = file_part(metric);
    std::string data, plot = "plot ";
    size_t block = 0;
    for (const auto& [series, pts] : cells) {
      const std::string prog = label(series);
      data += "# " + prog + "\n";
      std::vector<std::pair<long, std::string>> line;
      for (const auto& [ij, key] : pts) line.push_back({ij.first, (*by_key_.at(key))[c]});
      std::sort(line.begin(), line.end());
      for (const auto& [i, v] : line)
        data += fmt::format("{} {} {}\n", i, quoted_if_spaced(px.values[static_cast<size_t>(i)]), v);
      data += "\n\n";
      // Bases that give the same figures draw over each other: each base
      // gets its own point type, each program its own dash type.
      static const int kPointTypes[] = {7, 5, 9, 11, 13};
      const bool bases = axes_.base_k >= 0;
      plot += fmt::format("{}{} index {} using {} with linespoints lw 2 pt {} dt {} title {}", block ? ", " : "",
                          quoted(base + ".dat"), block, x_numeric ? "2:3" : "1:3:xticlabels(2)",
                          bases ? kPointTypes[series.second % 5] : 7, bases ? series.first % 5 + 1 : 1, quoted(prog));
      ++block;
    }
    std::string script = header(fmt::format("{}: {} over {}", m_.name, metric, px.key));
    script +=
        "set xlabel " + quoted(px.key) + "\nset ylabel " + quoted(metric) + "\nset grid\nset key outside right top\n";
    script += "set yrange [0:*]\n";
    script += outputs(base, plot);
    return draw(base, data, script, report);
  }

  // Heat map: the metric over both parameters, one chart per series.
  bool heat_maps(const std::string& metric, size_t c, const SeriesCells& cells, PlotReport& report) const {
    const auto& px = m_.parameters[axes_.dims[0]];
    const auto& py = m_.parameters[axes_.dims[1]];
    for (const auto& [series, pts] : cells) {
      const std::string prog = label(series);
      const std::string base = file_part(metric) + (cells.size() > 1 ? "-" + file_part(prog) : "");
      std::string data;
      for (size_t i = 0; i < px.values.size(); ++i) {
        for (size_t j = 0; j < py.values.size(); ++j) {
          const auto it = pts.find({static_cast<long>(i), static_cast<long>(j)});
          data += fmt::format("{} {} {}\n", i, j, it == pts.end() ? "NaN" : (*by_key_.at(it->second))[c]);
        }
        data += "\n";
      }
      std::string script = header(fmt::format("{}: {} ({})", m_.name, metric, prog));
      script += tics("x", px.values) + tics("y", py.values);
      script +=
          "set xlabel " + quoted(px.key) + "\nset ylabel " + quoted(py.key) + "\nset cblabel " + quoted(metric) + "\n";
      script +=
          fmt::format("set xrange [-0.5:{}.5]\nset yrange [-0.5:{}.5]\n", px.values.size() - 1, py.values.size() - 1);
      script += "set palette rgbformulae 33,13,10\nunset key\n";
      std::string plot = "plot " + quoted(base + ".dat") + " using 1:2:3 with image";
      if (px.values.size() * py.values.size() <= 400)
        plot += ", " + quoted(base + ".dat") + " using 1:2:(sprintf(\"%.3g\", $3)) with labels font \",9\"";
      script += outputs(base, plot);
      if (!draw(base, data, script, report)) return false;
    }
    return true;
  }

 private:
  long index_of(size_t k, const std::string& v) const {
    const auto& vals = m_.parameters[k].values;
    for (size_t i = 0; i < vals.size(); ++i)
      if (vals[i] == v) return static_cast<long>(i);
    return -1;
  }

  // What tells a series apart: its program, its base, or both.
  std::string label(const Series& s) const {
    if (axes_.base_k < 0) return m_.programs[s.first];
    const std::string& b = m_.parameters[static_cast<size_t>(axes_.base_k)].values[s.second];
    return m_.programs.size() > 1 ? m_.programs[s.first] + " " + b : b;
  }

  static std::string tics(const char* axis, const std::vector<std::string>& values) {
    std::string t = fmt::format("set {}tics (", axis);
    for (size_t i = 0; i < values.size(); ++i) t += fmt::format("{}{} {}", i ? ", " : "", quoted(values[i]), i);
    return t + ")\n";
  }

  // Writes BASE.dat and BASE.gp and runs gnuplot on them.
  bool draw(const std::string& base, const std::string& data, const std::string& script, PlotReport& report) const {
    write_whole(dir_ + "/" + base + ".dat", data);
    write_whole(dir_ + "/" + base + ".gp", script);
    if (!run_gnuplot(gnuplot_, dir_, base + ".gp", report.note)) return false;
    report.files.push_back(dir_ + "/" + base + ".png");
    report.files.push_back(dir_ + "/" + base + ".svg");
    return true;
  }

  const std::string& dir_;
  const Manifest& m_;
  const Table& t_;
  const Axes& axes_;
  std::string gnuplot_;
  std::map<std::string, const std::vector<std::string>*> by_key_;
};

}  // namespace

PlotReport draw_plots(const std::string& dir, const Manifest& m, const Table& t, const std::set<std::string>& keys) {
  PlotReport report;
  const Axes axes = choose_axes(m);
  if (axes.dims.empty() || axes.dims.size() > 2) {
    report.note =
        fmt::format("none: charts are drawn for sweeps that vary one or two parameters{} (this one varies {})",
                    axes.base_k >= 0 ? " besides the base" : "", axes.dims.size());
    return report;
  }
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    report.note =
        "none: gnuplot is not installed (Debian: apt-get install gnuplot-nox); the results are complete without it";
    return report;
  }
  const size_t status = t.column("status"), program = t.column("program");
  const size_t base_col = axes.base_k >= 0 ? t.column("base") : 0;
  if (status >= t.header.size() || program >= t.header.size() || base_col >= t.header.size()) {
    report.note = "none: the results have no status, program or base column";
    return report;
  }
  const Charts charts(dir, m, t, axes, gnuplot);
  const SeriesCells cells = charts.collect(keys, status, program, base_col);
  if (cells.empty()) {
    report.note = "none: no successful points to draw";
    return report;
  }
  for (const std::string& metric : m.plots) {
    const size_t c = t.column(metric);
    if (c >= t.header.size()) continue;
    const bool drawn = axes.dims.size() == 1 ? charts.line_chart(metric, c, cells, report)
                                             : charts.heat_maps(metric, c, cells, report);
    if (!drawn) return report;
  }
  return report;
}

namespace {

// One .dat block per workload and cost source: cells, error, the shipped
// targets ("" when none), the kept bits.
std::string numerics_data(const Table& t, size_t metric, const std::vector<std::string>& programs,
                          const std::set<std::string>& keys, const std::string& source) {
  const size_t status = t.column("status"), program = t.column("program"), cells = t.column("cells");
  const size_t src = t.column("cost_source"), shipped = t.column("shipped");
  std::string data;
  for (const std::string& prog : programs) {
    data += "# " + prog + "\n";
    for (const auto& r : t.rows) {
      if ((!keys.empty() && !keys.count(r[0])) || r[status] != "ok" || r[program] != prog || r[src] != source) continue;
      if (!numeric(r[cells]) || !numeric(r[metric])) continue;
      const std::string set = "B" + r[t.column("kept_bits")];
      data += r[cells] + " " + r[metric] + " " + quoted(r[shipped]) + " " + quoted(set) + "\n";
    }
    data += "\n\n";
  }
  return data;
}

}  // namespace

PlotReport draw_numerics_plots(const std::string& dir, const Table& t, const std::vector<std::string>& metrics,
                               const std::set<std::string>& keys) {
  PlotReport report;
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    report.note =
        "none: gnuplot is not installed (Debian: apt-get install gnuplot-nox); the results are complete without it";
    return report;
  }
  std::vector<std::string> programs;
  for (const auto& r : t.rows)
    if (std::find(programs.begin(), programs.end(), r[t.column("program")]) == programs.end())
      programs.push_back(r[t.column("program")]);
  for (const std::string& metric : metrics) {
    const size_t c = t.column(metric);
    if (c >= t.header.size()) continue;
    const std::string base = metric + "_vs_cells";
    std::string plot = "plot ";
    const char* sources[] = {"yosys", "estimate"};
    for (int s = 0; s < 2; ++s) {
      write_whole(dir + "/" + base + "." + sources[s] + ".dat", numerics_data(t, c, programs, keys, sources[s]));
      for (size_t p = 0; p < programs.size(); ++p) {
        const std::string dat = quoted(base + "." + sources[s] + ".dat");
        plot += fmt::format("{} index {} using 1:2 with points pt {} ps 1.5 lc {} title {}, ", dat, p, s ? 6 : 7, p + 1,
                            quoted(programs[p] + (s ? " (cells estimated)" : " (cells: Yosys)")));
        plot += fmt::format("{} index {} using 1:2:3 with labels offset 0,{} center tc lt {} notitle, ", dat, p,
                            1.2 + static_cast<double>(p), p + 1);
        plot += fmt::format("{} index {} using 1:2:4 with labels font \",8\" offset 0.8,0 left tc lt {} notitle, ", dat,
                            p, p + 1);
      }
    }
    plot.resize(plot.size() - 2);
    const std::string script = header(metric + " against the block RTL's cells, one point per parameter set") +
                               "set xlabel \"cells (Yosys generic gates)\"\nset ylabel " + quoted(metric) +
                               "\nset logscale y\nset grid\nset key outside bottom center horizontal\n"
                               "set offsets graph 0.08, graph 0.08, graph 0.15, graph 0.05\n" +
                               outputs(base, plot);
    write_whole(dir + "/" + base + ".gp", script);
    if (!run_gnuplot(gnuplot, dir, base + ".gp", report.note)) return report;
    report.files.push_back(dir + "/" + base + ".png");
    report.files.push_back(dir + "/" + base + ".svg");
  }
  return report;
}

}  // namespace ptxfu::sweep
