// Texture and surface objects as CUDA programs use them: a 2D texture
// sampled at given coordinates (whatever filter and address modes the
// object was made with), a 1D texture read at integer texel indices, and a
// surface read, scaled and written transposed into a second surface.
#include <cuda_runtime.h>

__global__ void sample_2d(cudaTextureObject_t tex, const float* x, const float* y, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, x[i], y[i]);
}

__global__ void fetch_1d(cudaTextureObject_t tex, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void transpose_surface(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float v;
  surf2Dread(&v, src, x * 4, y);
  surf2Dwrite(2.0f * v, dst, y * 4, x);
}
