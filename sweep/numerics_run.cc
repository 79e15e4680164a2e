// The driver of a numerics sweep (`mode: numerics`, sweep/numerics.h): the
// points run in this process, one workload's exact product computed once
// for all its parameter sets; each result is appended to the result
// directory as it completes (sweep/results.h), so an interrupted sweep
// resumes where it stopped.
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sweep/numerics.h"
#include "sweep/plot.h"
#include "sweep/results.h"
#include "sweep/run.h"

namespace ptxfu::sweep {
namespace {

using Clock = std::chrono::steady_clock;

Manifest numerics_manifest(const NumericsSpec& s) {
  Manifest m;
  m.name = s.name;
  m.spec = s.path;
  m.base = fmt::format("{} {}->{} (numerics)", s.target, mma::elem_name(s.in), mma::elem_name(s.out));
  for (const auto& p : s.parameters) m.parameters.push_back({p.key, p.values});
  for (const auto& g : s.gemms) m.programs.push_back(g.name);
  m.metrics = numerics_metrics();
  m.plots = s.plots;
  m.columns = numerics_columns();
  m.points = s.points.size();
  m.shard = "1/1";
  return m;
}

// One point's CSV row.
std::vector<std::string> point_row(const NumericsSpec& s, const NumericsSpec::Point& pt, const GemmData& data,
                                   const ExactGemm& exact) {
  std::vector<std::string> row = {pt.key, s.gemms[pt.gemm].name};
  for (auto& v : point_values(pt)) row.push_back(v);
  try {
    const mma::NumericsRow r = mma::custom_row(*s.base, pt.params);
    const NumericsMetrics m = measure(r, s.gemms[pt.gemm], data, exact);
    const Cost c = cost_of(s.synth, s.in, s.out, pt.params);
    const bool costed = c.source != "none";
    for (const std::string& v :
         {std::string("ok"), fmt::format("{}", m.max_ulp), fmt::format("{}", m.mean_ulp),
          fmt::format("{}", m.rel_error), costed ? std::to_string(c.cells) : "", costed ? std::to_string(c.depth) : "",
          c.source, shipped_label(s.in, s.out, pt.params), std::string()})
      row.push_back(v);
  } catch (const std::exception& e) {
    row.push_back("error");
    for (size_t i = 0; i < numerics_metrics().size(); ++i) row.push_back("");
    row.push_back(e.what());
  }
  return row;
}

std::string describe_point(const NumericsSpec& s, const NumericsSpec::Point& pt) {
  const auto v = point_values(pt);
  return fmt::format("{} W={} B={} carry={} sum_frac={} {}", s.gemms[pt.gemm].name, v[0], v[1], v[2], v[3], v[4]);
}

// The points without an ok row (with --retry-failed, failed rows are dropped
// and rerun; without, they stay). Throws StoreError.
std::vector<size_t> numerics_todo(const NumericsSpec& s, Store& store, bool retry_failed) {
  const size_t status = store.table().column("status");
  std::set<std::string> done, failed;
  for (const auto& r : store.table().rows) (r[status] == "ok" ? done : failed).insert(r[0]);
  if (retry_failed && !failed.empty()) store.drop(failed);
  std::vector<size_t> todo;
  for (size_t i = 0; i < s.points.size(); ++i)
    if (!done.count(s.points[i].key) && (retry_failed || !failed.count(s.points[i].key))) todo.push_back(i);
  return todo;
}

void run_todo(const NumericsSpec& s, const std::vector<size_t>& todo, Store& store, bool quiet, std::ostream& err) {
  std::unique_ptr<GemmData> data;
  std::unique_ptr<ExactGemm> exact;
  size_t loaded = s.gemms.size(), n = 0;
  for (size_t i : todo) {
    const NumericsSpec::Point& pt = s.points[i];
    if (pt.gemm != loaded) {  // points are ordered by workload: each exact product is computed once
      exact.reset();
      data = std::make_unique<GemmData>(make_gemm(s.gemms[pt.gemm], s.in));
      exact = std::make_unique<ExactGemm>(s.gemms[pt.gemm], *data, s.in);
      loaded = pt.gemm;
    }
    const auto started = Clock::now();
    const std::vector<std::string> row = point_row(s, pt, *data, *exact);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    store.append(row, {{"host_seconds", seconds}});
    if (!quiet)
      err << fmt::format("[{}/{}] {} {}\n", ++n, todo.size(), describe_point(s, pt),
                         row[7] == "ok" ? "max " + row[8] + " ulp" : row.back());
  }
}

void summarise(const NumericsSpec& s, const std::string& dir, const Table& t, size_t before, size_t now, double seconds,
               std::ostream& out) {
  const size_t status = t.column("status"), max_ulp = t.column("max_ulp"), cells = t.column("cells");
  size_t ok = 0;
  for (const auto& r : t.rows) ok += r[status] == "ok";
  out << fmt::format("ptxfu sweep: {} ({}, numerics)\n", s.name, s.path);
  out << fmt::format("  points     {} in this sweep: {} done before, {} run now, {} ok in the results\n",
                     s.points.size(), before, now, ok);
  out << fmt::format("  time       {:.2f} s in process\n", seconds);
  out << fmt::format("  results    {}/results.csv, {}/results.jsonl\n", dir, dir);
  for (const auto& r : t.rows)
    if (r[status] == "ok")
      out << fmt::format("  {:<24} W={:>2} B={:>2} carry={} {}: max {} ulp, mean {} ulp, rel {}, cells {} ({}){}\n",
                         r[1], r[2], r[3], r[4], r[6], r[max_ulp], r[max_ulp + 1], r[max_ulp + 2], r[cells],
                         r[cells + 2], r[cells + 3].empty() ? "" : " " + r[cells + 3]);
}

}  // namespace

int run_numerics_sweep(const RunOptions& o, std::ostream& out, std::ostream& err) {
  NumericsSpec spec;
  try {
    spec = load_numerics_spec(o.spec_path);
  } catch (const models::ConfigError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }
  if (o.emit_slurm || o.shard != "1/1") {
    err << "ptxfu sweep: " << o.spec_path << ": a numerics sweep runs in one process: no --shard or --emit-slurm\n";
    return 2;
  }
  const std::string dir = o.out_dir.empty() ? "out/sweep-" + spec.name : o.out_dir;
  if (o.dry_run) {
    out << fmt::format("ptxfu sweep: {}: {} points (numerics)\n", spec.name, spec.points.size());
    for (const auto& pt : spec.points) out << pt.key << "  " << describe_point(spec, pt) << "\n";
    return 0;
  }
  try {
    Store store(dir, numerics_columns());
    write_whole(dir + "/sweep.json", to_json(numerics_manifest(spec)).dump(2) + "\n");
    const std::vector<size_t> todo = numerics_todo(spec, store, o.retry_failed);
    const auto started = Clock::now();
    run_todo(spec, todo, store, o.quiet, err);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    summarise(spec, dir, store.table(), spec.points.size() - todo.size(), todo.size(), seconds, out);
    std::set<std::string> keys;
    for (const auto& pt : spec.points) keys.insert(pt.key);
    if (!o.no_plots) {
      const PlotReport plots = draw_numerics_plots(dir, store.table(), spec.plots, keys);
      if (!plots.files.empty()) out << "  plots     ";
      for (const auto& f : plots.files) out << " " << f;
      if (!plots.files.empty()) out << "\n";
      if (!plots.note.empty()) out << "  plots      " << plots.note << "\n";
    }
    const size_t status = store.table().column("status");
    for (const auto& r : store.table().rows)
      if (keys.count(r[0]) && r[status] != "ok") return 1;
  } catch (const StoreError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace ptxfu::sweep
