// `ptxfu mma` against its contract (docs/mma.md): files of hex rows in, D in
// the same format out, equal to the engine; errors with FILE:LINE:COLUMN,
// exit status 1 and no output file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/mma_cmd.h"
#include "mma/matrix.h"

namespace ptxfu::cli {
namespace {

constexpr const char* kF16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";

class MmaCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ptxfu_mma_cli_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string write_matrix(const std::string& name, const std::vector<uint64_t>& v, int rows, int cols) {
    std::ostringstream s;
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) s << (j ? " " : "") << "0x" << std::hex << v[std::size_t(i) * cols + j];
      s << "\n";
    }
    return write(name, s.str());
  }
  struct Run {
    int status;
    std::string out, err;
  };
  Run run(MmaCmdOptions o) {
    std::ostringstream out, err;
    const int status = run_mma(o, out, err);
    return {status, out.str(), err.str()};
  }
  static std::vector<uint64_t> parse(const std::string& text) {
    std::vector<uint64_t> v;
    std::istringstream s(text);
    std::string tok;
    while (s >> tok) v.push_back(std::stoull(tok, nullptr, 16));
    return v;
  }
  std::string dir_;
};

std::vector<uint64_t> random_bits(std::size_t n, uint64_t mask, std::mt19937_64& rng) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng() & mask;
  return v;
}

TEST_F(MmaCli, OneInstructionAndAChainEqualTheEngine) {
  std::mt19937_64 rng(4);
  const mma::Instruction inst = mma::parse_instruction(kF16, "sm_80");
  for (int k : {16, 48}) {
    const int m = k == 16 ? 16 : 5, n = k == 16 ? 8 : 3;
    const auto a = random_bits(m * k, 0xffff, rng), b = random_bits(k * n, 0xffff, rng);
    const auto c = random_bits(m * n, 0xffffffff, rng);
    MmaCmdOptions o;
    o.instruction = kF16;
    o.a_path = write_matrix("a.txt", a, m, k);
    o.b_path = write_matrix("b.txt", b, k, n);
    o.c_path = write_matrix("c.txt", c, m, n);
    o.matmul = k != 16;
    const Run r = run(o);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(parse(r.out), mma::matmul(inst, m, n, k, a, b, c));
    // One row a line, 0x and 8 digits an f32.
    EXPECT_EQ(r.out.substr(0, 2), "0x");
    EXPECT_EQ(r.out.find('\n'), std::size_t(n) * 11 - 1);
    o.out_path = dir_ + "/d.txt";
    ASSERT_EQ(run(o).status, 0);
    std::ifstream in(o.out_path);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), r.out);
  }
}

TEST_F(MmaCli, CommentsBlankLinesAndBarePatterns) {
  MmaCmdOptions o;
  o.instruction = "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32";
  o.target = "sm_70";
  std::string a = "# A: 8 x 4\n\n", b, c;
  for (int i = 0; i < 8; ++i) a += "3c00 0 0 0\n";                                                 // 1 0 0 0
  for (int i = 0; i < 4; ++i) b += "0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000\r\n";  // 2
  for (int i = 0; i < 8; ++i) c += "0x3f800000 0 0 0 0 0 0 0\n";                                   // 1 in column 0
  o.a_path = write("a.txt", a), o.b_path = write("b.txt", b), o.c_path = write("c.txt", c);
  const Run r = run(o);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 22), "0x40400000 0x40000000 ");  // 1*2+1 = 3, 1*2 = 2
}

TEST_F(MmaCli, BadInputNamesFileLineColumnAndWritesNothing) {
  MmaCmdOptions o;
  o.instruction = kF16;
  std::string b, c;
  const std::string row16 = "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", row8 = "0 0 0 0 0 0 0 0\n";
  for (int i = 0; i < 16; ++i) b += row8, c += row8;
  o.b_path = write("b.txt", b), o.c_path = write("c.txt", c);
  o.out_path = dir_ + "/d.txt";
  const auto expect_error = [&](const std::string& a_text, const std::string& message) {
    o.a_path = write("a.txt", a_text);
    const Run r = run(o);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "ptxfu mma: " + message + "\n");
    EXPECT_NE(::access(o.out_path.c_str(), F_OK), 0) << "an output file was left";
  };
  std::string a;
  for (int i = 0; i < 16; ++i) a += row16;
  expect_error("0 0 zz\n", dir_ + "/a.txt:1:5: expected a hexadecimal bit pattern, found 'zz'");
  expect_error(row16 + "0 0x13c00\n", dir_ + "/a.txt:2:3: 0x13c00 does not fit in 16 bits (f16)");
  expect_error(row16 + "0 0 0\n", dir_ + "/a.txt:2:6: row 2 has 3 elements; the rows above have 16");
  expect_error("# nothing\n", dir_ + "/a.txt: no rows (a matrix needs at least one)");
  std::string a15;
  for (int i = 0; i < 16; ++i) a15 += "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
  expect_error(a15, dir_ + "/a.txt: A is (16, 15); m16n8k16 needs (16, 16)");
  o.target = "sm_75";
  o.instruction = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
  o.a_path = write("a.txt", a);
  const Run r = run(o);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not available on sm_75"), std::string::npos) << r.err;
}

// Through the executable: exit status 1 and an existing D left as it was.
TEST_F(MmaCli, TheExecutableExitsOneAndKeepsTheOldOutput) {
  const std::string a = write("a.txt", "0 0\n"), b = write("b.txt", "0\n0\n"), c = write("c.txt", "0\n");
  const std::string d = write("d.txt", "old\n");
  const std::string cmd =
      std::string(PTXFU_EXE) + " mma --instruction " + kF16 + " " + a + " " + b + " " + c + " -o " + d + " 2>/dev/null";
  EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 1);
  std::ifstream in(d);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "old\n");
}

}  // namespace
}  // namespace ptxfu::cli
