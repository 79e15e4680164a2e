// `ptxfu check` end to end: statement mode, file mode, and bad input (which
// must get a clear error and a non-zero exit, never a crash).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/check_cmd.h"

namespace ptxfu::cli {
namespace {

struct Run {
  int status;
  std::string out;
  std::string err;
};

Run check(const std::string& input, TargetOptions target = {}) {
  if (!target.target) target.target = "sm_90";
  std::FILE* in = fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  if (input.empty()) in = std::tmpfile();  // fmemopen rejects size 0
  CheckOptions options;
  options.target = target;
  options.input_name = "t.ptx";
  std::ostringstream out, err;
  const int status = run_check(in, out, err, options);
  std::fclose(in);
  return {status, out.str(), err.str()};
}

TEST(CheckCli, StatementModeOnePerStatement) {
  const auto r = check(
      "fma.rn.f16 %h1, %h2, %h3, %h4;\n"
      "\n"
      "// a comment\n"
      "add.sat.u32 %r1, %r2, %r3;\n"
      "fma.rn.oob.relu.f16x2 %r1, %r2, %r3, %r4; add.f32 %f1, %f2, %f3;\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "ok\n"
            "error: 4:1: Modifier '.sat' does not apply to '.u32' type\n"
            "ok\n"
            "ok\n");
}

TEST(CheckCli, AllLegalExitsZero) {
  const auto r = check("add.s32 %r1, %r2, 1;\nmin.NaN.f32 %f1, %f2, %f3;\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "ok\nok\n");
}

TEST(CheckCli, WholeFileGivesFileLineColumn) {
  const auto r = check(
      ".version 8.0\n"
      ".target sm_90\n"
      ".address_size 64\n"
      ".visible .entry k()\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b16 %h<4>;\n"
      "  mov.b32 %r1, 0;\n"
      "  fma.rn.oob.f16 %h1, %h2, %h3, %h1;\n"   // .oob needs PTX 8.1
      "  add.f16 %r1, %h2, %h3;\n"               // 32-bit register for an f16 operand
      "  add.u32 %r1, %r2, %r9;\n"               // %r9 is not declared
      "  add.u32 %r1, %r2, %r3;\n"
      "  ret;\n"
      "}\n",
      TargetOptions{std::nullopt, std::nullopt, {}, {}});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "t.ptx:9:3: error: Modifier '.oob' requires PTX ISA .version 8.1 or later\n"
            "t.ptx:10:11: error: Arguments mismatch for instruction 'add'\n"
            "t.ptx:11:21: error: Unknown symbol '%r9'\n");
}

TEST(CheckCli, BadInputIsAClearError) {
  struct Case {
    std::string input;
    std::string expect;  // substring of the output
  };
  const Case cases[] = {
      {"frobnicate.f32 %f1, %f2;\n", "error: 1:1: Not a name of any known instruction: 'frobnicate'"},
      {"add.fast.f32 %f1, %f2, %f3;\n", "error: 1:4: Unknown modifier '.fast'"},
      {"add.f32 %f1, %f2, %f3, %f4;\n", "Arguments mismatch for instruction 'add'"},
      {"add.f32 %f1, %f2, %f3\n", "error: 1:22: expected ';'"},
      {std::string("add.f32 %f1, \x01\xff junk;\n"), "error: 1:14: invalid byte 0x01"},
      {"mov.b32 %r1, 0;\n", "'mov' is not an arithmetic instruction"},
  };
  for (const auto& c : cases) {
    const auto r = check(c.input);
    EXPECT_EQ(r.status, 1) << c.input;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.input << " gave: " << r.out;
  }
}

TEST(CheckCli, HugeLineIsRejectedWithoutStoringIt) {
  const std::string line(1 << 20, 'x');
  const auto r = check("add.f32 %f1, %f2, %f3;\n" + line + "\nadd.f32 %f1, %f2, %f3;\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "ok\nerror: 2:1: line is 1048576 bytes long; the limit is 65536\nok\n");
}

TEST(CheckCli, EmptyInputIsAnError) {
  const auto r = check("");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is empty"), std::string::npos);
}

TEST(CheckCli, BadTargetOptionsAreUsageErrors) {
  EXPECT_EQ(check("add.f32 %f1, %f2, %f3;\n", {"sm_42", std::nullopt, {}, {}}).status, 2);
  EXPECT_EQ(check("add.f32 %f1, %f2, %f3;\n", {"sm_90", "banana", {}, {}}).status, 2);
  EXPECT_EQ(check("add.f32 %f1, %f2, %f3;\n", {"sm_90", "7.0", {}, {}}).status, 2);  // sm_90 needs 7.8
  const auto r = check("add.f32 %f1, %f2, %f3;\n", {"sm_90", std::nullopt, {"warp_drive"}, {}});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown feature 'warp_drive'"), std::string::npos) << r.err;
}

// The real binary: exit codes and no crash on a file that is not text.
TEST(CheckCli, BinaryHandlesJunkFiles) {
  const std::string dir = testing::TempDir();
  const std::string junk = dir + "/junk.bin";
  {
    std::ofstream f(junk, std::ios::binary);
    for (int i = 0; i < 4096; ++i) f.put(static_cast<char>((i * 131 + 7) & 0xff));
  }
  const std::string exe = PTXFU_EXE;
  EXPECT_EQ(WEXITSTATUS(std::system((exe + " check --target sm_90 " + junk + " > /dev/null").c_str())), 1);
  EXPECT_EQ(WEXITSTATUS(std::system((exe + " check --target sm_90 /no/such/file 2> /dev/null").c_str())), 2);
  EXPECT_EQ(WEXITSTATUS(std::system((exe + " --version > /dev/null").c_str())), 0);
  EXPECT_NE(WEXITSTATUS(std::system((exe + " > /dev/null 2>&1").c_str())), 0);
}

}  // namespace
}  // namespace ptxfu::cli
