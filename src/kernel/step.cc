// One warp-instruction: the SIMT stack picks the pc and the active lanes,
// the guard narrows them, and the instruction's effect is applied lane by
// lane in lane order (which is also the order of a warp's atomics).
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "exec/execute.h"
#include "kernel/async.h"
#include "kernel/kernel.h"
#include "kernel/printf.h"
#include "util/bits.h"

// A kind without its case in execute() is an error, not a silent no-op.
#pragma GCC diagnostic error "-Wswitch"

namespace ptxfu::kernel {
namespace {

struct Fault {
  std::string message;
};

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
unsigned popcount(uint32_t m) { return util::popcount32(m); }

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

class Exec {
 public:
  Exec(Warp& w, Cta& cta, Memory& mem, uint64_t clock)
      : w_(w), cta_(cta), mem_(mem), k_(*cta.kernel), clock_(clock), frame_(w.frames.back()) {}

  // Fills `r` as it goes, so that a fault leaves the instruction and its
  // lanes in it.
  void run(StepResult& r) {
    SimtEntry& top = w_.stack.back();
    r.pc = top.pc;
    const Inst& in = k_.insts[top.pc];
    in_ = &in;
    r.inst = &in;
    r.active = top.mask;
    r.active_lanes = popcount(top.mask);
    r.frame_reg_base = frame_.reg_base;
    r.space = in.space;
    result_ = &r;
    uint32_t exec = top.mask;
    if (in.guard >= 0) {
      const uint64_t* guard = &reg(static_cast<uint32_t>(in.guard), 0);
      uint32_t g = 0;
      for (unsigned lane = 0; lane < 32; ++lane) g |= static_cast<uint32_t>(guard[lane] & 1) << lane;
      exec &= in.guard_negated ? ~g : g;
    }
    r.executed = exec;
    ++w_.steps;
    execute(in, exec);
    reconverge();
    if (w_.done())
      r.status = StepResult::Status::exited;
    else if (w_.waiting())
      r.status = StepResult::Status::waiting;
    result_ = nullptr;
  }

 private:
  // ---- registers and operands

  uint64_t& reg(uint32_t slot, unsigned lane) { return w_.regs[(size_t{frame_.reg_base} + slot) * 32 + lane]; }

  uint32_t tid_linear(unsigned lane) const { return w_.index * 32 + lane; }
  uint32_t tid(unsigned lane, unsigned c) const {
    const Dim3& b = cta_.launch->block;
    const uint32_t t = tid_linear(lane);
    return c == 0 ? t % b.x : c == 1 ? (t / b.x) % b.y : t / (b.x * b.y);
  }

  uint64_t sreg(const Operand& o, unsigned lane) const {
    const Dim3& b = cta_.launch->block;
    const Dim3& g = cta_.launch->grid;
    auto comp = [&](const Dim3& d) { return o.component == 0 ? d.x : o.component == 1 ? d.y : d.z; };
    const uint64_t le = lane == 31 ? 0xffffffffu : (2u << lane) - 1, lt = (1u << lane) - 1;
    switch (o.sreg) {
      case SReg::tid: return tid(lane, o.component);
      case SReg::ntid: return comp(b);
      case SReg::ctaid: return comp(cta_.ctaid);
      case SReg::nctaid: return comp(g);
      case SReg::laneid: return lane;
      case SReg::warpid: return w_.index;
      case SReg::nwarpid: return cta_.warp_slots ? cta_.warp_slots : cta_.warps.size();
      case SReg::smid: return cta_.sm;
      case SReg::nsmid: return 1;
      case SReg::gridid: return 0;
      case SReg::clock: return clock_ & 0xffffffffu;
      case SReg::clock_hi: return clock_ >> 32;
      case SReg::clock64: return clock_;
      case SReg::lanemask_eq: return 1u << lane;
      case SReg::lanemask_le: return le;
      case SReg::lanemask_lt: return lt;
      case SReg::lanemask_ge: return ~lt & 0xffffffffu;
      case SReg::lanemask_gt: return ~le & 0xffffffffu;
      case SReg::dynamic_smem_size: return cta_.launch->shared_bytes;
      case SReg::total_smem_size: return cta_.shared.size();
      case SReg::reserved_smem_begin: return 0;
      case SReg::reserved_smem_end:
      case SReg::reserved_smem_cap: return k_.reserved_shared;
      case SReg::reserved_smem_0: return kReservedSmemSlot0;
      case SReg::reserved_smem_1: return kReservedSmemSlot1;
      case SReg::globaltimer: return globaltimer();
      case SReg::globaltimer_lo: return globaltimer() & 0xffffffffu;
      case SReg::globaltimer_hi: return globaltimer() >> 32;
      default: return cluster_sreg(o);
    }
    return 0;
  }

  uint64_t globaltimer() const {
    return static_cast<uint64_t>(static_cast<double>(clock_) * cta_.globaltimer_ns_per_cycle);
  }

  // The cluster's special registers; a launch without clusters is one of one CTA.
  uint64_t cluster_sreg(const Operand& o) const {
    const Cluster* c = cta_.cluster.get();
    const Dim3 shape = c ? c->shape : Dim3{};
    const Dim3& g = cta_.launch->grid;
    const Dim3& id = cta_.ctaid;
    auto comp = [&](const Dim3& d) { return o.component == 0 ? d.x : o.component == 1 ? d.y : d.z; };
    switch (o.sreg) {
      case SReg::clusterid: return comp({id.x / shape.x, id.y / shape.y, id.z / shape.z});
      case SReg::nclusterid: return comp({g.x / shape.x, g.y / shape.y, g.z / shape.z});
      case SReg::cluster_ctaid: return comp({id.x % shape.x, id.y % shape.y, id.z % shape.z});
      case SReg::cluster_nctaid: return comp(shape);
      case SReg::cluster_ctarank: return cta_.cluster_rank;
      case SReg::cluster_nctarank: return shape.count();
      case SReg::is_explicit_cluster: return c && c->is_explicit;
      default: return 0;
    }
  }

  uint64_t read(const Operand& o, unsigned lane) {
    switch (o.kind) {
      case Operand::Kind::reg: {
        const uint64_t v = reg(o.reg, lane);
        if (o.reg_bits == 1) return (v & 1) ^ (o.negated ? 1 : 0);
        return v & mask_of(o.bits);
      }
      case Operand::Kind::imm: return o.value;
      case Operand::Kind::sreg: return sreg(o, lane) & mask_of(o.bits);
      case Operand::Kind::vector: {  // pack: element 0 in the low bits
        uint64_t v = 0;
        const unsigned eb = o.bits / o.count;
        for (uint32_t i = 0; i < o.count; ++i) v |= (read(k_.elements[o.reg + i], lane) & mask_of(eb)) << (i * eb);
        return v;
      }
      default: return 0;
    }
  }

  // Operand o of every lane, 0 outside exec; a register's lanes in one pass.
  // (__restrict: `out` is never a register, so that the loops vectorise.)
  void read_lanes(const Operand& o, uint32_t exec, uint64_t* __restrict out) {
    if (o.kind == Operand::Kind::reg && o.reg_bits != 1) {
      const uint64_t* __restrict r = &reg(o.reg, 0);
      const uint64_t m = mask_of(o.bits);
      if (exec == ~0u) {  // the usual case, without a test per lane
        for (unsigned lane = 0; lane < 32; ++lane) out[lane] = r[lane] & m;
        return;
      }
      for (unsigned lane = 0; lane < 32; ++lane) out[lane] = exec >> lane & 1 ? r[lane] & m : 0;
      return;
    }
    if (o.kind == Operand::Kind::imm) {
      for (unsigned lane = 0; lane < 32; ++lane) out[lane] = exec >> lane & 1 ? o.value : 0;
      return;
    }
    for (unsigned lane = 0; lane < 32; ++lane) out[lane] = exec >> lane & 1 ? read(o, lane) : 0;
  }

