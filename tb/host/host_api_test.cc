// The host API (ptxfu/host.hpp): device memory, module variables, argument
// checks, faults and the timeline, on the SystemC model. The oracles are
// host integers and floats, and the PTX text itself (the line a fault names).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <ptxfu/host.hpp>

namespace {

const std::string kPtx = PTXFU_HOST_KERNELS;  // tb/host/host_kernels.ptx

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The 1-based line of the first line of the module containing `what`.
unsigned line_of(const std::string& what) {
  std::istringstream in(text_of(kPtx));
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(what) != std::string::npos) return n;
  return 0;
}

template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const ptxfu::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<uint32_t> get_u32(const ptxfu::Device& d, const ptxfu::DeviceBuffer& b) {
  std::vector<uint32_t> v(b.bytes() / 4);
  d.copy_to_host(v.data(), b, b.bytes());
  return v;
}

TEST(HostMemory, CopiesRoundTripAndSlicesPointIntoTheirBuffer) {
  ptxfu::Device d("sm_80");
  std::vector<uint32_t> host(1000);
  std::iota(host.begin(), host.end(), 7u);
  ptxfu::DeviceBuffer x = d.malloc(4000);
  EXPECT_EQ(get_u32(d, x), std::vector<uint32_t>(1000, 0));  // malloc zero-fills
  d.copy_to_device(x, host.data(), 4000);
  EXPECT_EQ(get_u32(d, x), host);
  const ptxfu::DeviceBuffer tail = x.slice(400);
  EXPECT_EQ(tail.address(), x.address() + 400);
  EXPECT_EQ(tail.bytes(), 3600u);
  d.memset(tail.slice(0, 8), 0xff);
  host[100] = host[101] = 0xffffffffu;
  EXPECT_EQ(get_u32(d, x), host);
  ptxfu::DeviceBuffer y = d.malloc(4000);
  d.copy(y, x, 4000);
  EXPECT_EQ(get_u32(d, y), host);
  EXPECT_EQ(d.allocated_bytes(), 8000u);
}

TEST(HostMemory, BadUseIsAnErrorNamingTheBuffer) {
  ptxfu::Device d("sm_80"), other("sm_90");
  ptxfu::DeviceBuffer x = d.malloc(64);
  EXPECT_NE(error_of([&] { x.slice(60, 8); }).find("out of the buffer's 64 bytes"), std::string::npos);
  EXPECT_NE(error_of([&] { x.slice(65); }).find("slice [65, end)"), std::string::npos);
  std::vector<uint8_t> big(65);
  EXPECT_NE(error_of([&] { d.copy_to_device(x, big.data(), 65); }).find("65 bytes do not fit the 64 bytes"),
            std::string::npos);
  EXPECT_NE(error_of([&] { other.memset(x, 0); }).find("belongs to another device"), std::string::npos);
  const ptxfu::DeviceBuffer alias = x.slice(16);
  d.free(x);
  EXPECT_FALSE(alias.valid());
  EXPECT_NE(error_of([&] { d.memset(alias, 0); }).find("device buffer #1 (64 bytes at 0x"), std::string::npos);
  EXPECT_NE(error_of([&] { d.memset(alias, 0); }).find("was freed"), std::string::npos);
  EXPECT_EQ(d.allocated_bytes(), 0u);
}

TEST(HostMemory, TheLastHandleFreesItsAllocation) {
  ptxfu::Device d("sm_80");
  {
    ptxfu::DeviceBuffer x = d.malloc(1 << 20);
    EXPECT_EQ(d.allocated_bytes(), 1u << 20);
  }
  EXPECT_EQ(d.allocated_bytes(), 0u);
}

TEST(HostLaunch, MemoryPersistsAcrossLaunchesAndASliceIsAPointerIntoItsBuffer) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  const ptxfu::Kernel add_one = m.get_function("add_one");
  std::vector<uint32_t> host(1000);
  std::iota(host.begin(), host.end(), 0u);
  ptxfu::DeviceBuffer x = d.malloc(4000);
  d.copy_to_device(x, host.data(), 4000);
  add_one.launch({4}, {256}, {x, ptxfu::Scalar::u32(1000)});
  const ptxfu::LaunchResult r = add_one.launch({4}, {256}, {x.slice(400), ptxfu::Scalar::u32(900)});
  for (size_t i = 0; i < host.size(); ++i) host[i] += i >= 100 ? 2 : 1;
  EXPECT_EQ(get_u32(d, x), host);
  EXPECT_TRUE(r.ok);
  EXPECT_GT(r.cycles, 0u);
  EXPECT_EQ(r.ctas, 4u);
  EXPECT_GT(r.unit("lsu").warp_instructions, 0u);
  EXPECT_NE(r.to_json().find("\"cycles\":" + std::to_string(r.cycles)), std::string::npos);
}

TEST(HostLaunch, SaxpyRoundsAsTheHostsFma) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  const int n = 300;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 1.0f / (i + 1), y[i] = std::sqrt(float(i));
  ptxfu::DeviceBuffer dx = d.malloc(n * 4), dy = d.malloc(n * 4);
  d.copy_to_device(dx, x.data(), n * 4);
  d.copy_to_device(dy, y.data(), n * 4);
  m.get_function("saxpy").launch({2}, {256}, {dy, dx, ptxfu::Scalar::f32(3.1f), ptxfu::Scalar::s32(n)});
  std::vector<float> got(n);
  d.copy_to_host(got.data(), dy, n * 4);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], std::fma(3.1f, x[i], y[i])) << i;
}

