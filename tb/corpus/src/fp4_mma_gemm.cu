// Block-scaled fp4 tensor-core GEMM D = (A * SFA) (B * SFB) + C on sm_120a,
// through inline PTX mma.sync.m16n8k64 with .block_scale: one warp a block
// computes a 16 x 8 tile of D, one mma per 64 along K, each D the next C.
// A (M x K) and B (given transposed, Bt: N x K) hold e2m1 values two a byte,
// the lower k in the low nibble, so each lane's eight consecutive k of a row
// of A or a column of B are one 32-bit word (PTX ISA, "Matrix Fragments for
// mma.m16n8k64"). The scale factors are M x (K / V) and N x (K / V) bytes,
// row by row, V the elements one scale covers:
//   fp4_mma_gemm_nvf4: .kind::mxf4nvf4.scale_vec::4X, ue4m3 scales, V = 16;
//     selectors {0, 1} for A and {0, 2} for B (lanes 2 and 3 of each quad
//     hold A's rows g and g + 8, lane 2 B's column g);
//   fp4_mma_gemm_mxf4: .kind::mxf4 (2X by default), ue8m0 scales, V = 32;
//     selectors {2, 0} for A and {2, 0} for B (the scales in the upper two
//     bytes of lanes 0 and 1, lane 0).
// C and D: M x N row-major, f32; M, N, K multiples of 16, 8 and 64; grid
// (N / 8, M / 16), block 32. Without the sm_120a features (the other archs'
// files) there is no block-scaled mma: the kernels write NaN to D.
#include <cstdint>

namespace {

#if defined(__CUDA_ARCH_FEAT_SM120_ALL)
__device__ unsigned word(const uint8_t* p) { return *reinterpret_cast<const unsigned*>(p); }
#endif

// The accumulator fragment: rows g and g + 8, columns 2t and 2t + 1.
__device__ void load_c(const float* C, int N, int row, int col, float* d) {
  d[0] = C[row * N + col];
  d[1] = C[row * N + col + 1];
  d[2] = C[(row + 8) * N + col];
  d[3] = C[(row + 8) * N + col + 1];
}

__device__ void store_d(float* D, int N, int row, int col, const float* d) {
  D[row * N + col] = d[0];
  D[row * N + col + 1] = d[1];
  D[(row + 8) * N + col] = d[2];
  D[(row + 8) * N + col + 1] = d[3];
}

}  // namespace

extern "C" __global__ void fp4_mma_gemm_nvf4(const uint8_t* A, const uint8_t* Bt, const uint8_t* SFA,
                                             const uint8_t* SFB, const float* C, float* D, int M, int N, int K) {
  const int lane = threadIdx.x;
  const int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  const int g = lane >> 2, t = lane & 3;
  float d[4];
  load_c(C, N, tile_m + g, tile_n + 2 * t, d);
#if defined(__CUDA_ARCH_FEAT_SM120_ALL)
  const int kb = K / 2, ks = K / 16;
  const uint8_t* a_lo = A + (tile_m + g) * kb + 4 * t;  // row g, k 8t .. 8t + 7
  const uint8_t* a_hi = A + (tile_m + g + 8) * kb + 4 * t;
  const uint8_t* b = Bt + (tile_n + g) * kb + 4 * t;  // column g, k 8t .. 8t + 7
  // thread-id-a 1: lane 4g + 2 holds row g's scales, 4g + 3 row g + 8's;
  // thread-id-b 2: lane 4g + 2 column g's. Four ue4m3 bytes, one a 16 k.
  const uint8_t* sfa = SFA + (tile_m + g + (t == 3 ? 8 : 0)) * ks;
  const uint8_t* sfb = SFB + (tile_n + g) * ks;
  for (int k0 = 0; k0 < K; k0 += 64) {
    const unsigned a0 = word(a_lo + k0 / 2), a1 = word(a_hi + k0 / 2);
    const unsigned a2 = word(a_lo + k0 / 2 + 16), a3 = word(a_hi + k0 / 2 + 16);
    const unsigned b0 = word(b + k0 / 2), b1 = word(b + k0 / 2 + 16);
    const unsigned sa = t >= 2 ? word(sfa + k0 / 16) : 0u;
    const unsigned sb = t == 2 ? word(sfb + k0 / 16) : 0u;
    asm volatile(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3}, %10, {0, 1}, %11, {0, 2};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(sa), "r"(sb));
  }
#else
  d[0] = d[1] = d[2] = d[3] = __int_as_float(0x7fffffff);  // no block-scaled mma here: NaN, not C
#endif
  store_d(D, N, tile_m + g, tile_n + 2 * t, d);
}

extern "C" __global__ void fp4_mma_gemm_mxf4(const uint8_t* A, const uint8_t* Bt, const uint8_t* SFA,
                                             const uint8_t* SFB, const float* C, float* D, int M, int N, int K) {
  const int lane = threadIdx.x;
  const int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  const int g = lane >> 2, t = lane & 3;
  float d[4];
  load_c(C, N, tile_m + g, tile_n + 2 * t, d);
#if defined(__CUDA_ARCH_FEAT_SM120_ALL)
  const int kb = K / 2, ks = K / 32;
  const uint8_t* a_lo = A + (tile_m + g) * kb + 4 * t;
  const uint8_t* a_hi = A + (tile_m + g + 8) * kb + 4 * t;
  const uint8_t* b = Bt + (tile_n + g) * kb + 4 * t;
  // thread-id-a 0: lane 4g holds row g's scales, 4g + 1 row g + 8's;
  // thread-id-b 0: lane 4g column g's; byte-id 2: in bytes 2 and 3.
  const uint8_t* sfa = SFA + (tile_m + g + (t == 1 ? 8 : 0)) * ks;
  const uint8_t* sfb = SFB + (tile_n + g) * ks;
  for (int k0 = 0; k0 < K; k0 += 64) {
    const unsigned a0 = word(a_lo + k0 / 2), a1 = word(a_hi + k0 / 2);
    const unsigned a2 = word(a_lo + k0 / 2 + 16), a3 = word(a_hi + k0 / 2 + 16);
    const unsigned b0 = word(b + k0 / 2), b1 = word(b + k0 / 2 + 16);
    const unsigned pair_a = sfa[k0 / 32] | unsigned(sfa[k0 / 32 + 1]) << 8;
    const unsigned pair_b = sfb[k0 / 32] | unsigned(sfb[k0 / 32 + 1]) << 8;
    const unsigned sa = t <= 1 ? pair_a << 16 : 0u;
    const unsigned sb = t == 0 ? pair_b << 16 : 0u;
    asm volatile(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3}, %10, {2, 0}, %11, {2, 0};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(sa), "r"(sb));
  }
#else
  d[0] = d[1] = d[2] = d[3] = __int_as_float(0x7fffffff);  // no block-scaled mma here: NaN, not C
#endif
  store_d(D, N, tile_m + g, tile_n + 2 * t, d);
}
