// Executing wgmma.mma_async (kernel/tensor.h) for one warp of its
// warpgroup: A and B read through their shared-memory matrix descriptors,
// the engine's matmul over the warp's 16 rows, D scattered back.
//
// A descriptor (PTX ISA, "Matrix Descriptor" of the wgmma chapter) holds, in
// 16-byte units, the matrix's start address in shared memory (bits 0-13),
// the leading dimension byte offset LBO (16-29) and the stride dimension
// byte offset SBO (32-45); the matrix base offset (49-51) and the layout
// (62-63: 0 no swizzle, 1 128-byte, 2 64-byte, 3 32-byte swizzle). The
// matrix is made of core matrices of 8 rows of 16 bytes. Where each element
// lies ("Shared Memory Matrix Layout"; CUTLASS's cute/arch/mma_sm90_desc.hpp
// spells the same canonical layouts):
//  - K-major, no swizzle: element (mn, k) at start + (mn / 8) SBO + (kb / 16)
//    LBO + (mn % 8) 16 + kb % 16, kb = k times the element's bytes;
//  - K-major, 128-byte swizzle: start + (mn / 8) SBO + (mn % 8) 128 + kb, the
//    address's bits 4-6 then XORed with its bits 7-9;
//  - MN-major (imm-trans 1), no swizzle: start + (mb / 16) SBO + (k / 8) LBO +
//    (k % 8) 16 + mb % 16, mb = mn times the element's bytes;
//  - MN-major, 128-byte swizzle: start + (mb / 128) LBO + mb % 128 + (k % 8)
//    128 + (k / 8) SBO, swizzled as above.
// The 64- and 32-byte swizzles and a non-zero base offset are refused.
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "kernel/kernel.h"

namespace ptxfu::kernel::tensor {
namespace {

struct Descriptor {
  uint32_t start, lbo, sbo;
  unsigned base_offset, layout;
};

Descriptor decode(uint64_t d) {
  return {static_cast<uint32_t>(d & 0x3fff) << 4, static_cast<uint32_t>(d >> 16 & 0x3fff) << 4,
          static_cast<uint32_t>(d >> 32 & 0x3fff) << 4, static_cast<unsigned>(d >> 49 & 7),
          static_cast<unsigned>(d >> 62)};
}

std::string describe(const Descriptor& d, char which) {
  return fmt::format("the descriptor of {} (start 0x{:x}, LBO {}, SBO {}, layout {})", which, d.start, d.lbo, d.sbo,
                     d.layout == 0   ? "no swizzle"
                     : d.layout == 1 ? "128B swizzle"
                                     : "other");
}

// Why the executor does not take this descriptor, or empty.
std::string refuse(const Descriptor& d, char which, bool k_major) {
  if (d.layout == 2 || d.layout == 3)
    return fmt::format(
        "{}: the {}-byte swizzle is not supported by the kernel executor (no swizzle and the 128-byte "
        "one are)",
        describe(d, which), d.layout == 2 ? 64 : 32);
  if (d.base_offset != 0)
    return fmt::format("{}: a matrix base offset ({}) is not supported by the kernel executor", describe(d, which),
                       d.base_offset);
  // A 128-byte swizzle repeats every 8 rows of 128 bytes: the matrix starts
  // in the first row of a 1024-byte-aligned atom, and K-major, its 32 bytes
  // of k stay in that row.
  if (d.layout == 1 && (k_major ? d.start % 1024 + 32 > 128 : d.start % 1024 != 0))
    return fmt::format(
        "Misaligned Shared Address: {}: a 128B-swizzled {} matrix must start {} of a 1024-byte-aligned "
        "swizzle atom",
        describe(d, which), k_major ? "K-major" : "MN-major",
        k_major ? "within the first 96 bytes" : "at the beginning");
  return {};
}

// The shared-memory address of element (mn, k), `bytes` each.
uint64_t element_address(const Descriptor& d, bool k_major, unsigned mn, unsigned k, unsigned bytes) {
  uint64_t a = d.start;
  if (k_major) {
    const unsigned kb = k * bytes;
    a += d.layout == 1 ? uint64_t{mn / 8} * d.sbo + (mn % 8) * 128 + kb
                       : uint64_t{mn / 8} * d.sbo + uint64_t{kb / 16} * d.lbo + (mn % 8) * 16 + kb % 16;
  } else {
    const unsigned mb = mn * bytes;
    a += d.layout == 1 ? uint64_t{mb / 128} * d.lbo + mb % 128 + (k % 8) * 128 + uint64_t{k / 8} * d.sbo
                       : uint64_t{mb / 16} * d.sbo + uint64_t{k / 8} * d.lbo + (k % 8) * 16 + mb % 16;
  }
  return d.layout == 1 ? a ^ ((a >> 7 & 7) << 4) : a;
}

struct SharedMatrix {
  const uint8_t* smem;
  size_t size;
};

// rows x cols elements (mn, k) of a matrix through its descriptor, into
// out[mn * cols + k] (A row-major, B by columns); negated (the sign bit
// flipped) when `negate`. An empty string or a fault's message.
std::string read_matrix(const SharedMatrix& s, uint64_t desc, char which, bool k_major, unsigned mn0, unsigned rows,
                        unsigned cols, int bits, bool negate, uint64_t* out) {
  const Descriptor d = decode(desc);
  if (std::string why = refuse(d, which, k_major); !why.empty()) return why;
  const unsigned bytes = static_cast<unsigned>(bits) / 8;
  const uint64_t sign = negate ? uint64_t{1} << (bits - 1) : 0;
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) {
      const uint64_t a = element_address(d, k_major, mn0 + r, c, bytes);
      if (a + bytes > s.size)
        return fmt::format(
            "Invalid __shared__ read of size {} bytes at 0x{:x} through {}: address is out of bounds: "
            "the CTA has {} bytes of shared memory",
            bytes, a, describe(d, which), s.size);
      uint64_t v = 0;
      std::memcpy(&v, s.smem + a, bytes);
      out[size_t{r} * cols + c] = v ^ sign;
    }
  return {};
}

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The descriptor in a 64-bit register: the warp's lanes hold the same one.
std::string uniform_descriptor(const Inst& in, const Operand& o, const uint64_t* regs, char which, uint64_t* out) {
  if (o.kind == Operand::Kind::imm) return *out = o.value, std::string();
  const uint64_t* r = regs + size_t{o.reg} * 32;
  for (unsigned lane = 1; lane < 32; ++lane)
    if (r[lane] != r[0])
      return fmt::format(
          "'{}': lanes 0 and {} give different descriptors of {} (0x{:x} and 0x{:x}); a warp's "
          "lanes give one",
          in.mnemonic, lane, which, r[0], r[lane]);
  *out = r[0];
  return {};
}

}  // namespace

