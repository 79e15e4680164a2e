// Tensor-core GEMM D = A B + C, f16 inputs and f32 accumulators, through
// inline PTX: one warp a block computes a 16 x 8 tile of D. Per step of 16
// along K the warp stages its 16 x 16 slice of A and 16 x 8 slice of B in
// shared memory, loads A's fragment with ldmatrix.x4 and B's with
// ldmatrix.x2.trans (B is row-major), and issues mma.sync.m16n8k16 (sm_80
// on; before, two m16n8k8 over the step's halves of k).
// A: M x K row-major, B: K x N row-major, C and D: M x N row-major; M, N, K
// multiples of 16, 8 and 16; grid (N / 8, M / 16), block 32.
#include <cuda_fp16.h>

extern "C" __global__ void mma_gemm_f16_f32(const __half* A, const __half* B, const float* C, float* D, int M, int N,
                                            int K) {
  __shared__ __align__(16) __half As[16 * 16];
  __shared__ __align__(16) __half Bs[16 * 8];
  const int lane = threadIdx.x;
  const int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  const int g = lane >> 2, t = lane & 3;
  // The accumulator fragment: rows g and g + 8, columns 2t and 2t + 1.
  float d[4];
  d[0] = C[(tile_m + g) * N + tile_n + 2 * t];
  d[1] = C[(tile_m + g) * N + tile_n + 2 * t + 1];
  d[2] = C[(tile_m + g + 8) * N + tile_n + 2 * t];
  d[3] = C[(tile_m + g + 8) * N + tile_n + 2 * t + 1];
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = lane; i < 256; i += 32) As[i] = A[(tile_m + i / 16) * K + k0 + i % 16];
    for (int i = lane; i < 128; i += 32) Bs[i] = B[(k0 + i / 8) * N + tile_n + i % 8];
    __syncthreads();
    // Lane l gives row l % 8 of 8x8 matrix l / 8: A's matrices are (rows
    // 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15).
    const unsigned sa = static_cast<unsigned>(
        __cvta_generic_to_shared(&As[((lane / 8) & 1) * 8 * 16 + (lane % 8) * 16 + (lane / 16) * 8]));
    const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(&Bs[(lane % 16) * 8]));
    unsigned a0, a1, a2, a3, b0, b1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                 : "r"(sa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(sb));
#if __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a2), "r"(a3), "r"(b1));
#endif
    __syncthreads();
  }
  D[(tile_m + g) * N + tile_n + 2 * t] = d[0];
  D[(tile_m + g) * N + tile_n + 2 * t + 1] = d[1];
  D[(tile_m + g + 8) * N + tile_n + 2 * t] = d[2];
  D[(tile_m + g + 8) * N + tile_n + 2 * t + 1] = d[3];
}

// The same product with a 16 x 32 tile a warp (grid (N / 32, M / 16)): each
// step's A fragment serves four mma.sync, one per 8-column slice of B
// (ldmatrix.x4.trans loads two slices at once), and the staging copies 16
// bytes a lane: less of the warp's time goes to anything but the products.
extern "C" __global__ void mma_gemm_f16_f32_wide(const __half* A, const __half* B, const float* C, float* D, int M,
                                                 int N, int K) {
  __shared__ __align__(16) __half As[16 * 16];
  __shared__ __align__(16) __half Bs[16 * 32];
  const int lane = threadIdx.x;
  const int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 32;
  const int g = lane >> 2, t = lane & 3;
  float d[4][4];
  for (int j = 0; j < 4; ++j) {
    const int col = tile_n + 8 * j + 2 * t;
    d[j][0] = C[(tile_m + g) * N + col];
    d[j][1] = C[(tile_m + g) * N + col + 1];
    d[j][2] = C[(tile_m + g + 8) * N + col];
    d[j][3] = C[(tile_m + g + 8) * N + col + 1];
  }
  for (int k0 = 0; k0 < K; k0 += 16) {
    *reinterpret_cast<uint4*>(&As[(lane / 2) * 16 + (lane % 2) * 8]) =
        *reinterpret_cast<const uint4*>(&A[(tile_m + lane / 2) * K + k0 + (lane % 2) * 8]);
    for (int c = lane; c < 64; c += 32)
      *reinterpret_cast<uint4*>(&Bs[(c / 4) * 32 + (c % 4) * 8]) =
          *reinterpret_cast<const uint4*>(&B[(k0 + c / 4) * N + tile_n + (c % 4) * 8]);
    __syncthreads();
    const unsigned sa = static_cast<unsigned>(
        __cvta_generic_to_shared(&As[((lane / 8) & 1) * 8 * 16 + (lane % 8) * 16 + (lane / 16) * 8]));
    unsigned a0, a1, a2, a3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                 : "r"(sa));
    for (int j = 0; j < 4; j += 2) {
      // Lanes 0-15 give the k rows of slice j, lanes 16-31 those of slice j + 1.
      const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(&Bs[(lane % 16) * 32 + 8 * (j + lane / 16)]));
      unsigned b[4];
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                   : "r"(sb));
      for (int h = 0; h < 2; ++h) {
        float* acc = d[j + h];
#if __CUDA_ARCH__ >= 800
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b[2 * h]), "r"(b[2 * h + 1]));
#else
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
            : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
            : "r"(a0), "r"(a1), "r"(b[2 * h]));
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
            : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
            : "r"(a2), "r"(a3), "r"(b[2 * h + 1]));
#endif
      }
    }
    __syncthreads();
  }
  for (int j = 0; j < 4; ++j) {
    const int col = tile_n + 8 * j + 2 * t;
    D[(tile_m + g) * N + col] = d[j][0];
    D[(tile_m + g) * N + col + 1] = d[j][1];
    D[(tile_m + g + 8) * N + col] = d[j][2];
    D[(tile_m + g + 8) * N + col + 1] = d[j][3];
  }
}
