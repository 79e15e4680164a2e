#include "models/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "cosim/rtl_form.h"
#include "models/exec_unit.h"
#include "models/kernel_sm_module.h"
#include "models/lsu_unit.h"
#include "models/rtl_half_unit.h"
#include "models/rtl_tensor_check.h"

// ptxfu owns main(); SystemC's library still references sc_main.
int sc_main(int, char**) { return 0; }

namespace ptxfu::models {
namespace {

// One SM: the kernel's warp scheduler and, per sub-partition, a unit of
// every kind bound to its sockets.
struct SmModel {
  std::vector<std::unique_ptr<UnitBase>> units;  // sub-partition-major
  std::unique_ptr<KernelSm> kernel_sm;
  std::vector<const RtlHalfUnit*> rtl_units;  // the FMA units when job.rtl_half, among `units`

  SmModel(const std::string& name, const SimJob& job) {
    const ArchConfig& c = *job.config;
    const bool trace = !job.vcd_path.empty();
    kernel_sm = std::make_unique<KernelSm>(name.c_str(), job, !job.kanata_path.empty() || job.record_issues);
    for (unsigned p = 0; p < c.sub_partitions; ++p) {
      for (const UnitRow& row : kUnits) {
        const std::string un = fmt::format("{}_sp{}_{}", name, p, row.name);
        if (job.rtl_half && row.unit == Unit::fma) {
          auto rtl = std::make_unique<RtlHalfUnit>(un.c_str(), rtl_stages_for(job), job.rtl_broken, trace);
          rtl_units.push_back(rtl.get());
          units.push_back(std::move(rtl));
        } else if (row.unit == Unit::lsu) {
          units.push_back(std::make_unique<LsuUnit>(un.c_str(), c.memory, trace));
        } else {
          units.push_back(std::make_unique<ExecUnit>(un.c_str(), row.unit, trace));
        }
        kernel_sm->sockets[p * kNumUnits + static_cast<size_t>(row.unit)]->bind(units.back()->socket);
      }
    }
  }
};

// A straight-line program runs as one CTA of the job's threads, resident
// whatever its registers (its warps are what --warps asks for, up to
// max_warps): one register a thread counts against the register file.
SimJob with_launch(SimJob job) {
  if (job.kernel && job.kernel->straight_line) {
    job.launch = {};
    job.launch.block.x = cta_threads(job);
    job.registers_per_thread = 1;
  }
  return job;
}

void write_kanata(const std::string& path, const SimJob& job, const SmModel& sm) {
  struct Event {
    uint64_t cycle;
    int order;  // stage ends before starts, starts before retire
    std::string line;
  };
  std::vector<Event> events;
  uint64_t id = 0;
  {
    for (const IssueRecord& r : sm.kernel_sm->records()) {
      std::string label =
          fmt::format("w{} line{} {}", r.warp, job.kernel->insts[r.pc].line, job.kernel->insts[r.pc].mnemonic);
      std::replace(label.begin(), label.end(), '\t', ' ');  // Kanata columns are tab-separated
      events.push_back(
          {r.issue_cycle, 1, fmt::format("I\t{0}\t{0}\t{1}\nL\t{0}\t0\t{2}\nS\t{0}\t0\tIs", id, r.warp, label)});
      events.push_back({r.issue_cycle + 1, 0, fmt::format("E\t{}\t0\tIs", id)});
      events.push_back({r.issue_cycle + 1, 1, fmt::format("S\t{}\t0\t{}", id, name(r.unit))});
      events.push_back({r.done_cycle, 0, fmt::format("E\t{}\t0\t{}", id, name(r.unit))});
      events.push_back({r.done_cycle, 2, fmt::format("R\t{0}\t{0}\t0", id)});
      ++id;
    }
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.order < b.order;
  });
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp);
    if (!out) throw ConfigError(path + ": cannot write the Kanata log");
    out << "Kanata\t0004\nC=\t0\n";
    uint64_t cycle = 0;
    for (const auto& e : events) {
      if (e.cycle > cycle) {
        out << "C\t" << e.cycle - cycle << "\n";
        cycle = e.cycle;
      }
      out << e.line << "\n";
    }
    if (!out) throw ConfigError(path + ": write failed");
  }
  std::rename(tmp.c_str(), path.c_str());  // never leave a half-written log under the real name
}

}  // namespace

