// The executor's barriers (bar, barrier) and warp operations (shfl, vote,
// match, redux, elect): collectives over a warp's lanes or a CTA's warps.
#include <cstring>

#include <fmt/format.h>

#include "kernel/exec.h"

namespace ptxfu::kernel::detail {

void Exec::barrier(const Inst& in, uint32_t exec) {
  if (exec == 0) return;
  const unsigned lane = first_lane(exec);
  const uint64_t id = read(in.src[0], lane);
  if (id >= kBarriers)
    throw Fault{fmt::format("{}: error: barrier {} does not exist (0 to {})", k_.where(in), id, kBarriers - 1)};
  if (in.num_src > 1) {
    const uint64_t count = read(in.src[1], lane);
    if (count % 32 != 0 || count == 0)
      throw Fault{
          fmt::format("{}: error: barrier thread count {} is not a positive multiple of 32", k_.where(in), count)};
    cta_.expected[id] = static_cast<uint32_t>(count / 32);
  }
  ++cta_.arrived[id];
  if (in.bar_wait) w_.barrier = static_cast<int>(id);
  cta_.settle_barriers();
}

uint32_t Exec::members(const Inst& in, uint32_t exec, const Operand* mask_operand) {
  if (!mask_operand || exec == 0) return exec;
  const uint32_t m = static_cast<uint32_t>(read(*mask_operand, first_lane(exec)));
  const uint32_t live = w_.valid & ~w_.exited;
  const uint32_t missing = m & live & ~exec;
  if (missing || (exec & ~m))
    throw Fault{
        fmt::format("{}: error: '{}' in warp {} of block ({},{},{}): member mask 0x{:08x} but lanes 0x{:08x} "
                    "execute it{}",
                    k_.where(in), in.mnemonic, w_.index, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z, m, exec,
                    missing ? fmt::format(" (lanes 0x{:08x} have diverged and would have to wait)", missing)
                            : std::string(" (executing lanes outside the mask)"))};
  return exec;
}

void Exec::shfl(const Inst& in, uint32_t exec) {
  const bool sync = in.num_src == 4;
  members(in, exec, sync ? &in.src[3] : nullptr);
  uint64_t value[32], lane_b[32], lane_c[32], out[32], valid[32];
  read_lanes(in.src[0], ~0u, value);  // inactive lanes can be read from
  read_lanes(in.src[1], exec, lane_b);
  read_lanes(in.src[2], exec, lane_c);
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    const uint32_t b = static_cast<uint32_t>(lane_b[lane]) & 31;
    const uint32_t c = static_cast<uint32_t>(lane_c[lane]);
    const uint32_t cval = c & 31, segmask = (c >> 8) & 31;
    const uint32_t max_lane = (lane & segmask) | (cval & ~segmask);
    const uint32_t min_lane = lane & segmask;
    int64_t j = lane;
    bool pval = false;
    switch (in.shfl) {
      case ShflMode::up:
        j = int64_t{lane} - b;
        pval = j >= int64_t{max_lane};
        break;
      case ShflMode::down:
        j = int64_t{lane} + b;
        pval = j <= int64_t{max_lane};
        break;
      case ShflMode::bfly:
        j = lane ^ b;
        pval = j <= int64_t{max_lane};
        break;
      case ShflMode::idx:
        j = min_lane | (b & ~segmask);
        pval = j <= int64_t{max_lane};
        break;
    }
    if (!pval) j = lane;
    out[lane] = value[j];
    valid[lane] = pval;
  }
  write_lanes(in.dst[0], exec, out);
  if (in.num_dst > 1) write_lanes(in.dst[1], exec, valid);
}

void Exec::vote(const Inst& in, uint32_t exec) {
  const uint32_t m = members(in, exec, in.num_src > 1 ? &in.src[1] : nullptr);
  uint32_t ballot = 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((m >> lane & 1) && read(in.src[0], lane)) ballot |= 1u << lane;
  uint64_t v = 0;
  switch (in.vote) {
    case VoteMode::all: v = ballot == m; break;
    case VoteMode::any: v = ballot != 0; break;
    case VoteMode::uni: v = ballot == 0 || ballot == m; break;
    case VoteMode::ballot: v = ballot; break;
  }
  for (unsigned lane = 0; lane < 32; ++lane)
    if (m >> lane & 1) write(in.dst[0], lane, v);
}

void Exec::match(const Inst& in, uint32_t exec) {
  const uint32_t m = members(in, exec, &in.src[1]);
  uint64_t value[32];
  for (unsigned lane = 0; lane < 32; ++lane) value[lane] = m >> lane & 1 ? read(in.src[0], lane) : 0;
  bool all = true;
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((m >> lane & 1) && value[lane] != value[first_lane(m)]) all = false;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(m >> lane & 1)) continue;
    if (in.match_all) {
      write(in.dst[0], lane, all ? m : 0);
      if (in.num_dst > 1) write(in.dst[1], lane, all);
    } else {
      uint32_t same = 0;
      for (unsigned o = 0; o < 32; ++o)
        if ((m >> o & 1) && value[o] == value[lane]) same |= 1u << o;
      write(in.dst[0], lane, same);
    }
  }
}

void Exec::redux(const Inst& in, uint32_t exec) {
  const uint32_t m = members(in, exec, &in.src[1]);
  if (m == 0) return;
  uint64_t acc = read(in.src[0], first_lane(m));
  for (unsigned lane = first_lane(m) + 1; lane < 32; ++lane) {
    if (!(m >> lane & 1)) continue;
    const uint64_t src[2] = {acc, read(in.src[0], lane)};
    acc = exec::execute(in.form, src, false).value;
  }
  for (unsigned lane = 0; lane < 32; ++lane)
    if (m >> lane & 1) write(in.dst[0], lane, acc);
}

void Exec::elect(const Inst& in, uint32_t exec) {
  const uint32_t m = members(in, exec, &in.src[0]);
  if (m == 0) return;
  const unsigned leader = first_lane(m);
  for (unsigned lane = 0; lane < 32; ++lane)
    if (m >> lane & 1) {
      write(in.dst[0], lane, leader);
      write(in.dst[1], lane, lane == leader);
    }
}

}  // namespace ptxfu::kernel::detail
