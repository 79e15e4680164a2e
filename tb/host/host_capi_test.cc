// The host API's C face (ptxfu/host.h): the examples' three-kernel scan in
// the driver API's shape against a host prefix sum, pointer arithmetic on
// device pointers, and a status with a message naming the thing for each
// misuse.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <ptxfu/host.h>

namespace {

const char* const kScan = PTXFU_SCAN_PTX;         // examples/scan.ptx
const char* const kKernels = PTXFU_HOST_KERNELS;  // tb/host/host_kernels.ptx

#define OK(call) ASSERT_EQ((call), PTXFU_SUCCESS) << ptxfuGetLastErrorMessage()

TEST(HostCapi, TheScanInTheDriverApisShape) {
  ptxfuDevice dev;
  ptxfuModule mod;
  ptxfuFunction blocks_fn, sums_fn, add_fn;
  OK(ptxfuDeviceCreate(&dev, "sm_80"));
  OK(ptxfuModuleLoad(&mod, dev, kScan));
  OK(ptxfuModuleGetFunction(&blocks_fn, mod, "scan_blocks"));
  OK(ptxfuModuleGetFunction(&sums_fn, mod, "scan_sums"));
  OK(ptxfuModuleGetFunction(&add_fn, mod, "add_offsets"));
  unsigned n = 3000, blocks = (n + 255) / 256;
  std::vector<uint32_t> data(n);
  std::mt19937 rng(9);
  for (uint32_t& v : data) v = rng();
  ptxfuDeviceptr in, out, sums;
  OK(ptxfuMalloc(dev, &in, n * 4));
  OK(ptxfuMalloc(dev, &out, n * 4));
  OK(ptxfuMalloc(dev, &sums, (blocks + 1) * 4));
  OK(ptxfuMemsetD8(dev, sums, 0, (blocks + 1) * 4));
  OK(ptxfuMemcpyHtoD(dev, in, data.data(), n * 4));
  ptxfuDeviceptr sums1 = sums + 4;  // a pointer into the middle, by arithmetic
  void* p1[] = {&in, &out, &sums1, &n};
  void* p2[] = {&sums1, &blocks};
  void* p3[] = {&out, &sums, &n};
  uint64_t c1 = 0, c2 = 0, c3 = 0;
  OK(ptxfuLaunchKernel(blocks_fn, blocks, 1, 1, 256, 1, 1, 0, p1, &c1));
  OK(ptxfuLaunchKernel(sums_fn, 1, 1, 1, 1024, 1, 1, 0, p2, &c2));
  OK(ptxfuLaunchKernel(add_fn, blocks, 1, 1, 256, 1, 1, 0, p3, &c3));
  EXPECT_GT(c1 * c2 * c3, 0u);
  std::vector<uint32_t> got(n);
  OK(ptxfuMemcpyDtoH(dev, got.data(), out, n * 4));
  uint32_t sum = 0;
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i], sum += data[i]) << i;
  std::vector<uint32_t> tail(10);
  OK(ptxfuMemcpyDtoH(dev, tail.data(), out + (n - 10) * 4, 40));
  EXPECT_EQ(tail.back(), sum);
  OK(ptxfuFree(dev, in));
  OK(ptxfuModuleUnload(mod));
  OK(ptxfuDeviceDestroy(dev));
}

