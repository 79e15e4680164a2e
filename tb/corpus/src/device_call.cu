// A real call: a __noinline__ device function becomes a PTX .func with
// .param arguments and a return value, and the kernel reaches it with a
// call whose argument list spans lines. A call through a function pointer
// adds an indirect call with its .callprototype. Also module-scope data: a
// __device__ global (.global) and an initialised __constant__ table (.const).
#include <cstdint>

// Coefficients of a cubic, read by every thread.
__constant__ float poly_coeffs[4] = {0.5f, -1.25f, 2.0f, 0.125f};

// Counts how many elements took the slow path; read back by the host.
__device__ unsigned int slow_path_count;

// Horner evaluation of the cubic, with a slow path for large inputs.
// Many arguments on purpose, and of mixed types (pointer, float, int, u64).
__device__ __noinline__ float eval_poly(float x, const float* coeffs, int degree, uint64_t tag) {
  float r = coeffs[degree];
  for (int k = degree - 1; k >= 0; --k) r = fmaf(r, x, coeffs[k]);
  if (fabsf(x) > 8.0f) {
    atomicAdd(&slow_path_count, 1u);
    r += (float)(tag & 0xff) * 1e-6f;
  }
  return r;
}

extern "C" __global__ void poly_eval(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = eval_poly(in[i], poly_coeffs, 3, (uint64_t)i);
}

// Two calls in a row with results feeding each other.
extern "C" __global__ void poly_compose(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float inner = eval_poly(in[i], poly_coeffs, 3, 0);
  out[i] = eval_poly(inner, poly_coeffs, 2, 1);
}

__device__ __noinline__ float relu(float x) { return fmaxf(x, 0.0f); }
__device__ __noinline__ float square(float x) { return x * x; }
__device__ __noinline__ float negate(float x) { return -x; }

// Per-element choice of operation through a table of function pointers:
// the table lives in local memory and the call is indirect.
extern "C" __global__ void apply_op(const float* in, float* out, const int* op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float (*const table[3])(float) = {relu, square, negate};
  out[i] = table[op[i] % 3](in[i]);
}
