// Dumps a GPU's outputs of five .approx.ftz.f32 forms for every input of one
// or two binades (all 2^23 significands), the data for fitting ptxfu's MUFU
// tables to silicon bit for bit: rcp, lg2 and ex2 on [1, 2); sqrt and rsqrt
// on [1, 2) and [2, 4) (the two exponent parities their tables split on).
// ex2 on [1, 2) sees every fraction of 2^-23 in [0, 1).
//
//   approx_table_probe OUTDIR   writes OUTDIR/FORM.LO.bin per form and binade:
//                               a text line "ptxfu approx table FORM x in [LO, 2LO)
//                               GPU ..." ending in '\n', then the output bits
//                               of every input, each as its difference from
//                               the previous input's (the first from 0), a
//                               signed 32-bit little-endian integer: the
//                               outputs are monotonic and smooth, so the
//                               differences are small and compress well.
//
// Exit status: 0 written, 1 error, 77 no CUDA device.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kCount = 1u << 23;

enum Op { kRcp, kSqrt, kRsqrt, kLg2, kEx2 };

__global__ void apply(int op, uint32_t first, uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kCount) return;
  const uint32_t x = first + i;
  uint32_t r = 0;
  switch (op) {
    case kRcp: asm("rcp.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kSqrt: asm("sqrt.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kRsqrt: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    case kLg2: asm("lg2.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
    default: asm("ex2.approx.ftz.f32 %0, %1;" : "=r"(r) : "r"(x)); break;
  }
  out[i] = r;
}

struct Table {
  Op op;
  const char* form;
  uint32_t first;  // bits of the binade's first input
  const char* low;
};
const Table kTables[] = {
    {kRcp, "rcp.approx.ftz.f32", 0x3f800000, "1"},     {kSqrt, "sqrt.approx.ftz.f32", 0x3f800000, "1"},
    {kSqrt, "sqrt.approx.ftz.f32", 0x40000000, "2"},   {kRsqrt, "rsqrt.approx.ftz.f32", 0x3f800000, "1"},
    {kRsqrt, "rsqrt.approx.ftz.f32", 0x40000000, "2"}, {kLg2, "lg2.approx.ftz.f32", 0x3f800000, "1"},
    {kEx2, "ex2.approx.ftz.f32", 0x3f800000, "1"},
};

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "approx_table_probe: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

bool write(const std::string& dir, const Table& t, const std::vector<uint32_t>& out, const std::string& gpu) {
  const std::string path = dir + "/" + t.form + "." + t.low + ".bin", partial = path + ".partial";
  std::FILE* f = std::fopen(partial.c_str(), "wb");
  if (!f) return false;
  std::fprintf(f, "ptxfu approx table %s x in [%s, 2*%s) %s\n", t.form, t.low, t.low, gpu.c_str());
  uint32_t previous = 0;
  for (uint32_t i = 0; i < kCount; ++i) {
    const uint32_t step = out[i] - previous;  // two's complement: the signed difference
    for (int b = 0; b < 4; ++b) std::fputc(static_cast<int>(step >> (8 * b) & 0xff), f);
    previous = out[i];
  }
  if (std::fclose(f) != 0 || std::rename(partial.c_str(), path.c_str()) != 0) return false;
  std::printf("wrote %s\n", path.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: approx_table_probe OUTDIR\n");
    return 1;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "approx_table_probe: no CUDA device; nothing written\n");
    return 77;
  }
  cudaDeviceProp prop{};
  int driver = 0;
  if (!ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  cudaDriverGetVersion(&driver);
  const std::string gpu = std::string("GPU ") + prop.name + ", sm_" + std::to_string(prop.major) +
                          std::to_string(prop.minor) + ", CUDA driver " + std::to_string(driver) +
                          ", tb/hw/approx_table_probe.cu";
  uint32_t* dev = nullptr;
  if (!ok(cudaMalloc(&dev, kCount * sizeof(uint32_t)), "cudaMalloc")) return 1;
  std::vector<uint32_t> out(kCount);
  for (const Table& t : kTables) {
    apply<<<kCount / 256, 256>>>(t.op, t.first, dev);
    if (!ok(cudaGetLastError(), "launch") || !ok(cudaDeviceSynchronize(), t.form) ||
        !ok(cudaMemcpy(out.data(), dev, kCount * sizeof(uint32_t), cudaMemcpyDeviceToHost), "copy out") ||
        !write(argv[1], t, out, gpu))
      return 1;
  }
  cudaFree(dev);
  return 0;
}
