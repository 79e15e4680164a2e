// `ptxfu sweep` through the real binary: interrupted and crashed sweeps keep
// every completed point and resume to the same rows as an uninterrupted run;
// shards merge to the single-process result; the Slurm scripts run; plots
// are drawn when gnuplot is there and skipped cleanly when it is not.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "models/config.h"
#include "scratch_dir.h"
#include "sweep/results.h"

namespace {

using namespace std::chrono_literals;
using ptxfu::sweep::read_table;
using ptxfu::sweep::Table;
using ptxfu::testing_support::ScratchDir;

const std::string kSource = PTXFU_SOURCE_DIR;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

// Starts `ptxfu ARGS...` with stdout and stderr in LOG; PATH replaced when given.
pid_t spawn(const std::vector<std::string>& args, const std::string& log, const char* path_env = nullptr) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group, as a shell job has
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    if (path_env) ::setenv("PATH", path_env, 1);
    std::vector<char*> argv = {const_cast<char*>(PTXFU_EXE)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(PTXFU_EXE, argv.data());
    _exit(127);
  }
  return pid;
}

// Exit status (128 + signal for a killed process).
int finish(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct CmdRun {
  int status;
  std::string out;
};

CmdRun run(const std::vector<std::string>& args, const char* path_env = nullptr) {
  const ScratchDir scratch;
  const std::string log = scratch / "log";
  const int status = finish(spawn(args, log, path_env));
  return {status, slurp(log)};
}

size_t data_rows(const std::string& dir) {
  const std::string csv = slurp(dir + "/results.csv");
  const size_t lines = static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n'));
  return lines ? lines - 1 : 0;
}

// The rows, sorted: order depends on which worker finished first.
std::vector<std::vector<std::string>> sorted_rows(const std::string& dir) {
  Table t = read_table(dir);
  std::sort(t.rows.begin(), t.rows.end());
  return t.rows;
}

// The JSON lines without host timing, sorted.
std::vector<std::string> sorted_json(const std::string& dir) {
  std::istringstream in(slurp(dir + "/results.jsonl"));
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    j.erase("host_seconds");
    out.push_back(j.dump());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Sixteen points of about 0.1 s each: long enough to interrupt mid-run.
std::string slow_spec(const std::string& dir, unsigned points = 16, unsigned length = 150) {
  const std::string path = dir + "/slow.yaml";
  std::ofstream(path) << "name: slow\nbase: sm_90\nparameters:\n  units.fma.latency: {from: 2, to: " << 1 + points
                      << "}\n  warps: 64\nprograms:\n  - {bench: ffma, kind: stream, length: " << length
                      << "}\nmetrics: [cycles, ipc, pipes.fma.utilisation, stalls.*]\n";
  return path;
}

std::string fast_spec(const std::string& dir) {
  const std::string path = dir + "/fast.yaml";
  std::ofstream(path)
      << "name: fast\nbase: sm_90\nparameters:\n  units.fma.latency: [2, 4, 8]\n  warps: [1, 4, 16, 64]\n"
      << "programs: [ffma.chain, hfma2.stream]\nmetrics: [cycles, ipc, warp_instructions]\n";
  return path;
}

// Waits until DIR has at least `rows` results (false on timeout).
bool wait_rows(const std::string& dir, size_t rows, std::chrono::seconds limit = 60s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (exists(dir + "/results.csv") && data_rows(dir) >= rows) return true;
    std::this_thread::sleep_for(5ms);
  }
  return false;
}

// The worker processes of a running sweep: the children of each of its
// threads (from /proc/PID/task/TID/children), or, where the kernel lacks
// that file, every process whose parent it is.
std::vector<pid_t> children(pid_t pid) {
  const std::string p = std::to_string(pid);
  std::vector<pid_t> out;
  if (std::ifstream("/proc/" + p + "/task/" + p + "/children")) {
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/" + p + "/task", ec)) {
      std::ifstream list(task.path().string() + "/children");
      pid_t c;
      while (list >> c) out.push_back(c);
    }
    return out;
  }
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp(e.path().string() + "/stat");
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream rest(stat.substr(paren + 2));
    char state;
    pid_t parent = 0;
    rest >> state >> parent;
    if (parent == pid) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// Running, not a zombie (an orphan is reaped by whatever PID 1 is, or not).
bool alive(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

class Interrupt : public ::testing::TestWithParam<int> {};

// Kill a running sweep, check what is on disk, resume, compare with an
// uninterrupted run.
TEST_P(Interrupt, KeepsCompletedPointsAndResumesToTheSameRows) {
  const int sig = GetParam();
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = slow_spec(dir);
  const CmdRun ref = run({"sweep", spec, "--out", dir + "/ref", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(ref.status, 0) << ref.out;
  ASSERT_EQ(data_rows(dir + "/ref"), 16u);

  const pid_t pid = spawn({"sweep", spec, "--out", dir + "/cut", "--jobs", "2", "--no-plots"}, dir + "/cut.log");
  ASSERT_TRUE(wait_rows(dir + "/cut", 3)) << slurp(dir + "/cut.log");
  const std::vector<pid_t> workers = children(pid);
  // SIGINT as Ctrl-C sends it, to the whole process group (workers too);
  // SIGTERM and SIGKILL to the driver alone.
  ::kill(sig == SIGINT ? -pid : pid, sig);
  EXPECT_EQ(finish(pid), 128 + sig) << slurp(dir + "/cut.log");
  const std::string log = slurp(dir + "/cut.log");
  if (sig != SIGKILL) {
    EXPECT_NE(log.find("run the same command again to resume"), std::string::npos) << log;
  }
  // No worker outlives the driver (SIGKILL included: they have a parent-death signal).
  for (pid_t w : workers) {
    for (int i = 0; i < 200 && alive(w); ++i) std::this_thread::sleep_for(10ms);
    EXPECT_FALSE(alive(w)) << "worker " << w << " still runs";
  }

  // Whole rows only, the JSON lines match them, some points are missing.
  const std::string csv = slurp(dir + "/cut/results.csv");
  ASSERT_EQ(csv.back(), '\n');
  const size_t kept = data_rows(dir + "/cut");
  EXPECT_GE(kept, 3u);
  EXPECT_LT(kept, 16u) << "the sweep finished before it was interrupted; the test proves nothing";
  const Table t = read_table(dir + "/cut");  // throws on a malformed row
  EXPECT_EQ(t.rows.size(), kept);
  EXPECT_EQ(sorted_json(dir + "/cut").size(), kept);
  for (const auto& r : t.rows) EXPECT_EQ(r[t.column("status")], "ok");

  // Resume: only the missing points run.
  const CmdRun again = run({"sweep", spec, "--out", dir + "/cut", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find(std::to_string(kept) + " done before, " + std::to_string(16 - kept) + " run now"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(sorted_rows(dir + "/cut"), sorted_rows(dir + "/ref"));
  EXPECT_EQ(sorted_json(dir + "/cut"), sorted_json(dir + "/ref"));

  // A third run has nothing to do.
  const CmdRun idle = run({"sweep", spec, "--out", dir + "/cut", "--quiet", "--no-plots"});
  EXPECT_EQ(idle.status, 0);
  EXPECT_NE(idle.out.find("16 done before, 0 run now"), std::string::npos) << idle.out;
}

INSTANTIATE_TEST_SUITE_P(Sweep, Interrupt, ::testing::Values(SIGTERM, SIGINT, SIGKILL), [](const auto& info) {
  return std::string(info.param == SIGTERM ? "SIGTERM" : info.param == SIGINT ? "SIGINT" : "SIGKILL");
});

// A worker that dies is a failed point, recorded with the reason; the sweep
// goes on, and --retry-failed recomputes it.
TEST(Sweep, AWorkerCrashIsRecordedAndTheSweepContinues) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = slow_spec(dir, 4, 800);  // long points: a worker is mid-run when it is hit
  // One job with a time limit: each point in a child process of its own,
  // one at a time, so the child running after the first row is mid-point.
  const pid_t pid =
      spawn({"sweep", spec, "--out", dir + "/out", "--jobs", "1", "--timeout", "600", "--no-plots"}, dir + "/log");
  ASSERT_TRUE(wait_rows(dir + "/out", 1)) << slurp(dir + "/log");
  bool killed = false;
  for (int tries = 0; tries < 2000 && !killed; ++tries) {
    for (pid_t c : children(pid))
      if (alive(c)) killed |= ::kill(c, SIGSEGV) == 0;  // not a finished worker awaiting its reaping
    if (!killed) std::this_thread::sleep_for(1ms);
  }
  ASSERT_TRUE(killed);
  EXPECT_EQ(finish(pid), 1) << slurp(dir + "/log");
  Table t = read_table(dir + "/out");
  ASSERT_EQ(t.rows.size(), 4u) << slurp(dir + "/log");
  size_t failed = 0;
  for (const auto& r : t.rows)
    if (r[t.column("status")] == "error") {
      ++failed;
      EXPECT_EQ(r[t.column("error")], "worker killed by signal 11 (Segmentation fault)");
      EXPECT_EQ(r[t.column("cycles")], "");
    }
  EXPECT_EQ(failed, 1u) << slurp(dir + "/log");

  // Resuming does not recompute a recorded failure; --retry-failed does.
  const CmdRun again = run({"sweep", spec, "--out", dir + "/out", "--quiet", "--no-plots"});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.out.find("4 done before, 0 run now"), std::string::npos) << again.out;
  const CmdRun retry = run({"sweep", spec, "--out", dir + "/out", "--quiet", "--no-plots", "--retry-failed"});
  EXPECT_EQ(retry.status, 0) << retry.out;
  EXPECT_NE(retry.out.find("3 done before, 1 run now (1 ok, 0 failed)"), std::string::npos) << retry.out;
  t = read_table(dir + "/out");
  EXPECT_EQ(t.rows.size(), 4u);
  for (const auto& r : t.rows) EXPECT_EQ(r[t.column("status")], "ok");
  EXPECT_EQ(sorted_json(dir + "/out").size(), 4u);
}

TEST(Sweep, ATimedOutPointIsAFailedPoint) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const CmdRun r =
      run({"sweep", slow_spec(dir, 2, 3000), "--out", dir + "/out", "--timeout", "0.05", "--quiet", "--no-plots"});
  EXPECT_EQ(r.status, 1) << r.out;
  const Table t = read_table(dir + "/out");
  ASSERT_EQ(t.rows.size(), 2u);
  for (const auto& row : t.rows) EXPECT_EQ(row[t.column("error")], "timed out after 0.05 s");
}

TEST(Sweep, ShardsMergeToTheSingleProcessResult) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = fast_spec(dir);
  const CmdRun one = run({"sweep", spec, "--out", dir + "/one", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(data_rows(dir + "/one"), 24u);
  size_t total = 0;
  for (int k = 1; k <= 3; ++k) {
    const std::string out = dir + "/shard-" + std::to_string(k);
    const CmdRun s =
        run({"sweep", spec, "--shard", std::to_string(k) + "/3", "--out", out, "--jobs", "2", "--quiet", "--no-plots"});
    ASSERT_EQ(s.status, 0) << s.out;
    total += data_rows(out);
  }
  EXPECT_EQ(total, 24u);
  const CmdRun m = run(
      {"sweep", "merge", dir + "/shard-1", dir + "/shard-2", dir + "/shard-3", "--out", dir + "/merged", "--no-plots"});
  ASSERT_EQ(m.status, 0) << m.out;
  EXPECT_EQ(sorted_rows(dir + "/merged"), sorted_rows(dir + "/one"));
  EXPECT_EQ(sorted_json(dir + "/merged"), sorted_json(dir + "/one"));
  // Merged rows are in spec order.
  const Table t = read_table(dir + "/merged");
  EXPECT_EQ(t.rows.front()[t.column("program")], "ffma.chain");
  EXPECT_EQ(t.rows.front()[t.column("warps")], "1");
  EXPECT_EQ(t.rows.back()[t.column("program")], "hfma2.stream");
  // Missing shards are reported, other sweeps refused.
  const CmdRun part = run({"sweep", "merge", dir + "/shard-1", "--out", dir + "/part", "--no-plots"});
  EXPECT_EQ(part.status, 1);
  EXPECT_NE(part.out.find("8 of 24"), std::string::npos) << part.out;
  const CmdRun bad = run({"sweep", "merge", dir + "/one", dir + "/nothing", "--out", dir + "/bad"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("nothing/sweep.json: missing"), std::string::npos) << bad.out;
}

// A sweep over base configs: three generations, a .ptx program and a
// microbenchmark, three warp counts (18 points).
std::string base_spec(const std::string& dir) {
  std::ofstream(dir + "/mix.ptx") << slurp(kSource + "/examples/sim_mix.ptx");
  const std::string path = dir + "/bases.yaml";
  std::ofstream(path)
      << "name: bases\nbase: [sm_80, sm_90, sm_100]\nparameters:\n  warps: [1, 8, 64]\n"
      << "programs: [mix.ptx, ffma.stream]\nmetrics: [cycles, ipc, warp_instructions, pipes.fma.utilisation]\n";
  return path;
}

// The JSON lines of DIR, by key.
std::map<std::string, nlohmann::json> json_by_key(const std::string& dir) {
  std::istringstream in(slurp(dir + "/results.jsonl"));
  std::map<std::string, nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    out[j["key"].get<std::string>()] = j;
  }
  return out;
}

// Each point of a base sweep is what that base gives on its own: the same
// metrics as `ptxfu sim --config BASE`, and the same row (key included) as a
// sweep whose base is that config alone.
TEST(Sweep, EachBasePointIsWhatThatBaseGivesAlone) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = base_spec(dir);
  const CmdRun r = run({"sweep", spec, "--out", dir + "/all", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(r.status, 0) << r.out;
  const Table all = read_table(dir + "/all");
  ASSERT_EQ(all.rows.size(), 18u);
  ASSERT_EQ(all.header[2], "base");
  const auto json = json_by_key(dir + "/all");
  std::map<std::string, std::string> mix_cycles;  // "base warps" -> cycles
  for (const auto& row : all.rows) {
    if (row[1] != "mix") continue;
    const std::string base = row[2], warps = row[all.column("warps")];
    const CmdRun sim = run({"sim", "--config", base, dir + "/mix.ptx", "--warps", warps, "--json"});
    ASSERT_EQ(sim.status, 0) << sim.out;
    const auto s = nlohmann::json::parse(sim.out);
    const auto& j = json.at(row[0]);
    EXPECT_EQ(s["config"], base);
    EXPECT_EQ(j["base"], base);
    EXPECT_EQ(j["cycles"], s["cycles"]) << base << " warps=" << warps;
    EXPECT_EQ(j["warp_instructions"], s["warp_instructions"]) << base << " warps=" << warps;
    EXPECT_EQ(j["ipc"], s["ipc"]) << base << " warps=" << warps;
    EXPECT_EQ(j["pipes.fma.utilisation"], s["pipes"]["fma"]["utilisation"]) << base << " warps=" << warps;
    mix_cycles[base + " " + warps] = row[all.column("cycles")];
  }
  ASSERT_EQ(mix_cycles.size(), 9u);
  // The bases differ where their configs do (sm_80's FP32 pipe has 16 lanes,
  // sm_90's 32), so a sweep that ran one base three times would fail here.
  EXPECT_NE(mix_cycles["sm_80 64"], mix_cycles["sm_90 64"]);

  // Each base alone: the same rows, keys included, without the base column.
  std::vector<std::vector<std::string>> from_all, alone;
  for (auto row : all.rows) {
    row.erase(row.begin() + 2);
    from_all.push_back(row);
  }
  for (const std::string base : {"sm_80", "sm_90", "sm_100"}) {
    std::string text = slurp(spec);
    text.replace(text.find("[sm_80, sm_90, sm_100]"), 22, base);
    std::ofstream(dir + "/" + base + ".yaml") << text;
    const CmdRun one =
        run({"sweep", dir + "/" + base + ".yaml", "--out", dir + "/" + base, "--jobs", "2", "--quiet", "--no-plots"});
    ASSERT_EQ(one.status, 0) << one.out;
    for (const auto& row : read_table(dir + "/" + base).rows) alone.push_back(row);
  }
  std::sort(from_all.begin(), from_all.end());
  std::sort(alone.begin(), alone.end());
  EXPECT_EQ(from_all, alone);
}

// A resumed base sweep runs exactly the points of the bases it lacks: the
// base is part of each point's identity.
TEST(Sweep, ResumingABaseSweepKeepsEachBasesPoints) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = base_spec(dir);
  const CmdRun ref = run({"sweep", spec, "--out", dir + "/ref", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(ref.status, 0) << ref.out;
  // Keep only the sm_90 rows, as if the other points were never run (the
  // JSON lines of the others stay, to be dropped on opening).
  const Table t = read_table(dir + "/ref");
  std::filesystem::create_directory(dir + "/cut");
  std::string csv = slurp(dir + "/ref/results.csv");
  std::string kept = csv.substr(0, csv.find('\n') + 1);
  std::istringstream in(csv.substr(kept.size()));
  std::string line;
  size_t rows = 0;
  while (std::getline(in, line))
    if (line.find(",sm_90,") != std::string::npos) {
      kept += line + "\n";
      ++rows;
    }
  ASSERT_EQ(rows, 6u);
  std::ofstream(dir + "/cut/results.csv") << kept;
  std::ofstream(dir + "/cut/results.jsonl") << slurp(dir + "/ref/results.jsonl");
  const CmdRun again = run({"sweep", spec, "--out", dir + "/cut", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("6 done before, 12 run now (12 ok, 0 failed), 0 missing"), std::string::npos) << again.out;
  EXPECT_EQ(sorted_rows(dir + "/cut"), sorted_rows(dir + "/ref"));
  EXPECT_EQ(sorted_json(dir + "/cut"), sorted_json(dir + "/ref"));
  // --dry-run names each point's base.
  const CmdRun dry = run({"sweep", spec, "--dry-run"});
  EXPECT_EQ(dry.status, 0);
  EXPECT_NE(dry.out.find(t.rows[0][0]), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("  mix base=sm_100 warps=64\n"), std::string::npos) << dry.out;
}

// Shards of a base sweep merge to the single-process result, in spec order,
// and the charts draw one line per program and base.
TEST(Sweep, BaseSweepShardsMergeAndPlotOneLinePerBase) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = base_spec(dir);
  const CmdRun one = run({"sweep", spec, "--out", dir + "/one", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(one.status, 0) << one.out;
  for (int k = 1; k <= 4; ++k) {
    const CmdRun s = run({"sweep", spec, "--shard", std::to_string(k) + "/4", "--out",
                          dir + "/shard-" + std::to_string(k), "--quiet", "--no-plots"});
    ASSERT_EQ(s.status, 0) << s.out;
  }
  const CmdRun m = run({"sweep", "merge", dir + "/shard-1", dir + "/shard-2", dir + "/shard-3", dir + "/shard-4",
                        "--out", dir + "/merged"});
  ASSERT_EQ(m.status, 0) << m.out;
  EXPECT_NE(m.out.find("18 of 18"), std::string::npos) << m.out;
  EXPECT_EQ(sorted_rows(dir + "/merged"), sorted_rows(dir + "/one"));
  EXPECT_EQ(sorted_json(dir + "/merged"), sorted_json(dir + "/one"));
  const Table t = read_table(dir + "/merged");
  const size_t base = t.column("base"), warps = t.column("warps");
  EXPECT_EQ(t.rows[0][1] + " " + t.rows[0][base] + " " + t.rows[0][warps], "mix sm_80 1");
  EXPECT_EQ(t.rows[1][1] + " " + t.rows[1][base] + " " + t.rows[1][warps], "mix sm_80 8");
  EXPECT_EQ(t.rows[3][1] + " " + t.rows[3][base] + " " + t.rows[3][warps], "mix sm_90 1");
  EXPECT_EQ(t.rows[17][1] + " " + t.rows[17][base] + " " + t.rows[17][warps], "ffma.stream sm_100 64");
  // Shards of another base list are another sweep.
  std::string text = slurp(spec);
  std::ofstream(dir + "/copy.yaml") << ptxfu::models::resolve_config("sm_100").text
                                    << "# another base of the same figures\n";
  text.replace(text.find("sm_100"), 6, "copy.yaml");
  std::ofstream(dir + "/other.yaml") << text;
  ASSERT_EQ(run({"sweep", dir + "/other.yaml", "--out", dir + "/other", "--quiet", "--no-plots"}).status, 0);
  const CmdRun bad = run({"sweep", "merge", dir + "/one", dir + "/other", "--out", dir + "/bad", "--no-plots"});
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("parameter 'base' takes other values"), std::string::npos) << bad.out;
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) return;
  EXPECT_EQ(slurp(dir + "/merged/ipc.png").substr(0, 4), "\x89PNG") << m.out;
  const std::string gp = slurp(dir + "/merged/ipc.gp");
  for (const char* series :
       {"mix sm_80", "mix sm_90", "mix sm_100", "ffma.stream sm_80", "ffma.stream sm_90", "ffma.stream sm_100"})
    EXPECT_NE(gp.find(std::string("title \"") + series + "\""), std::string::npos) << series << "\n" << gp;
  EXPECT_NE(gp.find("over warps"), std::string::npos) << gp;
}

// When only the base varies, it is the chart's (categorical) axis.
TEST(Sweep, ABaseOnlySweepIsChartedOverTheBase) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/s.yaml") << "base: [sm_70, sm_80, sm_90]\nparameters:\n  warps: 16\nprograms: [ffma.stream]\n";
  const CmdRun r = run({"sweep", dir + "/s.yaml", "--out", dir + "/out", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(slurp(dir + "/out/ipc.png").substr(0, 4), "\x89PNG") << r.out;
  const std::string gp = slurp(dir + "/out/ipc.gp"), dat = slurp(dir + "/out/ipc.dat");
  EXPECT_NE(gp.find("xticlabels"), std::string::npos) << gp;
  EXPECT_NE(gp.find("over base"), std::string::npos) << gp;
  EXPECT_NE(dat.find("0 sm_70 "), std::string::npos) << dat;
  EXPECT_NE(dat.find("2 sm_90 "), std::string::npos) << dat;
}

// ---- kernels as programs

const std::string kCorpus = kSource + "/tb/corpus/ptx/";

// Two corpus kernels on two bases and two L1 hit rates (8 points): a softmax
// whose input is a file next to the spec, a matmul with dynamic shared memory.
std::string kernel_spec(const std::string& dir) {
  std::string rows;
  for (int i = 0; i < 8 * 64; ++i) {
    const float v = static_cast<float>(i % 37) * 0.25f - 4.0f;
    rows.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  std::ofstream(dir + "/rows.bin", std::ios::binary) << rows;
  const std::string path = dir + "/kernels.yaml";
  std::ofstream(path)
      << "name: kernels\nbase: [sm_80, sm_90]\nparameters:\n  memory.global_hit_rate: [0, 0.9]\nprograms:\n"
      << "  - name: softmax\n    kernel: " << kCorpus << "softmax.sm_80.ptx\n    entry: softmax_warp_per_row\n"
      << "    grid: 2\n    block: 128\n    args: [buf:rows.bin, buf:zeros:2048, s32:8, s32:64]\n"
      << "  - name: matmul\n    kernel: " << kCorpus << "matmul_tiled.sm_80.ptx\n    entry: matmul_tiled_dynamic\n"
      << "    grid: [2, 2]\n    block: [8, 8]\n    shared_bytes: 512\n"
      << "    args: [buf:random:1024:1, buf:random:1024:2, buf:zeros:1024, s32:16, s32:16, s32:16, s32:8]\n"
      << "metrics: [\"*\"]\n";
  return path;
}

// One job runs the points in the driver (models::simulate); two run each in
// a child process that sends its result through a pipe. The rows agree,
// every metric and every stall included.
TEST(Sweep, InProcessAndChildProcessPointsRecordTheSameRows) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = slow_spec(dir, 6, 40);
  const CmdRun one = run({"sweep", spec, "--out", dir + "/one", "--jobs", "1", "--quiet", "--no-plots"});
  ASSERT_EQ(one.status, 0) << one.out;
  EXPECT_NE(one.out.find("on 1 worker:"), std::string::npos) << one.out;
  const CmdRun two = run({"sweep", spec, "--out", dir + "/two", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(two.status, 0) << two.out;
  ASSERT_EQ(data_rows(dir + "/one"), 6u);
  EXPECT_EQ(sorted_rows(dir + "/one"), sorted_rows(dir + "/two"));
  EXPECT_EQ(sorted_json(dir + "/one"), sorted_json(dir + "/two"));
  const CmdRun kernels_one =
      run({"sweep", kernel_spec(dir), "--out", dir + "/k1", "--jobs", "1", "--quiet", "--no-plots"});
  const CmdRun kernels_two =
      run({"sweep", kernel_spec(dir), "--out", dir + "/k2", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(kernels_one.status, kernels_two.status) << kernels_one.out << kernels_two.out;
  EXPECT_EQ(sorted_rows(dir + "/k1"), sorted_rows(dir + "/k2"));
}

// `ptxfu sim` of one kernel_spec program: the same launch as its spec entry.
std::vector<std::string> sim_args(const std::string& dir, const std::string& program) {
  if (program == "softmax")
    return {kCorpus + "softmax.sm_80.ptx",
            "--entry",
            "softmax_warp_per_row",
            "--grid",
            "2",
            "--block",
            "128",
            "--arg",
            "buf:" + dir + "/rows.bin",
            "--arg",
            "buf:zeros:2048",
            "--arg",
            "s32:8",
            "--arg",
            "s32:64"};
  return {kCorpus + "matmul_tiled.sm_80.ptx",
          "--entry",
          "matmul_tiled_dynamic",
          "--grid",
          "2,2",
          "--block",
          "8,8",
          "--shared-bytes",
          "512",
          "--arg",
          "buf:random:1024:1",
          "--arg",
          "buf:random:1024:2",
          "--arg",
          "buf:zeros:1024",
          "--arg",
          "s32:16",
          "--arg",
          "s32:16",
          "--arg",
          "s32:16",
          "--arg",
          "s32:8"};
}

// Every metric of every kernel point is what `ptxfu sim KERNEL --json`
// reports for the same launch on the same config (the base with the point's
// override, written as a file).
TEST(Sweep, EachKernelPointIsWhatPtxfuSimGives) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const CmdRun r = run({"sweep", kernel_spec(dir), "--out", dir + "/out", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(r.status, 0) << r.out;
  const Table t = read_table(dir + "/out");
  ASSERT_EQ(t.rows.size(), 8u);
  const size_t first = t.column("status") + 1, last = t.column("error");
  ASSERT_EQ(t.header[first], "cycles");
  EXPECT_NE(t.column("ctas"), t.header.size());
  EXPECT_NE(t.column("stalls.memory"), t.header.size());
  EXPECT_NE(t.column("pipes.lsu.busy_cycles"), t.header.size());
  const auto json = json_by_key(dir + "/out");
  std::map<std::string, std::string> cycles;  // "program base rate" -> cycles
  for (const auto& row : t.rows) {
    const std::string program = row[1], base = row[t.column("base")], rate = row[t.column("memory.global_hit_rate")];
    SCOPED_TRACE(program + " " + base + " global_hit_rate " + rate);
    EXPECT_EQ(row[t.column("status")], "ok") << row[last];
    const std::string config = dir + "/" + base + "-" + rate + ".yaml";
    std::ofstream(config) << std::regex_replace(ptxfu::models::resolve_config(base).text,
                                                std::regex("global_hit_rate: [0-9.]+"), "global_hit_rate: " + rate);
    std::vector<std::string> args = {"sim", "--config", config, "--json"};
    for (const auto& a : sim_args(dir, program)) args.push_back(a);
    const CmdRun sim = run(args);
    ASSERT_EQ(sim.status, 0) << sim.out;
    const auto s = nlohmann::json::parse(sim.out);
    const auto& j = json.at(row[0]);
    for (size_t c = first; c < last; ++c) {
      std::string pointer = "/" + t.header[c];
      std::replace(pointer.begin(), pointer.end(), '.', '/');
      ASSERT_TRUE(s.contains(nlohmann::json::json_pointer(pointer))) << t.header[c] << " is not in ptxfu sim --json";
      EXPECT_EQ(j[t.header[c]], s[nlohmann::json::json_pointer(pointer)]) << t.header[c];
    }
    cycles[program + " " + base + " " + rate] = row[first];
  }
  // The override and the base reach the kernel's run.
  EXPECT_NE(cycles["softmax sm_90 0"], cycles["softmax sm_90 0.9"]);
  EXPECT_NE(cycles["softmax sm_80 0"], cycles["softmax sm_90 0"]);
}

// A kernel that faults or runs out of cycles is a failed point with the
// simulator's message; the other points run.
TEST(Sweep, AKernelFaultIsAFailedPoint) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string softmax =
      "    kernel: " + kCorpus + "softmax.sm_80.ptx\n    entry: softmax_warp_per_row\n    grid: 2\n    block: 64\n";
  std::ofstream(dir + "/s.yaml") << "base: sm_90\nparameters:\n  mode: [lt, at]\nprograms:\n"
                                 << "  - name: fine\n"
                                 << softmax << "    args: [buf:random:4096:3, buf:zeros:4096, s32:4, s32:256]\n"
                                 << "  - name: oob\n"
                                 << softmax << "    args: [buf:random:4096:3, buf:zeros:64, s32:4, s32:256]\n"
                                 << "  - name: limit\n"
                                 << softmax << "    max_cycles: 100\n"
                                 << "    args: [buf:random:4096:3, buf:zeros:4096, s32:4, s32:256]\n";
  const CmdRun r = run({"sweep", dir + "/s.yaml", "--out", dir + "/out", "--quiet", "--no-plots"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("6 run now (2 ok, 4 failed)"), std::string::npos) << r.out;
  const Table t = read_table(dir + "/out");
  ASSERT_EQ(t.rows.size(), 6u);
  for (const auto& row : t.rows) {
    SCOPED_TRACE(row[1] + " " + row[t.column("mode")]);
    const std::string error = row[t.column("error")];
    EXPECT_EQ(row[t.column("status")], row[1] == "fine" ? "ok" : "error");
    EXPECT_EQ(row[t.column("cycles")].empty(), row[1] != "fine");
    if (row[1] == "oob") {
      EXPECT_NE(error.find("softmax.sm_80.ptx:"), std::string::npos) << error;
      EXPECT_NE(error.find("Invalid __global__ write of size 4 bytes"), std::string::npos) << error;
      EXPECT_NE(error.find("out of bounds"), std::string::npos) << error;
    }
    if (row[1] == "limit") {
      EXPECT_NE(error.find("cycle limit of 100 reached"), std::string::npos) << error;
    }
  }
}

// A kernel sweep resumes to exactly its missing points, and its shards merge
// to the single-process result.
TEST(Sweep, AResumedKernelSweepKeepsItsPoints) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string spec = kernel_spec(dir);
  const CmdRun ref = run({"sweep", spec, "--out", dir + "/ref", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(ref.status, 0) << ref.out;
  // Keep the softmax rows, as if the matmul points were never run.
  std::filesystem::create_directory(dir + "/cut");
  const std::string csv = slurp(dir + "/ref/results.csv");
  std::string kept = csv.substr(0, csv.find('\n') + 1);
  std::istringstream in(csv.substr(kept.size()));
  std::string line;
  while (std::getline(in, line))
    if (line.find(",softmax,") != std::string::npos) kept += line + "\n";
  std::ofstream(dir + "/cut/results.csv") << kept;
  std::ofstream(dir + "/cut/results.jsonl") << slurp(dir + "/ref/results.jsonl");
  const CmdRun again = run({"sweep", spec, "--out", dir + "/cut", "--jobs", "2", "--quiet", "--no-plots"});
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("4 done before, 4 run now (4 ok, 0 failed), 0 missing"), std::string::npos) << again.out;
  EXPECT_EQ(sorted_rows(dir + "/cut"), sorted_rows(dir + "/ref"));
  EXPECT_EQ(sorted_json(dir + "/cut"), sorted_json(dir + "/ref"));
  const CmdRun idle = run({"sweep", spec, "--out", dir + "/cut", "--quiet", "--no-plots"});
  EXPECT_NE(idle.out.find("8 done before, 0 run now"), std::string::npos) << idle.out;
  for (int k = 1; k <= 2; ++k) {
    const CmdRun s = run({"sweep", spec, "--shard", std::to_string(k) + "/2", "--out",
                          dir + "/shard-" + std::to_string(k), "--quiet", "--no-plots"});
    ASSERT_EQ(s.status, 0) << s.out;
  }
  const CmdRun m = run({"sweep", "merge", dir + "/shard-1", dir + "/shard-2", "--out", dir + "/merged", "--no-plots"});
  ASSERT_EQ(m.status, 0) << m.out;
  EXPECT_EQ(sorted_rows(dir + "/merged"), sorted_rows(dir + "/ref"));
  const CmdRun dry = run({"sweep", spec, "--dry-run"});
  EXPECT_NE(dry.out.find("  matmul base=sm_90 memory.global_hit_rate=0.9\n"), std::string::npos) << dry.out;
}

// The emitted Slurm scripts, run by bash with the variables Slurm would set
// (the real cluster run is scripts/test-slurm.sh).
TEST(Sweep, SlurmScriptsRunEveryShardAndMerge) {
  const ScratchDir scratch;
  const std::string& top = scratch.path();
  for (const std::string kind : {"one-base", "bases", "kernels"}) {
    SCOPED_TRACE(kind);
    const std::string dir = top + "/" + kind;
    std::filesystem::create_directory(dir);
    const std::string spec = kind == "bases" ? base_spec(dir) : kind == "kernels" ? kernel_spec(dir) : fast_spec(dir);
    const CmdRun e = run({"sweep", spec, "--emit-slurm", "--shards", "3", "--jobs", "2", "--out", dir + "/slurm",
                          "--slurm-option", "partition=debug", "--slurm-option", "time=10"});
    ASSERT_EQ(e.status, 0) << e.out;
    EXPECT_NE(e.out.find("sbatch --parsable"), std::string::npos) << e.out;
    const std::string script = slurp(dir + "/slurm/sweep.sbatch");
    EXPECT_NE(script.find("#SBATCH --array=1-3\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --cpus-per-task=2\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --partition=debug\n#SBATCH --time=10\n"), std::string::npos) << script;
    for (int k = 1; k <= 3; ++k) {
      const std::string cmd = "cd / && SLURM_ARRAY_TASK_ID=" + std::to_string(k) + " SLURM_CPUS_PER_TASK=2 bash " +
                              dir + "/slurm/sweep.sbatch > /dev/null 2>&1";
      ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    ASSERT_EQ(std::system(("bash " + dir + "/slurm/merge.sbatch > /dev/null 2>&1").c_str()), 0);
    const CmdRun one = run({"sweep", spec, "--out", dir + "/one", "--quiet", "--no-plots"});
    ASSERT_EQ(one.status, 0);
    EXPECT_EQ(sorted_rows(dir + "/slurm/merged"), sorted_rows(dir + "/one"));
  }
}

TEST(Sweep, ABadSpecRunsNothingAndWritesNothing) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/bad.yaml")
      << "base: sm_90\nprograms: [ffma.chain]\nparameters:\n  units.fma.latency: [4, -1]\n";
  const CmdRun r = run({"sweep", dir + "/bad.yaml", "--out", dir + "/out"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(dir + "/bad.yaml:4:26: key 'parameters.units.fma.latency[1]'"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(dir + "/out"));
  const CmdRun shard = run({"sweep", fast_spec(dir), "--shard", "4/3", "--out", dir + "/out"});
  EXPECT_EQ(shard.status, 2);
  EXPECT_NE(shard.out.find("--shard must be K/N"), std::string::npos) << shard.out;
  const CmdRun none = run({"sweep"});
  EXPECT_EQ(none.status, 2);
  // A directory holding another sweep's results is refused.
  ASSERT_EQ(run({"sweep", fast_spec(dir), "--out", dir + "/fast", "--quiet", "--no-plots"}).status, 0);
  const CmdRun other = run({"sweep", slow_spec(dir, 2), "--out", dir + "/fast", "--quiet"});
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.out.find("holds results of another sweep"), std::string::npos) << other.out;
}

// A program the base accepts but a point's feature mask does not: a failed
// point with the checker's message; the others run.
TEST(Sweep, AProgramIllegalForAPointIsRecordedAsFailed) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/oob.ptx")
      << ".reg .b32 %h<4>;\nmov.b32 %h1, 0x3c003c00;\nfma.rn.oob.f16x2 %h0, %h1, %h1, %h1;\n";
  std::ofstream(dir + "/s.yaml") << "base: sm_90\nprograms: [oob.ptx]\nparameters:\n  features.remove: [[], [oob]]\n";
  const CmdRun r = run({"sweep", dir + "/s.yaml", "--out", dir + "/out", "--quiet", "--no-plots"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("1 ok, 1 failed"), std::string::npos) << r.out;
  const Table t = read_table(dir + "/out");
  ASSERT_EQ(t.rows.size(), 2u);
  for (const auto& row : t.rows) {
    const bool removed = row[t.column("features.remove")] == "[oob]";
    EXPECT_EQ(row[t.column("status")], removed ? "error" : "ok");
    if (removed) {
      EXPECT_NE(row[t.column("error")].find("feature 'oob' removed by configuration"), std::string::npos);
    }
  }
}

// One test per shipped spec: each has its own time limit (under ASan on a busy
// machine the four together ran past 120 s).
class ExampleSpec : public ::testing::TestWithParam<const char*> {};

TEST_P(ExampleSpec, ProducesCsvJsonAndPlots) {
  const bool gnuplot = std::system("command -v gnuplot > /dev/null 2>&1") == 0;
  const std::string name = GetParam();
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const CmdRun r =
      run({"sweep", kSource + "/configs/sweeps/" + name + ".yaml", "--out", dir, "--jobs", "2", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("points/s"), std::string::npos) << r.out;
  const Table t = read_table(dir);
  EXPECT_EQ(sorted_json(dir).size(), t.rows.size());
  if (!gnuplot) {
    EXPECT_NE(r.out.find("gnuplot is not installed"), std::string::npos) << r.out;
    return;
  }
  const std::string png = name == std::string("hfma2_lanes_issue") ? dir + "/ipc-hfma2_stream.png" : dir + "/ipc.png";
  EXPECT_EQ(slurp(png).substr(0, 4), "\x89PNG") << r.out;
  EXPECT_NE(slurp(png.substr(0, png.size() - 4) + ".svg").find("<svg"), std::string::npos);
}
INSTANTIATE_TEST_SUITE_P(Sweep, ExampleSpec,
                         ::testing::Values("fma_latency_warps", "hfma2_lanes_issue", "arch_warps", "kernel_arch"),
                         [](const auto& spec) { return std::string(spec.param); });

TEST(Sweep, OneParameterSweepsGetALineChart) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/s.yaml") << "base: sm_90\nparameters:\n  scheduler: [gto, lrr]\n  warps: 16\n"
                                 << "programs: [ffma.chain, examples/sim_mix.ptx]\nplot: [ipc, cycles]\n";
  ::symlink((kSource + "/examples").c_str(), (dir + "/examples").c_str());
  const CmdRun r = run({"sweep", dir + "/s.yaml", "--out", dir + "/out", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* f : {"/out/ipc.png", "/out/cycles.png"})
    EXPECT_EQ(slurp(dir + f).substr(0, 4), "\x89PNG") << f << r.out;
  EXPECT_NE(slurp(dir + "/out/ipc.gp").find("xticlabels"), std::string::npos);  // categorical axis
}

TEST(Sweep, WithoutGnuplotThereAreNoPlotsAndNoError) {
  const ScratchDir scratch;
  const std::string& dir = scratch.path();
  const CmdRun r = run({"sweep", fast_spec(dir), "--out", dir + "/out", "--quiet"}, "/nonexistent");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("gnuplot is not installed"), std::string::npos) << r.out;
  EXPECT_EQ(data_rows(dir + "/out"), 24u);
}

}  // namespace
