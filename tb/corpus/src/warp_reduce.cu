// Reductions the way CUDA code usually writes them: butterfly shuffles
// within a warp, then one value per warp through shared memory.
#include <cstdint>

__device__ __forceinline__ float warp_sum_xor(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Every lane of each warp ends with the warp's sum; lane 0 stores it.
extern "C" __global__ void warp_sum(const float* in, float* per_warp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum_xor(v);
  if ((threadIdx.x & 31) == 0) per_warp[i >> 5] = v;
}

// Integer max with shfl.down: only lane 0 holds the answer, a different
// shuffle mode from the butterfly above.
extern "C" __global__ void warp_max_u32(const uint32_t* in, uint32_t* per_warp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = i < n ? in[i] : 0u;
  for (int offset = 16; offset > 0; offset >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, offset));
  if ((threadIdx.x & 31) == 0) per_warp[i >> 5] = v;
}

// Block sum for blockDim.x <= 1024: warps reduce, write to shared memory,
// warp 0 reduces the partial sums and adds the block's total atomically.
extern "C" __global__ void block_sum(const float* in, float* total, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = warp_sum_xor(i < n ? in[i] : 0.0f);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int warps = (blockDim.x + 31) >> 5;
    v = lane < warps ? partial[lane] : 0.0f;
    v = warp_sum_xor(v);
    if (lane == 0) atomicAdd(total, v);
  }
}
