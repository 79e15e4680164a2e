// fp8 tensor-core GEMM D = A B + C, e4m3 inputs and f32 accumulators, through
// inline PTX mma.sync.m16n8k32.e4m3 (sm_89 on): one warp a block computes a
// 16 x 8 tile of D, one mma per 32 along K. The fragments come straight from
// global memory: A is M x K row-major and B is given transposed (Bt: N x K
// row-major), so each lane's four consecutive k of a row of A or a column of
// B are one 32-bit word (PTX ISA, "Matrix Fragments for mma.m16n8k32").
// C and D: M x N row-major, f32; M, N, K multiples of 16, 8 and 32;
// grid (N / 8, M / 16), block 32. Below sm_89 there is no fp8 mma: the
// kernel traps.
#include <cstdint>

extern "C" __global__ void fp8_mma_gemm_e4m3_f32(const uint8_t* A, const uint8_t* Bt, const float* C, float* D, int M,
                                                 int N, int K) {
  const int lane = threadIdx.x;
  const int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  const int g = lane >> 2, t = lane & 3;
  // The accumulator fragment: rows g and g + 8, columns 2t and 2t + 1.
  float d[4];
  d[0] = C[(tile_m + g) * N + tile_n + 2 * t];
  d[1] = C[(tile_m + g) * N + tile_n + 2 * t + 1];
  d[2] = C[(tile_m + g + 8) * N + tile_n + 2 * t];
  d[3] = C[(tile_m + g + 8) * N + tile_n + 2 * t + 1];
#if __CUDA_ARCH__ >= 890
  const uint8_t* a_lo = A + (tile_m + g) * K + 4 * t;  // row g, k 4t .. 4t + 3
  const uint8_t* a_hi = A + (tile_m + g + 8) * K + 4 * t;
  const uint8_t* b = Bt + (tile_n + g) * K + 4 * t;  // column g, k 4t .. 4t + 3
  for (int k0 = 0; k0 < K; k0 += 32) {
    const unsigned a0 = *reinterpret_cast<const unsigned*>(a_lo + k0);
    const unsigned a1 = *reinterpret_cast<const unsigned*>(a_hi + k0);
    const unsigned a2 = *reinterpret_cast<const unsigned*>(a_lo + k0 + 16);
    const unsigned a3 = *reinterpret_cast<const unsigned*>(a_hi + k0 + 16);
    const unsigned b0 = *reinterpret_cast<const unsigned*>(b + k0);
    const unsigned b1 = *reinterpret_cast<const unsigned*>(b + k0 + 16);
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
#else
  asm volatile("trap;");
#endif
  D[(tile_m + g) * N + tile_n + 2 * t] = d[0];
  D[(tile_m + g) * N + tile_n + 2 * t + 1] = d[1];
  D[(tile_m + g + 8) * N + tile_n + 2 * t] = d[2];
  D[(tile_m + g + 8) * N + tile_n + 2 * t + 1] = d[3];
}
