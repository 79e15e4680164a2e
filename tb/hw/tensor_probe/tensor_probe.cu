// Hardware truth for the tensor-core forms no published data measured on
// sm_90: every mma.sync form legal there (fp8 with f16 and f32
// accumulators, f64 m16n8k*, integers with and without .satfinite, b1, the
// sparse f16 mma.sp), seeded random and structured edge-case tiles, and the
// latency and issue rate of each form. Compiled with nvcc -arch=sm_90a
// (build.sh); run by run_on_gpu.sh. docs/mma.md ("The sm_90 probe") gives
// the file formats; tb/hw/tensor_probe/probe_check.cc compares the numerics
// with ptxfu's engine.
//
//   tensor_probe --list                    the form ids, one a line
//   tensor_probe --selftest                host-only: every fragment layout is a bijection
//   tensor_probe OUTDIR --form ID [--tiles N] [--no-timing] [--no-numerics]
//       writes OUTDIR/numerics_ID.txt, OUTDIR/timing_ID.csv and one line
//       "summary ID ..." on standard output
//   tensor_probe OUTDIR --form ID --host-only
//       no GPU: D of the integer and b1 forms from the host reference (tests the writer)
//
// Exit status: 0 done, 1 a CUDA error or a failed self-check (said on
// stderr), 2 bad arguments, 77 no CUDA device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_host.h"

namespace {

#define PROBE_CHECK(call)                                                                                         \
  do {                                                                                                            \
    const cudaError_t err_ = (call);                                                                              \
    if (err_ != cudaSuccess) {                                                                                    \
      std::fprintf(stderr, "tensor_probe: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::printf("summary %s FAILED cuda_error\n", g_form_id);                                                   \
      std::fflush(stdout);                                                                                        \
      std::exit(1);                                                                                               \
    }                                                                                                             \
  } while (0)

const char* g_form_id = "?";

// ---------------------------------------------------------------------------
// The instructions. Each form is a struct with its register counts and one
// inline-PTX call; AT is the type of an A/B register, CT of a C/D one.
// "r": .b32 (packed f16/bf16/fp8/int/b1, tf32, s32, f16x2), "f": f32, "d": f64.

#define PROBE_ASM_4_2_4(INSTR, AC, CC)                                            \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
               : "=" CC(d[0]), "=" CC(d[1]), "=" CC(d[2]), "=" CC(d[3])           \
               : AC(a[0]), AC(a[1]), AC(a[2]), AC(a[3]), AC(b[0]), AC(b[1]), CC(c[0]), CC(c[1]), CC(c[2]), CC(c[3]));
#define PROBE_ASM_4_2_2(INSTR, AC, CC)                            \
  asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" \
               : "=" CC(d[0]), "=" CC(d[1])                       \
               : AC(a[0]), AC(a[1]), AC(a[2]), AC(a[3]), AC(b[0]), AC(b[1]), CC(c[0]), CC(c[1]));
#define PROBE_ASM_2_1_4(INSTR, AC, CC)                                  \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"   \
               : "=" CC(d[0]), "=" CC(d[1]), "=" CC(d[2]), "=" CC(d[3]) \
               : AC(a[0]), AC(a[1]), AC(b[0]), CC(c[0]), CC(c[1]), CC(c[2]), CC(c[3]));
#define PROBE_ASM_2_1_2(INSTR, AC, CC)                   \
  asm volatile(INSTR " {%0,%1}, {%2,%3}, {%4}, {%5,%6};" \
               : "=" CC(d[0]), "=" CC(d[1])              \
               : AC(a[0]), AC(a[1]), AC(b[0]), CC(c[0]), CC(c[1]));
#define PROBE_ASM_1_1_2(INSTR, AC, CC)                \
  asm volatile(INSTR " {%0,%1}, {%2}, {%3}, {%4,%5};" \
               : "=" CC(d[0]), "=" CC(d[1])           \
               : AC(a[0]), AC(b[0]), CC(c[0]), CC(c[1]));
#define PROBE_ASM_8_4_4(INSTR, AC, CC)                                                                               \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};"            \
               : "=" CC(d[0]), "=" CC(d[1]), "=" CC(d[2]), "=" CC(d[3])                                              \
               : AC(a[0]), AC(a[1]), AC(a[2]), AC(a[3]), AC(a[4]), AC(a[5]), AC(a[6]), AC(a[7]), AC(b[0]), AC(b[1]), \
                 AC(b[2]), AC(b[3]), CC(c[0]), CC(c[1]), CC(c[2]), CC(c[3]));
// Sparse: A is the compressed 16 x 16, B 32 x 8; e the metadata, selector 0.
#define PROBE_ASM_SP_4_4_4(INSTR, AC, CC)                                                                            \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;"                  \
               : "=" CC(d[0]), "=" CC(d[1]), "=" CC(d[2]), "=" CC(d[3])                                              \
               : AC(a[0]), AC(a[1]), AC(a[2]), AC(a[3]), AC(b[0]), AC(b[1]), AC(b[2]), AC(b[3]), CC(c[0]), CC(c[1]), \
                 CC(c[2]), CC(c[3]), "r"(e));
