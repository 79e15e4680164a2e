// An Ampere-style double-buffered GEMM: C = A * B (f32, row-major), one
// 16 x 16 tile of C per block of 16 x 16 threads, the K dimension in steps of
// 16 staged through shared memory with cp.async. While a step computes, the
// next step's tiles are in flight (two buffers, commit_group / wait_group 1).
// A's rows move as 16-byte .cg copies whose src-size zero-fills the part
// past K; B moves as 4-byte .ca copies, zero-filled outside the matrix.
// Needs K % 4 == 0. Before sm_80 the same kernel loads through registers.
#include <cstdint>

namespace {

constexpr int kTile = 16;

__device__ __forceinline__ void copy16(void* smem, const void* gmem, unsigned src_bytes) {
#if __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes));
#else
  float* d = static_cast<float*>(smem);
  const float* g = static_cast<const float*>(gmem);
  for (unsigned i = 0; i < 4; ++i) d[i] = 4 * i < src_bytes ? g[i] : 0.0f;
#endif
}

__device__ __forceinline__ void copy4(void* smem, const void* gmem, bool valid) {
#if __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem), "r"(valid ? 4u : 0u));
#else
  *static_cast<float*>(smem) = valid ? *static_cast<const float*>(gmem) : 0.0f;
#endif
}

__device__ __forceinline__ void commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N>
__device__ __forceinline__ void wait_group() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

__device__ __forceinline__ void wait_all() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::);
#endif
}

}  // namespace

// Stage `k0` of A (rows of the block) and B (its columns) into buffer `buf`.
__device__ void stage(float (*as)[kTile], float (*bs)[kTile], const float* a, const float* b, int m, int n, int k,
                      int row0, int col0, int k0) {
  const int t = threadIdx.y * kTile + threadIdx.x;
  if (t < 64) {  // A: 16 rows of 16 floats, four floats a thread
    const int r = t / 4, c = (t % 4) * 4;
    const int gr = row0 + r, gc = k0 + c;
    const int left = gr < m ? (k - gc) * 4 : 0;
    const unsigned bytes = left <= 0 ? 0u : left >= 16 ? 16u : static_cast<unsigned>(left);
    copy16(&as[r][c], a + static_cast<size_t>(gr < m ? gr : 0) * k + (bytes ? gc : 0), bytes);
  }
  const int gr = k0 + threadIdx.y, gc = col0 + threadIdx.x;
  const bool valid = gr < k && gc < n;
  copy4(&bs[threadIdx.y][threadIdx.x], b + (valid ? static_cast<size_t>(gr) * n + gc : 0), valid);
}

__global__ void cp_async_gemm(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ __align__(16) float as[2][kTile][kTile];
  __shared__ __align__(16) float bs[2][kTile][kTile];
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  const int steps = (k + kTile - 1) / kTile;
  float acc = 0.0f;
  stage(as[0], bs[0], a, b, m, n, k, row0, col0, 0);
  commit();
  for (int s = 0; s < steps; ++s) {
    const int cur = s & 1;
    if (s + 1 < steps) {
      stage(as[cur ^ 1], bs[cur ^ 1], a, b, m, n, k, row0, col0, (s + 1) * kTile);
      commit();
      wait_group<1>();  // this step's tiles are in; the next step's may still fly
    } else {
      wait_all();
    }
    __syncthreads();
    for (int i = 0; i < kTile; ++i) acc = __fmaf_rn(as[cur][threadIdx.y][i], bs[cur][i][threadIdx.x], acc);
    __syncthreads();  // the buffer is refilled by the next iteration's stage
  }
  const int r = row0 + threadIdx.y, col = col0 + threadIdx.x;
  if (r < m && col < n) c[static_cast<size_t>(r) * n + col] = acc;
}