TEST(HostLaunch, ModuleVariablesAreSetReadAndPersist) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  const int table[4] = {3, -5, 7, 11};
  m.set_global("c_table", table, sizeof table);
  EXPECT_EQ(m.global_bytes("c_table"), 16u);
  EXPECT_EQ(m.global_bytes("d_counter"), 4u);
  ptxfu::DeviceBuffer out = d.malloc(100 * 4);
  const ptxfu::Kernel k = m.get_function("read_table");
  k.launch({1}, {128}, {out, ptxfu::Scalar::u32(100)});
  k.launch({2}, {64}, {out, ptxfu::Scalar::u32(100)});
  std::vector<int> got(100);
  d.copy_to_host(got.data(), out, 400);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(got[i], table[i % 4] * i) << i;
  const std::vector<uint8_t> counter = m.get_global("d_counter");
  uint32_t c = 0;
  std::memcpy(&c, counter.data(), 4);
  EXPECT_EQ(c, 128u + 128u);  // every thread of both launches
  EXPECT_NE(error_of([&] { m.set_global("c_table", table, 17); }).find("17 bytes do not fit 'c_table' (16 bytes)"),
            std::string::npos);
  EXPECT_NE(error_of([&] { m.get_global("nope"); }).find("'nope'; the module has d_counter, c_table"),
            std::string::npos);
}

TEST(HostLaunch, BadArgumentsAreErrorsNamingTheParameterAndNothingRuns) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  const ptxfu::Kernel add_one = m.get_function("add_one");
  ptxfu::DeviceBuffer x = d.malloc(64);
  EXPECT_NE(error_of([&] { add_one.launch({1}, {32}, {x}); }).find("'add_one' takes 2 parameters"), std::string::npos);
  EXPECT_NE(error_of([&] {
              add_one.launch({1}, {32}, {x, ptxfu::Scalar::u64(4)});
            }).find("add_one_param_1', 4 bytes): the argument is a 8-byte scalar"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              add_one.launch({1}, {32}, {ptxfu::Scalar::u32(0), ptxfu::Scalar::u32(4)});
            }).find("the argument is a 4-byte scalar"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              add_one.launch({1}, {32}, {x, x});
            }).find("for parameter '.u32 add_one_param_1': a device pointer needs a 64-bit integer parameter"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              m.get_function("saxpy").launch({1}, {32}, {x, x, ptxfu::Scalar::s32(1), ptxfu::Scalar::s32(1)});
            }).find("an integer does not fit a floating-point parameter"),
            std::string::npos);
  ptxfu::Device other("sm_80");
  ptxfu::DeviceBuffer foreign = other.malloc(64);
  EXPECT_NE(error_of([&] {
              add_one.launch({1}, {32}, {foreign, ptxfu::Scalar::u32(1)});
            }).find("add_one: argument 0: device buffer #1 (64 bytes at 0x"),
            std::string::npos);
  d.free(x);
  EXPECT_NE(error_of([&] {
              add_one.launch({1}, {32}, {x, ptxfu::Scalar::u32(1)});
            }).find("was freed"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              m.get_function("add_two");
            }).find("no kernel (.entry) named 'add_two'; the module has add_one, read_table, saxpy, empty"),
            std::string::npos);
  EXPECT_TRUE(d.timeline().empty());
}

TEST(HostLaunch, AFaultThrowsTheSanitizerMessageWithThreadBlockAndLine) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  ptxfu::DeviceBuffer x = d.malloc(100 * 4);
  try {
    m.get_function("add_one").launch({2}, {128}, {x, ptxfu::Scalar::u32(200)});
    FAIL() << "no fault";
  } catch (const ptxfu::KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("Invalid __global__ read of size 4 bytes"), std::string::npos) << what;
    EXPECT_EQ(f.line, line_of("ld.global.u32"));
    ASSERT_TRUE(f.thread && f.block);
    EXPECT_GE(f.block->x * 128 + f.thread->x, 100u);  // past the buffer's 100 elements
    EXPECT_FALSE(f.result().ok);
  }
  ASSERT_EQ(d.timeline().size(), 1u);
  EXPECT_FALSE(d.timeline()[0].ok);
}

TEST(HostLaunch, APointerIntoAFreedBufferFaults) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  ptxfu::DeviceBuffer x = d.malloc(64);
  const uint64_t stale = x.address();
  d.free(x);
  try {
    m.get_function("add_one").launch({1}, {1}, {ptxfu::Scalar::u64(stale), ptxfu::Scalar::u32(1)});
    FAIL() << "no fault";
  } catch (const ptxfu::KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("address is not in any allocation"), std::string::npos) << f.what();
  }
}

TEST(HostLaunch, LaunchesFollowEachOtherOnTheTimeline) {
  ptxfu::Device d("sm_80");
  ptxfu::Module m = d.load_module(kPtx);
  const ptxfu::LaunchResult a = m.get_function("empty").launch({1}, {32}, {});
  ptxfu::DeviceBuffer x = d.malloc(64);
  const ptxfu::LaunchResult b = m.get_function("add_one").launch({1}, {32}, {x, ptxfu::Scalar::u32(16)});
  ASSERT_EQ(d.timeline().size(), 2u);
  EXPECT_EQ(a.start_cycle, 0u);
  EXPECT_EQ(a.end_cycle, a.cycles);
  EXPECT_EQ(b.start_cycle, a.end_cycle);
  EXPECT_EQ(b.end_cycle, a.cycles + b.cycles);
  EXPECT_EQ(d.timeline()[1].kernel, "add_one");
  EXPECT_EQ(d.cycle(), b.end_cycle);
}

TEST(HostDevice, AnUnknownConfigIsAnError) {
  EXPECT_NE(error_of([] { ptxfu::Device("sm_12"); }).find("sm_12"), std::string::npos);
  EXPECT_NE(error_of([] { ptxfu::Device("sm_80").load_module("/nonexistent.ptx"); }).find("cannot open"),
            std::string::npos);
}

}  // namespace
