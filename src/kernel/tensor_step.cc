// Executing the warp-wide matrix instructions (kernel/tensor.h) for a whole
// warp: fragments gathered from the lanes' registers into matrices, the
// engine's matmul over them, the result scattered back.
#include <array>
#include <cstring>

#include <fmt/format.h>

#include "kernel/kernel.h"

namespace ptxfu::kernel::tensor {
namespace {

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The largest matrices of one instruction: A 16 x 64 (s4 m16n8k64), B 8 x 64,
// C/D 16 x 8 (or four 8 x 8 for the quad pairs).
constexpr size_t kMaxA = 16 * 64, kMaxB = 8 * 64, kMaxC = 4 * 8 * 8;

// Fragment `o` (a vector of registers) of every lane into `out` at `index`,
// `per` elements of `bits` in each register, low to high.
void gather(const Kernel& k, const Operand& o, const std::vector<uint16_t>& index, int per, int bits,
            const uint64_t* regs, uint64_t* out) {
  const int elements = static_cast<int>(o.count) * per;
  const uint64_t m = mask_of(static_cast<unsigned>(bits));
  for (uint32_t j = 0; j < o.count; ++j) {
    const uint64_t* r = regs + size_t{k.elements[o.reg + j].reg} * 32;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const uint64_t v = r[lane];
      const uint16_t* at = &index[lane * elements + j * per];
      for (int p = 0; p < per; ++p) out[at[p]] = v >> (p * bits) & m;
    }
  }
}

void scatter(const Kernel& k, const Operand& o, const std::vector<uint16_t>& index, int per, int bits,
             const uint64_t* in, uint64_t* regs) {
  const int elements = static_cast<int>(o.count) * per;
  const uint64_t m = mask_of(static_cast<unsigned>(bits));
  for (uint32_t j = 0; j < o.count; ++j) {
    const Operand& e = k.elements[o.reg + j];
    if (e.kind != Operand::Kind::reg) continue;
    uint64_t* r = regs + size_t{e.reg} * 32;
    const uint64_t keep = mask_of(e.reg_bits);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const uint16_t* at = &index[lane * elements + j * per];
      uint64_t v = 0;
      for (int p = 0; p < per; ++p) v |= (in[at[p]] & m) << (p * bits);
      r[lane] = v & keep;
    }
  }
}

int per_register(int bits) { return bits >= 32 ? 1 : 32 / bits; }

}  // namespace

// The scale factors of a block-scaled mma from the lanes' scale-a-data and
// scale-b-data registers, as the selectors pick them: sa[row * V + v],
// sb[col * V + v].
void gather_scales(const TensorOp& op, const Inst& in, const uint64_t* regs, uint64_t* sa, uint64_t* sb) {
  const auto value = [&](const Operand& o, unsigned lane) {
    return o.kind == Operand::Kind::reg ? regs[size_t{o.reg} * 32 + lane] : o.value;
  };
  const unsigned vecs = static_cast<unsigned>(op.inst.scale_vec);
  for (unsigned v = 0; v < vecs; ++v) {
    for (unsigned row = 0; row < 16; ++row) {
      const ScaleSlot s = scale_slot_a(row, v, op.byte_a, op.thread_a);
      sa[row * vecs + v] = value(in.src[3], s.lane) >> (8 * s.byte) & 0xff;
    }
    for (unsigned col = 0; col < 8; ++col) {
      const ScaleSlot s = scale_slot_b(col, v, op.byte_b, op.thread_b);
      sb[col * vecs + v] = value(in.src[4], s.lane) >> (8 * s.byte) & 0xff;
    }
  }
}

std::string execute_mma(const Kernel& k, const Inst& in, int sm, uint64_t* regs, mma::BlockObserver* observer) {
  const TensorOp& op = k.tensor_ops[in.tensor_op];
  mma::Instruction inst = op.inst;
  if (sm != 0 && sm != inst.sm) {  // the warp's SM computes it with its own tensor core
    inst.row = inst.scale_vec > 0 ? mma::find_block_scaled_row(sm, inst.a, inst.d)
                                  : mma::find_row(sm, inst.family, inst.a, inst.d);
    if (!inst.row)
      return fmt::format("'{}' is not available on sm_{} (the SM it runs on): no {} -> {} tensor core there",
                         in.mnemonic, sm, mma::elem_name(inst.a), mma::elem_name(inst.d));
    inst.sm = sm;
  }
  std::array<uint64_t, kMaxA> a;
  std::array<uint64_t, kMaxB> b;
  std::array<uint64_t, kMaxC> c, d;
  const int per_ab = op.layout.per;
  gather(k, in.src[0], op.a_index, per_ab, op.a_bits, regs, a.data());
  gather(k, in.src[1], op.b_index, per_ab, op.a_bits, regs, b.data());
  gather(k, in.src[2], op.c_index, per_register(op.c_bits), op.c_bits, regs, c.data());
  if (inst.scale_vec > 0) {
    std::array<uint64_t, 16 * 4> sa;
    std::array<uint64_t, 8 * 4> sb;
    gather_scales(op, in, regs, sa.data(), sb.data());
    mma::mma_scaled_cols(inst, a.data(), b.data(), c.data(), sa.data(), sb.data(), d.data());
    scatter(k, in.dst[0], op.d_index, per_register(op.d_bits), op.d_bits, d.data(), regs);
    return {};
  }
  const int m = op.products > 1 ? 8 : op.layout.m, n = op.products > 1 ? 8 : op.layout.n;
  const int kk = op.products > 1 ? 4 : op.layout.k;
  for (int p = 0; p < op.products; ++p)
    mma::matmul_cols(inst, m, n, kk, a.data() + p * m * kk, b.data() + p * n * kk, c.data() + p * m * n,
                     d.data() + p * m * n, observer);
  scatter(k, in.dst[0], op.d_index, per_register(op.d_bits), op.d_bits, d.data(), regs);
  return {};
}

