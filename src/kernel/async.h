// The mbarrier operations on a CTA's mbarrier objects (PTX ISA, "Parallel
// Synchronization and Communication Instructions: mbarrier"), shared by the
// executor (step_async.cc) and the arrive-ons of landing copies (async_step.cc).
// Each returns "" or what was wrong (the caller adds the place). Internal to
// src/kernel.
#pragma once
#include <cstdint>
#include <string>

#include "kernel/kernel.h"

namespace ptxfu::kernel::async {

inline constexpr uint64_t kMaxCount = (uint64_t{1} << 20) - 1;  // arrival counts and tx-count: 20 bits

std::string init(Cta& cta, uint32_t addr, uint64_t count);
// arrive / arrive_drop (`drop`), `count` arrivals after adding `tx` to the
// tx-count; `token`: the state (the phase arrived at, the pending count after).
std::string arrive(Cta& cta, uint32_t addr, uint64_t count, bool drop, bool no_complete, uint64_t tx, uint64_t& token);
// expect_tx (delta > 0) and complete_tx (delta < 0).
std::string add_tx(Cta& cta, uint32_t addr, int64_t delta);
// Whether the phase a state token (or, `parity`, the phase of that parity)
// names has completed.
std::string phase_done(Cta& cta, uint32_t addr, uint64_t state, bool parity, bool& done);
std::string inval(Cta& cta, uint32_t addr);
// mbarrier.pending_count: the pending arrival count a state token holds.
inline uint32_t pending_of(uint64_t token) { return static_cast<uint32_t>(token >> 32) & kMaxCount; }
// cp.async.mbarrier.arrive without .noinc: the pending count goes up by one first.
std::string add_pending(Cta& cta, uint32_t addr);

}  // namespace ptxfu::kernel::async