  // Operand o's 32 lanes for the executors: a register read whole is handed
  // over in place (a register holds no bits above its width, and the
  // executors compute inactive lanes without effect), others copied.
  const uint64_t* lanes_of(const Operand& o, uint32_t exec, uint64_t* copy) {
    if (o.kind == Operand::Kind::reg && o.reg_bits != 1 && o.bits >= o.reg_bits) return &reg(o.reg, 0);
    read_lanes(o, exec, copy);
    return copy;
  }

  void write_lanes(const Operand& o, uint32_t exec, const uint64_t* __restrict v) {
    if (o.kind == Operand::Kind::reg) {
      uint64_t* __restrict r = &reg(o.reg, 0);
      const uint64_t m = mask_of(o.bits), keep = mask_of(o.reg_bits);
      if (exec == ~0u && !o.sign_extend) {
        for (unsigned lane = 0; lane < 32; ++lane) r[lane] = v[lane] & m & keep;
        return;
      }
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(exec >> lane & 1)) continue;
        uint64_t x = v[lane] & m;
        if (o.sign_extend && (x >> (o.bits - 1) & 1)) x |= ~m;
        r[lane] = x & keep;
      }
      return;
    }
    for (unsigned lane = 0; lane < 32; ++lane)
      if (exec >> lane & 1) write(o, lane, v[lane]);
  }

  void write(const Operand& o, unsigned lane, uint64_t v) {
    if (o.kind == Operand::Kind::vector) {  // unpack
      const unsigned eb = o.bits / o.count;
      for (uint32_t i = 0; i < o.count; ++i) write(k_.elements[o.reg + i], lane, v >> (i * eb));
      return;
    }
    if (o.kind != Operand::Kind::reg) return;  // `_`
    v &= mask_of(o.bits);
    if (o.sign_extend && (v >> (o.bits - 1) & 1)) v |= ~mask_of(o.bits);
    reg(o.reg, lane) = v & mask_of(o.reg_bits);
  }

  // ---- memory

  [[noreturn]] void fault(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes,
                          const std::string& reason) const {
    const Dim3& c = cta_.ctaid;
    throw Fault{
        fmt::format("{}: error: Invalid {} {} of size {} bytes at 0x{:x} by thread ({},{},{}) in block ({},{},{}), "
                    "warp {}, lane {} ('{}'): {}",
                    k_.where(*in_), sanitizer_space(space), is_write ? "write" : "read", bytes, addr, tid(lane, 0),
                    tid(lane, 1), tid(lane, 2), c.x, c.y, c.z, w_.index, lane, in_->mnemonic, reason)};
  }

  std::string describe(const Buffer& b) const {
    if (b.arg >= 0)
      return fmt::format("the buffer of parameter {} ({} bytes at 0x{:x})", b.arg, b.bytes.size(), b.base);
    return fmt::format("variable '{}' ({} bytes at 0x{:x})", b.name, b.bytes.size(), b.base);
  }

  // A warp's lanes mostly access one buffer: the last one found first.
  uint8_t* in_last_buffer(uint64_t addr, unsigned bytes) const {
    if (last_buffer_ && addr - last_buffer_->base <= last_buffer_->bytes.size() &&
        bytes <= last_buffer_->bytes.size() - (addr - last_buffer_->base))
      return last_buffer_->bytes.data() + (addr - last_buffer_->base);
    return nullptr;
  }

  uint8_t* global(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes) {
    if (uint8_t* p = in_last_buffer(addr, bytes)) return p;
    const Buffer* nearest = nullptr;
    if (Buffer* b = mem_.find(addr, bytes, &nearest)) {
      last_buffer_ = b;
      return b->bytes.data() + (addr - b->base);
    }
    if (nearest && addr >= nearest->base && addr < nearest->base + nearest->bytes.size() + (uint64_t{1} << 20))
      fault(lane, space, is_write, addr, bytes,
            fmt::format("address is out of bounds: the access ends {} bytes after the end of {}",
                        addr + bytes - (nearest->base + nearest->bytes.size()), describe(*nearest)));
    fault(lane, space, is_write, addr, bytes, "address is not in any allocation");
  }

