// --rtl-tensor (models/rtl_tensor_check.h): the corpus's tensor-core GEMMs
// on the kernel model with every block of the engine also computed by the
// verilated block FMA of its numerics row. The oracles: the GEMM's D
// against a host reference (the row's block FMA chained in the kernel's k
// order, written apart from the kernel executor), the number of blocks and
// mma from the launch's shape and the row's block width, and the broken
// RTL's reports replayed through the engine.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kernel/kernel.h"
#include "mma/block_fma.h"
#include "mma/numerics.h"
#include "models/simulator.h"

namespace ptxfu::models {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

kernel::Kernel corpus(const std::string& name, const std::string& arch, const std::string& entry) {
  const std::string path = std::string(PTXFU_CORPUS_DIR) + "/" + name + "." + arch + ".ptx";
  return kernel::load_kernel(read_file(path), path, {entry, {}});
}

ArchConfig embedded(std::string_view name) {
  for (const auto& e : embedded_configs())
    if (e.name == name) return load_config_text(std::string(e.text), "embedded:" + std::string(name));
  throw std::runtime_error("no embedded config " + std::string(name));
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Finite f16 of both signs in [2^-4, 2^4); e4m3 in [2^-3, 2^5) (exponent
// field 4..11); f32 accumulators in (-8, 8) with every exponent below.
uint64_t random_f16(uint64_t& s) {
  const uint64_t v = splitmix(s);
  return (v & 0x8000) | ((11 + (v >> 16) % 8) << 10) | (v >> 32 & 0x3ff);
}
uint64_t random_e4m3(uint64_t& s) {
  const uint64_t v = splitmix(s);
  return (v & 0x80) | ((4 + (v >> 8) % 8) << 3) | (v >> 16 & 7);
}
uint64_t random_f32(uint64_t& s) {
  const uint64_t v = splitmix(s);
  return (v & 0x80000000u) | ((100 + (v >> 32) % 30) << 23) | (v & 0x7fffff);
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<uint64_t>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  for (size_t i = 0; i < v.size(); ++i) {
    const T x = static_cast<T>(v[i]);
    std::memcpy(b.data() + i * sizeof(T), &x, sizeof(T));
  }
  return b;
}

// A GEMM D = A B + C of the corpus: A M x K, B by columns (N x K), C M x N.
struct Gemm {
  int m, n, k;
  std::vector<uint64_t> a, b_cols, c;
};

Gemm random_gemm(int m, int n, int k, uint64_t (*element)(uint64_t&), uint64_t seed) {
  Gemm g{m,
         n,
         k,
         std::vector<uint64_t>(size_t(m) * k),
         std::vector<uint64_t>(size_t(n) * k),
         std::vector<uint64_t>(size_t(m) * n)};
  for (auto& v : g.a) v = element(seed);
  for (auto& v : g.b_cols) v = element(seed);
  for (auto& v : g.c) v = random_f32(seed);
  return g;
}

// The host reference: per element of D, `row`'s block FMA over each
// instruction's `step` of k, in ascending k, from c.
std::vector<uint32_t> reference(const mma::NumericsRow& row, int step, const Gemm& g) {
  std::vector<uint32_t> d(g.c.size());
  for (int i = 0; i < g.m; ++i)
    for (int j = 0; j < g.n; ++j) {
      uint64_t acc = g.c[size_t(i) * g.n + j];
      for (int k0 = 0; k0 < g.k; k0 += step)
        acc = mma::block_fma(row, size_t(step), &g.a[size_t(i) * g.k + k0], &g.b_cols[size_t(j) * g.k + k0], acc);
      d[size_t(i) * g.n + j] = static_cast<uint32_t>(acc);
    }
  return d;
}

// The blocks one instruction's k makes of one element of D: each of the
// row's k_split datapath instructions runs its share in blocks of W.
uint64_t blocks_per_element(const mma::NumericsRow& row, int step) {
  const int split = row.k_split > 1 ? row.k_split : 1;
  return uint64_t(split) * ((step / split + row.block_width - 1) / row.block_width);
}

std::vector<uint32_t> output(const SimResult& r, size_t buffer) {
  const std::vector<uint8_t>& bytes = r.memory.buffers.at(buffer).bytes;
  std::vector<uint32_t> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

SimJob job_of(const ArchConfig& c, const kernel::Kernel& k, kernel::Launch l, bool broken = false) {
  SimJob j;
  j.config = &c;
  j.kernel = &k;
  j.launch = std::move(l);
  j.rtl_tensor = true;
  j.rtl_tensor_broken = broken;
  return j;
}

// mma_gemm_f16_f32 (mma.sync m16n8k16 from sm_80): grid (N/8, M/16).
kernel::Launch mma_gemm_launch(const Gemm& g) {
  std::vector<uint64_t> b_rows(g.b_cols.size());  // the kernel takes B row-major (K x N)
  for (int kk = 0; kk < g.k; ++kk)
    for (int j = 0; j < g.n; ++j) b_rows[size_t(kk) * g.n + j] = g.b_cols[size_t(j) * g.k + kk];
  kernel::Launch l;
  l.grid = {uint32_t(g.n / 8), uint32_t(g.m / 16)};
  l.block = {32};
  l.args = {kernel::Arg::buffer(bytes_of<uint16_t>(g.a)),
            kernel::Arg::buffer(bytes_of<uint16_t>(b_rows)),
            kernel::Arg::buffer(bytes_of<uint32_t>(g.c)),
            kernel::Arg::zeros(g.c.size() * 4),
            kernel::Arg::s32(g.m),
            kernel::Arg::s32(g.n),
            kernel::Arg::s32(g.k)};
  return l;
}

// fp8_mma_gemm_e4m3_f32 (mma.sync m16n8k32, B given as N x K): grid (N/8, M/16).
kernel::Launch fp8_gemm_launch(const Gemm& g) {
  kernel::Launch l;
  l.grid = {uint32_t(g.n / 8), uint32_t(g.m / 16)};
  l.block = {32};
  l.args = {kernel::Arg::buffer(bytes_of<uint8_t>(g.a)),
            kernel::Arg::buffer(bytes_of<uint8_t>(g.b_cols)),
            kernel::Arg::buffer(bytes_of<uint32_t>(g.c)),
            kernel::Arg::zeros(g.c.size() * 4),
            kernel::Arg::s32(g.m),
            kernel::Arg::s32(g.n),
            kernel::Arg::s32(g.k)};
  return l;
}

void expect_clean(const SimResult& r, const mma::NumericsRow& row, int step, const Gemm& g, const char* what) {
  ASSERT_TRUE(r.ok) << what << ": " << r.error;
  ASSERT_TRUE(r.rtl_tensor) << what;
  const auto& t = r.rtl_tensor_cosim;
  EXPECT_EQ(t.mismatches, 0u) << what;
  for (const auto& line : t.reports) ADD_FAILURE() << what << ":\n" << line;
  EXPECT_EQ(t.blocks, uint64_t(g.m) * g.n * (g.k / step) * blocks_per_element(row, step)) << what;
  EXPECT_EQ(t.instructions, uint64_t(g.m / 16) * (g.n / 8) * (g.k / step)) << what;
  EXPECT_EQ(output(r, 3), reference(row, step, g)) << what << ": D";
}

const mma::NumericsRow& row_of(int sm, mma::Elem in) {
  const mma::NumericsRow* row = mma::find_row(sm, mma::Family::mma_sync, in, mma::Elem::f32);
  if (row == nullptr) throw std::runtime_error("no row");
  return *row;
}

// sm_80 f16 -> f32 (W = 8, two blocks an element per m16n8k16), loosely
// timed; the fp8 GEMM on sm_89 (native e4m3, W = 16 with the 13-bit sum)
// approximately timed, and on sm_90 (widened to f16 in two k16
// instructions, c added apart); the cycles are those of the run without it.
TEST(RtlTensor, CorpusGemmsRunWithNoMismatch) {
  const ArchConfig sm80 = embedded("sm_80"), sm89 = embedded("sm_89"), sm90 = embedded("sm_90");
  const kernel::Kernel f16 = corpus("mma_gemm", "sm_80", "mma_gemm_f16_f32");
  const kernel::Kernel fp8 = corpus("fp8_mma_gemm", "sm_89", "fp8_mma_gemm_e4m3_f32");
  const Gemm g16 = random_gemm(32, 32, 64, random_f16, 1), g8 = random_gemm(32, 16, 128, random_e4m3, 2);
  std::vector<SimJob> jobs = {job_of(sm80, f16, mma_gemm_launch(g16)), job_of(sm89, fp8, fp8_gemm_launch(g8)),
                              job_of(sm90, fp8, fp8_gemm_launch(g8)), job_of(sm80, f16, mma_gemm_launch(g16))};
  jobs[1].style = TimingStyle::approximately_timed;
  jobs[3].rtl_tensor = false;
  const std::vector<SimResult> r = simulate(jobs);
  EXPECT_EQ(r[0].cycles, r[3].cycles) << "the RTL check changes no timing";
  EXPECT_FALSE(r[3].rtl_tensor);
  EXPECT_EQ(r[3].rtl_tensor_cosim.blocks, 0u);
  expect_clean(r[0], row_of(80, mma::Elem::f16), 16, g16, "sm_80 f16");
  expect_clean(r[1], row_of(89, mma::Elem::e4m3), 32, g8, "sm_89 e4m3");
  expect_clean(r[2], row_of(90, mma::Elem::e4m3), 32, g8, "sm_90 e4m3");
  EXPECT_EQ(r[0].rtl_tensor_cosim.models, std::vector<std::string>{"f16->f32 W=8 B=24 carry=6 rz NUM_STAGES=3"});
  EXPECT_EQ(r[2].rtl_tensor_cosim.models, std::vector<std::string>{"f16->f32 W=16 B=25 carry=7 rz NUM_STAGES=3"});
}

// The copy with one alignment bit dropped: mismatches, each reported with
// a line the engine agrees is its own block (expected = the engine's
// result on the line's operands) and the RTL's different result; the
// registers still get the engine's results.
TEST(RtlTensor, BrokenAlignmentIsCaughtAndReported) {
  const ArchConfig sm80 = embedded("sm_80");
  const kernel::Kernel f16 = corpus("mma_gemm", "sm_80", "mma_gemm_f16_f32");
  const Gemm g = random_gemm(32, 16, 64, random_f16, 3);
  const SimResult r = simulate({job_of(sm80, f16, mma_gemm_launch(g), true)}).front();
  ASSERT_TRUE(r.ok) << r.error;
  const auto& t = r.rtl_tensor_cosim;
  EXPECT_GT(t.mismatches, 0u);
  EXPECT_LE(t.mismatches, t.blocks);
  EXPECT_EQ(output(r, 3), reference(row_of(80, mma::Elem::f16), 16, g));
  ASSERT_EQ(t.reports.size(), std::min<uint64_t>(t.mismatches, RtlTensorStats::kMaxReports));
  const std::regex context(
      R"(^# \S+mma_gemm\.sm_80\.ptx:\d+:\d+ 'mma\.sync[^']*' warp 0 of CTA \(\d+,\d+,0\) on sm_80, )"
      R"(block f16->f32 W=8 B=24 carry=6 rz NUM_STAGES=3: engine 0x([0-9a-f]{8}), RTL 0x([0-9a-f]+)\n)");
  const std::regex replay(
      R"(mma\.block sm_80 mma f16 f32 a=(\S+) b=(\S+) c=0x([0-9a-f]{8}) # expected 0x([0-9a-f]{8})$)");
  const mma::NumericsRow& row = *mma::find_row(80, mma::Family::mma_sync, mma::Elem::f16, mma::Elem::f32);
  for (const std::string& report : t.reports) {
    std::smatch head, line;
    ASSERT_TRUE(std::regex_search(report, head, context)) << report;
    const std::string tail = report.substr(report.find('\n') + 1);
    ASSERT_TRUE(std::regex_match(tail, line, replay)) << report;
    uint64_t a[8], b[8];
    std::stringstream as(line[1].str()), bs(line[2].str());
    std::string item;
    for (int i = 0; i < 8 && std::getline(as, item, ','); ++i) a[i] = std::stoull(item, nullptr, 16);
    for (int i = 0; i < 8 && std::getline(bs, item, ','); ++i) b[i] = std::stoull(item, nullptr, 16);
    const uint64_t engine = mma::block_fma(row, 8, a, b, std::stoull(line[3].str(), nullptr, 16));
    EXPECT_EQ(engine, std::stoull(line[4].str(), nullptr, 16)) << report;
    EXPECT_EQ(head[1].str(), line[4].str()) << report;
    EXPECT_NE(head[2].str(), head[1].str()) << report;
  }
}

// Rows the RTL has no datapath or no model for are refused before the run,
// with the instruction's place and what the build has.
TEST(RtlTensor, RowsWithoutAModelAreRefusedAtStartup) {
  const ArchConfig sm80 = embedded("sm_80"), sm90 = embedded("sm_90");
  const kernel::Kernel s8 = corpus("wmma_gemm", "sm_80", "wmma_gemm_s8_s32");
  const kernel::Kernel f16 = corpus("mma_gemm", "sm_80", "mma_gemm_f16_f32");
  kernel::Launch l;
  l.block = {32};
  l.args = {kernel::Arg::zeros(256),  kernel::Arg::zeros(256), kernel::Arg::zeros(1024),
            kernel::Arg::zeros(1024), kernel::Arg::s32(16),    kernel::Arg::s32(16)};
  try {
    validate(job_of(sm80, s8, l));
    ADD_FAILURE() << "an integer wmma was let through";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(
        std::regex_search(e.what(), std::regex(R"(--rtl-tensor: \S+wmma_gemm\.sm_80\.ptx:\d+:\d+: 'wmma\.mma)")))
        << e.what();
    EXPECT_NE(std::string(e.what()).find("integer arithmetic"), std::string::npos) << e.what();
  }
  const Gemm g = random_gemm(16, 8, 16, random_f16, 4);
  try {
    validate(job_of(sm90, f16, mma_gemm_launch(g), true));  // the broken copy is sm_80's block only
    ADD_FAILURE() << "a broken sm_90 block was let through";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("no broken block FMA model"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("f16->f32 W=16 B=25 carry=7 rz"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptxfu::models