#define PROBE_ASM_SP_4_4_2(INSTR, AC, CC)                                                                            \
  asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, 0x0;"                                  \
               : "=" CC(d[0]), "=" CC(d[1])                                                                          \
               : AC(a[0]), AC(a[1]), AC(a[2]), AC(a[3]), AC(b[0]), AC(b[1]), AC(b[2]), AC(b[3]), CC(c[0]), CC(c[1]), \
                 "r"(e));

// X(ID, ASM, AT, CT, NA, NB, NC, AC, CC, PTX name) -- the rows of the form
// table on the device side; probe_host.h has the same ids with their shapes.
#define PROBE_DEVICE_FORMS(X)                                                                                          \
  X(f16_f32_m16n8k16, PROBE_ASM_4_2_4, uint32_t, float, 4, 2, 4, "r", "f",                                             \
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")                                                               \
  X(f16_f16_m16n8k16, PROBE_ASM_4_2_2, uint32_t, uint32_t, 4, 2, 2, "r", "r",                                          \
    "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16")                                                               \
  X(f16_f32_m16n8k8, PROBE_ASM_2_1_4, uint32_t, float, 2, 1, 4, "r", "f",                                              \
    "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")                                                                \
  X(f16_f16_m16n8k8, PROBE_ASM_2_1_2, uint32_t, uint32_t, 2, 1, 2, "r", "r",                                           \
    "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16")                                                                \
  X(bf16_f32_m16n8k16, PROBE_ASM_4_2_4, uint32_t, float, 4, 2, 4, "r", "f",                                            \
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")                                                             \
  X(bf16_f32_m16n8k8, PROBE_ASM_2_1_4, uint32_t, float, 2, 1, 4, "r", "f",                                             \
    "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32")                                                              \
  X(tf32_f32_m16n8k8, PROBE_ASM_4_2_4, uint32_t, float, 4, 2, 4, "r", "f",                                             \
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")                                                              \
  X(tf32_f32_m16n8k4, PROBE_ASM_2_1_4, uint32_t, float, 2, 1, 4, "r", "f",                                             \
    "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32")                                                              \
  X(e4m3_f32_m16n8k32, PROBE_ASM_4_2_4, uint32_t, float, 4, 2, 4, "r", "f",                                            \
    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32")                                                             \
  X(e5m2_f32_m16n8k32, PROBE_ASM_4_2_4, uint32_t, float, 4, 2, 4, "r", "f",                                            \
    "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32")                                                             \
  X(e4m3_f16_m16n8k32, PROBE_ASM_4_2_2, uint32_t, uint32_t, 4, 2, 2, "r", "r",                                         \
    "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16")                                                             \
  X(e5m2_f16_m16n8k32, PROBE_ASM_4_2_2, uint32_t, uint32_t, 4, 2, 2, "r", "r",                                         \
    "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16")                                                             \
  X(e4m3_f32_m16n8k16, PROBE_ASM_2_1_4, uint32_t, float, 2, 1, 4, "r", "f",                                            \
    "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32")                                                             \
  X(f64_m8n8k4, PROBE_ASM_1_1_2, double, double, 1, 1, 2, "d", "d", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64") \
  X(f64_m16n8k4, PROBE_ASM_2_1_4, double, double, 2, 1, 4, "d", "d",                                                   \
    "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64")                                                                \
  X(f64_m16n8k8, PROBE_ASM_4_2_4, double, double, 4, 2, 4, "d", "d",                                                   \
    "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64")                                                                \
  X(f64_m16n8k16, PROBE_ASM_8_4_4, double, double, 8, 4, 4, "d", "d",                                                  \
    "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64")                                                               \
  X(s8_m16n8k32, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                               \
    "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")                                                                 \
  X(s8_sat_m16n8k32, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                           \
    "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32")                                                       \
  X(u8_m16n8k32, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                               \
    "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32")                                                                 \
  X(u8_sat_m16n8k32, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                           \
    "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32")                                                       \
  X(s8_m16n8k16, PROBE_ASM_2_1_4, uint32_t, uint32_t, 2, 1, 4, "r", "r",                                               \
    "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32")                                                                 \
  X(s4_m16n8k64, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                               \
    "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")                                                                 \
  X(s4_sat_m16n8k64, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                           \
    "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32")                                                       \
  X(u4_m16n8k64, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                               \
    "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32")                                                                 \
  X(u4_sat_m16n8k64, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                           \
    "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32")                                                       \
  X(b1_xor_m16n8k256, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                          \
    "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc")                                                       \
  X(b1_and_m16n8k256, PROBE_ASM_4_2_4, uint32_t, uint32_t, 4, 2, 4, "r", "r",                                          \
    "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc")                                                       \
  X(sp_f16_f32_m16n8k32, PROBE_ASM_SP_4_4_4, uint32_t, float, 4, 4, 4, "r", "f",                                       \
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32")                                          \
  X(sp_f16_f16_m16n8k32, PROBE_ASM_SP_4_4_2, uint32_t, uint32_t, 4, 4, 2, "r", "r",                                    \
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16")

#define PROBE_DEFINE_FORM(ID, ASM, AT_, CT_, NA_, NB_, NC_, AC, CC, PTX)                                             \
  struct Dev_##ID {                                                                                                  \
    using AT = AT_;                                                                                                  \
    using CT = CT_;                                                                                                  \
    static constexpr int NA = NA_, NB = NB_, NC = NC_;                                                               \
    static __device__ __forceinline__ void mma(CT (&d)[NC], const AT (&a)[NA], const AT (&b)[NB], const CT (&c)[NC], \
                                               uint32_t e) {                                                         \
      (void)e;                                                                                                       \
      ASM(PTX, AC, CC)                                                                                               \
    }                                                                                                                \
  };
