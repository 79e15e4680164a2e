// Helpers of the kernel executor tests: files, argument buffers of typed
// values, seeded random data (SplitMix64) and float bit casts.
#pragma once
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernel/kernel.h"

namespace ptxfu::kernel::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Kernel load_corpus(const std::string& name, const std::string& arch, const std::string& entry) {
  const std::string path = std::string(PTXFU_CORPUS_DIR) + "/" + name + "." + arch + ".ptx";
  return load_kernel(read_file(path), path, {entry, {}});
}

inline Kernel load_handwritten(const std::string& file, const std::string& entry) {
  const std::string path = std::string(PTXFU_KERNELS_DIR) + "/" + file;
  return load_kernel(read_file(path), path, {entry, {}});
}

struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // uniform in [lo, hi)
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() >> 40) / 16777216.0f; }
};

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> values_of_bytes(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

template <typename T>
std::vector<T> values_of(const Memory& m, unsigned arg) {
  const Buffer* b = m.arg_buffer(arg);
  EXPECT_NE(b, nullptr) << "no buffer for parameter " << arg;
  if (!b) return {};
  std::vector<T> v(b->bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b->bytes.data(), v.size() * sizeof(T));
  return v;
}

inline uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Whether `text` contains `part` (a message check), reporting both if not.
inline ::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "message:\n  " << text << "\ndoes not contain:\n  " << part;
}

// The f16 bits of a small non-negative integer (exact up to 2048).
inline uint16_t fp16_of_integer(uint32_t n) {
  if (n == 0) return 0;
  unsigned e = 31 - static_cast<unsigned>(__builtin_clz(n));
  return static_cast<uint16_t>((e + 15) << 10 | ((n << (10 - e)) & 0x3ff));
}

#ifdef PTXFU_KERNELS_ON_MODEL
// The same tests on the SM model (tb/kernels/model_run.h): both timing
// styles, which must agree.
RunResult run_on_model_both_styles(const Kernel& k, const Launch& l);
inline RunResult run_ok(const Kernel& k, const Launch& l) { return run_on_model_both_styles(k, l); }
#else
// Runs and fails the test with the executor's message on a fault.
inline RunResult run_ok(const Kernel& k, const Launch& l) {
  RunResult r = run_functional(k, l);
  EXPECT_TRUE(r.ok) << r.error;
  return r;
}
#endif

}  // namespace ptxfu::kernel::testing
