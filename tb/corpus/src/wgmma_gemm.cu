// Hopper warpgroup GEMMs (sm_90a only): wgmma.mma_async in inline PTX, the
// tiles staged in shared memory by the CTA's 128 threads (one warpgroup) in
// the layouts the shared-memory matrix descriptors describe, the descriptors
// built in the kernel, then wgmma.fence, the wgmmas of one stage, one
// wgmma.commit_group and wgmma.wait_group 0.
// A: M x K row-major, B: K x N row-major, C and D: M x N row-major; grid
// (N / tile_n, M / 64), block 128. Each kernel says its tile and its K step.
#include <cuda_fp16.h>
#include <stdint.h>

// A shared-memory matrix descriptor: start address, leading and stride
// dimension byte offsets (each in 16-byte units, 14 bits), the layout in
// bits 62-63 (0: no swizzle, 1: 128-byte swizzle).
__device__ __forceinline__ uint64_t make_desc(const void* smem, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return uint64_t((a & 0x3ffff) >> 4) | uint64_t((lbo >> 4) & 0x3fff) << 16 | uint64_t((sbo >> 4) & 0x3fff) << 32 |
         uint64_t(layout) << 62;
}

// Byte offsets of element (mn, k) in the canonical layouts (CUTLASS's
// cute/arch/mma_sm90_desc.hpp names them): core matrices of 8 rows of 16
// bytes. K-major, no swizzle: the rows of a core matrix are 8 mn, its bytes
// run along k; the next core matrix along k is LBO bytes on, along mn SBO.
__device__ __forceinline__ unsigned kmajor(int mn, int kbyte, unsigned lbo, unsigned sbo) {
  return (mn / 8) * sbo + (kbyte / 16) * lbo + (mn % 8) * 16 + kbyte % 16;
}
// K-major, 128-byte swizzle: a row of 128 bytes a mn, 8 rows an atom (SBO
// apart), the row's 16-byte chunks permuted by XOR with the row in the atom
// (the atom 1024-byte aligned).
__device__ __forceinline__ unsigned kmajor_sw128(int mn, int kbyte, unsigned sbo) {
  return (mn / 8) * sbo + (mn % 8) * 128 + ((kbyte / 16) ^ (mn % 8)) * 16 + kbyte % 16;
}
// MN-major, no swizzle: the rows of a core matrix are 8 k, its bytes run
// along mn; the next core matrix along k is LBO bytes on, along mn SBO.
__device__ __forceinline__ unsigned mnmajor(int mnbyte, int k, unsigned lbo, unsigned sbo) {
  return (mnbyte / 16) * sbo + (k / 8) * lbo + (k % 8) * 16 + mnbyte % 16;
}

// The accumulator fragment of a warpgroup's m64nN tile (PTX ISA, "Matrix
// fragments for wgmma .m64nNk*"): warp w holds rows 16w to 16w + 15; lane l's
// element i is row 16w + l / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (l % 4) + i % 2.
__device__ __forceinline__ int acc_row(int i) {
  return 16 * (threadIdx.x / 32) + (threadIdx.x % 32) / 4 + 8 * ((i / 2) % 2);
}
__device__ __forceinline__ int acc_col(int i) { return 8 * (i / 4) + 2 * (threadIdx.x % 4) + i % 2; }

// The wgmma instructions, one wrapper per form (scale-d from an int).
__device__ __forceinline__ void wgmma_m64n64k16_f32_f16(float* d, uint64_t a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, "
      "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, "
      "0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(a), "l"(b), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_m64n32k16_f32_f16_neg_a(float* d, const uint32_t* a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, "
      "%14, %15}, {%16, %17, %18, %19}, %20, p, -1, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_m64n16k16_f16_f16(uint32_t* d, uint64_t a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "l"(a), "l"(b), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_m64n32k8_f32_tf32(float* d, uint64_t a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
      "%13, %14, %15}, %16, %17, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "l"(a), "l"(b), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_m64n32k32_f32_e4m3(float* d, uint64_t a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
      "%13, %14, %15}, %16, %17, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "l"(a), "l"(b), "r"(scale_d));
}

// 64 x 64 tiles, K step 64: A and B K-major with the 128-byte swizzle (B
// transposed on the way in), four m64n64k16 a step, each descriptor 32
// bytes further along the rows.
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_f16_f32(const __half* A, const __half* B, const float* C, float* D, int M, int N, int K) {
  __shared__ __align__(1024) unsigned char As[64 * 128];
  __shared__ __align__(1024) unsigned char Bs[64 * 128];
  const int tid = threadIdx.x, tile_m = blockIdx.y * 64, tile_n = blockIdx.x * 64;
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = C[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)];
  for (int k0 = 0; k0 < K; k0 += 64) {
    for (int i = tid; i < 64 * 64; i += 128) {
      const int r = i / 64, c = i % 64;
      *reinterpret_cast<__half*>(&As[kmajor_sw128(r, 2 * c, 1024)]) = A[(tile_m + r) * K + k0 + c];
      *reinterpret_cast<__half*>(&Bs[kmajor_sw128(c, 2 * r, 1024)]) = B[(k0 + r) * N + tile_n + c];
    }
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    for (int s = 0; s < 4; ++s)
      wgmma_m64n64k16_f32_f16(d, make_desc(As + 32 * s, 16, 1024, 1), make_desc(Bs + 32 * s, 16, 1024, 1), 1);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  for (int i = 0; i < 32; ++i) D[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)] = d[i];
}

