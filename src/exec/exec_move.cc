// mov's pack and unpack forms (PTX ISA, "mov" on vectors): packing writes
// d = a.x | (a.y << w) | ..., unpacking { d.x, d.y, ... } = { a[0..w-1],
// a[w..2w-1], ... }: the first element in the lowest bits.
#include "exec/execute.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

using u128 = unsigned __int128;

constexpr uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

uint64_t element(const Result& r, unsigned index, unsigned bits) {
  const u128 whole = (static_cast<u128>(r.high) << 64) | r.value;
  return static_cast<uint64_t>(whole >> (index * bits)) & mask_of(bits);
}

bool execute_move(const isa::Instr& in, const uint64_t* src, Result& out) {
  if (in.op != isa::Op::mov || !in.row || in.row->executor != isa::Executor::move) return false;
  const unsigned bits = isa::info(in.type).bits;
  if (isa::is_vector(in.row->dest)) {  // unpack: the elements are the scalar's bits, read by element()
    out.value = src[0];
    out.high = bits == 128 ? src[1] : 0;
    return true;
  }
  const unsigned w = bits / in.num_src;  // pack
  u128 d = 0;
  for (unsigned i = 0; i < in.num_src; ++i) d |= static_cast<u128>(src[i] & mask_of(w)) << (i * w);
  out.value = static_cast<uint64_t>(d);
  out.high = static_cast<uint64_t>(d >> 64);
  return true;
}

}  // namespace ptxfu::exec