// Lane l's register of an 8x8 b16 fragment holds row l / 4, columns 2 (l % 4)
// and 2 (l % 4) + 1 (PTX ISA: ldmatrix, movmatrix).
void execute_movmatrix(const Kernel& /*k*/, const Inst& in, uint64_t* regs) {
  uint16_t mat[8][8];
  const uint64_t* src = regs + size_t{in.src[0].reg} * 32;
  for (unsigned lane = 0; lane < 32; ++lane) {
    mat[lane / 4][2 * (lane % 4)] = static_cast<uint16_t>(src[lane]);
    mat[lane / 4][2 * (lane % 4) + 1] = static_cast<uint16_t>(src[lane] >> 16);
  }
  uint64_t* dst = regs + size_t{in.dst[0].reg} * 32;
  const uint64_t keep = mask_of(in.dst[0].reg_bits);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned g = lane / 4, t = lane % 4;
    dst[lane] = (uint64_t{mat[2 * t][g]} | uint64_t{mat[2 * t + 1][g]} << 16) & keep;
  }
}

namespace {
uint16_t element(const uint8_t* row, unsigned col) {
  uint16_t v;
  std::memcpy(&v, row + 2 * col, 2);
  return v;
}
}  // namespace

void execute_ldmatrix(const Kernel& k, const Inst& in, const uint8_t* const* rows, uint64_t* regs) {
  const TensorOp& op = k.tensor_ops[in.tensor_op];
  for (unsigned j = 0; j < op.matrices; ++j) {
    const Operand& e = k.elements[in.dst[0].reg + j];
    uint64_t* r = regs + size_t{e.reg} * 32;
    const uint8_t* const* m = rows + 8 * j;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned g = lane / 4, t = lane % 4;
      const uint16_t lo = op.trans ? element(m[2 * t], g) : element(m[g], 2 * t);
      const uint16_t hi = op.trans ? element(m[2 * t + 1], g) : element(m[g], 2 * t + 1);
      r[lane] = (uint64_t{lo} | uint64_t{hi} << 16) & mask_of(e.reg_bits);
    }
  }
}

void execute_stmatrix(const Kernel& k, const Inst& in, uint8_t* const* rows, const uint64_t* regs) {
  const TensorOp& op = k.tensor_ops[in.tensor_op];
  for (unsigned j = 0; j < op.matrices; ++j) {
    const uint64_t* r = regs + size_t{k.elements[in.src[0].reg + j].reg} * 32;
    uint8_t* const* m = rows + 8 * j;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned g = lane / 4, t = lane % 4;
      const uint16_t lo = static_cast<uint16_t>(r[lane]), hi = static_cast<uint16_t>(r[lane] >> 16);
      if (op.trans) {
        std::memcpy(m[2 * t] + 2 * g, &lo, 2);
        std::memcpy(m[2 * t + 1] + 2 * g, &hi, 2);
      } else {
        std::memcpy(m[g] + 4 * t, &lo, 2);
        std::memcpy(m[g] + 4 * t + 2, &hi, 2);
      }
    }
  }
}

void execute_wmma_memory(const Kernel& k, const Inst& in, const uint64_t* base, const uint64_t* stride,
                         const ElementAccess& bytes_at, uint64_t* regs) {
  const TensorOp& op = k.tensor_ops[in.tensor_op];
  const bool store = in.kind == Kind::wmma_store;
  const Operand& frag = store ? in.src[0] : in.dst[0];
  const unsigned eb = static_cast<unsigned>(op.elem_bits) / 8;
  const uint64_t m = mask_of(static_cast<unsigned>(op.elem_bits));
  const int size = op.rows * op.cols;
  for (unsigned lane = 0; lane < 32; ++lane) {
    const uint64_t ld = stride[lane] ? stride[lane] : uint64_t(op.row_major ? op.cols : op.rows);
    for (int j = 0; j < op.regs; ++j) {
      const Operand& e = k.elements[frag.reg + j];
      uint64_t& r = regs[size_t{e.reg} * 32 + lane];
      uint64_t v = store ? r : 0;
      for (int p = 0; p < op.per; ++p) {
        const int q = (static_cast<int>(lane) * op.elements + j * op.per + p) % size;
        const uint64_t row = uint64_t(q / op.cols), col = uint64_t(q % op.cols);
        const uint64_t at = base[lane] + (op.row_major ? row * ld + col : col * ld + row) * eb;
        uint8_t* bytes = bytes_at(lane, at, eb, store);
        uint64_t x = 0;
        if (store) {
          x = v >> (p * op.elem_bits) & m;
          std::memcpy(bytes, &x, eb);
        } else {
          std::memcpy(&x, bytes, eb);
          v |= (x & m) << (p * op.elem_bits);
        }
      }
      if (!store) r = v & mask_of(e.reg_bits);
    }
  }
}

}  // namespace ptxfu::kernel::tensor