// 64 x 32 tiles, K step 16: A from registers (the fragment of mma.m16n8k16
// for each warp's 16 rows), B MN-major without swizzle (imm-trans-b 1, so B
// is staged as it lies), imm-scale-a -1: D = C - A B.
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_f16_f32_regs(const __half* A, const __half* B, const float* C, float* D, int M, int N, int K) {
  __shared__ __align__(128) unsigned char Bs[16 * 32 * 2];
  const int tid = threadIdx.x, tile_m = blockIdx.y * 64, tile_n = blockIdx.x * 32;
  const int row = tile_m + 16 * (tid / 32) + (tid % 32) / 4, t = tid % 4;
  float d[16];
  for (int i = 0; i < 16; ++i) d[i] = C[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)];
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = tid; i < 16 * 32; i += 128) {
      const int r = i / 32, c = i % 32;
      *reinterpret_cast<__half*>(&Bs[mnmajor(2 * c, r, 128, 256)]) = B[(k0 + r) * N + tile_n + c];
    }
    uint32_t a[4];
    for (int j = 0; j < 4; ++j) {
      const __half* p = &A[(row + 8 * (j % 2)) * K + k0 + 2 * t + 8 * (j / 2)];
      a[j] = uint32_t(__half_as_ushort(p[0])) | uint32_t(__half_as_ushort(p[1])) << 16;
    }
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    wgmma_m64n32k16_f32_f16_neg_a(d, a, make_desc(Bs, 128, 256, 0), 1);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  for (int i = 0; i < 16; ++i) D[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)] = d[i];
}

// 64 x 16 tiles, K step 16, f16 accumulators and no C: the first step's
// scale-d is 0 (D = A B), the others accumulate. A and B K-major without
// swizzle. D is f16, M x N.
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_f16_f16(const __half* A, const __half* B, __half* D, int M, int N, int K) {
  __shared__ __align__(128) unsigned char As[64 * 16 * 2];
  __shared__ __align__(128) unsigned char Bs[16 * 16 * 2];
  const int tid = threadIdx.x, tile_m = blockIdx.y * 64, tile_n = blockIdx.x * 16;
  uint32_t d[4] = {0, 0, 0, 0};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = tid; i < 64 * 16; i += 128) {
      const int r = i / 16, c = i % 16;
      *reinterpret_cast<__half*>(&As[kmajor(r, 2 * c, 128, 256)]) = A[(tile_m + r) * K + k0 + c];
    }
    for (int i = tid; i < 16 * 16; i += 128) {
      const int r = i / 16, c = i % 16;
      *reinterpret_cast<__half*>(&Bs[kmajor(c, 2 * r, 128, 256)]) = B[(k0 + r) * N + tile_n + c];
    }
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    wgmma_m64n16k16_f16_f16(d, make_desc(As, 128, 256, 0), make_desc(Bs, 128, 256, 0), k0 > 0);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i)
    D[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)] = __ushort_as_half(uint16_t(d[i / 2] >> (16 * (i % 2))));
}

// 64 x 32 tiles, K step 8: tf32 (the f32 bits as they are; the tensor core
// reads their top 19), A and B K-major without swizzle.
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_tf32_f32(const float* A, const float* B, const float* C, float* D, int M, int N, int K) {
  __shared__ __align__(128) unsigned char As[64 * 8 * 4];
  __shared__ __align__(128) unsigned char Bs[32 * 8 * 4];
  const int tid = threadIdx.x, tile_m = blockIdx.y * 64, tile_n = blockIdx.x * 32;
  float d[16];
  for (int i = 0; i < 16; ++i) d[i] = C[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)];
  for (int k0 = 0; k0 < K; k0 += 8) {
    for (int i = tid; i < 64 * 8; i += 128) {
      const int r = i / 8, c = i % 8;
      *reinterpret_cast<float*>(&As[kmajor(r, 4 * c, 128, 256)]) = A[(tile_m + r) * K + k0 + c];
    }
    for (int i = tid; i < 32 * 8; i += 128) {
      const int r = i / 32, c = i % 32;
      *reinterpret_cast<float*>(&Bs[kmajor(c, 4 * r, 128, 256)]) = B[(k0 + r) * N + tile_n + c];
    }
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    wgmma_m64n32k8_f32_tf32(d, make_desc(As, 128, 256, 0), make_desc(Bs, 128, 256, 0), 1);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  for (int i = 0; i < 16; ++i) D[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)] = d[i];
}

// 64 x 32 tiles, K step 128: e4m3 bytes, A and B K-major with the 128-byte
// swizzle, four m64n32k32 a step 32 bytes apart.
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_e4m3_f32(const uint8_t* A, const uint8_t* B, const float* C, float* D, int M, int N, int K) {
  __shared__ __align__(1024) unsigned char As[64 * 128];
  __shared__ __align__(1024) unsigned char Bs[32 * 128];
  const int tid = threadIdx.x, tile_m = blockIdx.y * 64, tile_n = blockIdx.x * 32;
  float d[16];
  for (int i = 0; i < 16; ++i) d[i] = C[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)];
  for (int k0 = 0; k0 < K; k0 += 128) {
    for (int i = tid; i < 64 * 128; i += 128) {
      const int r = i / 128, c = i % 128;
      As[kmajor_sw128(r, c, 1024)] = A[(tile_m + r) * K + k0 + c];
    }
    for (int i = tid; i < 128 * 32; i += 128) {
      const int r = i / 32, c = i % 32;
      Bs[kmajor_sw128(c, r, 1024)] = B[(k0 + r) * N + tile_n + c];
    }
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    for (int s = 0; s < 4; ++s)
      wgmma_m64n32k32_f32_e4m3(d, make_desc(As + 32 * s, 16, 1024, 1), make_desc(Bs + 32 * s, 16, 1024, 1), 1);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __syncthreads();
  }
  for (int i = 0; i < 16; ++i) D[(tile_m + acc_row(i)) * N + tile_n + acc_col(i)] = d[i];
}
