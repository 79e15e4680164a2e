// Integer mixing as used for hashing, random streams and hash tables:
// shifts, xor, wrapping multiplies, rotates, byte permutes and bit counts,
// plus size_t indices in grid-stride loops (64-bit address arithmetic).
#include <cstdint>

// murmur3's 32-bit finaliser.
__device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// One murmur3 block step per word of each key, then the finaliser.
// __funnelshift_l(k, k, r) is a rotate, which is how CUDA spells rotl.
extern "C" __global__ void murmur3_keys(const uint32_t* keys, uint32_t* hashes, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t k = keys[i] * 0xcc9e2d51u;
    k = __funnelshift_l(k, k, 15) * 0x1b873593u;
    uint32_t h = seed ^ k;
    h = __funnelshift_l(h, h, 13) * 5u + 0xe6546b64u;
    hashes[i] = fmix32(h ^ 4u);
  }
}

// xorshift64* stream per thread; 64-bit shifts and multiply.
extern "C" __global__ void xorshift64star(uint64_t* state, uint64_t* out, size_t n) {
  size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  uint64_t x = state[tid];
  for (size_t i = tid; i < n; i += stride) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    out[i] = x * 0x2545F4914F6CDD1Dull;
  }
  state[tid] = x;
}

// Bit tricks: byte swap via __byte_perm, population count, leading zeros
// (log2 bucket) and the high half of a 32x32 multiply, packed into one word
// per input so nothing is optimised away.
extern "C" __global__ void bit_features(const uint32_t* in, uint32_t* out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t v = in[i];
    uint32_t swapped = __byte_perm(v, 0, 0x0123);
    uint32_t bucket = 31 - __clz(v | 1);
    uint32_t hi = __umulhi(v, 0x9e3779b9u);
    out[i] = (__popc(v) << 24) ^ (bucket << 16) ^ (swapped & 0xffffu) ^ (hi & 0xff00u);
  }
}
