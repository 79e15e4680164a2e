// The executor of one warp-instruction (step.cc's step()), internal to
// src/kernel and never installed. Its hot path is defined inline here so that
// the compiler sees it whole in step.cc: operands, memory accesses, branches
// and reconvergence (every instruction), arithmetic, loads, stores and the
// dispatch. The rarer instructions are members defined in a file each by
// what they do: step.cc (faults, atomics), step_control.cc, step_warp.cc,
// step_async.cc, step_texture.cc, step_matrix.cc and step_cluster.cc.
#pragma once
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "exec/execute.h"
#include "kernel/kernel.h"
#include "util/bits.h"

namespace ptxfu::kernel::detail {

// An instruction's error: step() turns it into StepResult::Status::error.
struct Fault {
  std::string message;
};

inline uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
inline unsigned popcount(uint32_t m) { return util::popcount32(m); }

// A kind without its case in execute() is an error, not a silent no-op.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"

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

  // noinline: out of access()'s per-lane loop, as GCC chose while Exec was
  // internal to step.cc (inlined there it slows a matmul's executor ~13%).
  [[gnu::noinline]] uint8_t* param(unsigned lane, int64_t offset, unsigned bytes, bool is_write) {
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

  // ---- control: branches and the SIMT stack (calls: step_control.cc)

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

  // ---- data (always_inline: execute() is their one caller, and GCC inlined
  // them there while Exec was internal to step.cc but not as a header's
  // inline members)

  [[gnu::always_inline]] void arith(const Inst& in, uint32_t exec) {
    const bool carry_in = isa::reads_carry(in.form), carry_out = isa::writes_carry(in.form);
    if (in.num_dst == 1 && in.num_src <= 4 && !carry_in && !carry_out) {  // the executors' warp-wide path
      uint64_t copies[4][32];
      const uint64_t* src[4] = {};  // the executors read only the form's sources
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

  [[gnu::always_inline]] void load(const Inst& in, uint32_t exec) {
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

  [[gnu::always_inline]] void store(const Inst& in, uint32_t exec) {
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

  // ---- faults and atomics (step.cc)

  [[noreturn]] void fault(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes,
                          const std::string& reason) const;

  std::string describe(const Buffer& b) const;

  // Lane-serialised: lane 0's read-modify-write, then lane 1's, ...
  void atomic(const Inst& in, uint32_t exec);

  // ---- calls and printf (step_control.cc)

  // Leaves the current callee: its return values go to the caller's
  // .param variables for `lanes`, then its frame is dropped.
  void pop_frame(uint32_t lanes);

  // A .param of the calling frame for `lane`, as a call's argument `index`.
  uint8_t* call_param(const Inst& in, uint32_t index, unsigned lane);

  // CUDA's vprintf(format, args) for each executing lane, in lane order:
  // the text goes to the launch's printf records; the return value is the
  // number of arguments the format consumed (-1 for a null format), as
  // CUDA's printf returns.
  void vprintf(const Inst& in, uint32_t exec);

  void call(const Inst& in, uint32_t exec, uint32_t pc);

  void ret(const Inst& in, uint32_t exec, uint32_t pc);

  // ---- barriers and warp operations (step_warp.cc)

  unsigned first_lane(uint32_t m) const { return static_cast<unsigned>(__builtin_ctz(m)); }

  void barrier(const Inst& in, uint32_t exec);

  // The lanes of a .sync warp operation: those executing it, which must be
  // every live lane its member mask names.
  uint32_t members(const Inst& in, uint32_t exec, const Operand* mask_operand);

  void shfl(const Inst& in, uint32_t exec);

  void vote(const Inst& in, uint32_t exec);

  void match(const Inst& in, uint32_t exec);

  void redux(const Inst& in, uint32_t exec);

  void elect(const Inst& in, uint32_t exec);

  // ---- asynchronous copies, bulk copies and mbarriers (step_async.cc; their state:
  // kernel/async.h; a bulk copy's landing: Cta::settle_async)

  [[noreturn]] void async_fault(const std::string& what) const;

  // The shared offset of the mbarrier lane `lane` names (a .shared or a
  // generic address), checked: 8-byte aligned, inside the CTA's memory.
  uint32_t mbarrier_at(unsigned lane);

  void async_copy(const Inst& in, uint32_t exec);

  void async_wait(const Inst& in, uint32_t exec);

  void async_arrive(const Inst& in, uint32_t exec);

  void bulk_copy(const Inst& in, uint32_t exec);

  uint64_t address_of(const Address& a, unsigned lane);

  // A .shared::cluster address of this CTA as its shared offset.
  uint64_t own_shared(uint64_t a) const;

  void bulk_lane(const Inst& in, unsigned lane, uint64_t shared_addr);

  // The shared bytes [smem, smem + n): inside the CTA's memory, `align`-aligned.
  void check_shared(unsigned lane, uint64_t smem, uint64_t n, unsigned align, bool is_write) const;

  void bulk_bytes(const Inst& in, unsigned lane, uint64_t smem, BulkCopy& c);

  // The tensor map of lane `lane` (a kernel parameter's bytes, or 128 bytes
  // at a generic address), decoded; its address for messages into `where`.
  TensorMap tensor_map(const Inst& in, unsigned lane, std::string& where);

  void bulk_tensor(const Inst& in, unsigned lane, uint64_t smem, BulkCopy& c);

  void mbarrier(const Inst& in, uint32_t exec);

  void mbarrier_lane(const Inst& in, unsigned lane);

  // ---- texture and surface objects (step_texture.cc; kernel/texture.h)

  TextureDesc& object(const Inst& in, unsigned lane);

  [[noreturn]] void fail_object(unsigned lane, const std::string& why) const;

  uint32_t coordinate(const Inst& in, unsigned lane, unsigned c);

  // One channel: (value, 0, 0, 1) as the four results.
  void tex(const Inst& in, uint32_t exec);

  // The bytes of a surface access at byte x of row y, or nullptr (.zero out of range).
  uint8_t* surface_bytes(const Inst& in, unsigned lane, TextureDesc& t, unsigned bytes);

  void surface(const Inst& in, uint32_t exec);

  // ---- matrix instructions (step_matrix.cc; kernel/tensor.h)

  // mma, ldmatrix, stmatrix, movmatrix (kernel/tensor.h): .aligned, so the
  // whole warp executes them at once or none of it does.
  void matrix_lanes(const Inst& in, uint32_t exec);

  void matrix(const Inst& in, uint32_t exec);

  // wgmma.mma_async: each warp of the warpgroup (4 consecutive warps from a
  // multiple of 4) computes its own 16 rows when it issues it, reading A and
  // B from shared memory then (a kernel may not change them until its
  // wgmma.wait_group). fence, commit_group and wait_group order nothing the
  // executor could see: it writes the accumulators at once.
  void wgmma(const Inst& in, uint32_t exec);

  // ---- address windows and the cluster (step_cluster.cc)

  // The cluster's special registers; a launch without clusters is one of one CTA.
  uint64_t cluster_sreg(const Operand& o) const;

  // The CTA of `rank` in this CTA's cluster, for a .shared::cluster access.
  Cta& peer(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes, uint64_t rank) const;

  // mapa: the address `a` (generic, or .shared::cta/.shared::cluster) as the
  // same offset in the shared memory of CTA `rank` of the cluster.
  void mapa(const Inst& in, uint32_t exec);

  // barrier.cluster.arrive marks the lanes; .wait holds the warp until the
  // phase its lanes arrived in completes (Cluster::settle).
  void cluster_barrier(const Inst& in, uint32_t exec);

  void cvta(const Inst& in, uint32_t exec);

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

#pragma GCC diagnostic pop

}  // namespace ptxfu::kernel::detail