void validate_warps(const ArchConfig& c, unsigned warps, unsigned threads) {
  if (warps == 0 || warps > c.max_warps)
    throw ConfigError(fmt::format("{} warps: {} allows 1..{} warps per SM (max_warps)", warps, c.name, c.max_warps));
  if (threads && (threads > warps * 32 || threads <= (warps - 1) * 32))
    throw ConfigError(fmt::format("{} threads do not make {} warps", threads, warps));
}

void validate(const SimJob& job) {
  const ArchConfig& c = *job.config;
  if (!job.kernel) throw ConfigError("a simulation runs a kernel or a straight-line program");
  if (job.quantum_cycles == 0) throw ConfigError("the LT quantum must be at least one cycle");
  if (job.kernel->straight_line) validate_warps(c, job.warps, job.threads);
  const SimJob run = with_launch(job);
  residency(c, *run.kernel, run.launch,
            run.registers_per_thread ? run.registers_per_thread : estimated_registers(*run.kernel));
  kernel::make_memory(*run.kernel, run.launch);  // the arguments against the parameters
  if (job.rtl_tensor) check_rtl_tensor(*job.kernel, static_cast<int>(c.caps.sm), job.rtl_tensor_broken);
  if (job.rtl_half) {
    if (job.style != TimingStyle::approximately_timed)
      throw ConfigError(
          "the RTL co-simulation needs the approximately-timed style (--mode at): "
          "b_transport cannot wait for a clocked RTL");
    const unsigned stages = rtl_stages_for(job);
    const auto have = hfma2_pipe_stages(job.rtl_broken);
    if (have.empty() && hfma2_pipe_stages(!job.rtl_broken).empty())
      throw ConfigError("this build has no RTL models for the co-simulation (configured with -DPTXFU_MODEL_RTL=OFF)");
    if (std::find(have.begin(), have.end(), stages) == have.end()) {
      std::string list;
      for (unsigned s : have) list += (list.empty() ? "" : ", ") + std::to_string(s);
      throw ConfigError(
          fmt::format("the RTL co-simulation needs an HFMA2 model with NUM_STAGES={} ({}); "
                      "this build verilated NUM_STAGES {} (PTXFU_MODEL_RTL_STAGES)",
                      stages, job.rtl_stages ? "as asked" : c.name + "'s HFMA2 latency", list));
    }
  }
}

unsigned rtl_stages_for(const SimJob& job) {
  if (job.rtl_stages) return job.rtl_stages;
  cosim::Form form;
  std::string error;
  if (!cosim::make_form("fma.rn.f16x2", form, error)) throw ConfigError(error);
  return job.config->timing_for(form.instr).latency;
}

namespace {

// SystemC elaborates once per simulation context. Once a simulation has run
// and its modules are gone, its context is replaced by a new one, so that
// the next simulate() elaborates its own SMs, of any config, in the same
// process (SystemC 2.3.4 reads the current context through these two
// pointers). The context the library made at load time stays: its own
// static events refer to it until the process exits.
void fresh_simulation_context() {
  static sc_core::sc_simcontext* const original = sc_core::sc_curr_simcontext;
  sc_core::sc_simcontext* done = sc_core::sc_curr_simcontext;
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  if (done != original) delete done;
}

// Replaces the context when simulate() leaves, by a return or an exception
// (a SystemC report thrown mid-run must not leave the next call a spent
// context). Declared before the modules, so that they go first.
struct FreshContextOnExit {
  FreshContextOnExit() = default;
  FreshContextOnExit(const FreshContextOnExit&) = delete;
  FreshContextOnExit& operator=(const FreshContextOnExit&) = delete;
  ~FreshContextOnExit() { fresh_simulation_context(); }
};

// Lends each job's lent_buffers to its SM's memory for the run and takes
// them back when returned or destroyed (an exception mid-run). Declared
// after the modules, so that it goes first.
class LentBuffers {
 public:
  LentBuffers(const std::vector<SimJob>& jobs, const std::vector<std::unique_ptr<SmModel>>& sms) {
    for (size_t i = 0; i < jobs.size(); ++i) {
      kernel::Memory& m = sms[i]->kernel_sm->memory();
      for (std::vector<kernel::Buffer>* v : jobs[i].lent_buffers) {
        lent_.push_back({&m, v});
        for (kernel::Buffer& b : *v) m.buffers.push_back(std::move(b));  // b keeps its base: how it comes back
      }
      std::sort(m.buffers.begin(), m.buffers.end(),
                [](const kernel::Buffer& x, const kernel::Buffer& y) { return x.base < y.base; });
    }
  }
  LentBuffers(const LentBuffers&) = delete;
  LentBuffers& operator=(const LentBuffers&) = delete;
  ~LentBuffers() { give_back(); }

