// Plain bulk copies (cp.async.bulk, no tensor map; inline PTX): each CTA
// moves chunks of 1 KiB from `in` into shared memory with one elected
// thread's cp.async.bulk, which completes the chunk's mbarrier
// transactions; every thread reverses the words of the chunk in place,
// and the elected thread writes the chunk to `out` with a shared-to-global
// cp.async.bulk (bulk_group, wait_group before the buffer is refilled).
// Two buffers alternate, so a load overlaps the last chunk's store. sm_90 on.
#include <cstdint>

namespace {

constexpr unsigned kWords = 256, kBytes = kWords * 4;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void load(uint32_t* dst, const uint32_t* src, uint64_t* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem(bar)), "r"(kBytes) : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(smem(dst)),
      "l"(src), "r"(kBytes), "r"(smem(bar))
      : "memory");
}

__device__ __forceinline__ void store(uint32_t* dst, const uint32_t* src) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst), "r"(smem(src)), "r"(kBytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

__device__ __forceinline__ void wait_parity(uint64_t* bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

}  // namespace

// out[c * 256 + i] = in[c * 256 + 255 - i] for chunks c = blockIdx.x,
// blockIdx.x + gridDim.x, ... < chunks. Block: 64 threads.
__global__ void bulk_copy(const uint32_t* in, uint32_t* out, unsigned chunks) {
#if __CUDA_ARCH__ >= 900
  __shared__ __align__(16) uint32_t buf[2][kWords];
  __shared__ uint64_t full[2];
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < 2; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem(&full[s])) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  unsigned i = 0;
  for (unsigned c = blockIdx.x; c < chunks; c += gridDim.x, ++i) {
    const unsigned s = i % 2;
    if (threadIdx.x == 0) {
      asm volatile("cp.async.bulk.wait_group.read 1;\n" ::: "memory");  // the store from buf[s] two chunks ago
      load(buf[s], in + c * kWords, &full[s]);
    }
    wait_parity(&full[s], (i / 2) & 1);
    uint32_t a[kWords / 64 / 2], b[kWords / 64 / 2];
    for (unsigned k = 0; k < kWords / 64 / 2; ++k) {
      const unsigned j = threadIdx.x + 64 * k;
      a[k] = buf[s][j];
      b[k] = buf[s][kWords - 1 - j];
    }
    __syncthreads();
    for (unsigned k = 0; k < kWords / 64 / 2; ++k) {
      const unsigned j = threadIdx.x + 64 * k;
      buf[s][j] = b[k];
      buf[s][kWords - 1 - j] = a[k];
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) store(out + c * kWords, buf[s]);
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}
