// `ptxfu sim --racecheck`: shared-memory hazards between the warps of a CTA
// and async copies read before their wait, found by watching each executed
// warp-instruction (kernel::step's StepResult), as compute-sanitizer's
// racecheck tool does on the hardware.
//
// Ordering is tracked with a vector clock per warp: a warp's own entry goes
// up when it arrives at a barrier (bar.sync/bar.arrive, barrier.cluster) or
// an mbarrier; a warp released by a barrier, or whose mbarrier wait found
// its phase complete, takes the maximum of what the arrivals knew. Two
// accesses to the same shared byte by different warps, at least one a write
// (ld/st, vectors included), with neither ordered before the other, are a
// hazard. A cp.async's destination is pending from its issue until the wait
// that covers it (cp.async.wait_group/wait_all of its thread, or a completed
// wait on the mbarrier its cp.async.mbarrier.arrive named); any thread's
// ld/st of a pending byte is a hazard. Not watched: atomics, ldmatrix,
// stmatrix, wmma and wgmma operands, accesses within a warp. Atomics and
// reductions release (and atom, ld.acquire and ld.volatile acquire) through
// their address, as cooperative groups' tile barriers synchronise warps. A hazard may be
// missed (each byte remembers its last writer and last reader only) but one
// reported is real for the order the checker saw.
#pragma once
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/kernel.h"

namespace ptxfu::kernel {

enum class HazardKind : uint8_t {
  read_after_write,   // a write, then a read by another warp, no barrier between
  write_after_read,   // a read, then a write by another warp
  write_after_write,  // two writes by different warps
  async_read,         // a read of a cp.async destination before the wait that covers the copy
  async_write,        // a write to it before that wait
};
inline constexpr std::string_view kHazardNames[] = {"read_after_write", "write_after_read", "write_after_write",
                                                    "async_read", "async_write"};
static_assert(std::size(kHazardNames) == static_cast<size_t>(HazardKind::async_write) + 1, "a name per HazardKind");
inline std::string_view name(HazardKind k) { return kHazardNames[static_cast<size_t>(k)]; }

// One thread's access: the instruction (Kernel::insts index), warp, lane.
struct RaceAccess {
  uint32_t pc = 0;
  uint32_t warp = 0;
  uint32_t lane = 0;
};

// Hazards between the same two instructions (and of the same kind): the
// first one seen and how many there were (one per thread access).
struct RaceSite {
  HazardKind kind = HazardKind::read_after_write;
  RaceAccess first, second;  // in the order they ran; async: the cp.async, then the access
  Dim3 block;
  uint32_t shared_addr = 0;  // a byte both touched (offset in the CTA's shared memory)
  uint64_t hazards = 0;
};

struct RaceReport {
  uint64_t hazards = 0;         // summed over the sites
  std::vector<RaceSite> sites;  // in the order first seen
};

// One site in compute-sanitizer's words with the PTX lines of both accesses.
std::string describe(const Kernel& k, const RaceSite& site);
// The summary line: "RACECHECK SUMMARY: N hazards displayed (N errors, 0 warnings)".
std::string racecheck_summary(const RaceReport& report);

class RaceChecker {
 public:
  explicit RaceChecker(const Kernel& k);
  ~RaceChecker();
  RaceChecker(const RaceChecker&) = delete;
  RaceChecker& operator=(const RaceChecker&) = delete;
  // After kernel::step ran `w` of `cta` and returned `r` (not an error).
  void observe(const Cta& cta, const Warp& w, const StepResult& r);
  const RaceReport& report() const { return report_; }

 private:
  struct CtaState;
  CtaState& state_of(const Cta& cta);
  void record(const CtaState& s, HazardKind kind, const RaceAccess& first, const RaceAccess& second, uint32_t addr);
  // One thread's ld/st of `bytes` bytes at shared offset `addr`.
  void access(CtaState& s, const RaceAccess& who, uint64_t addr, unsigned bytes, bool write);
  void async_copy(CtaState& s, const Cta& cta, const StepResult& r);
  void async_arrive(CtaState& s, size_t w, const StepResult& r);
  void mbarrier(CtaState& s, size_t w, const StepResult& r);
  // atom/red (and ld.acquire, ld.volatile) as synchronisation through their address.
  void sync_access(CtaState& s, size_t w, const StepResult& r);
  // Warps a barrier has released (since the last look) learn what its arrivals knew.
  static void settle_barriers(CtaState& s, const Cta& cta);

  struct Index;  // the CTAs' states by Cta, the sites by (kind, pc, pc)
  const Kernel& k_;
  std::unique_ptr<Index> index_;
  std::vector<uint8_t> acquire_loads_;  // per instruction: an ld.acquire or ld.volatile
  RaceReport report_;
};

}  // namespace ptxfu::kernel
