// A warp's SIMT reconvergence stack, as in GPGPU-Sim (after Fung et al.,
// MICRO 2007): entries of (pc, reconvergence pc, active mask), the top one
// being what the warp runs. The top's mask is the warp's active mask: only
// its lanes execute and only their registers and flags are written.
//
// A branch that splits the active lanes turns the top entry into the
// reconvergence entry (its pc becomes the branch's immediate
// post-dominator) and pushes one entry per path; the taken path runs first.
// An entry whose pc reaches its reconvergence pc is popped and the entry
// below it goes on with its lanes. The reconvergence pcs come from the
// control-flow graph, computed once per kernel, not from this class; lanes
// that exit inside a divergent path are the control-flow work's to remove.
//
// Straight-line programs only advance the bottom entry, whose mask is the
// warp's lanes that exist (all 32, or fewer in the last warp of a CTA whose
// size is not a multiple of 32).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptxfu::models {

class SimtStack {
 public:
  static constexpr uint32_t kNoReconvergence = ~uint32_t{0};  // the bottom entry runs to the end

  struct Entry {
    uint32_t pc;
    uint32_t reconverge_pc;
    uint32_t mask;
  };

  void reset(uint32_t pc, uint32_t mask) { entries_.assign(1, {pc, kNoReconvergence, mask}); }

  uint32_t pc() const { return entries_.back().pc; }
  uint32_t active_mask() const { return entries_.back().mask; }
  size_t depth() const { return entries_.size(); }
  const Entry& top() const { return entries_.back(); }

  // The active lanes go on at `next_pc` (the next instruction, or a branch
  // all of them take); entries that reach their reconvergence pc are popped.
  void advance(uint32_t next_pc) {
    entries_.back().pc = next_pc;
    while (entries_.size() > 1 && entries_.back().pc == entries_.back().reconverge_pc) entries_.pop_back();
  }

  // A branch of the top entry: the lanes of `taken` (within the active mask)
  // go to `target`, the other active lanes to `fallthrough`, and all meet at
  // `reconverge`, the branch's immediate post-dominator. Without divergence
  // it is advance() to where they all go. As in GPGPU-Sim, a path that
  // starts at the reconvergence point gets no entry (its lanes just wait
  // there), and no second entry waits at a point the top entry already
  // waits at (so a loop does not grow the stack per trip).
  void branch(uint32_t taken, uint32_t target, uint32_t fallthrough, uint32_t reconverge) {
    const uint32_t active = active_mask();
    taken &= active;
    const uint32_t not_taken = active & ~taken;
    if (taken == 0 || not_taken == 0) return advance(taken ? target : fallthrough);
    if (entries_.size() > 1 && entries_.back().reconverge_pc == reconverge)
      entries_.pop_back();  // the entry below waits at `reconverge` with these lanes
    else
      entries_.back().pc = reconverge;  // the top now waits there
    if (fallthrough != reconverge) entries_.push_back({fallthrough, reconverge, not_taken});
    if (target != reconverge) entries_.push_back({target, reconverge, taken});
  }

 private:
  std::vector<Entry> entries_{{0, kNoReconvergence, ~uint32_t{0}}};
};

}  // namespace ptxfu::models