TEST(HostCapi, EachMisuseHasItsStatusAndAMessageNamingTheThing) {
  ptxfuDevice dev;
  ptxfuModule mod;
  ptxfuFunction f;
  auto message = [] { return std::string(ptxfuGetLastErrorMessage()); };
  EXPECT_EQ(ptxfuDeviceCreate(&dev, "sm_13"), PTXFU_ERROR_INVALID_CONFIG);
  EXPECT_NE(message().find("sm_13"), std::string::npos) << message();
  OK(ptxfuDeviceCreate(&dev, "sm_80"));
  EXPECT_EQ(ptxfuModuleLoad(&mod, dev, "/nonexistent/k.ptx"), PTXFU_ERROR_NOT_FOUND);
  EXPECT_NE(message().find("/nonexistent/k.ptx: cannot open"), std::string::npos) << message();
  EXPECT_EQ(ptxfuModuleLoadData(&mod, dev,
                                ".version 8.0\n.target sm_80\n.address_size 64\n"
                                ".visible .entry k() { fma.rn.f32 %f1, 1.0; }\n"),
            PTXFU_ERROR_INVALID_PTX);
  OK(ptxfuModuleLoad(&mod, dev, kKernels));
  EXPECT_EQ(ptxfuModuleGetFunction(&f, mod, "add_two"), PTXFU_ERROR_NOT_FOUND);
  EXPECT_NE(message().find("no kernel (.entry) named 'add_two'"), std::string::npos) << message();
  EXPECT_EQ(std::string(ptxfuGetErrorName(PTXFU_ERROR_NOT_FOUND)), "PTXFU_ERROR_NOT_FOUND");
  ptxfuDeviceptr x;
  OK(ptxfuMalloc(dev, &x, 64));
  uint8_t host[65] = {};
  EXPECT_EQ(ptxfuMemcpyHtoD(dev, x + 8, host, 57), PTXFU_ERROR_INVALID_ADDRESS);
  EXPECT_NE(message().find("not inside an allocation"), std::string::npos) << message();
  EXPECT_EQ(ptxfuMemcpyDtoH(dev, host, x - 1, 1), PTXFU_ERROR_INVALID_ADDRESS);
  EXPECT_EQ(ptxfuFree(dev, x + 4), PTXFU_ERROR_INVALID_ADDRESS);
  uint32_t table[4] = {1, 2, 3, 4}, back[4] = {};
  OK(ptxfuModuleSetGlobal(mod, "c_table", table, 16));
  OK(ptxfuModuleGetGlobal(mod, "c_table", back, 16));
  EXPECT_EQ(back[3], 4u);
  EXPECT_EQ(ptxfuModuleSetGlobal(mod, "c_tabel", table, 16), PTXFU_ERROR_NOT_FOUND);
  OK(ptxfuModuleGetFunction(&f, mod, "add_one"));
  unsigned n = 64;  // 16 elements past the buffer's 16
  void* params[] = {&x, &n};
  EXPECT_EQ(ptxfuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, params, nullptr), PTXFU_ERROR_LAUNCH_FAILED);
  EXPECT_NE(message().find("Invalid __global__ read of size 4 bytes"), std::string::npos) << message();
  EXPECT_EQ(ptxfuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, params, nullptr), PTXFU_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(message().find("a block has 1 to 1024 threads"), std::string::npos) << message();
  OK(ptxfuFree(dev, x));
  EXPECT_EQ(ptxfuFree(dev, x), PTXFU_ERROR_INVALID_ADDRESS);
  OK(ptxfuModuleUnload(mod));
  OK(ptxfuDeviceDestroy(dev));
}

// ptxfuLaunchKernelCluster: the corpus's cluster_neighbour records each
// CTA's rank and its cluster's size; the PTX ISA's %cluster_ctarank counts
// x fastest. A shape that does not divide the grid is refused.
TEST(HostCapi, ClusterLaunchesGiveEachCtaItsRank) {
  ptxfuDevice dev;
  ptxfuModule mod;
  ptxfuFunction f;
  OK(ptxfuDeviceCreate(&dev, "sm_90"));
  OK(ptxfuModuleLoad(&mod, dev, PTXFU_CLUSTER_PTX));
  OK(ptxfuModuleGetFunction(&f, mod, "cluster_neighbour"));
  const unsigned gx = 4, gy = 2, cx = 2, cy = 2, block = 32, ctas = gx * gy;
  ptxfuDeviceptr out, where, x;
  OK(ptxfuMalloc(dev, &out, ctas * block * 4));
  OK(ptxfuMalloc(dev, &where, ctas * 16));
  OK(ptxfuMalloc(dev, &x, ctas * block * 4));
  float scale = 1.0f;
  void* params[] = {&out, &where, &x, &scale};
  OK(ptxfuLaunchKernelCluster(f, gx, gy, 1, block, 1, 1, cx, cy, 1, 0, params, nullptr));
  std::vector<uint32_t> got(ctas * 4);
  OK(ptxfuMemcpyDtoH(dev, got.data(), where, ctas * 16));
  for (unsigned by = 0; by < gy; ++by)
    for (unsigned bx = 0; bx < gx; ++bx) {
      const unsigned b = by * gx + bx;
      EXPECT_EQ(got[4 * b], (by % cy) * cx + bx % cx) << "block " << b;
      EXPECT_EQ(got[4 * b + 1], cx * cy) << "block " << b;
    }
  EXPECT_EQ(ptxfuLaunchKernelCluster(f, gx, gy, 1, block, 1, 1, 3, 1, 1, 0, params, nullptr),
            PTXFU_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ptxfuGetLastErrorMessage()).find("cluster"), std::string::npos);
  OK(ptxfuModuleUnload(mod));
  OK(ptxfuDeviceDestroy(dev));
}

}  // namespace
