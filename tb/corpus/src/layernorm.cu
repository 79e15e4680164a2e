// LayerNorm over the last dimension, one block per row: mean and variance
// through a block reduction, then (x - mean) * rsqrt(var + eps) * gamma + beta.
__device__ float block_sum(float v, float* scratch) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  int warps = (blockDim.x + 31) >> 5;
  // Every warp reduces the same partials, so every thread gets the total.
  v = lane < warps ? scratch[lane] : 0.0f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  __syncthreads();  // scratch is reused by the next call
  return v;
}

extern "C" __global__ void layernorm_rows(const float* in, float* out, const float* gamma, const float* beta, int cols,
                                          float eps) {
  __shared__ float scratch[32];
  const float* x = in + (size_t)blockIdx.x * cols;
  float* y = out + (size_t)blockIdx.x * cols;

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[c];
  float mean = block_sum(s, scratch) / cols;

  float sq = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float d = x[c] - mean;
    sq = fmaf(d, d, sq);
  }
  float rstd = rsqrtf(block_sum(sq, scratch) / cols + eps);

  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
}

// RMSNorm, the LLaMA variant: no mean, no beta, and it reads __ldg.
extern "C" __global__ void rmsnorm_rows(const float* in, float* out, const float* gamma, int cols, float eps) {
  __shared__ float scratch[32];
  const float* x = in + (size_t)blockIdx.x * cols;
  float* y = out + (size_t)blockIdx.x * cols;
  float sq = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sq += x[c] * x[c];
  float r = rsqrtf(block_sum(sq, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = x[c] * r * __ldg(&gamma[c]);
}
