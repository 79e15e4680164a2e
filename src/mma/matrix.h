// The matrix semantics of the tensor-core instructions: D(M,N) = A(M,K)
// B(K,N) + C(M,N), each element of D one engine call (block_fma.h) over its
// row of A and column of B.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "mma/numerics.h"

namespace ptxfu::mma {

class BlockObserver;  // block_fma.h

struct Shape {
  int m, n, k;
};

// One matrix instruction for one target, parsed from its PTX name.
struct Instruction {
  Family family;
  Shape shape;
  Elem d, a, b, c;
  bool satfinite;  // integers: clamp to the s32 range instead of wrapping
  int sm;
  const NumericsRow* row;
  // mma with block scaling (.kind::mxf4 / .kind::mxf4nvf4 .block_scale):
  // the scale vectors per row of A and column of B (.scale_vec::2X: 2, 4X:
  // 4), 0 without block scaling; the scale factors' type.
  int scale_vec = 0;
  ScaleType scale = ScaleType::ue8m0;
};

// Parses an instruction name as PTX spells it, for a target "sm_NN" (a
// trailing a or f allowed):
//   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32      (d.a.b.c)
//   mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
//   wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16           (f16: d.c)
//   wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32
//   wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16      (d.a.b, c = d)
//   mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3
//                                                             (d.a.b.c.stype)
// Throws std::invalid_argument, saying why, for a malformed name, a target
// that is not sm_NN, A and B of different types or sparse mma.sp (neither
// modelled: no measurement), or an instruction the target does not have.
Instruction parse_instruction(std::string_view name, std::string_view target);

// Element encodings: bit patterns zero-extended to 64 bits, tf32 as its f32
// register (the low 13 bits are ignored, as the hardware truncates). A is
// row-major M x K, B is K x N with element (k, n) at b[k * N + n], C and D
// row-major M x N. C in the instruction's c type (converted to d's type
// first when they differ: exactly when widening, to nearest even when
// narrowing -- choice, not measured).

// One instruction: sizes are the instruction's shape; throws
// std::invalid_argument when an array has another size.
std::vector<uint64_t> mma(const Instruction& inst, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                          const std::vector<uint64_t>& c);

// A (M x K) times B (K x N) plus C as a chain of the instruction over K in
// ascending k (each instruction's D is the next one's C), K a multiple of
// the instruction's k; M and N any size (rows and columns are independent).
std::vector<uint64_t> matmul(const Instruction& inst, int m, int n, int k, const std::vector<uint64_t>& a,
                             const std::vector<uint64_t>& b, const std::vector<uint64_t>& c);

// matmul on buffers the caller holds, allocating nothing (the APIs' batch
// loops call it once a tile): B given by columns, element (k, n) at
// b_cols[n * K + k]; d (M x N) may be c. The sizes are the caller's to
// check: K a positive multiple of the instruction's k. `observer`, when
// given, is shown every block the engine computes (block_fma.h).
void matmul_cols(const Instruction& inst, int m, int n, int k, const uint64_t* a, const uint64_t* b_cols,
                 const uint64_t* c, uint64_t* d, BlockObserver* observer = nullptr);

// One block-scaled instruction (inst.scale_vec > 0) on the caller's buffers:
// A row-major M x K, B by columns, C and D row-major M x N (d may be c);
// scale_a (M x V) holds row i's V scale factors at scale_a[i * V + v],
// scale_b (N x V) column j's at scale_b[j * V + v] (V = inst.scale_vec),
// each covering K / V consecutive k. K is the instruction's.
void mma_scaled_cols(const Instruction& inst, const uint64_t* a, const uint64_t* b_cols, const uint64_t* c,
                     const uint64_t* scale_a, const uint64_t* scale_b, uint64_t* d);

}  // namespace ptxfu::mma
