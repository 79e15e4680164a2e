// Row softmax, one warp per row: max for stability, then the sum of exp,
// then the scaled write. __expf makes nvcc emit ex2.approx behind a multiply.
#include <cfloat>

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Launch with blockDim.x a multiple of 32; warp w of block b handles row
// b * (blockDim.x / 32) + w.
extern "C" __global__ void softmax_warp_per_row(const float* in, float* out, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float* x = in + (size_t)row * cols;
  float* y = out + (size_t)row * cols;

  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[c]);
  m = warp_max(m);

  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += __expf(x[c] - m);
  s = warp_sum(s);

  float inv = 1.0f / s;
  for (int c = lane; c < cols; c += 32) y[c] = __expf(x[c] - m) * inv;
}

// Rows of exactly 128 floats read as float4: one vectorised load per lane.
extern "C" __global__ void softmax_row128_float4(const float4* in, float4* out, int rows) {
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  float4 v = in[row * 32 + lane];
  float m = warp_max(fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  v.x = __expf(v.x - m);
  v.y = __expf(v.y - m);
  v.z = __expf(v.z - m);
  v.w = __expf(v.w - m);
  float inv = __fdividef(1.0f, warp_sum(v.x + v.y + v.z + v.w));
  out[row * 32 + lane] = make_float4(v.x * inv, v.y * inv, v.z * inv, v.w * inv);
}
