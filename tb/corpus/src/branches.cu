// Control flow that diverges within a warp: data-dependent loop trip
// counts, if/else chains and a loop left by break. These shape the branch
// and predicate code a SIMT model must reconverge.
#include <cstdint>

// Collatz step count: each lane loops a different number of times.
extern "C" __global__ void collatz_steps(const uint32_t* start, uint32_t* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t x = start[i];
  uint32_t count = 0;
  while (x > 1 && count < 1000) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    ++count;
  }
  steps[i] = count;
}

// A clamp and a piecewise function: selects where nvcc can, branches where
// the arms have side effects.
extern "C" __global__ void piecewise(const float* in, float* out, int* negatives, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  float r;
  if (v < lo) {
    r = lo;
    atomicAdd(negatives, 1);
  } else if (v > hi) {
    r = hi;
  } else if (v < 0.0f) {
    r = v * v;
  } else {
    r = sqrtf(v);
  }
  out[i] = r;
}

// Linear search for the first element >= key in a sorted row, leaving by
// break; the pragma keeps the loop rolled so the PTX shows it as written.
extern "C" __global__ void first_at_least(const int* rows, const int* keys, int* pos, int cols, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int* row = rows + (size_t)i * cols;
  int key = keys[i];
  int found = cols;
  int c = 0;
#pragma unroll 1
  while (c < cols) {
    if (row[c] >= key) {
      found = c;
      break;
    }
    ++c;
  }
  pos[i] = found;
}
