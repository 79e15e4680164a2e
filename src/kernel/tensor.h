// The warp-wide matrix instructions of the kernel executor: mma.sync,
// ldmatrix, stmatrix and movmatrix. Each lane holds a fragment of a matrix;
// which lane holds which element is the PTX ISA's "Matrix Fragments for
// mma.mMnNkK" (and ldmatrix's / movmatrix's descriptions), computed by
// fragment_coord(). The arithmetic is the tensor-core engine's (src/mma):
// the numerics row of the architecture the warp runs on.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mma/matrix.h"

namespace ptxfu::kernel {

struct Inst;
class Kernel;

namespace tensor {

enum class Mat : uint8_t { a, b, c };  // c: the accumulators C and D alike

// How a shape's fragments are laid out across the warp.
struct FragmentLayout {
  int m = 16, n = 8, k = 16;
  // Elements of A and B per 32-bit register (f16/bf16 2, s8/u8/fp8 4, tf32
  // 1); f64: 1 (a 64-bit register). A and B have the same type.
  int per = 2;
  // m8n8k4 with .f16: four independent 8x8x4 products, one per quad pair
  // (lanes 0-3 with 16-19, 4-7 with 20-23, ...), with their own layouts.
  bool quad_pairs = false;
  bool a_col = false;  // quad pairs: A is column-major (.col)
  bool b_row = false;  // quad pairs: B is row-major (.row)
  bool c_f32 = false;  // quad pairs: the accumulators are f32 (their layout differs from f16's)
};

struct Coord {
  int row, col;
};

// The (row, col) of element `i` (low to high) of `lane`'s fragment of matrix
// `which` in its product; for quad pairs, within the quad pair's own 8x8x4
// product (quad_pair() says which).
Coord fragment_coord(const FragmentLayout& l, Mat which, unsigned lane, unsigned i);
inline unsigned quad_pair(unsigned lane) { return (lane >> 2) & 3; }

// Elements per lane of each matrix.
int fragment_elements(const FragmentLayout& l, Mat which);

// The lane and byte of the scale factor of A's row `row` (B's column) for
// the scale vector `v`, as the selectors pick them (PTX ISA 9.1, "Block
// Scaling for mma.sync": thread-id-a picks the pair of lanes t with
// t % 4 = 2 thread-id-a and 2 thread-id-a + 1 of each quad, the first holding
// rows 0-7 (row = lane / 4), the second rows 8-15; thread-id-b the lane t %
// 4 = thread-id-b of each quad, column lane / 4; byte-id the byte of v = 0,
// the next bytes the next vectors).
struct ScaleSlot {
  unsigned lane, byte;
};
ScaleSlot scale_slot_a(unsigned row, unsigned v, unsigned byte_id, unsigned thread_id);
ScaleSlot scale_slot_b(unsigned col, unsigned v, unsigned byte_id, unsigned thread_id);

// One mma.sync, ldmatrix, stmatrix or movmatrix of the kernel, as lowered.
struct TensorOp {
  mma::Instruction inst{};  // mma: the instruction for the kernel's target
  FragmentLayout layout;
  // mma: the flat index of every (lane, element) of each matrix in the
  // engine's arrays (A row-major M x K, B by columns N x K, C/D row-major M x
  // N; quad pairs: the pair's product times the matrix size added):
  // index[lane * elements + i].
  std::vector<uint16_t> a_index, b_index, c_index, d_index;
  int a_bits = 16, c_bits = 32, d_bits = 32;  // element widths in the registers
  int products = 1;                           // 4 for quad pairs
  // ldmatrix / stmatrix: 8x8 matrices of 16-bit elements (.x1 .x2 .x4) and
  // whether they are transposed on the way.
  unsigned matrices = 1;
  bool trans = false;
  // Elements per lane of A, B and C/D (mma, wmma.mma).
  int na = 0, nb = 0, nc = 0;
  // mma with block scaling (inst.scale_vec > 0): the selectors {byte-id-a,
  // thread-id-a} and {byte-id-b, thread-id-b} (immediates).
  uint8_t byte_a = 0, thread_a = 0, byte_b = 0, thread_b = 0;
  // wmma: fragments hold their matrix's elements in an order PTX leaves to
  // the implementation (wmma.load, wmma.mma and wmma.store need only agree):
  // element i of lane l is element (l * elements + i) mod (rows * cols) of
  // the matrix in row-major order (f16 A and B hold every element twice or
  // more: 16 a lane).
  bool wmma = false;
  // wmma.load / wmma.store: the matrix, its layout in memory, its element.
  int rows = 0, cols = 0, elements = 0, elem_bits = 16, per = 2, regs = 0, reg_bits = 32;
  bool row_major = true;
  // wgmma.mma_async (kernel/tensor_wgmma.cc): a warpgroup's m64nNkK, each
  // warp its 16 rows of D (layout.m 16, layout.n N, layout.k K); A from
  // registers (a_index) or a shared-memory matrix descriptor; B from a
  // descriptor. The immediates: imm-scale-a/b -1 negate A/B, imm-trans-a/b 1
  // read A/B from shared memory MN-major instead of K-major.
  bool a_desc = false, neg_a = false, neg_b = false, trans_a = false, trans_b = false;
  // wgmma.fence, wgmma.commit_group, wgmma.wait_group N.
  enum class Sync : uint8_t { none, fence, commit, wait };
  Sync sync = Sync::none;
  unsigned wait_n = 0;
};

// The rows of TensorOp built from a statement's words ("mma", "sync",
// "aligned", "m16n8k16", ...); throws std::invalid_argument saying why not.
TensorOp lower_mma(const std::vector<std::string_view>& words, std::string_view mnemonic, std::string_view target);
TensorOp lower_ldmatrix(const std::vector<std::string_view>& words, std::string_view mnemonic);
TensorOp lower_movmatrix(const std::vector<std::string_view>& words, std::string_view mnemonic);
TensorOp lower_wmma_memory(const std::vector<std::string_view>& words, std::string_view mnemonic);
// wgmma.mma_async.sync.aligned.m64nNkK.D.A.B: the instruction for `target`,
// its fragments; the immediates are the lowering's (Lowerer::wgmma).
TensorOp lower_wgmma(const std::vector<std::string_view>& words, std::string_view mnemonic, std::string_view target);

// The multiply-adds of one mma (M N K, times 4 for the quad pairs).
inline uint64_t multiply_adds(const TensorOp& op) {
  return uint64_t(op.layout.m) * op.layout.n * op.layout.k * op.products;
}

// Registers per lane of each operand of an mma (d, a, b, c).
struct FragmentRegs {
  int d, a, b, c;
  int d_bits, a_bits, b_bits, c_bits;  // register widths
};
FragmentRegs fragment_regs(const TensorOp& op);

// The registers of the running frame: lane `l` of slot `s` at regs[s * 32 + l].
// Each call runs the instruction for the whole warp; a message (a fault)
// when it cannot (the instruction is not on the architecture `sm`).
// `observer`, when given, is shown every block of the engine (mma/block_fma.h).
std::string execute_mma(const Kernel& k, const Inst& in, int sm, uint64_t* regs,
                        mma::BlockObserver* observer = nullptr);
void execute_movmatrix(const Kernel& k, const Inst& in, uint64_t* regs);
// rows[r]: the 16 bytes of row r (r < 8 * matrices; row r's address came
// from lane r).
void execute_ldmatrix(const Kernel& k, const Inst& in, const uint8_t* const* rows, uint64_t* regs);
void execute_stmatrix(const Kernel& k, const Inst& in, uint8_t* const* rows, const uint64_t* regs);
// wmma.load / wmma.store: lane l's matrix at base[l] with row stride
// stride[l] (elements); `bytes_at` gives the bytes of one element (and
// faults as a memory access does).
using ElementAccess = std::function<uint8_t*(unsigned lane, uint64_t addr, unsigned bytes, bool write)>;
void execute_wmma_memory(const Kernel& k, const Inst& in, const uint64_t* base, const uint64_t* stride,
                         const ElementAccess& bytes_at, uint64_t* regs);

// wgmma.mma_async for warp `warp` (0 to 3) of its warpgroup: its 16 rows of
// D = A B (+ D when scale_d), A and B read through their descriptors (the
// descriptor registers of the warp's first lane) from the CTA's shared
// memory `smem`. An empty string, or what went wrong (a descriptor the
// executor does not take, an address outside shared memory, an instruction
// the SM `sm` has not), as a fault's message.
std::string execute_wgmma(const Kernel& k, const Inst& in, int sm, unsigned warp, bool scale_d, const uint8_t* smem,
                          size_t smem_bytes, uint64_t* regs);

}  // namespace tensor
}  // namespace ptxfu::kernel
