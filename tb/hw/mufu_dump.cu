// Dumps a GPU's exact outputs of the half-precision MUFU instructions for
// every one of the 65536 inputs, in ptxfu's hardware-table format
// (src/approx/half_table.h), so that ptxfu can be made bit-exact with that
// GPU: `ptxfu` loads the files through approx::read_table_file and
// approx::install_hardware_table.
//
//   mufu_dump [OUTDIR]     writes OUTDIR/<function>.tab for
//                          tanh.approx.f16, ex2.approx.f16,
//                          tanh.approx.bf16, ex2.approx.ftz.bf16
//
// Exit status: 0 written, 1 error, 77 no CUDA device (a ctest "skip").
// Each file is written under a temporary name and renamed when complete, so
// no partial file is left looking complete.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "table_writer.h"

namespace {

constexpr int kInputs = 65536;
constexpr int kFunctions = 4;
const char* const kNames[kFunctions] = {"tanh.approx.f16", "ex2.approx.f16", "tanh.approx.bf16", "ex2.approx.ftz.bf16"};

// One thread per input; out[f * 65536 + x] = function f applied to bit pattern x.
__global__ void mufu_all(uint16_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kInputs) return;
  const unsigned short x = static_cast<unsigned short>(i);
  unsigned short y;
  asm volatile("tanh.approx.f16 %0, %1;" : "=h"(y) : "h"(x));
  out[0 * kInputs + i] = y;
  asm volatile("ex2.approx.f16 %0, %1;" : "=h"(y) : "h"(x));
  out[1 * kInputs + i] = y;
  asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(y) : "h"(x));
  out[2 * kInputs + i] = y;
  asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(y) : "h"(x));
  out[3 * kInputs + i] = y;
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "mufu_dump: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

bool write_table(const std::string& dir, int f, const uint16_t* t, const std::string& source) {
  const std::string path = dir + "/" + kNames[f] + ".tab";
  if (!ptxfu::hw::write_half_table_file(path, kNames[f], source, t)) return false;
  std::printf("wrote %s\n", path.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "mufu_dump: no CUDA device; nothing written\n");
    return 77;
  }
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  int driver = 0;
  cudaDriverGetVersion(&driver);
  const std::string source = std::string("GPU ") + prop.name + ", sm_" + std::to_string(prop.major) +
                             std::to_string(prop.minor) + ", CUDA driver " + std::to_string(driver) +
                             ", tb/hw/mufu_dump.cu";
  if (prop.major < 9) {
    std::fprintf(stderr, "mufu_dump: %s is sm_%d%d; the bf16 forms need sm_90\n", prop.name, prop.major, prop.minor);
    return 1;
  }

  uint16_t* dev = nullptr;
  const size_t bytes = sizeof(uint16_t) * kInputs * kFunctions;
  if (!check(cudaMalloc(&dev, bytes), "cudaMalloc")) return 1;
  mufu_all<<<kInputs / 256, 256>>>(dev);
  std::vector<uint16_t> host(static_cast<size_t>(kInputs) * kFunctions);
  const bool ran = check(cudaGetLastError(), "kernel launch") &&
                   check(cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(dev);
  if (!ran) return 1;

  for (int f = 0; f < kFunctions; ++f) {
    if (!write_table(dir, f, host.data() + static_cast<size_t>(f) * kInputs, source)) return 1;
  }
  return 0;
}
