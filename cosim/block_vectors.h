// Vectors for the block FMA co-simulation: one block's W elements of a and b
// (bit patterns in the input format) and c (in the output format).
//
// structured(): the cases that tell the published models apart and reach
// the datapath's corners, deterministic: specials in each position (NaN,
// both infinities, inf * 0, inf - inf), signed zeros, exponent spreads of a
// small addend below a large one across the kept bits (both signs, with and
// without c), exact and near cancellations, every product at the format's
// largest value (the carry bits), subnormal inputs and c, results beyond
// the output's range and below its subnormals.
// random(): seeded; each vector one of several shapes (uniform bit
// patterns, exponents clustered with a random spread, cancelling pairs,
// subnormal-heavy, sparse zeros), c near the products' exponents.
#pragma once
#include <cstdint>
#include <vector>

#include "cosim/block_models.h"
#include "util/splitmix64.h"

namespace ptxfu::cosim {

struct BlockVector {
  uint64_t a[64], b[64];
  uint64_t c;
};

class BlockVectors {
 public:
  BlockVectors(const BlockParams& p, uint64_t seed);
  std::vector<BlockVector> structured() const;
  void random(BlockVector& v);

 private:
  uint64_t next() { return util::splitmix64(state_); }
  uint64_t clustered(const fp::Format& f, int center, int spread);
  BlockParams p_;
  uint64_t state_;
};

}  // namespace ptxfu::cosim
