// Samples a GPU's exact outputs of the single- and double-precision `.approx`
// MUFU forms, so that ptxfu's model of them (src/approx) can be compared with
// silicon bit for bit, on inputs chosen to cover each function's domain:
// the special values (zeros, infinities, NaNs with payloads, subnormals and
// the extremes of each binade) and, per binade that matters to the function,
// 1024 mantissas spread over the whole range with varied low bits, both signs.
//
//   approx_probe OUTFILE   writes lines "FORM INPUT OUTPUT" (hex bit patterns;
//                          div forms: "FORM A B OUTPUT"), preceded by '#' lines
//                          naming the GPU, its driver and this file.
//
// Exit status: 0 written, 1 error, 77 no CUDA device. The file is written
// under a temporary name and renamed when complete.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "probe_file.h"

namespace {

enum Op : int {
  kRcp,
  kRcpFtz,
  kSqrt,
  kSqrtFtz,
  kRsqrt,
  kRsqrtFtz,
  kEx2,
  kEx2Ftz,
  kLg2,
  kLg2Ftz,
  kSin,
  kSinFtz,
  kCos,
  kCosFtz,
  kTanh,
  kRcpFtzF64,
  kRsqrtFtzF64,
  kDivApprox,
  kDivFull,
  kOpCount
};
const char* const kNames[kOpCount] = {
    "rcp.approx.f32",       "rcp.approx.ftz.f32",   "sqrt.approx.f32",    "sqrt.approx.ftz.f32", "rsqrt.approx.f32",
    "rsqrt.approx.ftz.f32", "ex2.approx.f32",       "ex2.approx.ftz.f32", "lg2.approx.f32",      "lg2.approx.ftz.f32",
    "sin.approx.f32",       "sin.approx.ftz.f32",   "cos.approx.f32",     "cos.approx.ftz.f32",  "tanh.approx.f32",
    "rcp.approx.ftz.f64",   "rsqrt.approx.ftz.f64", "div.approx.f32",     "div.full.f32"};

__device__ uint64_t apply(int op, uint64_t a, uint64_t b) {
  uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b), r = 0;
  uint64_t d = 0;
  switch (op) {
    case kRcp: asm("rcp.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kRcpFtz: asm("rcp.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kSqrt: asm("sqrt.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kSqrtFtz: asm("sqrt.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kRsqrt: asm("rsqrt.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kRsqrtFtz: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kEx2: asm("ex2.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kEx2Ftz: asm("ex2.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kLg2: asm("lg2.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kLg2Ftz: asm("lg2.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kSin: asm("sin.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kSinFtz: asm("sin.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kCos: asm("cos.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kCosFtz: asm("cos.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kTanh: asm("tanh.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kRcpFtzF64: asm("rcp.approx.ftz.f64 %0, %1;" : "=l"(d) : "l"(a)); return d;
    case kRsqrtFtzF64: asm("rsqrt.approx.ftz.f64 %0, %1;" : "=l"(d) : "l"(a)); return d;
    case kDivApprox: asm("div.approx.f32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kDivFull: asm("div.full.f32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    default: break;
  }
  return r;
}

__global__ void apply_all(int op, const uint64_t* a, const uint64_t* b, uint64_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply(op, a[i], b[i]);
}

// Specials of binary32: zeros, infinities, NaNs (quiet, signalling, payloads),
// subnormal and normal extremes, and small integers and powers of two.
std::vector<uint32_t> f32_specials() {
  std::vector<uint32_t> v = {0x00000000, 0x7f800000, 0x7fc00000, 0x7f800001, 0x7fbfffff, 0x7fc12345,
                             0x7fffffff, 0x00000001, 0x00000002, 0x003fffff, 0x00400000, 0x007fffff,
                             0x00800000, 0x00800001, 0x7f7fffff, 0x7f7ffffe, 0x3f800000, 0x40000000,
                             0x3f000000, 0x40400000, 0x3f7fffff, 0x3f800001, 0x40490fdb, 0x3fc90fdb};
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(v[i] | 0x80000000u);
  return v;
}

// 1024 mantissas over the whole 23-bit range, the low bits varied by a hash.
uint32_t spread_mantissa(uint32_t i) { return (i << 13) | ((i * 2654435761u) >> 19 & 0x1fffu); }

// The biased exponents sampled per function: where its table or its range
// reduction changes (around 1, the binade edges, subnormals where the
// non-ftz form keeps them, large arguments for sin/cos).
std::vector<int> binades(Op op) {
  switch (op) {
    case kRcp:
    case kRcpFtz:
    case kSqrt:
    case kSqrtFtz:
    case kRsqrt:
    case kRsqrtFtz:
    case kLg2:
    case kLg2Ftz: return {0, 1, 2, 126, 127, 128, 200, 252, 253, 254};
    case kEx2:
    case kEx2Ftz:  // |x| from 2^-30 to 2^7 (results over- and underflow)
      return {97, 110, 120, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134};
    case kSin:
    case kSinFtz:
    case kCos:
    case kCosFtz:  // up to about 2^20
      return {0, 100, 115, 120, 124, 125, 126, 127, 128, 129, 130, 131, 133, 136, 140, 146};
    case kTanh: return {0, 100, 110, 115, 118, 120, 122, 124, 125, 126, 127, 128, 129, 130, 131};
    default: return {};
  }
}

void f32_inputs(Op op, std::vector<uint64_t>& a) {
  for (uint32_t s : f32_specials()) a.push_back(s);
  for (int e : binades(op))
    for (uint32_t i = 0; i < 1024; ++i)
      for (uint32_t sign : {0u, 0x80000000u}) a.push_back(sign | static_cast<uint32_t>(e) << 23 | spread_mantissa(i));
}

void f64_inputs(std::vector<uint64_t>& a) {
  const uint64_t specials[] = {0,
                               0x7ff0000000000000ull,
                               0x7ff8000000000000ull,
                               0x7ff0000000000001ull,
                               0x0000000000000001ull,
                               0x000fffffffffffffull,
                               0x0010000000000000ull,
                               0x7fefffffffffffffull,
                               0x3ff0000000000000ull,
                               0x4000000000000000ull};
  for (uint64_t s : specials) a.push_back(s), a.push_back(s | 1ull << 63);
  for (int e : {0, 1, 2, 1022, 1023, 1024, 1500, 2045, 2046})
    for (uint64_t i = 0; i < 1024; ++i) {
      const uint64_t m = (i << 42) | ((i * 0x9e3779b97f4a7c15ull) >> 22);
      for (uint64_t sign : {0ull, 1ull << 63}) a.push_back(sign | static_cast<uint64_t>(e) << 52 | m);
    }
}

// Quotients: specials against specials, then seeded pairs with exponents
// spread so that the divisor covers div.approx's documented range and beyond.
void div_inputs(std::vector<uint64_t>& a, std::vector<uint64_t>& b) {
  const std::vector<uint32_t> s = f32_specials();
  for (uint32_t x : s)
    for (uint32_t y : s) a.push_back(x), b.push_back(y);
  uint64_t state = 0x5eed;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 32);
  };
  for (int i = 0; i < 20000; ++i) {
    const uint32_t ea = 1 + next() % 254, eb = i < 4000 ? next() % 256 : 1 + (100 + next() % 54);
    a.push_back((next() & 0x80000000u) | ea << 23 | (next() & 0x7fffff));
    b.push_back((next() & 0x80000000u) | (eb > 254 ? 254 : eb) << 23 | (next() & 0x7fffff));
  }
}

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "approx_probe: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

bool run(Op op, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, std::vector<uint64_t>& out) {
  const int n = static_cast<int>(a.size());
  const size_t bytes = a.size() * sizeof(uint64_t);
  uint64_t *da = nullptr, *db = nullptr, *dout = nullptr;
  bool good = ok(cudaMalloc(&da, bytes), "cudaMalloc") && ok(cudaMalloc(&db, bytes), "cudaMalloc") &&
              ok(cudaMalloc(&dout, bytes), "cudaMalloc") &&
              ok(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "copy in") &&
              ok(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "copy in");
  if (good) {
    apply_all<<<(n + 255) / 256, 256>>>(op, da, db, dout, n);
    out.resize(a.size());
    good = ok(cudaGetLastError(), "launch") && ok(cudaDeviceSynchronize(), kNames[op]) &&
           ok(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost), "copy out");
  }
  cudaFree(da), cudaFree(db), cudaFree(dout);
  return good;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: approx_probe OUTFILE\n");
    return 1;
  }
  ptxfu::hw::ProbeFile file;
  if (const int status = file.open(argv[1], "approx_probe")) return status;
  std::FILE* f = file.get();
  std::fprintf(f, "# FORM INPUT OUTPUT (div: FORM A B OUTPUT), hex bit patterns\n");
  for (int o = 0; o < kOpCount; ++o) {
    const Op op = static_cast<Op>(o);
    std::vector<uint64_t> a, b, out;
    const bool f64 = op == kRcpFtzF64 || op == kRsqrtFtzF64, div = op == kDivApprox || op == kDivFull;
    if (f64)
      f64_inputs(a);
    else if (div)
      div_inputs(a, b);
    else
      f32_inputs(op, a);
    b.resize(a.size());
    if (!run(op, a, b, out)) return 1;
    for (size_t i = 0; i < a.size(); ++i) {
      if (f64)
        std::fprintf(f, "%s %016llx %016llx\n", kNames[op], (unsigned long long)a[i], (unsigned long long)out[i]);
      else if (div)
        std::fprintf(f, "%s %08x %08x %08x\n", kNames[op], (unsigned)a[i], (unsigned)b[i], (unsigned)out[i]);
      else
        std::fprintf(f, "%s %08x %08x\n", kNames[op], (unsigned)a[i], (unsigned)out[i]);
    }
    std::printf("%s: %zu inputs\n", kNames[op], a.size());
  }
  return file.finish() ? 0 : 1;
}
