// A three-kernel attention forward for one head, as llm.c splits it:
// scores = Q K^T (pre-scaled for base 2), a softmax per row, out = P V.
// Compiled by
//   nvcc -ptx -arch=sm_80 attention.cu -o attention.ptx
// and driven from Python by examples/attention.py.

// s[i][j] = scale * sum_k q[i][k] * k[j][k], accumulated with fmaf in k's
// order; scale = log2(e) / sqrt(d), so that a softmax can use exp2.
extern "C" __global__ void scores(const float* q, const float* k, float* s, int n, int d, float scale) {
  const int i = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float acc = 0.0f;
  for (int c = 0; c < d; ++c) acc = fmaf(q[i * d + c], k[j * d + c], acc);
  s[i * n + j] = acc * scale;
}

__device__ float ex2_approx(float x) {  // PTX ex2.approx.f32: at most 2 ulp from 2^x
  float y;
  asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// p[i][j] = 2^(s[i][j] - max_j s[i][j]) / sum_j 2^(...): one block per row,
// one thread per column (n a power of two, at most 1024).
extern "C" __global__ void softmax_rows(const float* s, float* p, int n) {
  __shared__ float buf[1024];
  const int i = blockIdx.x, j = threadIdx.x;
  const float x = s[i * n + j];
  buf[j] = x;
  __syncthreads();
  for (int w = n / 2; w > 0; w /= 2) {
    if (j < w) buf[j] = fmaxf(buf[j], buf[j + w]);
    __syncthreads();
  }
  const float e = ex2_approx(x - buf[0]);
  __syncthreads();
  buf[j] = e;
  __syncthreads();
  for (int w = n / 2; w > 0; w /= 2) {
    if (j < w) buf[j] += buf[j + w];
    __syncthreads();
  }
  p[i * n + j] = e / buf[0];
}

// out[i][c] = sum_j p[i][j] * v[j][c], accumulated with fmaf in j's order.
extern "C" __global__ void weighted_sum(const float* p, const float* v, float* out, int n, int d) {
  const int i = blockIdx.x, c = threadIdx.x;
  if (c >= d) return;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc = fmaf(p[i * n + j], v[j * d + c], acc);
  out[i * d + c] = acc;
}
