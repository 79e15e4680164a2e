// Tiled matrix multiply C = A * B (row-major, M x K times K x N): each block
// stages TILE x TILE sub-matrices of A and B in shared memory.
#define TILE 16

extern "C" __global__ void matmul_tiled_static(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    // Out-of-range elements load as zero so edge tiles need no special loop.
    As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K) ? A[row * K + t + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && t + threadIdx.y < K) ? B[(t + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// Same algorithm with a runtime tile width: both tiles live in dynamic
// shared memory (launch with 2 * tile * tile * sizeof(float) bytes), and the
// inner loop is kept rolled.
extern "C" __global__ void matmul_tiled_dynamic(const float* A, const float* B, float* C, int M, int N, int K,
                                                int tile) {
  extern __shared__ float smem[];
  float* As = smem;
  float* Bs = smem + tile * tile;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * tile + ty;
  int col = blockIdx.x * tile + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += tile) {
    As[ty * tile + tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty * tile + tx] = (col < N && t + ty < K) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < tile; ++k) acc += As[ty * tile + k] * Bs[k * tile + tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