PROBE_DEVICE_FORMS(PROBE_DEFINE_FORM)

// ---------------------------------------------------------------------------
// Kernels. Operands travel as 32-bit words: per tile, per lane, the words of
// A's registers, then B's, then C's, then the metadata word.

template <class F>
struct Words {
  static constexpr int a = F::NA * int(sizeof(typename F::AT) / 4);
  static constexpr int b = F::NB * int(sizeof(typename F::AT) / 4);
  static constexpr int c = F::NC * int(sizeof(typename F::CT) / 4);
  static constexpr int in = a + b + c + 1;
};

template <class F>
__device__ void load_lane(const uint32_t* p, typename F::AT (&a)[F::NA], typename F::AT (&b)[F::NB],
                          typename F::CT (&c)[F::NC], uint32_t* e) {
  memcpy(a, p, sizeof a);
  memcpy(b, p + Words<F>::a, sizeof b);
  memcpy(c, p + Words<F>::a + Words<F>::b, sizeof c);
  *e = p[Words<F>::a + Words<F>::b + Words<F>::c];
}

// One warp per tile: out gets each lane's D words.
template <class F>
__global__ void numerics_kernel(const uint32_t* in, uint32_t* out) {
  const int lane = threadIdx.x;
  const size_t slot = size_t(blockIdx.x) * 32 + lane;
  typename F::AT a[F::NA], b[F::NB];
  typename F::CT c[F::NC], d[F::NC];
  uint32_t e;
  load_lane<F>(in + slot * Words<F>::in, a, b, c, &e);
  F::mma(d, a, b, c, e);
  memcpy(out + slot * Words<F>::c, d, sizeof d);
}

