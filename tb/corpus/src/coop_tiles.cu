// Cooperative groups beyond one warp and __syncwarp: each block of 256
// threads splits into tiled_partition<64> tiles (two warps each, whose
// sync() is a barrier on the CTA's reserved shared memory); a tile sums its
// 64 inputs through shared memory, lane 0 of each warp first folding its
// warp's half with __syncwarp between the steps. Integers, so any order of
// the additions gives the same sums.
#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

__global__ void tile64_sums(const uint32_t* in, uint32_t* tile_sums, uint32_t* ranks) {
  __shared__ uint32_t vals[256];
  __shared__ uint32_t warp_sums[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  const unsigned t = block.thread_rank();
  const unsigned g = blockIdx.x * blockDim.x + t;
  vals[t] = in[g];
  __syncwarp();
  // A warp folds its 32 values in five halvings, __syncwarp between them.
  const unsigned lane = t % 32, base = t - lane;
  for (unsigned half = 16; half > 0; half /= 2) {
    if (lane < half) vals[base + lane] += vals[base + lane + half];
    __syncwarp();
  }
  if (lane == 0) warp_sums[t / 32] = vals[base];
  tile.sync();  // both warps of the tile have their sums
  if (tile.thread_rank() == 0) {
    const unsigned w = t / 32;
    tile_sums[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = warp_sums[w] + warp_sums[w + 1];
  }
  ranks[g] = tile.thread_rank() | (tile.meta_group_rank() << 8) | (tile.num_threads() << 16);
}
