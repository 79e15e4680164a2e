// `ptxfu run PROGRAM.yaml` as a user runs it: the scan example against
// prefix sums in host integers, the data kinds against values written here,
// and the error cases (each at its FILE:LINE:COL and key, nothing written).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace {

namespace fs = std::filesystem;
using ptxfu::cli_test::run;

// SplitMix64 (Steele, Lea and Flood 2014), written out here apart from the
// one `random:SEED` uses: the test's own oracle for the input.
uint64_t next_splitmix64(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<uint32_t> read_u32(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptxfu_run_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy_file(fs::path(PTXFU_SOURCE_DIR) / "examples/scan.ptx", dir_ / "scan.ptx");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::string out_dir() const { return (dir_ / "out").string(); }
  bool nothing_written() const { return !fs::exists(dir_ / "out"); }

  fs::path dir_;
};

TEST_F(RunCli, ScanExampleIsTheInclusivePrefixSum) {
  const auto r = run("run " + std::string(PTXFU_SOURCE_DIR) + "/examples/scan.yaml --out-dir " + out_dir());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::vector<uint32_t> data = read_u32(dir_ / "out/data.bin"), out = read_u32(dir_ / "out/out.bin");
  ASSERT_EQ(data.size(), 16384u);
  ASSERT_EQ(out.size(), 16384u);
  uint64_t seed = 1;
  for (size_t i = 0; i < data.size(); i += 2) {
    const uint64_t x = next_splitmix64(seed);
    ASSERT_EQ(data[i], static_cast<uint32_t>(x)) << i;
    ASSERT_EQ(data[i + 1], static_cast<uint32_t>(x >> 32)) << i;
  }
  uint32_t sum = 0;  // wraps, as the kernel's unsigned adds do
  for (size_t i = 0; i < data.size(); ++i) {
    sum += data[i];
    ASSERT_EQ(out[i], sum) << "element " << i;
  }
  EXPECT_FALSE(fs::exists(dir_ / "out/sums.bin"));  // not in outputs:
  for (const auto& f : fs::directory_iterator(dir_ / "out")) EXPECT_NE(f.path().extension(), ".partial") << f.path();
  EXPECT_NE(r.out.find("launch 3: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total: 3 launches"), std::string::npos) << r.out;
}

// A launch's `cluster:` is `ptxfu sim --cluster`: the corpus's
// cluster_neighbour records each CTA's rank (x fastest, as the PTX ISA's
// %cluster_ctarank) and its cluster's size; a shape that does not divide
// the grid is an error naming the launch.
TEST_F(RunCli, ALaunchTakesAClusterShape) {
  fs::copy_file(fs::path(PTXFU_SOURCE_DIR) / "tb/corpus/ptx/cluster_dsmem.sm_90.ptx", dir_ / "cluster.ptx");
  auto program = [&](const std::string& cluster) {
    return write("c.yaml",
                 "config: sm_90\nkernel: cluster.ptx\nbuffers:\n"
                 "  out: {type: f32, count: 256}\n  where: {type: u32, count: 32}\n"
                 "  x: {type: f32, count: 256}\n"
                 "launches:\n"
                 "  - {entry: cluster_neighbour, grid: [4, 2], block: 32, cluster: " +
                     cluster +
                     ", args: [out, where, x, \"f32:1.0\"]}\n"
                     "outputs: [where]\n");
  };
  const auto r = run("run " + program("[2, 2]") + " --out-dir " + out_dir());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::vector<uint32_t> where = read_u32(dir_ / "out/where.bin");
  ASSERT_EQ(where.size(), 32u);
  for (uint32_t by = 0; by < 2; ++by)
    for (uint32_t bx = 0; bx < 4; ++bx) {
      const uint32_t b = by * 4 + bx;
      EXPECT_EQ(where[4 * b], (by % 2) * 2 + bx % 2) << "block " << b;
      EXPECT_EQ(where[4 * b + 1], 4u) << "block " << b;
    }
  fs::remove_all(dir_ / "out");
  const auto bad = run("run " + program("3") + " --out-dir " + out_dir());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("launches[0]"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("cluster"), std::string::npos) << bad.out;
  EXPECT_TRUE(nothing_written());
}

TEST_F(RunCli, JsonHasEachLaunchAndTheTotalOnOneTimeline) {
  const auto r = run("run " + std::string(PTXFU_SOURCE_DIR) + "/examples/scan.yaml --json 2>/dev/null");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["launches"].size(), 3u);
  const char* entries[] = {"scan_blocks", "scan_sums", "add_offsets"};
  uint64_t cycles = 0, insts = 0, end = 0;
  for (size_t i = 0; i < 3; ++i) {
    const auto& l = j["launches"][i];
    EXPECT_EQ(l["entry"], entries[i]);
    EXPECT_EQ(l["start_cycle"].get<uint64_t>(), end);
    EXPECT_EQ(l["end_cycle"].get<uint64_t>(), end + l["cycles"].get<uint64_t>());
    EXPECT_GT(l["cycles"].get<uint64_t>(), 0u);
    EXPECT_TRUE(l.contains("pipes") && l.contains("stalls") && l.contains("residency"));
    end = l["end_cycle"].get<uint64_t>();
    cycles += l["cycles"].get<uint64_t>();
    insts += l["warp_instructions"].get<uint64_t>();
  }
  EXPECT_EQ(j["launches"][1]["grid"], nlohmann::json({1, 1, 1}));
  EXPECT_EQ(j["launches"][1]["block"], nlohmann::json({1024, 1, 1}));
  EXPECT_EQ(j["total"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_EQ(j["total"]["warp_instructions"].get<uint64_t>(), insts);
  EXPECT_TRUE(j["outputs"].empty());
}

// Each launch as `ptxfu sim` runs it alone, per-line profile included: a
// scan whose arguments are whole buffers (sim's buffers are allocations of
// their own, so an argument into a buffer's middle would move the
// addresses, hence the coalescing), launch 1 on the same SplitMix64 input,
// launches 2 and 3 on zeros (their control flow does not depend on the
// values, so their timing does not).
TEST_F(RunCli, ProfileIsPerLaunchAndEachLaunchIsWhatSimReports) {
  const std::string ex = std::string(PTXFU_SOURCE_DIR) + "/examples/";
  const std::string yaml =
      write("p.yaml",
            "config: sm_80\nkernel: scan.ptx\nbuffers:\n"
            "  data: {type: u32, count: 16384, init: \"random:1\"}\n"
            "  out: {type: u32, count: 16384}\n  sums: {type: u32, count: 65}\n"
            "launches:\n"
            "  - {entry: scan_blocks, grid: 64, block: 256, args: [data, out, sums, \"u32:16384\"]}\n"
            "  - {entry: scan_sums, grid: 1, block: 1024, args: [sums, \"u32:65\"]}\n"
            "  - {entry: add_offsets, grid: 64, block: 256, args: [out, sums, \"u32:16384\"]}\n");
  const auto r = run("run " + yaml + " --json --profile 2>/dev/null");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["launches"].size(), 3u);
  const std::string sims[] = {
      "--entry scan_blocks --grid 64 --block 256 --arg buf:random:65536:1 --arg buf:zeros:65536 --arg buf:zeros:260 "
      "--arg u32:16384",
      "--entry scan_sums --grid 1 --block 1024 --arg buf:zeros:260 --arg u32:65",
      "--entry add_offsets --grid 64 --block 256 --arg buf:zeros:65536 --arg buf:zeros:260 --arg u32:16384"};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(sims[i]);
    const auto s = run("sim " + ex + "scan.ptx --config sm_80 --json --profile " + sims[i] + " 2>/dev/null");
    ASSERT_EQ(s.status, 0) << s.out;
    const auto want = nlohmann::json::parse(s.out);
    const auto& got = j["launches"][i];
    EXPECT_EQ(got["cycles"], want["cycles"]);
    EXPECT_EQ(got["warp_instructions"], want["warp_instructions"]);
    EXPECT_EQ(got["ctas"], want["ctas"]);
    EXPECT_EQ(got["stalls"], want["stalls"]);
    for (const auto& [unit, use] : want["pipes"].items())
      EXPECT_EQ(got["pipes"][unit]["busy_cycles"], use["busy_cycles"]);
    ASSERT_TRUE(got.contains("lines"));
    EXPECT_EQ(got["lines"], want["lines"]);
  }
  const auto text = run("run " + yaml + " --profile");
  ASSERT_EQ(text.status, 0) << text.out;
  size_t profiles = 0, tops = 0;
  for (size_t at = 0; (at = text.out.find("profile: per PTX line", at)) != std::string::npos; ++at) ++profiles;
  for (size_t at = 0; (at = text.out.find("top stall lines:", at)) != std::string::npos; ++at) ++tops;
  EXPECT_EQ(profiles, 3u) << text.out;
  EXPECT_EQ(tops, 3u);
}

