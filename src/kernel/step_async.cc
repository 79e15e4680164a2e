// The executor's asynchronous instructions: cp.async and its groups,
// cp.async.bulk{.tensor} and the mbarrier operations, as a warp issues them.
// What happens to them later (landing copies, arrive-ons, mbarrier objects)
// is async_step.cc's.
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "kernel/async.h"
#include "kernel/exec.h"

namespace ptxfu::kernel::detail {

void Exec::async_fault(const std::string& what) const {
  const Dim3& c = cta_.ctaid;
  throw Fault{fmt::format("{}: error: '{}' in warp {} of block ({},{},{}): {}", k_.where(*in_), in_->mnemonic, w_.index,
                          c.x, c.y, c.z, what)};
}

uint32_t Exec::mbarrier_at(unsigned lane) {
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

void Exec::async_copy(const Inst& in, uint32_t exec) {
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

void Exec::async_wait(const Inst& in, uint32_t exec) {
  if (exec == 0) return;
  if (in.bar_wait)  // wait_all: commit_group, then wait_group 0
    for (unsigned lane = 0; lane < 32; ++lane) w_.async_groups[lane] += exec >> lane & 1;
  w_.async_wait = true;
  w_.async_wait_lanes = exec;
  w_.async_wait_groups = in.bar_wait ? 0 : static_cast<uint32_t>(in.src[0].value);
  w_.async_wait_bulk = in.bulk;
  w_.async_wait = cta_.waits_for_copies(w_);
}

void Exec::async_arrive(const Inst& in, uint32_t exec) {
  lane_addresses(exec);
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    const uint32_t bar = mbarrier_at(lane);
    if (!in.async_noinc)
      if (const std::string e = async::add_pending(cta_, bar); !e.empty()) async_fault(e);
    cta_.arrives.push_back({cta_.async_seq, w_.index, static_cast<uint8_t>(lane), bar});
  }
}

void Exec::bulk_copy(const Inst& in, uint32_t exec) {
  lane_addresses(exec);
  uint64_t shared_side[32];
  std::memcpy(shared_side, result_->addresses, sizeof shared_side);
  result_->async_first = cta_.async_seq;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (exec >> lane & 1) bulk_lane(in, lane, shared_side[lane]);
  result_->space = Space::global;
  result_->async_count = static_cast<uint32_t>(cta_.async_seq - result_->async_first);
}

uint64_t Exec::address_of(const Address& a, unsigned lane) {
  const uint64_t sum = (a.has_reg ? reg(a.reg, lane) & mask_of(a.reg_bits) : 0) + static_cast<uint64_t>(a.offset);
  return a.has_reg && a.reg_bits == 32 ? sum & 0xffffffffu : sum;
}

uint64_t Exec::own_shared(uint64_t a) const {
  if (a < kClusterRankStride) return a;
  if (a / kClusterRankStride - 1 != cta_.cluster_rank)
    async_fault(
        fmt::format("shared address 0x{:x} is in CTA {} of the cluster: a bulk copy into another CTA's "
                    "shared memory is not modelled",
                    a, a / kClusterRankStride - 1));
  return a % kClusterRankStride;
}

void Exec::bulk_lane(const Inst& in, unsigned lane, uint64_t shared_addr) {
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

void Exec::check_shared(unsigned lane, uint64_t smem, uint64_t n, unsigned align, bool is_write) const {
  if (smem % align != 0 || smem + n > cta_.shared.size())
    fault(lane, Space::shared, is_write, smem, static_cast<unsigned>(n),
          smem % align
              ? fmt::format("a bulk copy's shared address must be a multiple of {}", align)
              : fmt::format("address is out of bounds: the CTA has {} bytes of shared memory", cta_.shared.size()));
}

void Exec::bulk_bytes(const Inst& in, unsigned lane, uint64_t smem, BulkCopy& c) {
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

TensorMap Exec::tensor_map(const Inst& in, unsigned lane, std::string& where) {
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

void Exec::bulk_tensor(const Inst& in, unsigned lane, uint64_t smem, BulkCopy& c) {
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

void Exec::mbarrier(const Inst& in, uint32_t exec) {
  lane_addresses(exec);
  for (unsigned lane = 0; lane < 32; ++lane)
    if (exec >> lane & 1) mbarrier_lane(in, lane);
}

void Exec::mbarrier_lane(const Inst& in, unsigned lane) {
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

}  // namespace ptxfu::kernel::detail
