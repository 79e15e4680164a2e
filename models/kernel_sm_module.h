// The SystemC module behind models/kernel_sm.h: one thread for the whole SM
// (the CTAs of a kernel share barriers, shared memory and atomics across
// sub-partitions, so they advance in one cycle loop), one TLM-2.0 initiator
// socket per unit of every sub-partition.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/kernel_sm.h"
#include "models/rtl_cosim_stats.h"
#include "models/warp_op.h"

namespace ptxfu::kernel {
class RaceChecker;
struct RaceReport;
}  // namespace ptxfu::kernel

namespace ptxfu::models {

struct SimJob;
class RtlTensorCheck;

class KernelSm : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_initiator_socket<KernelSm>;
  std::vector<std::unique_ptr<Socket>> sockets;  // [sub_partition * kNumUnits + unit]

  KernelSm(sc_core::sc_module_name name, const SimJob& job, bool record);
  ~KernelSm() override;

  // Results, valid after the simulation.
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  uint64_t cycles() const { return end_cycle_; }
  uint64_t warp_instructions() const { return warp_instructions_; }
  uint64_t ctas() const { return ctas_done_; }
  const Residency& residency_limit() const { return residency_; }
  kernel::Memory& memory() { return memory_; }
  const std::vector<LineProfile>& lines() const { return lines_; }
  const std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)>& stalls() const { return stalls_; }
  const std::vector<IssueRecord>& records() const { return records_; }
  std::vector<std::vector<std::vector<uint64_t>>>& final_registers() { return final_registers_; }
  // --rtl-tensor: what the block FMA RTL made of the tensor core's blocks
  // (its pipes drained first).
  RtlTensorStats rtl_tensor_stats();
  // --racecheck: the hazards found; nullptr without it.
  const kernel::RaceReport* races() const;

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};
  static constexpr size_t kNone = ~size_t{0};
  static constexpr uint32_t kNoPc = ~uint32_t{0};
  static constexpr uint8_t kNoUnit = 0xff;

  // The scoreboard's view of one register of a warp.
  struct RegisterState {
    uint64_t ready_at = 0;  // when a consumer may issue
    // Its last writer: when it issued and its row of the config's dependency
    // table (a consumer of class c may read it at max(ready_at, written_at +
    // writer[c])).
    uint64_t written_at = 0;
    const unsigned* writer = nullptr;
    bool from_memory = false;  // its pending producer is a memory or warp operation
  };
  // The cycles the last register of each kind that an instruction waits
  // for is ready at: those a memory or warp operation writes, the others
  // (kNever: a cycle not known yet, approximately timed).
  struct OperandWait {
    uint64_t memory_at = 0, dependency_at = 0;
  };
  // A resident warp.
  struct Slot {
    bool used = false;
    size_t index = 0;  // in slots_
    size_t cta = 0;    // index in ctas_
    kernel::Warp* warp = nullptr;
    unsigned part = 0;
    uint32_t num_regs = 0;   // its registers (frame base + slot) in board_
    RegisterState carry;     // the carry flag (CC.CF)
    uint64_t resume_at = 0;  // a branch or barrier holds the warp until then
    unsigned holds = 0;      // approximately timed: branches and barriers whose end is not known yet
    bool at_barrier = false;
    bool suspended = false;    // an mbarrier.try_wait holds it until resume_at (or a phase completes)
    uint32_t barrier_pc = 0;   // the bar.sync, cp.async wait or try_wait it waits at (its stall is counted there)
    unsigned outstanding = 0;  // issued instructions whose results are not out
    WarpStall reason = WarpStall::idle;  // why it did not issue, this cycle (kCount: it issued)
    // When the registers and carry of the instruction at `operands_pc` are
    // ready (OperandWait): only this warp's own issues and completions
    // change them, and both forget it (kNoPc), so check() reads them once.
    uint32_t operands_pc = kNoPc;
    OperandWait operands;
    // The profile counts `reason` at line `stall_pc` from `stall_since` on,
    // when the reason changes (set_reason): not every warp every cycle.
    uint32_t stall_pc = 0;
    uint64_t stall_since = 0;
  };
  struct CtaSlot {
    std::unique_ptr<kernel::Cta> cta;
    std::vector<size_t> slots;
    uint64_t retire_at = 0;             // the last result of its warps is out then
    size_t live_warps = 0;              // warps that have not exited
    uint64_t mbarrier_completions = 0;  // the CTA's count when its suspended warps were last woken
  };
  struct Part {
    std::vector<size_t> warps;       // slots, oldest first
    size_t last = kNone;             // the slot issued last
    size_t last_pos = kNone;         // its place in `warps`
    uint64_t parked = 0;             // places (up to 64) of warps blocked until a known cycle
    uint64_t park_until = kNever;    // the earliest such cycle (or earlier)
    uint64_t issued_cycle = kNever;  // the last cycle it issued in
    std::array<uint64_t, kNumUnits> unit_free_at{};
    // Its warps by `reason` (the last entry: issued this cycle).
    std::array<unsigned, static_cast<size_t>(WarpStall::kCount) + 1> by_reason{};
  };
  struct Txn : WarpOpPayload {
    size_t slot = 0;
    unsigned part = 0;
    uint32_t reg_base = 0;
    const kernel::Inst* inst = nullptr;
    std::vector<size_t> released;  // bar: the warps its arrival released
    uint64_t async_first = 0;      // cp.async: the copies it made, timed when it completes
    uint32_t async_count = 0;
  };

  void run();
  void run_loosely_timed();
  void run_approximately_timed();
  // One cycle's issue decisions on every sub-partition; returns whether any
  // issued and lowers `next` to the next cycle anything blocking changes.
  bool issue_cycle(uint64_t t, uint64_t& next);
  // The warp the policy picks in `part` at t (kNone: none is ready; its
  // place in picked_pos_), every warp's reason brought up to date.
  size_t pick(Part& part, uint64_t t);
  // check() and set_reason() for `slot`, its Watch updated: the slot when
  // it is ready, else kNone.
  size_t consider(size_t slot, uint64_t t);
  // The earliest cycle a warp's last look said may change anything.
  uint64_t earliest_wake() const;
  // Something the slot waits for without a known cycle has come, or it
  // issued: the scheduler looks at it in full next time.
  void wake(size_t slot) {
    watch_[slot] = Watch{};
    if (pos_of_[slot] < 64) parts_[slots_[slot].part].parked &= ~(uint64_t{1} << pos_of_[slot]);
  }
  // The unit of a warp that waited only for it: whether it is ready now,
  // its reason and Watch brought up to date as consider() would.
  bool look_at_unit(const Part& part, size_t slot, uint64_t t);
  // Unparks the warps of `part` whose recheck cycle has come.
  void unpark(Part& part, uint64_t t);
  // Why the slot cannot issue at t (not_selected when it can); `until`: the
  // first cycle its reason may change, `known`: whether that is all it waits for.
  // A warp that waits for `when` (kNever: a cycle not known yet), seen at
  // cycle `t`: the earliest cycle to look again, and whether it is known.
  static void wait_until(uint64_t when, uint64_t t, uint64_t& until, bool& known);
  WarpStall check(Slot& s, uint64_t t, uint64_t& until, bool& known) const;
  // check()'s part for the registers and carry of the instruction at `pc`:
  // dependency, memory, or not_selected when they are free.
  WarpStall check_operands(Slot& s, uint32_t pc, uint64_t t, uint64_t& until, bool& known) const;
  // The same at cycle t, the scoreboard read afresh (for cycles not known yet).
  WarpStall check_operands_now(const Slot& s, uint32_t pc, uint64_t t, uint64_t& until, bool& known) const;
  // When the registers and carry of the instruction at `pc` are ready.
  OperandWait operand_wait(const Slot& s, uint32_t pc) const;
  // Calls ready(cycle, from_memory) for each register (and the carry flag)
  // the instruction at `pc` reads or writes: when it is ready for it.
  template <typename F>
  void for_each_operand(const Slot& s, uint32_t pc, F&& ready) const;
  void issue(size_t slot, uint64_t t);
  // Asks the cache early for the scoreboard entries of the warp's next
  // instruction: check_operands() reads them soon, and they are often cold
  // (the warps' register files are larger than the cache).
  void prefetch_operands(const Slot& s) const;
  // The sub-partitions' stall reasons of this cycle, for `cycles` cycles.
  void account(uint64_t cycles);
  // A slot's reason from cycle t on; the cycles its previous reason held go
  // to that reason's line. end_reason: the slot leaves (its CTA retires).
  void set_reason(Slot& s, WarpStall reason, uint64_t t);
  void end_reason(Slot& s, uint64_t t);
  // The results of `txn` may be used from `cycle`; `pending`: nothing is
  // known yet (approximately timed, at issue).
  void complete(Txn& txn, uint64_t cycle, bool pending = false);
  void retire_and_launch(uint64_t t, uint64_t& next);
  // The asynchronous side at cycle t: copies due land, cp.async waits that
  // are over end, try_wait-suspended warps of a CTA whose mbarrier completed
  // a phase wake. async_next lowers `next` to the next landing.
  void settle_async(uint64_t t);
  void async_next(uint64_t t, uint64_t& next) const;
  // The --max-cycles error: a hung mbarrier wait first, named with its warps.
  std::string cycle_limit_error() const;
  void keep_registers(const kernel::Cta& cta);     // a straight-line program's, as its CTA retires
  void pending_retirements(uint64_t& next) const;  // lowers `next` to the next CTA that will retire
  bool launch_one();                               // the next cluster (or CTA), all its CTAs at once
  void place(CtaSlot c);                           // a CTA into the warp slots
  bool finished() const;
  bool fail(std::string message);
  Txn* acquire();
  void release(Txn& txn);
  void drain_events(uint64_t now);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  // The timing of the warp-instruction `r` ran, its memory accesses counted.
  void set_timing(Timing& t, const kernel::Inst& in, const kernel::StepResult& r) const;

  const SimJob& job_;
  const ArchConfig& config_;
  const kernel::Kernel& kernel_;
  bool record_;
  kernel::Memory memory_;
  Residency residency_;
  kernel::Dim3 cluster_;  // CTAs per cluster (kernel::cluster_shape)
  // What the scheduler needs of an instruction, in a few bytes apart from
  // kernel::Inst, computed once: it is read for every look at a warp.
  struct PcInfo {
    Timing timing;            // the memory instructions' before coalescing
    uint32_t regs_begin = 0;  // in pc_regs_: its reads, then its writes (frame slots)
    uint8_t num_reads = 0, num_writes = 0;
    bool reads_carry = false, writes_carry = false;  // the carry flag, a register like the others
    bool memory_path = false;    // its results come from the memory path: waiting for them is a memory stall
    bool control = false;        // holds its warp until it resolves
    bool constant_bank = false;  // reads the constant bank: no unit, its result after the constant cache's latency
  };
  std::vector<PcInfo> pcs_;  // per instruction
  kernel::StepResult step_;  // the last issue's, reused (kernel::step's per-issue form)
  std::vector<uint32_t> pc_regs_;
  // --rtl-half: per instruction, whether the RTL unit computes it again
  // (an arithmetic form on the FMA unit with register or immediate sources).
  std::vector<uint8_t> rtl_checked_;
  // --rtl-tensor: every CTA's tensor-core blocks go to it (Cta::block_observer).
  std::unique_ptr<RtlTensorCheck> tensor_check_;
  // --racecheck: shown every issue (kernel/racecheck.h); null when off.
  std::unique_ptr<kernel::RaceChecker> racecheck_;
  // A straight-line program's registers at its end: [warp][slot][lane].
  std::vector<std::vector<std::vector<uint64_t>>> final_registers_;
  std::vector<Slot> slots_;
  // The register scoreboard, register-major: [register * slots_.size() + slot].
  // Warps run the same code, so the entries of the registers in use now lie
  // together, not one warp's whole register file apart.
  std::vector<RegisterState> board_;
  size_t board_stride_ = 0;  // slots_.size()
  // The slot's scoreboard reaches `regs` registers, the entries it gains fresh.
  void grow_registers(size_t slot, uint32_t regs);
  // What the scheduler reads of every warp every cycle, apart from the
  // slots: from its last look (consider()), its `reason` holds until
  // recheck_at; `wake`: the first cycle that may change it; `ready_unit`:
  // nothing but this unit held it (ready or pipe_busy) and it has not issued
  // since (kNoUnit: something else held it).
  struct Watch {
    uint64_t recheck_at = 0;
    uint64_t wake = kNever;
    uint8_t ready_unit = kNoUnit;
  };
  std::vector<Watch> watch_;
  std::vector<uint32_t> pos_of_;  // per slot: its place in its sub-partition's `warps`
  size_t picked_pos_ = kNone;
  std::vector<CtaSlot> ctas_;
  bool lands_later_ = false;  // the kernel has an instruction whose effects land after issue
  // Retired CTAs, their storage reused by the next launches (no allocation:
  // a CTA's registers are tens of kilobytes a warp).
  std::vector<std::unique_ptr<kernel::Cta>> spare_ctas_;
  // The entry's registers a reused CTA must find cleared: those a thread may
  // read before writing them. Clearing a warp's registers, tens of kilobytes,
  // for each CTA would push the running warps' registers out of the cache.
  std::vector<uint32_t> read_first_;
  std::vector<Part> parts_;
  uint64_t next_cta_ = 0, grid_ctas_ = 0, ctas_done_ = 0;
  size_t exited_ctas_ = 0;  // resident CTAs whose warps have all exited (retire_and_launch looks only then)
  uint64_t warp_instructions_ = 0, end_cycle_ = 0, outstanding_ = 0;
  uint64_t now_ = 0;  // the cycle loop's cycle (the profile's end when the run stops)
  std::string error_;
  std::vector<LineProfile> lines_;
  std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)> stalls_{};
  std::vector<std::unique_ptr<Txn>> pool_;
  std::vector<Txn*> free_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> request_ends_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> responses_;
  std::vector<IssueRecord> records_;
};

}  // namespace ptxfu::models