// arange, file: and a __constant__ variable, through a kernel written here:
// v[i] = v[i] * c_add[1] + c_add[0].
TEST_F(RunCli, ArangeFileAndConstants) {
  write("addc.ptx", R"(.version 8.0
.target sm_80
.address_size 64
.const .align 4 .u32 c_add[2];
.visible .entry addc(.param .u64 addc_param_0)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [addc_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	ld.const.u32 %r2, [c_add];
	ld.const.u32 %r3, [c_add+4];
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r4, [%rd4];
	mad.lo.s32 %r5, %r4, %r3, %r2;
	st.global.u32 [%rd4], %r5;
	ret;
}
)");
  const uint32_t c[2] = {7, 3};
  std::ofstream(dir_ / "c.bin", std::ios::binary).write(reinterpret_cast<const char*>(c), sizeof c);
  const std::string yaml = write("p.yaml", R"(kernel: addc.ptx
buffers:
  v: {type: s32, count: 8, init: "arange:-3:2"}
  w: {type: u32, init: "file:c.bin"}
constants:
  - {name: c_add, type: u32, count: 2, init: "file:c.bin"}
launches:
  - {block: 8, args: [v]}
  - {block: 2, args: [w]}
)");
  const auto r = run("run " + yaml + " --out-dir " + out_dir());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::vector<uint32_t> v = read_u32(dir_ / "out/v.bin"), w = read_u32(dir_ / "out/w.bin");
  ASSERT_EQ(v.size(), 8u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<int32_t>(v[i]), (-3 + 2 * i) * 3 + 7) << i;
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], 7u * 3 + 7);
  EXPECT_EQ(w[1], 3u * 3 + 7);
}