  void give_back() {
    for (auto& [m, v] : lent_) {
      for (kernel::Buffer& b : *v) {
        auto it = std::lower_bound(m->buffers.begin(), m->buffers.end(), b.base,
                                   [](const kernel::Buffer& x, uint64_t base) { return x.base < base; });
        b = std::move(*it);
        m->buffers.erase(it);
      }
    }
    lent_.clear();
  }

 private:
  std::vector<std::pair<kernel::Memory*, std::vector<kernel::Buffer>*>> lent_;
};

SimResult result_of(const SimJob& job, SmModel& sm, double seconds) {
  KernelSm& k = *sm.kernel_sm;
  SimResult r;
  r.ok = k.ok();
  r.error = k.error();
  r.cycles = k.cycles();
  r.warp_instructions = k.warp_instructions();
  r.ctas = k.ctas();
  r.residency = k.residency_limit();
  r.lines = k.lines();
  r.stalls = k.stalls();
  r.memory = std::move(k.memory());
  for (const RtlHalfUnit* u : sm.rtl_units) r.rtl_cosim.merge(u->stats());
  r.rtl_half = job.rtl_half;
  r.rtl_tensor = job.rtl_tensor;
  if (job.rtl_tensor) r.rtl_tensor_cosim = k.rtl_tensor_stats();
  r.racecheck = job.racecheck;
  if (const kernel::RaceReport* races = k.races()) r.races = *races;
  for (const auto& u : sm.units) {
    auto& us = r.units[static_cast<size_t>(u->unit_kind())];
    us.busy_cycles += u->busy_cycles();
    us.warp_instructions += u->warp_instructions();
  }
  for (auto& us : r.units)
    us.utilisation =
        r.cycles ? static_cast<double>(us.busy_cycles) / (static_cast<double>(r.cycles) * job.config->sub_partitions)
                 : 0;
  r.ipc = r.cycles ? static_cast<double>(r.warp_instructions) / static_cast<double>(r.cycles) : 0;
  r.host_seconds = seconds;
  if (job.record_issues) r.issues = k.records();
  if (job.kernel->straight_line && r.ok) {
    auto& regs = k.final_registers();
    if (!regs.empty()) r.warp0_registers = regs[0];
    if (job.all_registers) r.registers = std::move(regs);
  }
  return r;
}

}  // namespace

std::vector<SimResult> simulate(const std::vector<SimJob>& jobs) {
  static std::mutex one_at_a_time;  // SystemC's current context is the process's
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  for (const auto& j : jobs) validate(j);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  std::vector<SimJob> runs;
  runs.reserve(jobs.size());
  for (const SimJob& j : jobs) runs.push_back(with_launch(j));
  const FreshContextOnExit fresh_context;
  std::vector<std::unique_ptr<SmModel>> sms;
  for (size_t i = 0; i < runs.size(); ++i) sms.push_back(std::make_unique<SmModel>(fmt::format("sm{}", i), runs[i]));
  LentBuffers lent(runs, sms);
  std::vector<sc_core::sc_trace_file*> traces;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].vcd_path.empty()) continue;
    std::string base = runs[i].vcd_path;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
    sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, sc_core::SC_NS);
    for (const auto& u : sms[i]->units) {
      sc_core::sc_trace(tf, u->busy, std::string(u->name()) + ".busy");
      sc_core::sc_trace(tf, u->in_flight, std::string(u->name()) + ".in_flight");
    }
    traces.push_back(tf);
  }
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const uint64_t simulated = to_cycles(sc_core::sc_time_stamp());
  for (auto* tf : traces) sc_core::sc_close_vcd_trace_file(tf);
  lent.give_back();

  std::vector<SimResult> results;
  for (size_t i = 0; i < runs.size(); ++i) {
    results.push_back(result_of(runs[i], *sms[i], seconds));
    results.back().simulated_cycles = simulated;
    if (!runs[i].kanata_path.empty()) write_kanata(runs[i].kanata_path, runs[i], *sms[i]);
  }
  return results;
}

}  // namespace ptxfu::models
