// One warp-instruction: the SIMT stack picks the pc and the active lanes,
// the guard narrows them, and the instruction's effect is applied lane by
// lane in lane order (which is also the order of a warp's atomics). The
// executor is detail::Exec (exec.h: its hot path inline there, the rarer
// instructions in step_*.cc); here its faults, atomics and step() itself.
#include <string>

#include <fmt/format.h>

#include "kernel/exec.h"
#include "kernel/kernel.h"

namespace ptxfu::kernel {
namespace detail {
namespace {

std::string_view sanitizer_space(Space s) {
  switch (s) {
    case Space::global: return "__global__";
    case Space::shared: return "__shared__";
    case Space::local: return "__local__";
    case Space::const_: return "__constant__";
    case Space::param: return "__param__";
    case Space::generic: return "generic";
  }
  return "";
}

}  // namespace

void Exec::fault(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes,
                 const std::string& reason) const {
  const Dim3& c = cta_.ctaid;
  throw Fault{
      fmt::format("{}: error: Invalid {} {} of size {} bytes at 0x{:x} by thread ({},{},{}) in block ({},{},{}), "
                  "warp {}, lane {} ('{}'): {}",
                  k_.where(*in_), sanitizer_space(space), is_write ? "write" : "read", bytes, addr, tid(lane, 0),
                  tid(lane, 1), tid(lane, 2), c.x, c.y, c.z, w_.index, lane, in_->mnemonic, reason)};
}

std::string Exec::describe(const Buffer& b) const {
  if (b.arg >= 0) return fmt::format("the buffer of parameter {} ({} bytes at 0x{:x})", b.arg, b.bytes.size(), b.base);
  return fmt::format("variable '{}' ({} bytes at 0x{:x})", b.name, b.bytes.size(), b.base);
}

void Exec::atomic(const Inst& in, uint32_t exec) {
  lane_addresses(exec);
  const unsigned eb = in.access_bytes;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    uint8_t* p = access(lane, eb, true);
    const uint64_t old = load_bytes(p, eb);
    const uint64_t b = read(in.src[0], lane);
    uint64_t v = 0;
    switch (in.atom) {
      case AtomOp::inc: v = old >= b ? 0 : old + 1; break;
      case AtomOp::dec: v = old == 0 || old > b ? b : old - 1; break;
      case AtomOp::exch: v = b; break;
      case AtomOp::cas: v = old == b ? read(in.src[1], lane) : old; break;
      default: {
        const uint64_t src[2] = {old, b};
        v = exec::execute(in.form, src, false).value;
        break;
      }
    }
    store_bytes(p, eb, v);
    if (in.kind == Kind::atom) write(in.dst[0], lane, old);
  }
}

}  // namespace detail

void step(Warp& w, Cta& cta, Memory& mem, uint64_t clock, StepResult& r) {
  r.status = StepResult::Status::executed;
  r.inst = nullptr;
  r.pc = kNoPc;
  r.active = r.executed = 0;
  r.active_lanes = 0;
  r.frame_reg_base = 0;
  r.space = Space::generic;
  r.async_count = 0;
  r.mbar_incomplete = false;
  r.suspend_hint_ns = 0;
  r.error.clear();
  if (w.done()) {
    r.status = StepResult::Status::exited;
    return;
  }
  if (w.waiting()) {
    r.status = StepResult::Status::waiting;
    r.pc = w.pc();
    return;
  }
  try {
    detail::Exec(w, cta, mem, clock).run(r);
  } catch (const detail::Fault& f) {
    r.status = StepResult::Status::error;
    r.error = f.message;
  }
}

StepResult step(Warp& w, Cta& cta, Memory& mem, uint64_t clock) {
  StepResult r;
  step(w, cta, mem, clock, r);
  return r;
}

}  // namespace ptxfu::kernel
