// The one tensor-core engine: a block inner product under a numerics row.
#pragma once
#include <cstddef>
#include <cstdint>

#include "mma/numerics.h"

namespace ptxfu::mma {

// Sees every block the engine computes for a Method::block_fma row: a
// second implementation of the block (the verilated RTL, models/) checks
// it on the same operands. `a` and `b` are the block's n <= row.block_width
// elements in row.datapath_in's format (widened and dealt where the row
// says so), `c` the value it chains from (+0 for the first block of a
// CAlign::separate row, whose c is added apart, outside any block), `d`
// the engine's result, which is what the chain goes on with.
class BlockObserver {
 public:
  virtual void block(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                     uint64_t d) = 0;

 protected:
  ~BlockObserver() = default;
};

// d = sum_{k < n} a[k]*b[k] + c under `row`, in blocks of row.block_width
// products chained in ascending k (each block's d is the next block's c).
//  - Floating point: a[k], b[k] are bit patterns in row.in's format (tf32:
//    the 19-bit row, see fp::kTF32), c and the result in row.out's format.
//  - Integers: a[k], b[k] are the elements' bits (zero-extended); c and the
//    result are s32 bits. `satfinite` clamps the sum to the s32 range
//    instead of wrapping.
// Throws std::invalid_argument for a row the engine cannot hold (a block
// wider than 64, kept plus carry bits beyond 62): the table has none.
// `observer`, when given, is shown each block (block_fma rows only).
uint64_t block_fma(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                   bool satfinite = false, BlockObserver* observer = nullptr);

// d[i*n + j] for i < m, j < n: row i of `a` (m x k, row-major) times
// column j of `b_cols` (n x k, each column's k contiguous) plus c[i*n + j],
// in instructions of `step` k chained in ascending k: for each element the
// block_fma calls of `step` k each, each call's result the next one's c,
// with the same bits and the same blocks shown to `observer` (in another
// order across elements). Block-FMA rows decode each element of B once
// per chunk of K, and of A once per 16 columns of B. d may be c. Throws
// std::invalid_argument where block_fma does, or when k is no multiple of
// a nonzero step.
void block_fma_matrix(const NumericsRow& row, std::size_t step, std::size_t m, std::size_t n, std::size_t k,
                      const uint64_t* a, const uint64_t* b_cols, const uint64_t* c, uint64_t* d, bool satfinite = false,
                      BlockObserver* observer = nullptr);

// mma with block scaling under a Method::block_scaled row: d = sum over
// runs r of row.block_width products of (sum_{k in r} a[k] b[k]) *
// scale_a[r'] * scale_b[r'] + c, where r' = r * scales * row.block_width / n
// (the scale vector a run belongs to; `scales` of them across the n
// products). a, b in row.in's encoding, c and the result in row.out's, the
// scales in `type`'s. Throws std::invalid_argument for a row of another
// method or n beyond 64.
uint64_t block_scaled_fma(const NumericsRow& row, ScaleType type, std::size_t n, const uint64_t* a, const uint64_t* b,
                          const uint64_t* scale_a, const uint64_t* scale_b, std::size_t scales, uint64_t c);

}  // namespace ptxfu::mma
