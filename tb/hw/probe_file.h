// The output file of a GPU probe (approx_probe.cu, texture_probe.cu): opened
// under a temporary name with a first line naming the GPU, its driver and the
// probe, and renamed when complete, so that no partial file looks complete.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

namespace ptxfu::hw {

class ProbeFile {
 public:
  // Exit status for main: 77 without a CUDA device (a ctest "skip"), 1 on an
  // error, 0 when open.
  int open(const std::string& path, const char* probe) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "%s: no CUDA device; nothing written\n", probe);
      return 77;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
      std::fprintf(stderr, "%s: cudaGetDeviceProperties failed\n", probe);
      return 1;
    }
    int driver = 0;
    cudaDriverGetVersion(&driver);
    path_ = path;
    file_ = std::fopen(partial().c_str(), "w");
    if (!file_) {
      std::perror(partial().c_str());
      return 1;
    }
    std::fprintf(file_, "# GPU %s, sm_%d%d, CUDA driver %d, tb/hw/%s.cu\n", prop.name, prop.major, prop.minor, driver,
                 probe);
    return 0;
  }
  std::FILE* get() const { return file_; }
  // Closes and renames to the final name; false (with a message) on failure.
  bool finish() {
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (closed && std::rename(partial().c_str(), path_.c_str()) == 0) {
      std::printf("wrote %s\n", path_.c_str());
      return true;
    }
    std::perror(path_.c_str());
    return false;
  }

 private:
  std::string partial() const { return path_ + ".partial"; }
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace ptxfu::hw
