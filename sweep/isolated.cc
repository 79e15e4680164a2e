#include "sweep/isolated.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sweep/program.h"

namespace ptxfu::sweep {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

models::SimResult failed(std::string error) {
  models::SimResult r;
  r.ok = false;
  r.error = std::move(error);
  return r;
}

// The pipe's format, private to this file: a SimResult as JSON (doubles
// round-trip exactly), without the fields simulate_isolated() leaves behind.
json to_wire(const models::SimResult& r) {
  json units = json::array();
  for (const auto& u : r.units) units.push_back({u.busy_cycles, u.utilisation, u.warp_instructions});
  const auto& c = r.rtl_cosim;
  const auto& res = r.residency;
  return {{"cycles", r.cycles},
          {"warp_instructions", r.warp_instructions},
          {"ipc", r.ipc},
          {"units", units},
          {"stalls", r.stalls},
          {"host_seconds", r.host_seconds},
          {"simulated_cycles", r.simulated_cycles},
          {"rtl_half", r.rtl_half},
          {"rtl_cosim", {c.instructions, c.lanes_checked, c.mismatches, c.latency_mismatches, c.reports}},
          {"ok", r.ok},
          {"error", r.error},
          {"ctas", r.ctas},
          {"residency", {res.ctas, res.limit, res.warps_per_cta, res.registers_per_thread, res.shared_per_cta}}};
}

models::SimResult from_wire(const json& j) {
  models::SimResult r;
  j.at("cycles").get_to(r.cycles);
  j.at("warp_instructions").get_to(r.warp_instructions);
  j.at("ipc").get_to(r.ipc);
  const json& units = j.at("units");
  if (units.size() != r.units.size()) throw std::runtime_error("unit count");
  for (size_t u = 0; u < r.units.size(); ++u) {
    units[u].at(0).get_to(r.units[u].busy_cycles);
    units[u].at(1).get_to(r.units[u].utilisation);
    units[u].at(2).get_to(r.units[u].warp_instructions);
  }
  j.at("stalls").get_to(r.stalls);
  j.at("host_seconds").get_to(r.host_seconds);
  j.at("simulated_cycles").get_to(r.simulated_cycles);
  j.at("rtl_half").get_to(r.rtl_half);
  const json& c = j.at("rtl_cosim");
  c.at(0).get_to(r.rtl_cosim.instructions);
  c.at(1).get_to(r.rtl_cosim.lanes_checked);
  c.at(2).get_to(r.rtl_cosim.mismatches);
  c.at(3).get_to(r.rtl_cosim.latency_mismatches);
  c.at(4).get_to(r.rtl_cosim.reports);
  j.at("ok").get_to(r.ok);
  j.at("error").get_to(r.error);
  j.at("ctas").get_to(r.ctas);
  const json& res = j.at("residency");
  res.at(0).get_to(r.residency.ctas);
  res.at(1).get_to(r.residency.limit);
  res.at(2).get_to(r.residency.warps_per_cta);
  res.at(3).get_to(r.residency.registers_per_thread);
  res.at(4).get_to(r.residency.shared_per_cta);
  return r;
}

// The child: runs the point, writes its results to `fd`, never returns.
template <typename Work>
[[noreturn]] void child(const Work& work, int fd) {
  std::string reply;
  try {
    json results = json::array();
    for (const models::SimResult& r : work()) results.push_back(to_wire(r));
    reply = results.dump();
  } catch (...) {  // not even the result could be written: the parent reports "no readable result"
    _exit(3);
  }
  for (size_t done = 0; done < reply.size();) {
    const ssize_t n = ::write(fd, reply.data() + done, reply.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    done += static_cast<size_t>(n);
  }
  _exit(0);
}

template <typename Work>
pid_t fork_child(const Work& work, int& read_fd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(e));
  }
  if (pid == 0) {
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGHUP, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed with SIGKILL takes its children along
    if (::getppid() != parent) _exit(4);
    ::close(fds[0]);
    child(work, fds[1]);
  }
  ::close(fds[1]);
  read_fd = fds[0];
  return pid;
}