  // The bytes of an access of `bytes` (a power of two: the whole vector) at
  // `addr` in `space` for `lane`.
  uint8_t* memory(unsigned lane, Space space, uint64_t addr, unsigned bytes, bool is_write) {
    if ((addr & (bytes - 1)) != 0)  // bytes: a power of two
      fault(lane, space, is_write, addr, bytes,
            fmt::format("address is misaligned: it must be a multiple of {}", bytes));
    Space s = space;
    uint64_t a = addr;
    if (space == Space::generic) {
      if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize)
        s = Space::shared, a = addr - kSharedWindow;
      else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize)
        s = Space::local, a = addr - kLocalWindow;
      else if (addr >= kParamWindow && addr < kParamWindow + kWindowSize)
        s = Space::param, a = addr - kParamWindow;
      else if (addr >= kConstBase && addr < kSharedWindow)
        s = Space::const_;
      else if (addr < kConstBase)
        fault(lane, space, is_write, addr, bytes, "address is not in any allocation");
      else
        s = Space::global;
      // Reported in the window's own space (the last lane's window where a
      // warp's generic accesses fall in several).
      result_->space = s;
      result_->addresses[lane] = a;
    }
    switch (s) {
      case Space::global: return global(lane, space, is_write, addr, bytes);
      case Space::shared: {
        Cta& owner =
            a >= kClusterRankStride ? peer(lane, space, is_write, addr, bytes, a / kClusterRankStride - 1) : cta_;
        a %= kClusterRankStride;
        if (a + bytes > owner.shared.size())
          fault(lane, space, is_write, addr, bytes,
                fmt::format("address is out of bounds: the CTA has {} bytes of shared memory", owner.shared.size()));
        return owner.shared.data() + a;
      }
      case Space::local:
        if (a + bytes > k_.local_bytes)
          fault(lane, space, is_write, addr, bytes,
                fmt::format("address is out of bounds: a thread has {} bytes of local memory", k_.local_bytes));
        return w_.local.data() + size_t{lane} * k_.local_bytes + a;
      case Space::param:  // a kernel parameter through its generic address
        if (is_write) fault(lane, space, is_write, addr, bytes, "kernel parameters are read-only");
        if (a + bytes > mem_.params.size())
          fault(lane, space, is_write, addr, bytes,
                fmt::format("beyond the {} bytes of kernel parameters", mem_.params.size()));
        return mem_.params.data() + a;
      case Space::const_:
        if (is_write) fault(lane, space, is_write, addr, bytes, "constant memory is read-only");
        if (addr < kConstBase || addr + bytes > kConstBase + mem_.constant.size())
          fault(lane, space, is_write, addr, bytes,
                fmt::format("address is out of bounds: the constant bank holds {} bytes at 0x{:x}",
                            mem_.constant.size(), kConstBase));
        return mem_.constant.data() + (addr - kConstBase);
      default: break;
    }
    fault(lane, space, is_write, addr, bytes, "unsupported state space");
  }

  // The CTA of `rank` in this CTA's cluster, for a .shared::cluster access.
  Cta& peer(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes, uint64_t rank) const {
    const Cluster* c = cta_.cluster.get();
    const uint64_t n = c ? c->ctas.size() : 1;
    if (rank >= n)
      fault(lane, space, is_write, addr, bytes,
            fmt::format("the .shared::cluster address names CTA rank {}; the cluster has {} CTAs", rank, n));
    Cta* p = c ? c->ctas[rank] : &cta_;
    if (!p)
      fault(lane, space, is_write, addr, bytes,
            fmt::format("CTA rank {} of the cluster has exited; its shared memory is gone", rank));
    return *p;
  }

  // mapa: the address `a` (generic, or .shared::cta/.shared::cluster) as the
  // same offset in the shared memory of CTA `rank` of the cluster.
  void mapa(const Inst& in, uint32_t exec) {
    const Cluster* c = cta_.cluster.get();
    const uint64_t n = c ? c->ctas.size() : 1;
    const uint64_t window = in.space == Space::generic ? kSharedWindow : 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      const uint64_t a = read(in.src[0], lane), rank = read(in.src[1], lane);
      const Dim3& id = cta_.ctaid;
      if (rank >= n)
        throw Fault{
            fmt::format("{}: error: mapa to CTA rank {} by thread ({},{},{}) in block ({},{},{}): the cluster "
                        "has {} CTAs (ranks 0 to {})",
                        k_.where(in), rank, tid(lane, 0), tid(lane, 1), tid(lane, 2), id.x, id.y, id.z, n, n - 1)};
      if (a < window || a - window >= kWindowSize)
        throw Fault{
            fmt::format("{}: error: mapa of 0x{:x} by thread ({},{},{}) in block ({},{},{}): not a shared "
                        "memory address",
                        k_.where(in), a, tid(lane, 0), tid(lane, 1), tid(lane, 2), id.x, id.y, id.z)};
      write(in.dst[0], lane, window + (rank + 1) * kClusterRankStride + (a - window) % kClusterRankStride);
    }
  }

  // barrier.cluster.arrive marks the lanes; .wait holds the warp until the
  // phase its lanes arrived in completes (Cluster::settle).
  void cluster_barrier(const Inst& in, uint32_t exec) {
    if (!in.bar_wait) {
      if (w_.cluster_arrived & exec)
        throw Fault{
            fmt::format("{}: error: barrier.cluster.arrive by warp {} of block ({},{},{}) again before its "
                        "barrier.cluster.wait",
                        k_.where(in), w_.index, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z)};
      w_.cluster_arrived |= exec;
      cta_.cluster->settle();
      return;
    }
    if (w_.cluster_arrived & exec) w_.barrier = kClusterBarrier;
  }

  uint8_t* param(unsigned lane, int64_t offset, unsigned bytes, bool is_write) {
    const Address& a = in_->addr;
    if (a.param == Address::Param::kernel) {
      if (is_write)
        fault(lane, Space::param, true, static_cast<uint64_t>(offset), bytes, "kernel parameters are read-only");
      if (offset < 0 || static_cast<uint64_t>(offset) + bytes > mem_.params.size())
        fault(lane, Space::param, false, static_cast<uint64_t>(offset), bytes,
              fmt::format("beyond the {} bytes of kernel parameters", mem_.params.size()));
      return mem_.params.data() + offset;
    }
    const uint32_t area = k_.functions[frame_.function].param_bytes;
    if (offset < 0 || static_cast<uint64_t>(offset) + bytes > area)
      fault(lane, Space::param, is_write, static_cast<uint64_t>(offset), bytes,
            fmt::format("beyond the function's {} bytes of .param space", area));
    return w_.params.data() + frame_.param_base + size_t{lane} * area + offset;
  }

  // The address each executing lane accesses (its register plus the
  // offset), into the result: one pass over the register's lanes.
  void lane_addresses(uint32_t exec) {
    const Address& a = in_->addr;
    uint64_t* out = result_->addresses;
    const uint64_t offset = static_cast<uint64_t>(a.offset);
    const uint64_t* r = a.has_reg ? &reg(a.reg, 0) : nullptr;
    const uint64_t m = mask_of(a.reg_bits);
    // a 32-bit register's address wraps at 32 bits, as nvcc's negative offsets on .shared addresses expect
    const uint64_t wrap = r && a.reg_bits == 32 ? 0xffffffffu : ~uint64_t{0};
    for (unsigned lane = 0; lane < 32; ++lane)
      if (exec >> lane & 1) out[lane] = ((r ? r[lane] & m : 0) + offset) & wrap;
  }

  // The bytes that `lane`'s access of `bytes` (a power of two) at its
  // address (lane_addresses) reaches. Inline, what most accesses are: an
  // aligned shared access inside the CTA's memory, or a global one inside the
  // last buffer; anything else, faults included, takes memory() or param().
  [[gnu::always_inline]] uint8_t* access(unsigned lane, unsigned bytes, bool is_write) {
    const uint64_t addr = result_->addresses[lane];
    if ((addr & (bytes - 1)) == 0) {
      if (in_->space == Space::shared && addr + bytes <= cta_.shared.size() && addr + bytes > addr)
        return cta_.shared.data() + addr;
      if (in_->space == Space::global)
        if (uint8_t* p = in_last_buffer(addr, bytes)) return p;
    }
    if (in_->space == Space::param) return param(lane, static_cast<int64_t>(addr), bytes, is_write);
    return memory(lane, in_->space, addr, bytes, is_write);
  }

  static uint64_t load_bytes(const uint8_t* p, unsigned n) {
    uint64_t v = 0;
    switch (n) {  // each size a fixed copy, one move
      case 1: std::memcpy(&v, p, 1); break;
      case 2: std::memcpy(&v, p, 2); break;
      case 4: std::memcpy(&v, p, 4); break;
      default: std::memcpy(&v, p, 8); break;
    }
    return v;
  }
  static void store_bytes(uint8_t* p, unsigned n, uint64_t v) {
    switch (n) {
      case 1: std::memcpy(p, &v, 1); break;
      case 2: std::memcpy(p, &v, 2); break;
      case 4: std::memcpy(p, &v, 4); break;
      default: std::memcpy(p, &v, 8); break;
    }
  }

  // ---- control

  // Lanes `taken` of the top entry go to `target`, the others to
  // `fallthrough`; divergent paths meet again at `ipdom`.
  void branch(uint32_t taken, uint32_t target, uint32_t fallthrough, uint32_t ipdom) {
    SimtEntry& top = w_.stack.back();
    const uint32_t active = top.mask;
    if (taken == active) {
      top.pc = target;
    } else if (taken == 0) {
      top.pc = fallthrough;
    } else {
      top.pc = ipdom;
      w_.stack.push_back({fallthrough, ipdom, active & ~taken, false});
      w_.stack.push_back({target, ipdom, taken, false});
    }
  }

  void exit_lanes(uint32_t lanes) {
    w_.exited |= lanes;
    for (SimtEntry& e : w_.stack) e.mask &= ~lanes;
  }

  // Pops entries that reached their reconvergence point or have no lanes
  // left; popping a call's base entry with lanes returns from the call.
  void reconverge() {
    while (!w_.stack.empty()) {
      SimtEntry& top = w_.stack.back();
      if (top.mask == 0) {
        if (top.call) pop_frame(0);
        w_.stack.pop_back();
        continue;
      }
      if (top.rpc != kNoPc && top.pc == top.rpc) {
        w_.stack.pop_back();
        continue;
      }
      break;
    }
    if (w_.stack.empty()) cta_.settle_barriers();
  }

  // Leaves the current callee: its return values go to the caller's
  // .param variables for `lanes`, then its frame is dropped.
  void pop_frame(uint32_t lanes) {
    const Frame callee = w_.frames.back();
    const Frame& caller = w_.frames[callee.caller];
    const Inst& call = k_.insts[callee.call_pc];
    const Function& fc = k_.functions[callee.function];
    const uint32_t caller_area = k_.functions[caller.function].param_bytes;
    for (uint32_t r = 0; r < call.num_rets && r < fc.returns.size(); ++r) {
      const CallParam& dst = k_.call_params[call.first_arg + call.num_args + r];
      const Param& src = fc.returns[r];
      const uint32_t n = std::min(dst.bytes, src.bytes);
      for (unsigned lane = 0; lane < 32; ++lane)
        if (lanes >> lane & 1)
          std::memcpy(w_.params.data() + caller.param_base + size_t{lane} * caller_area + dst.offset,
                      w_.params.data() + callee.param_base + size_t{lane} * fc.param_bytes + src.offset, n);
    }
    w_.frames.pop_back();
    w_.regs.resize(size_t{callee.reg_base} * 32);
    w_.params.resize(callee.param_base);
  }

  // A .param of the calling frame for `lane`, as a call's argument `index`.
  uint8_t* call_param(const Inst& in, uint32_t index, unsigned lane) {
    const CallParam& p = k_.call_params[in.first_arg + index];
    return w_.params.data() + frame_.param_base + size_t{lane} * k_.functions[frame_.function].param_bytes + p.offset;
  }

  // CUDA's vprintf(format, args) for each executing lane, in lane order:
  // the text goes to the launch's printf records; the return value is the
  // number of arguments the format consumed (-1 for a null format), as
  // CUDA's printf returns.
  void vprintf(const Inst& in, uint32_t exec) {
    const Dim3& g = cta_.launch->grid;
    const uint64_t cta = cta_.ctaid.x + uint64_t{g.x} * (cta_.ctaid.y + uint64_t{g.y} * cta_.ctaid.z);
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      uint64_t format = 0, args = 0;
      std::memcpy(&format, call_param(in, 0, lane), std::min(8u, k_.call_params[in.first_arg].bytes));
      std::memcpy(&args, call_param(in, 1, lane), std::min(8u, k_.call_params[in.first_arg + 1].bytes));
      const DeviceRead read = [&](uint64_t a, unsigned n) {
        uint64_t v = 0;
        std::memcpy(&v, memory(lane, Space::generic, a, n, false), n);
        return v;
      };
      int32_t result = -1;
      std::string shown;  // the format, as far as it was read
      try {
        if (format != 0) {
          shown = read_device_string(format, kMaxPrintfString, read, "the format");
          unsigned used = 0;
          std::string text = format_vprintf(shown, args, read, &used);
          mem_.printf_bytes += text.size();
          if (mem_.printf_bytes > kMaxPrintfOutput)
            throw PrintfError(fmt::format("the launch's printf output exceeds {} MiB", kMaxPrintfOutput >> 20));
          mem_.printf.push_back({cta, w_.index, lane, std::move(text)});
          result = static_cast<int32_t>(used);
        }
      } catch (const PrintfError& e) {
        std::string quoted;
        for (char c : shown.substr(0, 200)) quoted += c == '\n' ? "\\n" : std::string(1, c);
        throw Fault{fmt::format("{}: error: printf format \"{}\": {}, by thread ({},{},{}) in block ({},{},{})",
                                k_.where(in), quoted, e.what(), tid(lane, 0), tid(lane, 1), tid(lane, 2), cta_.ctaid.x,
                                cta_.ctaid.y, cta_.ctaid.z)};
      }
      if (in.num_rets == 1) {
        const uint32_t n = std::min(4u, k_.call_params[in.first_arg + 2].bytes);
        std::memcpy(call_param(in, 2, lane), &result, n);
      }
    }
    result_->space = in.space;
  }

  void call(const Inst& in, uint32_t exec, uint32_t pc) {
    w_.stack.back().pc = pc + 1;
    if (exec == 0) return;
    if (in.builtin == Builtin::vprintf) return vprintf(in, exec);
    // Lanes grouped by callee, in the order of their lowest lane.
    std::vector<std::pair<uint32_t, uint32_t>> groups;  // (function, lanes)
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      uint32_t f = in.target;
      if (f == kNoPc) {
        const uint64_t a = read(in.src[0], lane);
        if (a < kCodeBase || (a - kCodeBase) % 16 != 0 || (a - kCodeBase) / 16 >= k_.functions.size())
          throw Fault{
              fmt::format("{}: error: indirect call to 0x{:x}, which is not a function of the kernel, by warp {}, "
                          "lane {} of block ({},{},{})",
                          k_.where(in), a, w_.index, lane, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z)};
        f = static_cast<uint32_t>((a - kCodeBase) / 16);
      }
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == f; });
      if (it == groups.end())
        groups.push_back({f, 1u << lane});
      else
        it->second |= 1u << lane;
    }
    const Frame caller = frame_;
    const size_t caller_index = w_.frames.size() - 1;
    const uint32_t caller_area = k_.functions[caller.function].param_bytes;
    // Push in reverse so that the group of the lowest lane runs first.
    for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
      const Function& fn = k_.functions[g->first];
      if (fn.is_entry || fn.params.size() != in.num_args || fn.returns.size() != in.num_rets)
        throw Fault{fmt::format("{}: error: call to '{}' passes {} arguments and {} return values; it takes {} and {}",
                                k_.where(in), fn.name, in.num_args, in.num_rets, fn.params.size(), fn.returns.size())};
      if (w_.frames.size() > 1024)
        throw Fault{fmt::format("{}: error: calls nested more than 1024 deep", k_.where(in))};
      Frame f;
      f.function = g->first;
      f.reg_base = static_cast<uint32_t>(w_.regs.size() / 32);
      f.param_base = static_cast<uint32_t>(w_.params.size());
      f.call_pc = pc;
      f.caller = static_cast<uint32_t>(caller_index);
      w_.regs.resize(w_.regs.size() + size_t{fn.num_regs} * 32, 0);
      w_.params.resize(w_.params.size() + size_t{fn.param_bytes} * 32, 0);
      for (uint32_t a = 0; a < in.num_args; ++a) {
        const CallParam& src = k_.call_params[in.first_arg + a];
        const Param& dst = fn.params[a];
        const uint32_t n = std::min(src.bytes, dst.bytes);
        for (unsigned lane = 0; lane < 32; ++lane)
          if (g->second >> lane & 1)
            std::memcpy(w_.params.data() + f.param_base + size_t{lane} * fn.param_bytes + dst.offset,
                        w_.params.data() + caller.param_base + size_t{lane} * caller_area + src.offset, n);
      }
      w_.frames.push_back(f);
      w_.stack.push_back({fn.begin, kNoPc, g->second, true});
    }
  }

  void ret(const Inst& in, uint32_t exec, uint32_t pc) {
    const Function& fn = k_.functions[in.function];
    SimtEntry& top = w_.stack.back();
    if (fn.is_entry) {
      top.pc = pc + 1;
      exit_lanes(exec);
      return;
    }
    if (top.call && exec == top.mask) {
      const uint32_t lanes = top.mask;
      pop_frame(lanes);
      w_.stack.pop_back();
      return;
    }
    branch(exec, fn.end, pc + 1, in.ipdom);
  }

  // ---- barriers and warp operations

  unsigned first_lane(uint32_t m) const { return static_cast<unsigned>(__builtin_ctz(m)); }

  void barrier(const Inst& in, uint32_t exec) {
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

  // The lanes of a .sync warp operation: those executing it, which must be
  // every live lane its member mask names.
  uint32_t members(const Inst& in, uint32_t exec, const Operand* mask_operand) {
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

  void shfl(const Inst& in, uint32_t exec) {
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

  void vote(const Inst& in, uint32_t exec) {
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

  void match(const Inst& in, uint32_t exec) {
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

  void redux(const Inst& in, uint32_t exec) {
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

  // ---- asynchronous copies and mbarriers (their state: kernel/async.h)

  void elect(const Inst& in, uint32_t exec) {
    const uint32_t m = members(in, exec, &in.src[0]);
    if (m == 0) return;
    const unsigned leader = first_lane(m);
    for (unsigned lane = 0; lane < 32; ++lane)
      if (m >> lane & 1) {
        write(in.dst[0], lane, leader);
        write(in.dst[1], lane, lane == leader);
      }
  }

  [[noreturn]] void async_fault(const std::string& what) const {
    const Dim3& c = cta_.ctaid;
    throw Fault{fmt::format("{}: error: '{}' in warp {} of block ({},{},{}): {}", k_.where(*in_), in_->mnemonic,
                            w_.index, c.x, c.y, c.z, what)};
  }

  // The shared offset of the mbarrier lane `lane` names (a .shared or a
  // generic address), checked: 8-byte aligned, inside the CTA's memory.
  uint32_t mbarrier_at(unsigned lane) {
    uint64_t a = result_->addresses[lane];
    if (in_->space == Space::generic) {
      if (a < kSharedWindow || a >= kSharedWindow + kWindowSize)
        fault(lane, Space::generic, true, a, 8, "an mbarrier lives in shared memory");
      a -= kSharedWindow;
      result_->addresses[lane] = a;
      result_->space = Space::shared;
    }
    if (a % 8 != 0 || a + 8 > cta_.shared.size())
      fault(lane, Space::shared, true, a, 8,
            a % 8 ? "an mbarrier object is 8-byte aligned"
                  : fmt::format("address is out of bounds: the CTA has {} bytes of shared memory", cta_.shared.size()));
    return static_cast<uint32_t>(a);
  }

  void async_copy(const Inst& in, uint32_t exec) {
    lane_addresses(exec);
    uint64_t dst[32];
    std::memcpy(dst, result_->addresses, sizeof dst);
    const Address& s = in.addr2;
    const uint64_t* r = s.has_reg ? &reg(s.reg, 0) : nullptr;
    const unsigned bytes = in.access_bytes;
    result_->async_first = cta_.async_seq;
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      const uint64_t src = (r ? r[lane] & mask_of(s.reg_bits) : 0) + static_cast<uint64_t>(s.offset);
      result_->addresses[lane] = src;
      if (dst[lane] % bytes != 0 || dst[lane] + bytes > cta_.shared.size())
        fault(lane, Space::shared, true, dst[lane], bytes,
              dst[lane] % bytes
                  ? fmt::format("address is misaligned: it must be a multiple of {}", bytes)
                  : fmt::format("address is out of bounds: the CTA has {} bytes of shared memory", cta_.shared.size()));
      if (src % bytes != 0)
        fault(lane, Space::global, false, src, bytes,
              fmt::format("address is misaligned: it must be a multiple of {}", bytes));
      uint64_t src_size = bytes;
      if (in.num_src == 1) {  // ignore-src (a predicate) or src-size
        const uint64_t v = read(in.src[0], lane);
        src_size = in.bar_wait ? (v ? 0 : bytes) : v;
        if (src_size > bytes) async_fault(fmt::format("src-size {} is larger than the copy size {}", src_size, bytes));
      }
      AsyncCopy c;
      c.seq = cta_.async_seq++;
      c.warp = w_.index;
      c.lane = static_cast<uint8_t>(lane);
      c.bytes = static_cast<uint8_t>(bytes);
      c.group = w_.async_groups[lane];
      c.dst = static_cast<uint32_t>(dst[lane]);
      if (src_size > 0)
        std::memcpy(c.data, global(lane, Space::global, false, src, static_cast<unsigned>(src_size)), src_size);
      cta_.copies.push_back(c);
    }
    result_->space = Space::global;  // the transactions a timing model counts: the global lines read
    result_->async_count = static_cast<uint32_t>(cta_.async_seq - result_->async_first);
  }

  void async_wait(const Inst& in, uint32_t exec) {
    if (exec == 0) return;
    if (in.bar_wait)  // wait_all: commit_group, then wait_group 0
      for (unsigned lane = 0; lane < 32; ++lane) w_.async_groups[lane] += exec >> lane & 1;
    w_.async_wait = true;
    w_.async_wait_lanes = exec;
    w_.async_wait_groups = in.bar_wait ? 0 : static_cast<uint32_t>(in.src[0].value);
    w_.async_wait_bulk = in.bulk;
    w_.async_wait = cta_.waits_for_copies(w_);
  }

  void async_arrive(const Inst& in, uint32_t exec) {
    lane_addresses(exec);
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      const uint32_t bar = mbarrier_at(lane);
      if (!in.async_noinc)
        if (const std::string e = async::add_pending(cta_, bar); !e.empty()) async_fault(e);
      cta_.arrives.push_back({cta_.async_seq, w_.index, static_cast<uint8_t>(lane), bar});
    }
  }

  // ---- bulk copies (cp.async.bulk{.tensor}; their landing: Cta::settle_async)

  void bulk_copy(const Inst& in, uint32_t exec) {
    lane_addresses(exec);
    uint64_t shared_side[32];
    std::memcpy(shared_side, result_->addresses, sizeof shared_side);
    result_->async_first = cta_.async_seq;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (exec >> lane & 1) bulk_lane(in, lane, shared_side[lane]);
    result_->space = Space::global;
    result_->async_count = static_cast<uint32_t>(cta_.async_seq - result_->async_first);
  }

  uint64_t address_of(const Address& a, unsigned lane) {
    const uint64_t sum = (a.has_reg ? reg(a.reg, lane) & mask_of(a.reg_bits) : 0) + static_cast<uint64_t>(a.offset);
    return a.has_reg && a.reg_bits == 32 ? sum & 0xffffffffu : sum;
  }

  // A .shared::cluster address of this CTA as its shared offset.
  uint64_t own_shared(uint64_t a) const {
    if (a < kClusterRankStride) return a;
    if (a / kClusterRankStride - 1 != cta_.cluster_rank)
      async_fault(
          fmt::format("shared address 0x{:x} is in CTA {} of the cluster: a bulk copy into another CTA's "
                      "shared memory is not modelled",
                      a, a / kClusterRankStride - 1));
    return a % kClusterRankStride;
  }

  void bulk_lane(const Inst& in, unsigned lane, uint64_t shared_addr) {
    BulkCopy c;
    c.seq = cta_.async_seq;
    c.warp = w_.index;
    c.lane = static_cast<uint8_t>(lane);
    c.to_global = in.bulk_to_global;
    c.group = w_.bulk_groups[lane];
    const uint64_t smem = own_shared(shared_addr);
    if (in.bulk_dims == 0)
      bulk_bytes(in, lane, smem, c);
    else
      bulk_tensor(in, lane, smem, c);
    if (!c.to_global) {
      const uint64_t bar = own_shared(address_of(in.addr3, lane));
      if (bar % 8 != 0 || bar + 8 > cta_.shared.size())
        fault(lane, Space::shared, true, bar, 8, "the mbarrier is not an 8-byte aligned object in shared memory");
      c.mbarrier = static_cast<uint32_t>(bar);
    }
    ++cta_.async_seq;
    cta_.bulk.push_back(std::move(c));
  }

  // The shared bytes [smem, smem + n): inside the CTA's memory, `align`-aligned.
  void check_shared(unsigned lane, uint64_t smem, uint64_t n, unsigned align, bool is_write) const {
    if (smem % align != 0 || smem + n > cta_.shared.size())
      fault(lane, Space::shared, is_write, smem, static_cast<unsigned>(n),
            smem % align
                ? fmt::format("a bulk copy's shared address must be a multiple of {}", align)
                : fmt::format("address is out of bounds: the CTA has {} bytes of shared memory", cta_.shared.size()));
  }

  void bulk_bytes(const Inst& in, unsigned lane, uint64_t smem, BulkCopy& c) {
    const uint64_t size = read(in.src[0], lane), g = address_of(in.addr2, lane);
    if (size == 0 || size % 16 != 0)
      async_fault(fmt::format("lane {}: size {} is not a positive multiple of 16", lane, size));
    check_shared(lane, smem, size, 16, !c.to_global);
    if (g % 16 != 0)
      fault(lane, Space::global, c.to_global, g, static_cast<unsigned>(size),
            "a bulk copy's global address must be a multiple of 16");
    uint8_t* p = global(lane, Space::global, c.to_global, g, static_cast<unsigned>(size));
    if (c.to_global) {
      std::memcpy(p, cta_.shared.data() + smem, size);
    } else {
      c.dst = static_cast<uint32_t>(smem);
      c.data.assign(p, p + size);
    }
  }

  // The tensor map of lane `lane` (a kernel parameter's bytes, or 128 bytes
  // at a generic address), decoded; its address for messages into `where`.
  TensorMap tensor_map(const Inst& in, unsigned lane, std::string& where) {
    const uint64_t a = address_of(in.addr2, lane);
    const bool param = in.addr2.param == Address::Param::kernel;
    where = fmt::format("the tensor map at {}0x{:x}", param ? "parameter offset " : "", a);
    const uint8_t* bytes = nullptr;
    if (a % kTensorMapAlign != 0) async_fault(fmt::format("lane {}: {} is not 64-byte aligned", lane, where));
    if (param || (a >= kParamWindow && a < kParamWindow + kWindowSize)) {
      const uint64_t off = param ? a : a - kParamWindow;
      if (off + kTensorMapBytes > mem_.params.size())
        async_fault(
            fmt::format("lane {}: {} is beyond the {} bytes of kernel parameters", lane, where, mem_.params.size()));
      bytes = mem_.params.data() + off;
    } else {
      bytes = global(lane, Space::global, false, a, kTensorMapBytes);
    }
    TensorMap m;
    if (const std::string why = decode(bytes, m); !why.empty())
      async_fault(fmt::format("lane {}: {}: {}", lane, where, why));
    return m;
  }

  void bulk_tensor(const Inst& in, unsigned lane, uint64_t smem, BulkCopy& c) {
    std::string where;
    const TensorMap m = tensor_map(in, lane, where);
    int32_t coords[kMaxTensorRank] = {};
    std::string list;
    for (unsigned d = 0; d < in.bulk_dims; ++d) {
      coords[d] = static_cast<int32_t>(read(in.src[d], lane));
      list += fmt::format("{}{}", d ? ", " : "", coords[d]);
    }
    if (m.rank != in.bulk_dims)
      async_fault(fmt::format("lane {}: {} has rank {}; a {}d copy needs rank {}", lane, where, m.rank, in.bulk_dims,
                              in.bulk_dims));
    const uint64_t n = box_bytes(m);
    check_shared(lane, smem, n, 128, !c.to_global);
    if (m.swizzle != 0 && n % 128 != 0)  // a swizzle permutes whole 128-byte rows
      async_fault(fmt::format("lane {}: {}: a swizzled box of {} bytes is not whole 128-byte rows", lane, where, n));
    std::vector<uint8_t> box;
    std::string e;
    if (c.to_global) {
      box.resize(n);
      for (uint64_t i = 0; i < n; ++i) box[i] = cta_.shared[swizzled(static_cast<uint32_t>(smem + i), m.swizzle)];
      e = tensor_store(m, coords, box.data(), mem_);
    } else {
      e = tensor_load(m, coords, mem_, box);
      c.dst = static_cast<uint32_t>(smem);
      c.data.resize(n);
      for (uint64_t i = 0; i < n; ++i) c.data[swizzled(static_cast<uint32_t>(smem + i), m.swizzle) - smem] = box[i];
    }
    if (!e.empty()) async_fault(fmt::format("lane {}: {}, coordinates {{{}}}: {}", lane, where, list, e));
  }

  void mbarrier(const Inst& in, uint32_t exec) {
    lane_addresses(exec);
    for (unsigned lane = 0; lane < 32; ++lane)
      if (exec >> lane & 1) mbarrier_lane(in, lane);
  }

  void mbarrier_lane(const Inst& in, unsigned lane) {
    if (in.mbar == MBarrierOp::pending_count) {
      write(in.dst[0], lane, async::pending_of(read(in.src[0], lane)));
      return;
    }
    const uint32_t bar = mbarrier_at(lane);
    const uint64_t a = in.num_src > 0 ? read(in.src[0], lane) : 1;
    std::string e;
    switch (in.mbar) {
      case MBarrierOp::init: e = async::init(cta_, bar, a); break;
      case MBarrierOp::arrive:
      case MBarrierOp::arrive_drop: {
        uint64_t token = 0;
        e = async::arrive(cta_, bar, in.mbar_expect_tx ? 1 : a, in.mbar == MBarrierOp::arrive_drop, in.mbar_no_complete,
                          in.mbar_expect_tx ? a : 0, token);
        if (e.empty()) write(in.dst[0], lane, token);
        break;
      }
      case MBarrierOp::expect_tx: e = async::add_tx(cta_, bar, static_cast<int64_t>(a)); break;
      case MBarrierOp::complete_tx: e = async::add_tx(cta_, bar, -static_cast<int64_t>(a)); break;
      case MBarrierOp::test_wait:
      case MBarrierOp::try_wait: {
        bool done = false;
        e = async::phase_done(cta_, bar, a, in.mbar_parity, done);
        write(in.dst[0], lane, done);
        w_.mbar_wait = done ? -1 : int64_t{bar};
        if (!done) {
          result_->mbar_incomplete = true;
          if (in.num_src > 1) result_->suspend_hint_ns = read(in.src[1], lane);
        }
        break;
      }
      case MBarrierOp::inval: e = async::inval(cta_, bar); break;
      case MBarrierOp::pending_count: break;
    }
    if (!e.empty()) async_fault(fmt::format("lane {}: {}", lane, e));
  }

  // ---- data

  void arith(const Inst& in, uint32_t exec) {
    const bool carry_in = isa::reads_carry(in.form), carry_out = isa::writes_carry(in.form);
    if (in.num_dst == 1 && in.num_src <= 4 && !carry_in && !carry_out) {  // the executors' warp-wide path
      uint64_t copies[4][32];
      const uint64_t* src[4];
      uint64_t results[32];
      uint32_t carry = 0;
      for (unsigned k = 0; k < in.num_src; ++k) src[k] = lanes_of(in.src[k], exec, copies[k]);
      exec::execute_lanes(in.form, src, 32, exec, 0, results, carry);
      write_lanes(in.dst[0], exec, results);
      return;
    }
    uint64_t src[5];
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      for (unsigned k = 0; k < in.num_src; ++k) src[k] = read(in.src[k], lane);
      const exec::Result r = exec::execute(in.form, src, carry_in && (w_.carry >> lane & 1));
      write(in.dst[0], lane, r.value);
      if (in.num_dst > 1) write(in.dst[1], lane, r.second);
      if (carry_out) w_.carry = (w_.carry & ~(1u << lane)) | (uint32_t{r.carry_out} << lane);
    }
  }

  void load(const Inst& in, uint32_t exec) {
    lane_addresses(exec);
    const unsigned eb = in.access_bytes, n = in.vec;
    if (n == 1) {
      uint64_t v[32];
      for (unsigned lane = 0; lane < 32; ++lane)
        v[lane] = exec >> lane & 1 ? load_bytes(access(lane, eb, false), eb) : 0;
      write_lanes(in.dst[0], exec, v);
      return;
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      const uint8_t* p = access(lane, eb * n, false);  // a vector: one element a register
      for (unsigned i = 0; i < n; ++i) write(k_.elements[in.dst[0].reg + i], lane, load_bytes(p + i * eb, eb));
    }
  }

  void store(const Inst& in, uint32_t exec) {
    lane_addresses(exec);
    const unsigned eb = in.access_bytes, n = in.vec;
    if (n == 1) {
      uint64_t v[32];
      read_lanes(in.src[0], exec, v);
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(exec >> lane & 1)) continue;
        store_bytes(access(lane, eb, true), eb, v[lane]);
      }
      return;
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      uint8_t* p = access(lane, eb * n, true);
      for (unsigned i = 0; i < n; ++i) store_bytes(p + i * eb, eb, read(k_.elements[in.src[0].reg + i], lane));
    }
  }

  // Lane-serialised: lane 0's read-modify-write, then lane 1's, ...
  void atomic(const Inst& in, uint32_t exec) {
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

  // ---- texture and surface objects (kernel/texture.h)

  TextureDesc& object(const Inst& in, unsigned lane) {
    const uint64_t h = read(in.src[0], lane);
    if (h < kObjectHandleBase || h - kObjectHandleBase >= mem_.textures.size())
      fail_object(lane, fmt::format("handle 0x{:x} is not a texture or surface object given at launch", h));
    return mem_.textures[h - kObjectHandleBase];
  }

  [[noreturn]] void fail_object(unsigned lane, const std::string& why) const {
    const Dim3& c = cta_.ctaid;
    throw Fault{fmt::format("{}: error: '{}' by thread ({},{},{}) in block ({},{},{}), warp {}, lane {}: {}",
                            k_.where(*in_), in_->mnemonic, tid(lane, 0), tid(lane, 1), tid(lane, 2), c.x, c.y, c.z,
                            w_.index, lane, why)};
  }

  uint32_t coordinate(const Inst& in, unsigned lane, unsigned c) {
    return c < in.tex_dims ? static_cast<uint32_t>(read(k_.elements[in.src[1].reg + c], lane)) : 0;
  }

  // One channel: (value, 0, 0, 1) as the four results.
  void tex(const Inst& in, uint32_t exec) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      const TextureDesc& t = object(in, lane);
      const uint32_t x = coordinate(in, lane, 0), y = coordinate(in, lane, 1);
      float fx, fy;
      std::memcpy(&fx, &x, 4), std::memcpy(&fy, &y, 4);
      const uint32_t v =
          in.tex_int_coords ? read_texel(t, static_cast<int32_t>(x), static_cast<int32_t>(y)) : sample_f32(t, fx, fy);
      const uint32_t one = in.tex_int_result ? 1 : 0x3f800000u;
      const uint32_t out[4] = {v, 0, 0, one};
      for (unsigned i = 0; i < 4; ++i) write(k_.elements[in.dst[0].reg + i], lane, out[i]);
    }
  }

  // The bytes of a surface access at byte x of row y, or nullptr (.zero out of range).
  uint8_t* surface_bytes(const Inst& in, unsigned lane, TextureDesc& t, unsigned bytes) {
    const int64_t row = int64_t{t.width} * texel_bytes(t.format), rows = t.dims == 1 ? 1 : t.height;
    int64_t x = static_cast<int32_t>(coordinate(in, lane, 0)), y = static_cast<int32_t>(coordinate(in, lane, 1));
    if (t.dims == 1) y = 0;
    if (x < 0 || x + bytes > row || y < 0 || y >= rows) {
      if (in.surface_oob == 2) return nullptr;
      if (in.surface_oob == 0)
        fail_object(lane, fmt::format("surface coordinates ({}, {}) are outside the {}-byte by {}-row surface "
                                      "(.trap)",
                                      x, y, row, rows));
      x = std::clamp<int64_t>(x, 0, row - bytes), y = std::clamp<int64_t>(y, 0, rows - 1);
    }
    return t.texels.data() + y * row + x;
  }

  void surface(const Inst& in, uint32_t exec) {
    const unsigned eb = in.access_bytes, n = in.vec;
    const Operand& data = in.kind == Kind::sust ? in.src[2] : in.dst[0];
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1)) continue;
      uint8_t* p = surface_bytes(in, lane, object(in, lane), eb * n);
      for (unsigned i = 0; i < n; ++i) {
        const Operand& o = n == 1 ? data : k_.elements[data.reg + i];
        if (in.kind == Kind::sust) {
          if (p) store_bytes(p + i * eb, eb, read(o, lane));
        } else {
          write(o, lane, p ? load_bytes(p + i * eb, eb) : 0);
        }
      }
    }
  }

  // mma, ldmatrix, stmatrix, movmatrix (kernel/tensor.h): .aligned, so the
  // whole warp executes them at once or none of it does.
  void matrix_lanes(const Inst& in, uint32_t exec) {
    if (exec != ~0u)
      throw Fault{
          fmt::format("{}: error: Barrier error detected. Divergent thread(s) in warp: '{}' is .aligned, so "
                      "every thread of the warp executes it; in warp {} of block ({},{},{}) lanes 0x{:08x} "
                      "do and lanes 0x{:08x} do not",
                      k_.where(in), in.mnemonic, w_.index, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z, exec, ~exec)};
  }

  void matrix(const Inst& in, uint32_t exec) {
    if (exec == 0) return;
    matrix_lanes(in, exec);
    uint64_t* regs = &reg(0, 0);
    if (in.kind == Kind::mma) {
      const std::string e = tensor::execute_mma(k_, in, cta_.arch_sm, regs, cta_.block_observer);
      if (!e.empty()) throw Fault{fmt::format("{}: error: {}", k_.where(in), e)};
      return;
    }
    if (in.kind == Kind::movmatrix) return tensor::execute_movmatrix(k_, in, regs);
    if (in.kind == Kind::wmma_load || in.kind == Kind::wmma_store) {
      const bool store = in.kind == Kind::wmma_store;
      lane_addresses(exec);
      uint64_t base[32], stride[32] = {};
      std::memcpy(base, result_->addresses, sizeof base);
      if (in.num_src > (store ? 1 : 0)) read_lanes(in.src[store ? 1 : 0], exec, stride);
      tensor::execute_wmma_memory(
          k_, in, base, stride,
          [&](unsigned lane, uint64_t a, unsigned n, bool w) { return memory(lane, in.space, a, n, w); }, regs);
      return;
    }
    const bool store = in.kind == Kind::stmatrix;
    lane_addresses(exec);
    uint8_t* rows[32];  // row r's address comes from lane r
    const unsigned n = 8 * k_.tensor_ops[in.tensor_op].matrices;
    for (unsigned lane = 0; lane < n; ++lane) rows[lane] = access(lane, 16, store);
    if (store)
      tensor::execute_stmatrix(k_, in, rows, regs);
    else
      tensor::execute_ldmatrix(k_, in, rows, regs);
  }

  // wgmma.mma_async: each warp of the warpgroup (4 consecutive warps from a
  // multiple of 4) computes its own 16 rows when it issues it, reading A and
  // B from shared memory then (a kernel may not change them until its
  // wgmma.wait_group). fence, commit_group and wait_group order nothing the
  // executor could see: it writes the accumulators at once.
  void wgmma(const Inst& in, uint32_t exec) {
    if (exec == 0) return;
    matrix_lanes(in, exec);
    const uint32_t first = w_.index / 4 * 4;
    if (in.kind == Kind::wgmma) ++w_.wgmmas;
    // A warp that exited before executing as many wgmmas as this one left
    // it alone (warps may run ahead of each other here; on the GPU the
    // warpgroup's wgmma waits for all four).
    for (uint32_t i = first; i < first + 4; ++i)
      if (i >= cta_.warps.size() || (cta_.warps[i].done() && cta_.warps[i].wgmmas < w_.wgmmas))
        throw Fault{fmt::format(
            "{}: error: Barrier error detected. Divergent thread(s) in warpgroup: '{}' is executed by a whole "
            "warpgroup, warps {} to {} of the block, but in block ({},{},{}) warp {} {}",
            k_.where(in), in.mnemonic, first, first + 3, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z, i,
            i >= cta_.warps.size() ? fmt::format("does not exist (the block has {} warps)", cta_.warps.size())
                                   : fmt::format("has exited after {} of them", cta_.warps[i].wgmmas))};
    if (in.kind == Kind::wgmma_sync) return;
    const bool scale_d = read(in.src[2], 0) != 0;
    const std::string e = tensor::execute_wgmma(k_, in, cta_.arch_sm, w_.index % 4, scale_d, cta_.shared.data(),
                                                cta_.shared.size(), &reg(0, 0));
    if (!e.empty())
      throw Fault{fmt::format("{}: error: {} (warp {} of block ({},{},{}))", k_.where(in), e, w_.index, cta_.ctaid.x,
                              cta_.ctaid.y, cta_.ctaid.z)};
  }

  void cvta(const Inst& in, uint32_t exec) {
    const uint64_t window = in.space == Space::shared  ? kSharedWindow
                            : in.space == Space::local ? kLocalWindow
                            : in.space == Space::param ? kParamWindow
                                                       : 0;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (exec >> lane & 1) {
        const uint64_t a = read(in.src[0], lane);
        write(in.dst[0], lane, in.uni ? a - window : a + window);
      }
  }

  void execute(const Inst& in, uint32_t exec) {
    const uint32_t pc = w_.stack.back().pc;
    switch (in.kind) {
      case Kind::bra: branch(exec, in.target, pc + 1, in.ipdom); return;
      case Kind::call: call(in, exec, pc); return;
      case Kind::ret: ret(in, exec, pc); return;
      case Kind::exit:
        w_.stack.back().pc = pc + 1;
        exit_lanes(exec);
        return;
      case Kind::func_end: {
        const uint32_t lanes = w_.stack.back().mask;
        if (k_.functions[in.function].is_entry) {
          exit_lanes(lanes);
        } else {
          pop_frame(lanes);
          w_.stack.pop_back();
        }
        return;
      }
      default: break;
    }
    w_.stack.back().pc = pc + 1;
    switch (in.kind) {
      case Kind::arith: arith(in, exec); break;
      case Kind::mov: {
        uint64_t v[32];
        read_lanes(in.src[0], exec, v);
        write_lanes(in.dst[0], exec, v);
        break;
      }
      case Kind::cvta: cvta(in, exec); break;
      case Kind::ld: load(in, exec); break;
      case Kind::st: store(in, exec); break;
      case Kind::atom:
      case Kind::red: atomic(in, exec); break;
      case Kind::bar: barrier(in, exec); break;
      case Kind::mapa: mapa(in, exec); break;
      case Kind::cluster_bar: cluster_barrier(in, exec); break;
      case Kind::shfl: shfl(in, exec); break;
      case Kind::vote: vote(in, exec); break;
      case Kind::match: match(in, exec); break;
      case Kind::redux: redux(in, exec); break;
      case Kind::activemask:
        for (unsigned lane = 0; lane < 32; ++lane)
          if (exec >> lane & 1) write(in.dst[0], lane, w_.stack.back().mask);
        break;
      case Kind::mma:
      case Kind::ldmatrix:
      case Kind::stmatrix:
      case Kind::movmatrix:
      case Kind::wmma_load:
      case Kind::wmma_store: matrix(in, exec); break;
      case Kind::wgmma:
      case Kind::wgmma_sync: wgmma(in, exec); break;
      case Kind::warp_sync: members(in, exec, &in.src[0]); break;  // the lanes of the mask meet
      case Kind::elect: elect(in, exec); break;
      case Kind::async_copy: async_copy(in, exec); break;
      case Kind::async_commit:
        for (unsigned lane = 0; lane < 32; ++lane)
          (in.bulk ? w_.bulk_groups : w_.async_groups)[lane] += exec >> lane & 1;
        break;
      case Kind::async_wait: async_wait(in, exec); break;
      case Kind::async_arrive: async_arrive(in, exec); break;
      case Kind::mbarrier: mbarrier(in, exec); break;
      case Kind::bulk_copy: bulk_copy(in, exec); break;
      case Kind::tex: tex(in, exec); break;
      case Kind::suld:
      case Kind::sust: surface(in, exec); break;
      case Kind::fence:
      case Kind::nop: break;  // no functional effect
      case Kind::bra:
      case Kind::call:
      case Kind::ret:
      case Kind::exit:
      case Kind::func_end:
      case Kind::kCount: break;  // control: the switch above
    }
  }

  Warp& w_;
  Cta& cta_;
  Memory& mem_;
  const Kernel& k_;
  uint64_t clock_;
  const Frame frame_;  // the frame the instruction runs in (calls push new ones)
  const Inst* in_ = nullptr;
  StepResult* result_ = nullptr;
  Buffer* last_buffer_ = nullptr;
};

}  // namespace

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
    Exec(w, cta, mem, clock).run(r);
  } catch (const Fault& f) {
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
