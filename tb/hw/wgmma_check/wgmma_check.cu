// Runs the corpus's wgmma GEMMs (tb/corpus/src/wgmma_gemm.cu) on a GPU
// with sm_90a (an H100) and writes each one's inputs and D to a directory,
// so that `check.sh compare DIR` can run the same inputs through `ptxfu sim`
// and compare D byte for byte: the descriptor layouts and the wgmma numerics
// rows against the hardware.
//   check.sh gpu DIR (nvcc -gencode arch=compute_90a,code=sm_90a; prints one line a kernel:
//   entry, grid x and y, M, N, K, D's argument index, and writes DIR/ENTRY.{a,b,c,d}.bin)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../corpus/src/wgmma_gemm.cu"

namespace {

struct Case {
  const char* entry;
  int in_bytes, out_bytes, tile_n, k_step;
  bool has_c;
  int kind;  // 0 f16, 1 tf32, 2 e4m3: the inputs' encoding
};
const Case kCases[] = {
    {"wgmma_gemm_f16_f32", 2, 4, 64, 64, true, 0},   {"wgmma_gemm_f16_f32_regs", 2, 4, 32, 16, true, 0},
    {"wgmma_gemm_f16_f16", 2, 2, 16, 16, false, 0},  {"wgmma_gemm_tf32_f32", 4, 4, 32, 8, true, 1},
    {"wgmma_gemm_e4m3_f32", 1, 4, 32, 128, true, 2},
};

uint64_t state = 12345;
uint64_t next() {  // SplitMix64
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Finite values of moderate size in the input encoding; f32 C in [-8, 8).
uint32_t input(int kind) {
  const uint64_t v = next();
  if (kind == 0) return uint32_t((v & 0x8000) | ((11 + (v >> 16) % 8) << 10) | (v >> 32 & 0x3ff));
  if (kind == 1) return uint32_t((v & 0x80000000) | ((123 + (v >> 16) % 8) << 23) | (v >> 32 & 0x7fe000));
  return uint32_t((v & 0x80) | ((4 + (v >> 8) % 8) << 3) | (v >> 16 & 7));
}

std::vector<unsigned char> bytes(size_t n, int width, int kind, bool acc) {
  std::vector<unsigned char> out(n * width);
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = input(kind);
    if (acc) {
      const float f = float(int(next() % 16000) - 8000) / 1000.0f;
      std::memcpy(&v, &f, 4);
    }
    std::memcpy(&out[i * width], &v, width);
  }
  return out;
}

void write(const std::string& path, const std::vector<unsigned char>& b) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(b.data(), 1, b.size(), f) != b.size()) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(f);
}

void* device(const std::vector<unsigned char>& b) {
  void* p = nullptr;
  if (cudaMalloc(&p, b.size()) != cudaSuccess || cudaMemcpy(p, b.data(), b.size(), cudaMemcpyHostToDevice))
    std::exit(2);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: wgmma_check DIR\n"), 2;
  const std::string dir = argv[1];
  for (const Case& c : kCases) {
    const int m = 128, n = 2 * c.tile_n, k = 2 * c.k_step;
    const auto a = bytes(size_t(m) * k, c.in_bytes, c.kind, false), b = bytes(size_t(k) * n, c.in_bytes, c.kind, false);
    const auto cc = bytes(size_t(m) * n, 4, 0, true);
    std::vector<unsigned char> d(size_t(m) * n * c.out_bytes);
    void *da = device(a), *db = device(b), *dc = device(cc), *dd = device(d);
    const dim3 grid(n / c.tile_n, m / 64);
    const std::string e = c.entry;
    if (e == "wgmma_gemm_f16_f32")
      wgmma_gemm_f16_f32<<<grid, 128>>>((const __half*)da, (const __half*)db, (const float*)dc, (float*)dd, m, n, k);
    else if (e == "wgmma_gemm_f16_f32_regs")
      wgmma_gemm_f16_f32_regs<<<grid, 128>>>((const __half*)da, (const __half*)db, (const float*)dc, (float*)dd, m, n,
                                             k);
    else if (e == "wgmma_gemm_f16_f16")
      wgmma_gemm_f16_f16<<<grid, 128>>>((const __half*)da, (const __half*)db, (__half*)dd, m, n, k);
    else if (e == "wgmma_gemm_tf32_f32")
      wgmma_gemm_tf32_f32<<<grid, 128>>>((const float*)da, (const float*)db, (const float*)dc, (float*)dd, m, n, k);
    else
      wgmma_gemm_e4m3_f32<<<grid, 128>>>((const uint8_t*)da, (const uint8_t*)db, (const float*)dc, (float*)dd, m, n, k);
    if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(d.data(), dd, d.size(), cudaMemcpyDeviceToHost)) {
      std::fprintf(stderr, "%s: %s\n", c.entry, cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
    write(dir + "/" + e + ".a.bin", a);
    write(dir + "/" + e + ".b.bin", b);
    if (c.has_c) write(dir + "/" + e + ".c.bin", cc);
    write(dir + "/" + e + ".d.bin", d);
    std::printf("%s %d %d %d %d %d %d\n", c.entry, grid.x, grid.y, m, n, k, c.has_c ? 3 : 2);  // D's argument
  }
  return 0;
}