// Each bad program: exit status, the message at FILE:LINE:COL and key, and no --out-dir.
struct BadProgram {
  const char* name;
  const char* yaml;
  int status;
  const char* message;  // after "p.yaml:"
};

const BadProgram kBadPrograms[] = {
    {"unknown top-level key", "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\nlanches: []\n", 2,
     "4:1: key 'lanches': unknown key"},
    {"unknown launch key", "kernel: scan.ptx\nlaunches:\n  - entry: scan_sums\n    grdi: 1\n", 2,
     "4:5: key 'launches[0].grdi': unknown key"},
    {"unknown buffer key", "kernel: scan.ptx\nbuffers:\n  x: {type: u32, size: 8}\nlaunches: []\n", 2,
     "3:18: key 'buffers.x.size': unknown key"},
    {"buffer not defined",
     "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\nlaunches:\n  - entry: add_offsets\n"
     "    args: [x, y, \"u32:8\"]\n",
     2, "6:15: key 'launches[0].args[1]': no buffer named 'y' is defined"},
    {"offset past the buffer",
     "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\nlaunches:\n  - entry: add_offsets\n"
     "    args: [x, x+8, \"u32:8\"]\n",
     2, "6:15: key 'launches[0].args[1]': 'x+8': expected NAME+K with K an element index 0..7"},
    {"unknown entry", "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\nlaunches:\n  - entry: nosuch\n", 2,
     "5:12: key 'launches[0].entry':"},
    {"argument count",
     "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\nlaunches:\n  - entry: add_offsets\n    args: [x, x]\n", 2,
     "5:5: key 'launches[0]': "},
    {"scalar wider than its parameter",
     "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\nlaunches:\n  - entry: add_offsets\n"
     "    args: [x, x, \"u64:8\"]\n",
     2, "5:5: key 'launches[0]': "},
    {"unknown init", "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8, init: ones}\nlaunches: []\n", 2,
     "3:34: key 'buffers.x.init': unknown init 'ones'"},
    {"kernel faults",
     "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\n  s: {type: u32, count: 1}\nlaunches:\n"
     "  - entry: add_offsets\n    block: 256\n    args: [x, s, \"u32:256\"]\n",
     1, "6:5: launches[0] ('add_offsets'): "},
    {"the second launch faults",
     "kernel: scan.ptx\nbuffers:\n  x: {type: u32, count: 8}\n  s: {type: u32, count: 1}\nlaunches:\n"
     "  - {entry: add_offsets, block: 8, args: [x, s, \"u32:8\"]}\n"
     "  - {entry: add_offsets, block: 16, args: [x, s, \"u32:16\"]}\n",
     1, "7:5: launches[1] ('add_offsets'): "},
};

TEST_F(RunCli, BadProgramsNameThePlaceAndWriteNothing) {
  for (const BadProgram& b : kBadPrograms) {
    SCOPED_TRACE(b.name);
    const std::string yaml = write("p.yaml", b.yaml);
    const auto r = run("run " + yaml + " --out-dir " + out_dir());
    EXPECT_EQ(r.status, b.status) << r.out;
    EXPECT_NE(r.out.find("p.yaml:" + std::string(b.message)), std::string::npos) << r.out;
    EXPECT_TRUE(nothing_written());
  }
}

TEST_F(RunCli, AFaultNamesTheThreadAndTheEntriesAreListed) {
  const std::string yaml = write("p.yaml", kBadPrograms[9].yaml);
  const auto fault = run("run " + yaml);
  EXPECT_NE(fault.out.find("by thread (8,0,0) in block (0,0,0)"), std::string::npos) << fault.out;
  write("p.yaml", kBadPrograms[5].yaml);
  const auto entry = run("run " + yaml);
  EXPECT_NE(entry.out.find("scan_blocks, scan_sums, add_offsets"), std::string::npos) << entry.out;
}

TEST_F(RunCli, MissingProgramAndBadConfig) {
  const auto missing = run("run " + (dir_ / "none.yaml").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("none.yaml: cannot open"), std::string::npos) << missing.out;
  const std::string yaml = write("p.yaml", "kernel: scan.ptx\nlaunches:\n  - {entry: scan_sums}\n");
  const auto config = run("run " + yaml + " --config sm_nosuch");
  EXPECT_EQ(config.status, 2) << config.out;
  EXPECT_NE(config.out.find("sm_nosuch"), std::string::npos) << config.out;
}

}  // namespace
