// The sweep driver: validates the spec, opens the result directory, runs the
// missing points of its shard and summarises them. With one job the points
// run in this process, one after another; with more, each runs in a child
// process (sweep/isolated.h says why), one thread of this process waiting on
// each. The driver alone writes the result files.
#include "sweep/run.h"

#include <signal.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sweep/isolated.h"
#include "sweep/numerics.h"
#include "sweep/plot.h"
#include "sweep/results.h"
#include "sweep/slurm.h"
#include "sweep/spec.h"

namespace ptxfu::sweep {
namespace {

using Clock = std::chrono::steady_clock;

// The signal that stops the sweep (0: none; -1: a result file failed).
// Lock-free, so the handler may set it.
std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free);

void on_signal(int sig) { g_stop.store(sig); }

// SIGINT, SIGTERM and SIGHUP stop the sweep for as long as it runs.
class SignalGuard {
 public:
  SignalGuard() {
    g_stop.store(0);
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &sa, &old_[i]);
  }
  ~SignalGuard() {
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
};

bool parse_shard(const std::string& s, unsigned& k, unsigned& n) {
  const size_t slash = s.find('/');
  if (slash == std::string::npos) return false;
  try {
    size_t a = 0, b = 0;
    const unsigned long kk = std::stoul(s.substr(0, slash), &a);
    const unsigned long nn = std::stoul(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1 || nn < 1 || kk < 1 || kk > nn || nn > 1000000) return false;
    k = static_cast<unsigned>(kk);
    n = static_cast<unsigned>(nn);
    return true;
  } catch (...) {
    return false;
  }
}

// What one invocation works on: the spec, its shard, where results go.
struct Plan {
  Spec spec;
  unsigned shard_k = 1, shard_n = 1;
  std::string dir;
  std::vector<size_t> mine;  // this shard's points: every N-th, so slices are balanced and fixed for a spec
  std::set<std::string> mine_keys;
  unsigned jobs = 1;
};

// The plan, or an exit status (2, with the message on `err`).
int make_plan(const RunOptions& o, Plan& plan, std::ostream& err) {
  try {
    plan.spec = load_spec(o.spec_path);
  } catch (const models::ConfigError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }
  if (!parse_shard(o.shard, plan.shard_k, plan.shard_n)) {
    err << "ptxfu sweep: --shard must be K/N with 1 <= K <= N, not '" << o.shard << "'\n";
    return 2;
  }
  plan.dir = o.out_dir.empty() ? "out/sweep-" + plan.spec.name : o.out_dir;
  for (size_t i = 0; i < plan.spec.points.size(); ++i)
    if (i % plan.shard_n == plan.shard_k - 1) {
      plan.mine.push_back(i);
      plan.mine_keys.insert(plan.spec.points[i].key);
    }
  plan.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  return 0;
}

void print_dry_run(const Plan& p, std::ostream& out) {
  out << fmt::format("ptxfu sweep: {}: {} points, {} in shard {}/{}\n", p.spec.name, p.spec.points.size(),
                     p.mine.size(), p.shard_k, p.shard_n);
  for (size_t i : p.mine) out << p.spec.points[i].key << "  " << describe(p.spec, p.spec.points[i]) << "\n";
}

// The points of this shard still to run: those without a row, and with
// --retry-failed those whose row is a failure (dropped from the files).
// Throws StoreError.
std::vector<size_t> points_to_run(const RunOptions& o, const Plan& p, Store& store, std::ostream& err) {
  std::set<std::string> spec_keys;
  for (const auto& pt : p.spec.points) spec_keys.insert(pt.key);
  const size_t status_col = store.table().column("status");
  std::set<std::string> done, failed;
  size_t stale = 0;
  for (const auto& r : store.table().rows) {
    if (!spec_keys.count(r[0])) ++stale;
    (r[status_col] == "ok" ? done : failed).insert(r[0]);
  }
  if (o.retry_failed) {
    std::set<std::string> retry;
    for (const auto& k : failed)
      if (!done.count(k)) retry.insert(k);
    store.drop(retry);
  } else {
    done.insert(failed.begin(), failed.end());
  }
  if (stale)
    err << fmt::format("ptxfu sweep: note: {} rows in {}/results.csv are not points of this spec (kept, not plotted)\n",
                       stale, p.dir);
  std::vector<size_t> todo;
  for (size_t i : p.mine)
    if (!done.count(p.spec.points[i].key)) todo.push_back(i);
  return todo;
}

// Appends each finished point to the store and reports it. Not locked:
// the parallel runner calls it under its mutex.
class Recorder {
 public:
  Recorder(const Spec& spec, Store& store, const RunOptions& o, size_t total, std::ostream& err)
      : spec_(spec), store_(store), quiet_(o.quiet), total_(total), err_(err) {}