std::string execute_wgmma(const Kernel& k, const Inst& in, int sm, unsigned warp, bool scale_d, const uint8_t* smem,
                          size_t smem_bytes, uint64_t* regs) {
  const TensorOp& op = k.tensor_ops[in.tensor_op];
  mma::Instruction inst = op.inst;
  if (sm != 0 && sm != inst.sm) {
    inst.row = mma::find_row(sm, inst.family, inst.a, inst.d);
    if (!inst.row)
      return fmt::format("'{}' is not available on sm_{} (the SM it runs on): no wgmma there", in.mnemonic, sm);
    inst.sm = sm;
  }
  const unsigned n = static_cast<unsigned>(op.layout.n), kk = static_cast<unsigned>(op.layout.k);
  const int bits = op.a_bits;
  std::vector<uint64_t> a(16 * kk), b(size_t{n} * kk), c(16 * size_t{n}), d(16 * size_t{n});
  const SharedMatrix s{smem, smem_bytes};
  uint64_t desc = 0;
  std::string e;
  if (op.a_desc) {
    if (!(e = uniform_descriptor(in, in.src[0], regs, 'A', &desc)).empty()) return e;
    if (!(e = read_matrix(s, desc, 'A', !op.trans_a, 16 * warp, 16, kk, bits, op.neg_a, a.data())).empty()) return e;
  } else {
    const int per = op.layout.per;
    const uint64_t m = mask_of(static_cast<unsigned>(bits)), sign = op.neg_a ? uint64_t{1} << (bits - 1) : 0;
    for (uint32_t j = 0; j < in.src[0].count; ++j) {
      const uint64_t* r = regs + size_t{k.elements[in.src[0].reg + j].reg} * 32;
      for (unsigned lane = 0; lane < 32; ++lane)
        for (int p = 0; p < per; ++p) a[op.a_index[lane * op.na + j * per + p]] = (r[lane] >> (p * bits) & m) ^ sign;
    }
  }
  if (!(e = uniform_descriptor(in, in.src[1], regs, 'B', &desc)).empty()) return e;
  if (!(e = read_matrix(s, desc, 'B', !op.trans_b, 0, n, kk, bits, op.neg_b, b.data())).empty()) return e;
  const int per_d = op.d_bits >= 32 ? 1 : 32 / op.d_bits;
  const uint64_t dm = mask_of(static_cast<unsigned>(op.d_bits));
  const Operand& frag = in.dst[0];
  for (uint32_t j = 0; j < frag.count && scale_d; ++j) {
    const uint64_t* r = regs + size_t{k.elements[frag.reg + j].reg} * 32;
    for (unsigned lane = 0; lane < 32; ++lane)
      for (int p = 0; p < per_d; ++p) c[op.c_index[lane * op.nc + j * per_d + p]] = r[lane] >> (p * op.d_bits) & dm;
  }
  mma::matmul_cols(inst, 16, static_cast<int>(n), static_cast<int>(kk), a.data(), b.data(), c.data(), d.data());
  for (uint32_t j = 0; j < frag.count; ++j) {
    const Operand& el = k.elements[frag.reg + j];
    uint64_t* r = regs + size_t{el.reg} * 32;
    for (unsigned lane = 0; lane < 32; ++lane) {
      uint64_t v = 0;
      for (int p = 0; p < per_d; ++p) v |= (d[op.d_index[lane * op.nc + j * per_d + p]] & dm) << (p * op.d_bits);
      r[lane] = v & mask_of(el.reg_bits);
    }
  }
  return {};
}

}  // namespace ptxfu::kernel::tensor
