// printf (vprintf with a packed argument buffer), a table of string
// pointers (.global initialisers that take addresses), and __constant__
// memory filled by the host before the launch.
#include <cstdio>

__device__ const char* kNames[3] = {"alpha", "beta", "gamma"};
__device__ const int* kRows[2];
__device__ int kTable[4] = {1, 2, 3, 4};
__device__ const int* kTablePtrs[2] = {&kTable[0], &kTable[2]};

// One line per thread, with integers, 64-bit integers, floats (promoted to
// double), characters, strings and pointers, widths, precision and flags.
__global__ void printf_formats(const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  long long big = (long long)i * -1000000007LL;
  printf("t%03d b%d: %-6s|%5.2f|%e|%g|%c|%x|%#X|%o|%+i|%u\n", i, (int)blockIdx.x, kNames[i % 3], v, v * 1e10f,
         (double)v / 3.0, 'a' + i % 26, i * 2654435761u, i, i, i - 5, (unsigned)i);
  printf("  %lld %llu %ld %lu %% %08.3f %-8d| %.3s %*d\n", big, (unsigned long long)big, (long)i, (unsigned long)n, -v,
         i, kNames[(i + 1) % 3], 4, *kTablePtrs[i & 1]);
}

__constant__ float kCoeffs[8];
__constant__ unsigned kMask[4];

// y[i] = sum_k kCoeffs[k] * x[i]^k, xor-mixed with a mask word.
__global__ void const_poly(const float* x, float* y, unsigned* bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 7; k >= 0; --k) acc = acc * x[i] + kCoeffs[k];
  y[i] = acc;
  bits[i] = __float_as_uint(x[i]) ^ kMask[i & 3];
}