  // results: the point's (for a host program, its total and then each launch).
  void record(size_t point, const PointResult& results) {
    const Point& p = spec_.points[point];
    const models::SimResult& r = results.front();
    const std::vector<std::string> values = r.ok ? metric_values(r, spec_.metrics) : std::vector<std::string>{};
    std::vector<std::string> row = {p.key, spec_.programs[p.program].id};
    for (size_t k = 0; k < spec_.parameters.size(); ++k) row.push_back(spec_.parameters[k].values[p.choice[k]]);
    row.push_back(r.ok ? "ok" : "error");
    for (size_t m = 0; m < spec_.metrics.size(); ++m) row.push_back(r.ok && m < values.size() ? values[m] : "");
    for (size_t i = 0; i < spec_.launches; ++i) {  // empty past a program's own launches
      std::vector<std::string> launch(spec_.metrics.size());
      if (r.ok && i + 1 < results.size()) launch = metric_values(results[i + 1], spec_.metrics);
      row.insert(row.end(), launch.begin(), launch.end());
    }
    row.push_back(r.ok ? "" : r.error);
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();
    if (r.ok) extra["host_seconds"] = r.host_seconds;
    store_.append(row, extra);
    ++finished;
    (r.ok ? ok : failed) += 1;
    if (!quiet_) report(p, r, values);
  }

  size_t ok = 0, failed = 0, finished = 0;

 private:
  void report(const Point& p, const models::SimResult& r, const std::vector<std::string>& values) {
    std::string shown;
    for (size_t m = 0; m < spec_.metrics.size() && m < 3 && r.ok; ++m)
      shown += fmt::format(" {}={}", spec_.metrics[m], values[m]);
    err_ << fmt::format("[{}/{}] {} {}{}{}\n", finished, total_, r.ok ? "ok   " : "error", describe(spec_, p), shown,
                        r.ok ? "" : ": " + r.error);
    err_.flush();
  }
  const Spec& spec_;
  Store& store_;
  bool quiet_;
  size_t total_;
  std::ostream& err_;
};

// A point's job; its error says why it cannot run, if it cannot.
PointJob build_job(const Spec& spec, size_t point) {
  try {
    return build_point(spec, spec.points[point]);
  } catch (const std::exception& e) {
    PointJob pj;
    pj.error = std::string("simulation failed: ") + e.what();
    return pj;
  }
}

PointResult build_failure(const PointJob& pj) {
  models::SimResult r;
  r.ok = false;
  r.error = pj.error;
  return {r};
}

// One job: the points one after another, in this process.
void run_serial(const Spec& spec, const std::vector<size_t>& todo, Recorder& rec) {
  for (size_t point : todo) {
    if (g_stop.load()) return;
    const PointJob pj = build_job(spec, point);
    rec.record(point, pj.error.empty() ? run_point(pj) : build_failure(pj));
  }
}

// Several jobs: `jobs` threads, each running its points in child
// processes. Building a job, forking and recording happen under one mutex.
class ParallelRun {
 public:
  ParallelRun(const Spec& spec, const std::vector<size_t>& todo, Recorder& rec, double timeout_s)
      : spec_(spec), todo_(todo), rec_(rec), timeout_s_(timeout_s) {}

  // Throws StoreError when a result could not be written.
  void run(unsigned jobs) {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::min<size_t>(jobs, todo_.size()); ++t) threads.emplace_back([this] { work(); });
    for (auto& t : threads) t.join();
    if (!store_error_.empty()) throw StoreError(store_error_);
  }

 private:
  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!g_stop.load() && next_ < todo_.size()) {
      const size_t point = todo_[next_++];
      PointResult r;
      const PointJob pj = build_job(spec_, point);
      if (pj.error.empty()) {
        r = run_point_isolated(pj, {timeout_s_, &g_stop, &lock});  // unlocks once forked
        lock.lock();
        if (g_stop.load()) return;  // interrupted: the point stays missing
      } else {
        r = build_failure(pj);
      }
      try {
        rec_.record(point, r);
      } catch (const StoreError& e) {
        store_error_ = e.what();
        g_stop.store(-1);
      }
    }
  }
  const Spec& spec_;
  const std::vector<size_t>& todo_;
  Recorder& rec_;
  double timeout_s_;
  std::mutex mutex_;
  size_t next_ = 0;
  std::string store_error_;
};

// The range of each plotted metric over this shard's ok rows, with where it is reached.
void print_ranges(const Plan& p, const Table& t, std::ostream& out) {
  const size_t status_col = t.column("status");
  for (const auto& metric : p.spec.plots) {
    const size_t c = t.column(metric);
    const std::vector<std::string>* lo = nullptr;
    const std::vector<std::string>* hi = nullptr;
    for (const auto& r : t.rows) {
      if (!p.mine_keys.count(r[0]) || r[status_col] != "ok") continue;
      const double v = std::stod(r[c]);
      if (!lo || v < std::stod((*lo)[c])) lo = &r;
      if (!hi || v > std::stod((*hi)[c])) hi = &r;
    }
    if (!lo) continue;
    auto where = [&](const std::vector<std::string>& r) {
      std::string s = r[1];
      for (size_t k = 0; k < p.spec.parameters.size(); ++k) s += " " + p.spec.parameters[k].key + "=" + r[2 + k];
      return s;
    };
    out << fmt::format("  {:<10} min {} ({}), max {} ({})\n", metric, (*lo)[c], where(*lo), (*hi)[c], where(*hi));
  }
}