// Every warp runs `chains` independent accumulators for `iters` rounds (one
// chain: each D the next C, the latency); lane 0 records its warp's clocks.
template <class F, int Chains>
// Each chain's C is XORed with its own word of `zeros` (all 0, which the
// compiler cannot know), so no two chains start from provably equal
// registers that ptxas could merge into one.
__global__ void timing_kernel(const uint32_t* in, const uint32_t* zeros, long long* clocks, uint32_t* sink, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  typename F::AT a[F::NA], b[F::NB];
  typename F::CT c[F::NC], acc[Chains][F::NC];
  uint32_t e;
  load_lane<F>(in + size_t(lane) * Words<F>::in, a, b, c, &e);
#pragma unroll
  for (int k = 0; k < Chains; ++k) {
#pragma unroll
    for (int r = 0; r < F::NC; ++r) acc[k][r] = c[r];
    uint32_t w;
    memcpy(&w, &acc[k][0], 4);
    w ^= zeros[k];
    memcpy(&acc[k][0], &w, 4);
  }
  __syncthreads();
  const long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < Chains; ++k) F::mma(acc[k], a, b, acc[k], e);
  }
  const long long t1 = clock64();
  uint32_t x = 0;
#pragma unroll
  for (int k = 0; k < Chains; ++k) {
#pragma unroll
    for (int r = 0; r < F::NC; ++r) {
      uint32_t w[sizeof(typename F::CT) / 4];
      memcpy(w, &acc[k][r], sizeof w);
      for (uint32_t v : w) x ^= v;
    }
  }
  sink[threadIdx.x] = x;
  if (lane == 0) clocks[2 * warp] = t0, clocks[2 * warp + 1] = t1;
}

// ldmatrix: a dependent chain, each address taken from the last result
// (ANDed with a zero the kernel cannot see), so a step is ldmatrix + LOP3 + IADD.
template <int X>
__global__ void ldmatrix_kernel(const uint32_t* zero_in, long long* clocks, uint32_t* sink, int iters) {
  __shared__ __align__(16) uint16_t tile[4 * 8 * 8];
  for (int i = threadIdx.x; i < 4 * 64; i += 32) tile[i] = uint16_t(i);
  __syncwarp();
  const uint32_t zero = zero_in[0];
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(tile)) + (threadIdx.x % (8 * X)) * 16;
  uint32_t r[4] = {0, 0, 0, 0};
  const long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
    if (X == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    if (X == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
    if (X == 4)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(addr));
    addr += r[X - 1] & zero;
  }
  const long long t1 = clock64();
  sink[threadIdx.x] = r[0] ^ r[X - 1];
  if (threadIdx.x == 0) clocks[0] = t0, clocks[1] = t1;
}

// ---------------------------------------------------------------------------
// Host side: run one form.

