// A producer/consumer pipeline on mbarriers (inline PTX): warp 0 copies
// chunks of 64 words from global memory into a two-stage ring in shared
// memory with 8-byte cp.async copies, each lane's copies arriving on the
// stage's `full` barrier when they land (cp.async.mbarrier.arrive.noinc);
// warps 1 and 2 wait on `full` by phase parity, transform the chunk, and
// arrive on the stage's `empty` barrier, which the producer waits on before
// it refills the stage. sm_90 on: try_wait with a suspend-time hint,
// elect.sync picks the lane that initialises the barriers, and
// fence.mbarrier_init orders the initialisation. Before sm_80 the kernel
// is a trap.
#include <cstdint>

namespace {

constexpr unsigned kChunk = 64, kStages = 2;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(smem(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void arrive(uint64_t* bar) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared.b64 state, [%0];\n}\n" ::"r"(smem(bar)) : "memory");
}

__device__ __forceinline__ bool wait_parity(uint64_t* bar, unsigned parity) {
  unsigned done;
#if __CUDA_ARCH__ >= 900
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared.b64 p, [%1], %2, %3;\n selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(done)
               : "r"(smem(bar)), "r"(parity), "r"(100000u)
               : "memory");
#else
  asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(done)
               : "r"(smem(bar)), "r"(parity)
               : "memory");
#endif
  return done != 0;
}

__device__ __forceinline__ void copy8(void* dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(smem(dst)), "l"(src) : "memory");
}

__device__ __forceinline__ void arrive_when_copied(uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(smem(bar)) : "memory");
}

__device__ __forceinline__ bool leader() {
#if __CUDA_ARCH__ >= 900
  unsigned is;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(is));
  return is != 0;
#else
  return threadIdx.x == 0;
#endif
}

}  // namespace

// in: chunks * 64 words; out: the same count, out[i] = in[i] * 3 + chunk
// number; sums[t]: what consumer thread t added up. Block: 96 threads.
__global__ void mbarrier_pipeline(const uint32_t* in, uint32_t* out, uint32_t* sums, unsigned chunks) {
#if __CUDA_ARCH__ >= 800
  __shared__ __align__(16) uint32_t ring[kStages][kChunk];
  __shared__ uint64_t full[kStages], empty[kStages];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && leader()) {
    for (unsigned s = 0; s < kStages; ++s) {
      init(&full[s], 32);   // one arrival per producer lane, when its copies land
      init(&empty[s], 64);  // one per consumer thread
    }
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }
  __syncthreads();
  if (warp == 0) {
    for (unsigned c = 0; c < chunks; ++c) {
      const unsigned s = c % kStages, round = c / kStages;
      if (round > 0)
        while (!wait_parity(&empty[s], (round - 1) & 1)) {
        }
      copy8(&ring[s][2 * lane], in + c * kChunk + 2 * lane);
      arrive_when_copied(&full[s]);
    }
    return;
  }
  const unsigned t = threadIdx.x - 32;
  uint32_t sum = 0;
  for (unsigned c = 0; c < chunks; ++c) {
    const unsigned s = c % kStages, round = c / kStages;
    while (!wait_parity(&full[s], round & 1)) {
    }
    const uint32_t v = ring[s][t] * 3 + c;
    out[c * kChunk + t] = v;
    sum += v;
    arrive(&empty[s]);
  }
  sums[t] = sum;
#else
  __trap();  // mbarriers and cp.async need sm_80
#endif
}