struct Outcome {
  size_t already = 0;  // points of the shard done before this run
  const Recorder* rec = nullptr;
  double seconds = 0;
};

struct Totals {
  size_t failed = 0, missing = 0;  // of the shard's points, after this run
};

Totals print_summary(const Plan& p, const Table& t, const Outcome& o, std::ostream& out) {
  const size_t status_col = t.column("status");
  size_t ok_total = 0, failed_total = 0;
  for (const auto& r : t.rows)
    if (p.mine_keys.count(r[0])) (r[status_col] == "ok" ? ok_total : failed_total) += 1;
  const size_t missing = p.mine.size() - ok_total - failed_total;
  const size_t now = o.rec->ok + o.rec->failed;
  out << fmt::format("ptxfu sweep: {} ({})", p.spec.name, p.spec.path);
  if (p.shard_n > 1) out << fmt::format(", shard {}/{}", p.shard_k, p.shard_n);
  out << "\n";
  out << fmt::format("  points     {} in this {}: {} done before, {} run now ({} ok, {} failed), {} missing\n",
                     p.mine.size(), p.shard_n > 1 ? "shard" : "sweep", o.already, now, o.rec->ok, o.rec->failed,
                     missing);
  out << fmt::format("  time       {:.2f} s on {} worker{}: {:.2f} points/s\n", o.seconds, p.jobs,
                     p.jobs == 1 ? "" : "s", o.seconds > 0 ? static_cast<double>(now) / o.seconds : 0.0);
  out << fmt::format("  results    {}/results.csv, {}/results.jsonl\n", p.dir, p.dir);
  print_ranges(p, t, out);
  return {failed_total, missing};
}

void print_plots(const Plan& p, const Manifest& m, const Table& t, std::ostream& out) {
  const PlotReport plots = draw_plots(p.dir, m, t, p.mine_keys);
  if (!plots.files.empty()) {
    out << "  plots     ";
    for (const auto& f : plots.files) out << " " << f;
    out << "\n";
  }
  if (!plots.note.empty()) out << "  plots      " << plots.note << "\n";
}

// Runs the points, in this process or in children. False when a result
// could not be written (the message is on `err`).
bool run_points(const RunOptions& o, const Plan& p, const std::vector<size_t>& todo, Recorder& rec, std::ostream& err) {
  try {
    // One job and no time limit: nothing needs a process boundary.
    if (p.jobs == 1 && o.timeout_s <= 0)
      run_serial(p.spec, todo, rec);
    else
      ParallelRun(p.spec, todo, rec, o.timeout_s).run(p.jobs);
  } catch (const StoreError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int run_sweep(const RunOptions& o, std::ostream& out, std::ostream& err) {
  if (is_numerics_spec_file(o.spec_path)) return run_numerics_sweep(o, out, err);
  Plan plan;
  if (const int status = make_plan(o, plan, err)) return status;
  if (o.emit_slurm) return emit_slurm(plan.spec, o, plan.dir, out, err);
  if (o.dry_run) {
    print_dry_run(plan, out);
    return 0;
  }
  Manifest manifest = manifest_of(plan.spec);
  manifest.shard = fmt::format("{}/{}", plan.shard_k, plan.shard_n);
  std::unique_ptr<Store> store;
  std::vector<size_t> todo;
  try {
    store = std::make_unique<Store>(plan.dir, columns(plan.spec));
    write_whole(plan.dir + "/sweep.json", to_json(manifest).dump(2) + "\n");
    todo = points_to_run(o, plan, *store, err);
  } catch (const StoreError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }
  Recorder rec(plan.spec, *store, o, todo.size(), err);
  const auto started = Clock::now();
  bool written = false;
  int stop = 0;
  {
    const SignalGuard signals;
    written = run_points(o, plan, todo, rec, err);
    stop = g_stop.load();
  }
  const Outcome outcome{plan.mine.size() - todo.size(), &rec,
                        std::chrono::duration<double>(Clock::now() - started).count()};
  const Totals totals = print_summary(plan, store->table(), outcome, out);
  if (!o.no_plots && !stop && written) print_plots(plan, manifest, store->table(), out);
  if (totals.failed)
    out << fmt::format("  {} point{} failed: see the error column\n", totals.failed, totals.failed == 1 ? "" : "s");
  if (stop > 0) {
    out << fmt::format("  interrupted by {}: {} points missing; run the same command again to resume\n",
                       strsignal(stop), totals.missing);
    out.flush();
    return 128 + stop;
  }
  if (!written) return 2;
  return totals.failed ? 1 : 0;
}

}  // namespace ptxfu::sweep
