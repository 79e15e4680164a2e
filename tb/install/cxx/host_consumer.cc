// The three-kernel scan of examples/scan.cu through the installed host API
// (ptxfu::host), as a CUDA host program runs it, checked against a prefix
// sum of host integers; then a bad argument, which must be refused.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <ptxfu/host.hpp>

int main() {
  const unsigned n = 5000, block = 256, blocks = (n + block - 1) / block;
  std::vector<uint32_t> data(n);
  std::mt19937 rng(5);
  for (uint32_t& v : data) v = rng();

  ptxfu::Device dev("sm_80");
  const ptxfu::Module mod = dev.load_module(PTXFU_DATA_DIR "/examples/scan.ptx");
  const ptxfu::DeviceBuffer in = dev.malloc(n * 4), out = dev.malloc(n * 4), sums = dev.malloc((blocks + 1) * 4);
  dev.copy_to_device(in, data.data(), n * 4);
  mod.get_function("scan_blocks").launch({blocks}, {block}, {in, out, sums.slice(4), ptxfu::Scalar::u32(n)});
  mod.get_function("scan_sums").launch({1}, {1024}, {sums.slice(4), ptxfu::Scalar::u32(blocks)});
  const ptxfu::LaunchResult last =
      mod.get_function("add_offsets").launch({blocks}, {block}, {out, sums, ptxfu::Scalar::u32(n)});
  std::vector<uint32_t> got(n);
  dev.copy_to_host(got.data(), out, n * 4);

  int failures = 0;
  uint32_t sum = 0;
  for (unsigned i = 0; i < n; ++i) failures += got[i] != (sum += data[i]);
  if (dev.timeline().size() != 3 || last.end_cycle != dev.cycle() || last.cycles == 0) ++failures;
  try {
    mod.get_function("add_offsets").launch({1}, {32}, {out, sums, ptxfu::Scalar::u64(n)});
    ++failures;
  } catch (const ptxfu::Error& e) {
    if (std::string(e.what()).find("8-byte scalar") == std::string::npos) ++failures;
  }
  std::printf("%s: scan of %u on %s in %llu cycles, %d failures\n", failures ? "FAIL" : "ok", n,
              dev.config_name().c_str(), static_cast<unsigned long long>(dev.cycle()), failures);
  return failures ? 1 : 0;
}