// Reads the child's reply until end of file. False: stopped or timed out
// first (the child is then signalled and `timed_out` says which).
bool read_reply(int fd, pid_t pid, const Isolation& iso, std::string& reply, bool& timed_out) {
  const auto start = Clock::now();
  const bool ticking = iso.stop || iso.timeout_s > 0;
  while (true) {
    if (iso.stop && iso.stop->load() != 0) {
      ::kill(pid, SIGTERM);
      return false;
    }
    if (iso.timeout_s > 0 && std::chrono::duration<double>(Clock::now() - start).count() > iso.timeout_s) {
      ::kill(pid, SIGKILL);
      timed_out = true;
      return false;
    }
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, ticking ? 50 : -1);
    if (n <= 0) continue;  // a tick, or EINTR
    char buf[4096];
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got > 0) reply.append(buf, static_cast<size_t>(got));
    if (got == 0) return true;
    if (got < 0 && errno != EINTR && errno != EAGAIN) return true;
  }
}

std::string death(int status) {
  if (WIFSIGNALED(status))
    return fmt::format("worker killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  if (WIFEXITED(status)) return fmt::format("worker exited with status {} without a result", WEXITSTATUS(status));
  return "worker ended without a result";
}

// Ctrl-C reaches the whole process group: a child that died of it may be
// seen before this process's own handler has set `stop`. Wait for it a
// moment, so that the caller sees an interruption rather than a failure.
void await_stop(int status, const Isolation& iso) {
  if (!iso.stop || !WIFSIGNALED(status)) return;
  const int sig = WTERMSIG(status);
  if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP) return;
  for (int i = 0; i < 100 && iso.stop->load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

}  // namespace

models::SimResult simulate_one(const models::SimJob& job) {
  try {
    return models::simulate({job}).front();
  } catch (const std::exception& e) {
    return failed(std::string("simulation failed: ") + e.what());
  } catch (...) {
    return failed("simulation failed: unknown exception");
  }
}

namespace {

// Any point's work in a forked child (see simulate_isolated).
template <typename Work>
PointResult isolated(const Work& work, const Isolation& iso) {
  int fd = -1;
  pid_t pid = -1;
  try {
    pid = fork_child(work, fd);
  } catch (const std::exception& e) {
    if (iso.held) iso.held->unlock();
    return {failed(e.what())};
  }
  if (iso.held) iso.held->unlock();
  std::string reply;
  bool timed_out = false;
  const bool complete = read_reply(fd, pid, iso, reply, timed_out);
  ::close(fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return {failed(fmt::format("timed out after {} s", iso.timeout_s))};
  if (!complete) return {failed("stopped")};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    await_stop(status, iso);
    return {failed(death(status))};
  }
  try {
    PointResult results;
    for (const json& r : json::parse(reply)) results.push_back(from_wire(r));
    if (results.empty()) throw std::runtime_error("empty");
    return results;
  } catch (const std::exception&) {
    return {failed("worker sent no readable result")};
  }
}

// A host program on the point's config: the total, then each launch.
PointResult run_host_program(const PointJob& pj) {
  try {
    Device dev = Device::from_config_text(pj.config_text, pj.config->name);
    dev.set_approximately_timed(pj.job.style == models::TimingStyle::approximately_timed);
    const std::vector<LaunchResult> launches = HostProgramRun(*pj.host, std::move(dev)).run();
    PointResult r = {sim_result_of(total_of(launches))};
    for (const LaunchResult& l : launches) r.push_back(sim_result_of(l));
    return r;
  } catch (const ProgramFault& f) {
    return {failed(f.message)};
  } catch (const std::exception& e) {
    return {failed(std::string("simulation failed: ") + e.what())};
  }
}

}  // namespace

models::SimResult simulate_isolated(const models::SimJob& job, const Isolation& iso) {
  return isolated([&] { return PointResult{simulate_one(job)}; }, iso).front();
}

PointResult run_point(const PointJob& pj) { return pj.host ? run_host_program(pj) : PointResult{simulate_one(pj.job)}; }

PointResult run_point_isolated(const PointJob& pj, const Isolation& iso) {
  return isolated([&] { return run_point(pj); }, iso);
}

}  // namespace ptxfu::sweep
