// One SM sub-partition's warp dispatcher: a TLM-2.0 initiator with one
// socket per execution unit, a register scoreboard (read-after-write and
// write-after-write, the carry flag included) and a scheduling policy.
// The same issue decision serves the loosely-timed style (b_transport with
// temporal decoupling) and the approximately-timed style (nb_transport with
// four phases), so both give the same cycle counts.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/simt_stack.h"
#include "models/warp_op.h"

namespace ptxfu::models {

enum class TimingStyle { loosely_timed, approximately_timed };

enum class Stall : uint8_t { dependency, pipe_busy, no_ready_warp, kCount };
inline constexpr std::string_view kStallNames[] = {"dependency", "pipe_busy", "no_ready_warp"};

// One line of a pipeline trace (Kanata), recorded when asked for.
struct IssueRecord {
  uint64_t id;
  uint32_t warp, pc;
  Unit unit;
  uint64_t issue_cycle, free_cycle, done_cycle;
};

// Which unit runs each program instruction, and how long: an arithmetic
// form as the config says (its class's unit, then the form overrides); a mov
// on the ALU.
std::vector<Timing> program_timings(const ArchConfig& config, const Program& program);

class SubPartition : public sc_core::sc_module {
 public:
  std::array<tlm_utils::simple_initiator_socket<SubPartition>, kNumUnits> unit_sockets;  // one per unit, kUnits order

  // `warp_ids` are the global ids of the warps this sub-partition runs, in
  // a CTA of `cta_threads` threads (warp w has the threads w*32 .. w*32+31
  // that exist).
  // `timings`: program_timings(config, program), shared by the sub-partitions.
  SubPartition(sc_core::sc_module_name name, const ArchConfig& config, const Program& program,
               const std::vector<Timing>& timings, std::vector<uint32_t> warp_ids, unsigned cta_threads,
               TimingStyle style, uint64_t quantum_cycles, bool record);

  // Results, valid after the simulation.
  uint64_t last_issue_end() const { return last_issue_end_; }  // cycle after the last issue
  uint64_t last_done() const { return last_done_; }
  uint64_t warp_instructions() const { return warp_instructions_; }
  const std::array<uint64_t, static_cast<size_t>(Stall::kCount)>& stalls() const { return stalls_; }
  const std::vector<uint32_t>& warp_ids() const { return warp_ids_; }
  // Final value of register `reg`, lane `lane`, of local warp `w`.
  uint64_t reg(size_t w, size_t reg, size_t lane) const { return warps_[w].values[reg * kWarpSize + lane]; }
  const std::vector<IssueRecord>& records() const { return records_; }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};

  struct Warp {
    uint32_t id;
    SimtStack simt;                  // pc and active mask
    std::vector<uint64_t> values;    // registers x lanes
    uint32_t carry = 0;              // CC.CF per lane
    std::vector<uint64_t> ready_at;  // per register, then the carry flag last: its writer's result is back
    // Per register (and the carry flag), its last writer: when it issued and
    // its row of the config's dependency table (nullptr: none). A consumer of
    // class c may read it at max(ready_at, written_at + row[c]): the same as
    // ArchConfig::dependent_latency, ready_at being the writer's latency.
    std::vector<uint64_t> written_at;
    std::vector<const unsigned*> writer;
  };
  // The cycle from which an instruction with timing `consumer` may read
  // register `r` of `warp`.
  uint64_t readable_at(const Warp& warp, size_t r, const Timing& consumer) const;
  struct Txn : WarpOpPayload {
    size_t warp = 0;
  };

  void run();
  // The issue decision at cycle t: a warp index, or -1 with the stall reason
  // and the next cycle at which anything a warp waits for changes.
  int pick(uint64_t t, Stall& reason, uint64_t& next) const;
  bool finished_issuing() const;
  void issue(size_t w, uint64_t t);
  // The destinations (and the carry flag) of `pi` are ready at `cycle`.
  void set_ready(Warp& warp, const ProgramInstr& pi, uint64_t cycle);
  // ... and were written by an instruction with timing `t` issued at `issued`.
  void set_writer(Warp& warp, const ProgramInstr& pi, const Timing& t, uint64_t issued);
  void complete(Txn& txn, uint64_t cycle);
  Txn* acquire();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);

  const ArchConfig& config_;
  const Program& program_;
  std::vector<Timing> timing_;  // per program instruction
  std::vector<uint32_t> warp_ids_;
  unsigned cta_threads_;
  std::vector<Warp> warps_;
  TimingStyle style_;
  uint64_t quantum_cycles_;
  bool record_;
  std::array<uint64_t, kNumUnits> unit_free_at_{};
  // The warp issued last (GTO keeps it, LRR moves past it). Before any issue
  // both start with the oldest warp: GTO's "last" is warp 0, LRR's the
  // youngest, so that the round starts at warp 0.
  size_t last_warp_ = 0;
  uint64_t last_issue_end_ = 0;
  uint64_t last_done_ = 0;
  uint64_t warp_instructions_ = 0;
  uint64_t outstanding_ = 0;
  std::array<uint64_t, static_cast<size_t>(Stall::kCount)> stalls_{};
  std::vector<std::unique_ptr<Txn>> pool_;
  std::vector<Txn*> free_;
  // AT: END_REQ (the unit is free again) and BEGIN_RESP (the result) arrivals.
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> request_ends_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> responses_;
  void drain_events(uint64_t now);
  void release(Txn& txn);
  std::vector<IssueRecord> records_;
};

}  // namespace ptxfu::models
