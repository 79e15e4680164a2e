// A Hopper TMA pipeline (inline PTX): one elected thread loads 2-D tiles of
// an f32 tensor into a three-stage ring in shared memory with
// cp.async.bulk.tensor.2d, each load completing the transaction count of
// its stage's mbarrier (mbarrier.arrive.expect_tx); every thread waits on
// the stage by phase parity (try_wait.parity), squares its elements plus one
// into an output tile, and the elected thread stores that tile back with a
// tensor store (bulk_group, wait_group.read before the tile is reused).
// Threads 0..kBoxRows-1 also add up their row of each loaded tile, in order,
// so the zeros the copy fills past the tensor's edge show. The two tensor
// maps are __grid_constant__ parameters. sm_90 on.
//
// A CTA without tiles returns before anything else: had that test stayed
// inside the elected thread's branch, its exit would bypass the branch's
// end, the other threads would reconverge with it only at the kernel's
// end, and a SIMT stack (as ptxfu's executor keeps, pre-Volta style) would
// run them into their spin-wait first, with the elected thread never issuing
// the loads they wait for.
#include <cuda.h>

#include <cstdint>

namespace {

constexpr unsigned kBoxRows = 16, kBoxCols = 32, kStages = 3;
constexpr unsigned kTileBytes = kBoxRows * kBoxCols * 4;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void arrive_expect(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void wait_parity(uint64_t* bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

__device__ __forceinline__ void load_tile(void* dst, const CUtensorMap* map, int col, int row, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
      "[%4];\n" ::"r"(smem(dst)),
      "l"(map), "r"(col), "r"(row), "r"(smem(bar))
      : "memory");
}

__device__ __forceinline__ void store_tile(const CUtensorMap* map, int col, int row, const void* src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(map),
               "r"(col), "r"(row), "r"(smem(src))
               : "memory");
}

}  // namespace

// in_map, out_map: rows x cols f32 tensors (row-major), boxes of kBoxRows x
// kBoxCols; rowsums[tile * kBoxRows + r]: the sum of row r of loaded tile
// `tile` (tiles row-major over the tensor, edge tiles zero-filled). Block:
// 128 threads; each CTA takes tiles blockIdx.x, blockIdx.x + gridDim.x, ...
__global__ void tma_pipeline(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map,
                             float* rowsums, int rows, int cols) {
#if __CUDA_ARCH__ >= 900
  __shared__ __align__(128) float ring[kStages][kBoxRows * kBoxCols];
  __shared__ __align__(128) float result[kBoxRows * kBoxCols];
  __shared__ uint64_t full[kStages];
  const unsigned tile_cols = (cols + kBoxCols - 1) / kBoxCols;
  const unsigned tiles = tile_cols * ((rows + kBoxRows - 1) / kBoxRows);
  if (tiles <= blockIdx.x) return;  // (before the elected thread's branches: see the note above)
  const unsigned mine = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < kStages; ++s) init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  auto issue = [&](unsigned i) {  // the i-th tile of this CTA into stage i % kStages
    const unsigned tile = blockIdx.x + i * gridDim.x, s = i % kStages;
    arrive_expect(&full[s], kTileBytes);
    load_tile(ring[s], &in_map, (tile % tile_cols) * kBoxCols, (tile / tile_cols) * kBoxRows, &full[s]);
  };
  if (threadIdx.x == 0)
    for (unsigned i = 0; i < kStages && i < mine; ++i) issue(i);
  for (unsigned i = 0; i < mine; ++i) {
    const unsigned tile = blockIdx.x + i * gridDim.x, s = i % kStages;
    wait_parity(&full[s], (i / kStages) & 1);
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
    __syncthreads();  // the last store has read `result`
    for (unsigned e = threadIdx.x; e < kBoxRows * kBoxCols; e += blockDim.x)
      result[e] = __fmaf_rn(ring[s][e], ring[s][e], 1.0f);
    if (threadIdx.x < kBoxRows) {
      float sum = 0.0f;
      for (unsigned c = 0; c < kBoxCols; ++c) sum = __fadd_rn(sum, ring[s][threadIdx.x * kBoxCols + c]);
      rowsums[tile * kBoxRows + threadIdx.x] = sum;
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // the tensor store sees `result`
    __syncthreads();                                                // and every thread is done with ring[s]
    if (threadIdx.x == 0) {
      store_tile(&out_map, (tile % tile_cols) * kBoxCols, (tile / tile_cols) * kBoxRows, result);
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
      if (i + kStages < mine) issue(i + kStages);
    }
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}
