// Kernels for the host API's tests (tb/host/host_api_test.cc). Compiled by
//   nvcc -ptx -arch=sm_80 host_kernels.cu -o host_kernels.ptx
// and the PTX committed, so the tests need no nvcc.

__constant__ int c_table[4];
__device__ unsigned int d_counter;

// x[i] += 1 for i < n.
extern "C" __global__ void add_one(unsigned int* x, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}

// out[i] = c_table[i % 4] * i, and counts the threads in d_counter.
extern "C" __global__ void read_table(int* out, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = c_table[i % 4] * (int)i;
  atomicAdd(&d_counter, 1u);
}

// y[i] = a * x[i] + y[i] (single rounding: fmaf).
extern "C" __global__ void saxpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
}

extern "C" __global__ void empty() {}