struct DevBuf {
  void* p = nullptr;
  explicit DevBuf(size_t bytes) { PROBE_CHECK(cudaMalloc(&p, bytes ? bytes : 1)); }
  ~DevBuf() { cudaFree(p); }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

template <class F>
std::vector<uint32_t> run_numerics_on_gpu(const std::vector<uint32_t>& in, int tiles) {
  DevBuf din(in.size() * 4), dout(size_t(tiles) * 32 * Words<F>::c * 4);
  PROBE_CHECK(cudaMemcpy(din.p, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  numerics_kernel<F><<<tiles, 32>>>(din.as<uint32_t>(), dout.as<uint32_t>());
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> out(size_t(tiles) * 32 * Words<F>::c);
  PROBE_CHECK(cudaMemcpy(out.data(), dout.p, out.size() * 4, cudaMemcpyDeviceToHost));
  return out;
}

// Cycles of the slowest warp's span and of the whole block's (first start to
// last end), the minimum of `reps` runs after one warm-up.
// False (nothing run) when the kernel's registers do not allow `warps` warps.
template <class F, int Chains>
bool time_config(const uint32_t* din, int warps, int iters, double* per_warp, double* block_span) {
  cudaFuncAttributes attr{};
  PROBE_CHECK(cudaFuncGetAttributes(&attr, timing_kernel<F, Chains>));
  if (warps * 32 > attr.maxThreadsPerBlock) return false;
  DevBuf clocks(size_t(warps) * 2 * 8), sink(size_t(warps) * 32 * 4), zeros(Chains * 4);
  PROBE_CHECK(cudaMemset(zeros.p, 0, Chains * 4));
  std::vector<long long> h(size_t(warps) * 2);
  *per_warp = *block_span = 1e300;
  for (int rep = 0; rep < 4; ++rep) {
    timing_kernel<F, Chains>
        <<<1, warps * 32>>>(din, zeros.as<uint32_t>(), clocks.as<long long>(), sink.as<uint32_t>(), iters);
    PROBE_CHECK(cudaGetLastError());
    PROBE_CHECK(cudaDeviceSynchronize());
    PROBE_CHECK(cudaMemcpy(h.data(), clocks.p, h.size() * 8, cudaMemcpyDeviceToHost));
    if (rep == 0) continue;
    long long first = h[0], last = h[1], longest = 0;
    for (int w = 0; w < warps; ++w) {
      first = std::min(first, h[2 * w]), last = std::max(last, h[2 * w + 1]);
      longest = std::max(longest, h[2 * w + 1] - h[2 * w]);
    }
    *per_warp = std::min(*per_warp, double(longest));
    *block_span = std::min(*block_span, double(last - first));
  }
  return true;
}

template <class F>
void run_timing(const probe::FormInfo& info, const std::string& dir) {
  const std::vector<uint32_t> in = probe::timing_operands(info);
  DevBuf din(in.size() * 4);
  PROBE_CHECK(cudaMemcpy(din.p, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  probe::TimingWriter out(dir, info);
  // f64 fragments are twice as wide: 4 chains keep 16 warps within the registers.
  constexpr int kLatencyIters = 1024, kThroughputIters = 256, kChains = sizeof(typename F::AT) == 8 ? 4 : 8;
  double warp_span, block_span;
  time_config<F, 1>(din.as<uint32_t>(), 1, kLatencyIters, &warp_span, &block_span);
  out.row("latency", 1, 1, kLatencyIters, warp_span, block_span);
  for (int warps : {1, 4, 8, 12, 16, 32}) {
    if (time_config<F, kChains>(din.as<uint32_t>(), warps, kThroughputIters, &warp_span, &block_span))
      out.row("throughput", warps, kChains, kThroughputIters, warp_span, block_span);
    else
      std::fprintf(stderr, "tensor_probe: %s: %d warps exceed the registers; not timed\n", info.id, warps);
  }
  out.finish();
}

template <int X>
double ldmatrix_cycles(int iters) {
  DevBuf zero(4), clocks(16), sink(32 * 4);
  PROBE_CHECK(cudaMemset(zero.p, 0, 4));
  long long h[2];
  double best = 1e300;
  for (int rep = 0; rep < 4; ++rep) {
    ldmatrix_kernel<X><<<1, 32>>>(zero.as<uint32_t>(), clocks.as<long long>(), sink.as<uint32_t>(), iters);
    PROBE_CHECK(cudaGetLastError());
    PROBE_CHECK(cudaDeviceSynchronize());
    PROBE_CHECK(cudaMemcpy(h, clocks.p, sizeof h, cudaMemcpyDeviceToHost));
    if (rep > 0) best = std::min(best, double(h[1] - h[0]) / iters);
  }
  return best;
}

void run_ldmatrix(const std::string& dir) {
  g_form_id = "ldmatrix";
  const int iters = 1024;
  const std::string path = dir + "/timing_ldmatrix.csv";
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) std::perror(tmp.c_str()), std::exit(1);
  std::fprintf(f, "%s\n", probe::kTimingHeader);
  const double c1 = ldmatrix_cycles<1>(iters), c2 = ldmatrix_cycles<2>(iters), c4 = ldmatrix_cycles<4>(iters);
  const char* fmt =
      "ldmatrix_chain,ldmatrix.sync.aligned.m8n8.%s.shared.b16 + lop3 + iadd,1,1,%d,%.3f,%.3f,%.4f,%.4f\n";
  std::fprintf(f, fmt, "x1", iters, c1, c1, c1, 1 / c1);
  std::fprintf(f, fmt, "x2", iters, c2, c2, c2, 1 / c2);
  std::fprintf(f, fmt, "x4", iters, c4, c4, c4, 1 / c4);
  std::fclose(f);
  std::rename(tmp.c_str(), path.c_str());
  std::printf("summary ldmatrix timing=ok x1=%.1f x2=%.1f x4=%.1f cycles/step\n", c1, c2, c4);
}

struct Options {
  std::string dir, form;
  int tiles = 0;
  bool timing = true, numerics = true, host_only = false;
};

template <class F>
int run_form(const probe::FormInfo& info, const Options& o) {
  if (probe::words_a(info) != Words<F>::a || probe::words_b(info) != Words<F>::b ||
      probe::words_c(info) != Words<F>::c) {
    std::fprintf(stderr, "tensor_probe: %s: host and device register counts differ\n", info.id);
    return 1;
  }
  const int tiles = o.tiles > 0 ? o.tiles : info.default_tiles;
  std::string result;
  if (o.numerics) {
    probe::TileSet set = probe::make_tiles(info, tiles);
    const std::vector<uint32_t> in = probe::pack_inputs(info, set);
    std::vector<uint32_t> out;
    if (o.host_only) {
      if (!probe::host_reference(info, &set)) {
        std::fprintf(stderr, "tensor_probe: %s: --host-only needs an integer or b1 form\n", info.id);
        return 2;
      }
    } else {
      out = run_numerics_on_gpu<F>(in, tiles);
      probe::unpack_d(info, out, &set);
    }
    result = probe::write_numerics(o.dir, info, set);
  }
  if (o.timing && !o.host_only) {
    run_timing<F>(info, o.dir);
    result += " timing=ok";
  }
  std::printf("summary %s%s\n", info.id, result.c_str());
  return 0;
}

using Runner = int (*)(const probe::FormInfo&, const Options&);
struct Entry {
  const char* id;
  Runner run;
};
#define PROBE_ENTRY(ID, ASM, AT_, CT_, NA_, NB_, NC_, AC, CC, PTX) {#ID, &run_form<Dev_##ID>},
const Entry kEntries[] = {PROBE_DEVICE_FORMS(PROBE_ENTRY)};

bool parse_args(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--form" && i + 1 < argc) {
      o->form = argv[++i];
    } else if (a == "--tiles" && i + 1 < argc) {
      o->tiles = std::atoi(argv[++i]);
      if (o->tiles <= 0 || o->tiles > 100000) return false;
    } else if (a == "--no-timing") {
      o->timing = false;
    } else if (a == "--no-numerics") {
      o->numerics = false;
    } else if (a == "--host-only") {
      o->host_only = true;
    } else if (!a.empty() && a[0] != '-' && o->dir.empty()) {
      o->dir = a;
    } else {
      return false;
    }
  }
  return !o->dir.empty() && !o->form.empty();
}

bool have_device() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
  cudaDeviceProp p{};
  PROBE_CHECK(cudaGetDeviceProperties(&p, 0));
  if (p.major != 9)
    std::fprintf(stderr, "tensor_probe: warning: %s is sm_%d%d, built for sm_90a\n", p.name, p.major, p.minor);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const Entry& e : kEntries) std::printf("%s\n", e.id);
    std::printf("ldmatrix\n");
    return 0;
  }
  if (argc == 2 && std::string(argv[1]) == "--selftest") return probe::selftest() ? 0 : 1;
  Options o;
  if (!parse_args(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: tensor_probe --list | --selftest | OUTDIR --form ID [--tiles N] [--no-timing] "
                 "[--no-numerics] [--host-only]\n");
    return 2;
  }
  g_form_id = o.form.c_str();
  if (!o.host_only && !have_device()) {
    std::fprintf(stderr, "tensor_probe: no CUDA device\n");
    std::printf("summary %s SKIPPED no_device\n", o.form.c_str());
    return 77;
  }
  if (o.form == "ldmatrix") return run_ldmatrix(o.dir), 0;
  for (const Entry& e : kEntries) {
    if (o.form != e.id) continue;
    const probe::FormInfo* info = probe::find_form(e.id);
    if (!info) {
      std::fprintf(stderr, "tensor_probe: %s: no host description\n", e.id);
      return 1;
    }
    return e.run(*info, o);
  }
  std::fprintf(stderr, "tensor_probe: unknown form '%s' (--list)\n", o.form.c_str());
  return 2;
}
