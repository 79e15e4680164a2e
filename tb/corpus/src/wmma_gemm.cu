// Tensor-core GEMMs D = A B + C through the CUDA wmma API (wmma.load,
// wmma.mma, wmma.store in the PTX): one warp a block computes one tile of
// D, stepping along K by the instruction's k. A: M x K row-major, B: K x N
// row-major, C and D: M x N row-major; grid (N / tile n, M / tile m),
// block 32. f16 -> f32 and s8 -> s32 for every target here; bf16, tf32
// (inputs already tf32 values: the conversion changes nothing) and f64 from
// sm_80 (their bodies are empty before).
#include <mma.h>
using namespace nvcuda;

template <typename In, typename Acc, typename FragIn, int M, int N, int K>
__device__ void wmma_tile(const In* A, const In* B, const Acc* C, Acc* D, int n, int k) {
  const int tile_m = blockIdx.y * M, tile_n = blockIdx.x * N;
  wmma::fragment<wmma::matrix_a, M, N, K, FragIn, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, M, N, K, FragIn, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> acc;
  wmma::load_matrix_sync(acc, C + tile_m * n + tile_n, n, wmma::mem_row_major);
  for (int k0 = 0; k0 < k; k0 += K) {
    wmma::load_matrix_sync(a, A + tile_m * k + k0, k);
    wmma::load_matrix_sync(b, B + k0 * n + tile_n, n);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + tile_m * n + tile_n, acc, n, wmma::mem_row_major);
}

extern "C" __global__ void wmma_gemm_f16_f32(const half* A, const half* B, const float* C, float* D, int n, int k) {
  wmma_tile<half, float, half, 16, 16, 16>(A, B, C, D, n, k);
}

extern "C" __global__ void wmma_gemm_s8_s32(const signed char* A, const signed char* B, const int* C, int* D, int n,
                                            int k) {
  wmma_tile<signed char, int, signed char, 16, 16, 16>(A, B, C, D, n, k);
}

extern "C" __global__ void wmma_gemm_bf16_f32(const __nv_bfloat16* A, const __nv_bfloat16* B, const float* C, float* D,
                                              int n, int k) {
#if __CUDA_ARCH__ >= 800
  wmma_tile<__nv_bfloat16, float, __nv_bfloat16, 16, 16, 16>(A, B, C, D, n, k);
#endif
}

extern "C" __global__ void wmma_gemm_tf32_f32(const float* A, const float* B, const float* C, float* D, int n, int k) {
#if __CUDA_ARCH__ >= 800
  const int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::load_matrix_sync(acc, C + tile_m * n + tile_n, n, wmma::mem_row_major);
  for (int k0 = 0; k0 < k; k0 += 8) {
    wmma::load_matrix_sync(a, A + tile_m * k + k0, k);
    wmma::load_matrix_sync(b, B + k0 * n + tile_n, n);
    for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + tile_m * n + tile_n, acc, n, wmma::mem_row_major);
#endif
}

extern "C" __global__ void wmma_gemm_f64(const double* A, const double* B, const double* C, double* D, int n, int k) {
#if __CUDA_ARCH__ >= 800
  wmma_tile<double, double, double, 8, 8, 4>(A, B, C, D, n, k);
#endif
}
