// The sweep driver: validates the spec, opens the result directory, and runs
// the missing points of its shard on N worker processes. Each worker is a
// fork() of the driver, made before the driver calls anything of SystemC;
// it builds its point's config and program, elaborates and simulates, writes
// the metrics to a pipe and _exit()s. The driver alone writes the result files.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/sweep_cmd.h"
#include "cli/sweep_plot.h"
#include "cli/sweep_results.h"
#include "cli/sweep_slurm.h"
#include "cli/sweep_spec.h"

namespace ptxfu::cli {
namespace {

using namespace sweep;
using Clock = std::chrono::steady_clock;

// Self-pipe: the signal handler writes the signal number, the poll loop reads it.
int g_signal_pipe[2] = {-1, -1};

void on_signal(int sig) {
  const int saved = errno;
  const unsigned char b = static_cast<unsigned char>(sig);
  if (g_signal_pipe[1] >= 0) (void)!::write(g_signal_pipe[1], &b, 1);
  errno = saved;
}

void drain_signals(int& stop_signal) {
  unsigned char b = 0;
  while (::read(g_signal_pipe[0], &b, 1) == 1) stop_signal = b;
}

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

// The worker: runs in the forked child, never returns. It builds its point's
// config and program itself, so the driver's only serial work is forking and
// writing rows.
[[noreturn]] void worker(const Spec& spec, const Point& point, int fd) {
  std::string reply;
  try {
    const PointJob pj = build_point(spec, point);
    if (!pj.error.empty()) {
      reply = nlohmann::json{{"error", pj.error}}.dump();
    } else {
      const models::SimResult r = models::simulate({pj.job}).front();
      if (!r.ok)  // a kernel's fault, its cycle limit or a deadlock: the point's result
        reply = nlohmann::json{{"error", r.error}}.dump();
      else
        reply = nlohmann::json{{"metrics", metric_values(r, spec.metrics)}, {"host_seconds", r.host_seconds}}.dump();
    }
  } catch (const std::exception& e) {
    reply = nlohmann::json{{"error", std::string("simulation failed: ") + e.what()}}.dump();
  } catch (...) {
    reply = nlohmann::json{{"error", "simulation failed: unknown exception"}}.dump();
  }
  size_t done = 0;
  while (done < reply.size()) {
    const ssize_t n = ::write(fd, reply.data() + done, reply.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    done += static_cast<size_t>(n);
  }
  _exit(0);
}

struct Running {
  pid_t pid;
  int fd;
  size_t point;  // into spec.points
  std::string reply;
  Clock::time_point start;
  bool timed_out = false;
};

std::string death(int status) {
  if (WIFSIGNALED(status))
    return fmt::format("worker killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  if (WIFEXITED(status)) return fmt::format("worker exited with status {} without a result", WEXITSTATUS(status));
  return "worker ended without a result";
}

int run_sweep(const SweepCmdOptions& o, std::ostream& out, std::ostream& err) {
  Spec spec;
  try {
    spec = load_spec(o.spec_path);
  } catch (const models::ConfigError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }
  unsigned shard_k = 1, shard_n = 1;
  if (!parse_shard(o.shard, shard_k, shard_n)) {
    err << "ptxfu sweep: --shard must be K/N with 1 <= K <= N, not '" << o.shard << "'\n";
    return 2;
  }
  const std::string dir = o.out_dir.empty() ? "out/sweep-" + spec.name : o.out_dir;
  if (o.emit_slurm) return emit_slurm(spec, o, dir, out, err);

  // This shard's points: every N-th, so slices are balanced and fixed for a spec.
  std::vector<size_t> mine;
  for (size_t i = 0; i < spec.points.size(); ++i)
    if (i % shard_n == shard_k - 1) mine.push_back(i);
  if (o.dry_run) {
    out << fmt::format("ptxfu sweep: {}: {} points, {} in shard {}/{}\n", spec.name, spec.points.size(), mine.size(),
                       shard_k, shard_n);
    for (size_t i : mine) out << spec.points[i].key << "  " << describe(spec, spec.points[i]) << "\n";
    return 0;
  }

  const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  Manifest manifest = manifest_of(spec);
  manifest.shard = fmt::format("{}/{}", shard_k, shard_n);
  std::unique_ptr<Store> store;
  try {
    store = std::make_unique<Store>(dir, columns(spec));
    write_whole(dir + "/sweep.json", to_json(manifest).dump(2) + "\n");
  } catch (const StoreError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    return 2;
  }

  std::set<std::string> spec_keys;
  for (const auto& p : spec.points) spec_keys.insert(p.key);
  const size_t status_col = store->table().column("status");
  std::set<std::string> done, failed;
  size_t stale = 0;
  for (const auto& r : store->table().rows) {
    if (!spec_keys.count(r[0])) ++stale;
    (r[status_col] == "ok" ? done : failed).insert(r[0]);
  }
  if (o.retry_failed) {
    std::set<std::string> retry;
    for (const auto& k : failed)
      if (!done.count(k)) retry.insert(k);
    try {
      store->drop(retry);
    } catch (const StoreError& e) {
      err << "ptxfu sweep: " << e.what() << "\n";
      return 2;
    }
  } else {
    done.insert(failed.begin(), failed.end());
  }
  if (stale)
    err << fmt::format("ptxfu sweep: note: {} rows in {}/results.csv are not points of this spec (kept, not plotted)\n",
                       stale, dir);
  std::vector<size_t> todo;
  for (size_t i : mine)
    if (!done.count(spec.points[i].key)) todo.push_back(i);
  const size_t already = mine.size() - todo.size();

  // Signals: stop launching, end the workers, keep what is on disk.
  if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    err << "ptxfu sweep: pipe: " << std::strerror(errno) << "\n";
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  struct sigaction old_int {
  }, old_term{}, old_hup{};
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);
  ::sigaction(SIGHUP, &sa, &old_hup);

  const size_t metric0 = store->table().column("status") + 1;
  size_t ok_now = 0, failed_now = 0, finished = 0;
  int stop_signal = 0;
  std::vector<Running> running;
  size_t next = 0;
  const auto started = Clock::now();
  const pid_t driver = ::getpid();

  auto record = [&](size_t point, const std::string& error, const std::vector<std::string>& values,
                    double host_seconds) {
    const Point& p = spec.points[point];
    std::vector<std::string> row = {p.key, spec.programs[p.program].id};
    for (size_t k = 0; k < spec.parameters.size(); ++k) row.push_back(spec.parameters[k].values[p.choice[k]]);
    row.push_back(error.empty() ? "ok" : "error");
    for (size_t m = 0; m < spec.metrics.size(); ++m) row.push_back(error.empty() && m < values.size() ? values[m] : "");
    row.push_back(error);
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();
    if (error.empty()) extra["host_seconds"] = host_seconds;
    store->append(row, extra);
    ++finished;
    (error.empty() ? ok_now : failed_now) += 1;
    if (o.quiet) return;
    std::string shown;
    for (size_t m = 0; m < spec.metrics.size() && m < 3 && error.empty(); ++m)
      shown += fmt::format(" {}={}", spec.metrics[m], row[metric0 + m]);
    err << fmt::format("[{}/{}] {} {}{}{}\n", finished, todo.size(), error.empty() ? "ok   " : "error",
                       describe(spec, p), shown, error.empty() ? "" : ": " + error);
    err.flush();
  };

  try {
    while ((next < todo.size() && !stop_signal) || !running.empty()) {
      // Launch up to `jobs` workers.
      while (!stop_signal && next < todo.size() && running.size() < jobs) {
        const size_t point = todo[next++];
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) throw StoreError(std::string("pipe: ") + std::strerror(errno));
        out.flush();
        err.flush();
        const pid_t pid = ::fork();
        if (pid < 0) throw StoreError(std::string("fork: ") + std::strerror(errno));
        if (pid == 0) {
          ::signal(SIGINT, SIG_DFL);
          ::signal(SIGTERM, SIG_DFL);
          ::signal(SIGHUP, SIG_DFL);
          ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a driver killed with SIGKILL takes its workers along
          if (::getppid() != driver) _exit(4);
          ::close(fds[0]);
          worker(spec, spec.points[point], fds[1]);
        }
        ::close(fds[1]);
        running.push_back({pid, fds[0], point, "", Clock::now()});
      }
      if (running.empty()) break;

      std::vector<pollfd> pfds;
      pfds.push_back({g_signal_pipe[0], POLLIN, 0});
      for (const auto& r : running) pfds.push_back({r.fd, POLLIN, 0});
      int wait_ms = -1;
      if (o.timeout_s > 0) wait_ms = 200;
      const int n = ::poll(pfds.data(), pfds.size(), wait_ms);
      if (n < 0 && errno != EINTR) throw StoreError(std::string("poll: ") + std::strerror(errno));
      // Read the signal pipe whatever poll reported: a signal handled while
      // poll returned has written it after poll looked.
      drain_signals(stop_signal);
      if (stop_signal) break;
      for (size_t i = 0; i < running.size(); ++i) {
        Running& r = running[i];
        if (o.timeout_s > 0 && !r.timed_out &&
            std::chrono::duration<double>(Clock::now() - r.start).count() > o.timeout_s) {
          ::kill(r.pid, SIGKILL);
          r.timed_out = true;
        }
        if (n <= 0 || !(pfds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buf[4096];
        const ssize_t got = ::read(r.fd, buf, sizeof buf);
        if (got > 0) {
          r.reply.append(buf, static_cast<size_t>(got));
          continue;
        }
        if (got < 0 && errno == EINTR) continue;
        // End of file: the worker is done (or dead).
        ::close(r.fd);
        int status = 0;
        while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
        }
        std::string error;
        std::vector<std::string> values;
        double host = 0;
        if (r.timed_out) {
          error = fmt::format("timed out after {} s", o.timeout_s);
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
          try {
            const auto j = nlohmann::json::parse(r.reply);
            if (j.contains("error")) {
              error = j["error"].get<std::string>();
            } else {
              values = j.at("metrics").get<std::vector<std::string>>();
              host = j.at("host_seconds").get<double>();
            }
          } catch (const std::exception&) {
            error = "worker sent no readable result";
          }
        } else {
          // Ctrl-C reaches the whole process group: a worker that died of it
          // is a point to resume, not a failure.
          if (WIFSIGNALED(status) &&
              (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGHUP))
            drain_signals(stop_signal);
          if (stop_signal) {
            running.erase(running.begin() + static_cast<long>(i));
            break;
          }
          error = death(status);
        }
        record(r.point, error, values, host);
        running.erase(running.begin() + static_cast<long>(i));
        --i;
        // Poll results of the remaining entries are shifted: look again next round.
        break;
      }
    }
  } catch (const StoreError& e) {
    err << "ptxfu sweep: " << e.what() << "\n";
    stop_signal = stop_signal ? stop_signal : -1;
  }
  // Stopped early: end the workers; their points stay missing.
  for (const auto& r : running) ::kill(r.pid, SIGTERM);
  for (const auto& r : running) {
    int status = 0;
    while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(r.fd);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  ::sigaction(SIGHUP, &old_hup, nullptr);
  ::close(g_signal_pipe[0]);
  ::close(g_signal_pipe[1]);
  g_signal_pipe[0] = g_signal_pipe[1] = -1;

  // Summary.
  const Table& t = store->table();
  size_t ok_total = 0, failed_total = 0;
  std::set<std::string> mine_keys;
  for (size_t i : mine) mine_keys.insert(spec.points[i].key);
  for (const auto& r : t.rows)
    if (mine_keys.count(r[0])) (r[status_col] == "ok" ? ok_total : failed_total) += 1;
  const size_t missing = mine.size() - ok_total - failed_total;
  out << fmt::format("ptxfu sweep: {} ({})", spec.name, spec.path);
  if (shard_n > 1) out << fmt::format(", shard {}/{}", shard_k, shard_n);
  out << "\n";
  out << fmt::format("  points     {} in this {}: {} done before, {} run now ({} ok, {} failed), {} missing\n",
                     mine.size(), shard_n > 1 ? "shard" : "sweep", already, ok_now + failed_now, ok_now, failed_now,
                     missing);
  out << fmt::format("  time       {:.2f} s on {} worker{}: {:.2f} points/s\n", seconds, jobs, jobs == 1 ? "" : "s",
                     seconds > 0 ? static_cast<double>(ok_now + failed_now) / seconds : 0.0);
  out << fmt::format("  results    {}/results.csv, {}/results.jsonl\n", dir, dir);
  // The range of each plotted metric, with where it is reached.
  for (const auto& metric : spec.plots) {
    const size_t c = t.column(metric);
    const std::vector<std::string>* lo = nullptr;
    const std::vector<std::string>* hi = nullptr;
    for (const auto& r : t.rows) {
      if (!mine_keys.count(r[0]) || r[status_col] != "ok") continue;
      const double v = std::stod(r[c]);
      if (!lo || v < std::stod((*lo)[c])) lo = &r;
      if (!hi || v > std::stod((*hi)[c])) hi = &r;
    }
    if (!lo) continue;
    auto where = [&](const std::vector<std::string>& r) {
      std::string s = r[1];
      for (size_t k = 0; k < spec.parameters.size(); ++k) s += " " + spec.parameters[k].key + "=" + r[2 + k];
      return s;
    };
    out << fmt::format("  {:<10} min {} ({}), max {} ({})\n", metric, (*lo)[c], where(*lo), (*hi)[c], where(*hi));
  }
  if (!o.no_plots && !stop_signal) {
    const PlotReport plots = draw_plots(dir, manifest, t, mine_keys);
    if (!plots.files.empty()) {
      out << "  plots     ";
      for (const auto& f : plots.files) out << " " << f;
      out << "\n";
    }
    if (!plots.note.empty()) out << "  plots      " << plots.note << "\n";
  }
  if (failed_total)
    out << fmt::format("  {} point{} failed: see the error column\n", failed_total, failed_total == 1 ? "" : "s");
  if (stop_signal > 0) {
    out << fmt::format("  interrupted by {}: {} points missing; run the same command again to resume\n",
                       strsignal(stop_signal), missing);
    out.flush();
    return 128 + stop_signal;
  }
  if (stop_signal < 0) return 2;
  return failed_total ? 1 : 0;
}

}  // namespace

CLI::App* add_sweep_subcommand(CLI::App& app, SweepCmdOptions& o) {
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Sweep a design space on the SM model: every point of SPEC (a YAML file of parameters, programs and metrics, "
      "see\n"
      "configs/sweeps/) runs in its own worker process; each result is appended to DIR/results.csv and\n"
      "DIR/results.jsonl as it completes. Interrupted or crashed sweeps resume: the same command computes only the\n"
      "missing points. One- and two-parameter sweeps are plotted with gnuplot when it is installed.");
  sweep->add_option("SPEC", o.spec_path, "the sweep spec (YAML)");
  sweep->add_option("--jobs,-j", o.jobs, "worker processes (default: one per CPU)")->check(CLI::Range(1u, 4096u));
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
  merge->add_option("DIR", o.merge_dirs, "result directories to merge")->required();
  merge->add_option("--out,-o", o.merge_out, "merged result directory")->required();
  merge->add_flag("--no-plots", o.no_plots, "do not draw charts");
  return sweep;
}

int run_sweep_cmd(const CLI::App& sweep_cmd, const SweepCmdOptions& o, std::ostream& out, std::ostream& err) {
  if (sweep_cmd.got_subcommand("merge")) return sweep::merge(o.merge_dirs, o.merge_out, !o.no_plots, out, err);
  if (o.spec_path.empty()) {
    err << "ptxfu sweep: a SPEC file is required (or `ptxfu sweep merge DIR... --out DIR`)\n";
    return 2;
  }
  return run_sweep(o, out, err);
}

}  // namespace ptxfu::cli
