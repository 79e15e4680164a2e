// Regression tests for bugs found by the fuzz targets (tb/fuzz) and for the
// input limits of docs/reliability.md: every bad input gets a clear error on
// its line, never a crash, a hang or an allocation failure.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "cli/check_cmd.h"
#include "cli/eval_cmd.h"
#include "cli/model_cmds.h"
#include "models/config.h"
#include "sweep/spec.h"

namespace ptxfu::cli {
namespace {

struct EvalResult {
  int status;
  std::string out;
};

EvalResult eval(const std::string& input) {
  std::FILE* in = fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  std::FILE* out = std::tmpfile();
  std::ostringstream err;
  const int status = run_eval(in, out, err, EvalOptions{});
  std::fclose(in);
  std::rewind(out);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, out)) > 0;) text.append(buf, n);
  std::fclose(out);
  return {status, text};
}

// Found by fuzz_eval: a line of separators only (",,,") read the token
// before the first one (tok[-1]); the release binary died with SIGBUS.
TEST(Robustness, EvalLineOfSeparatorsOnly) {
  const auto r = eval(",,,\n , \t,\nadd.u32 0x1 0x2\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "error: 1:1: expected an instruction\nerror: 2:2: expected an instruction\n0x00000003\n");
}

// Found by fuzz_eval_diff: the .sat forms of the carry chain wrapped instead
// of saturating (README: "ptxas also accepts addc.sat.s32, subc.sat.s32 and
// madc.hi.sat.s32, which saturate the same way").
TEST(Robustness, CarryChainSatFormsSaturate) {
  const auto r = eval(
      "addc.sat.s32 0xccc876b6 0xa884f758 cc=0\n"                  // -859277642 + -1467680936 < MIN
      "addc.sat.s32 0x7fffffff 0x00000000 cc=1\n"                  // MAX + 1
      "addc.sat.s32 0x80000000 0xffffffff cc=1\n"                  // MIN - 1 + 1 = MIN exactly: in range
      "subc.sat.s32 0x80000000 0x00000000 cc=0\n"                  // MIN - 0 - 1
      "subc.sat.s32 0x7fffffff 0xffffffff cc=1\n"                  // MAX - (-1)
      "subc.sat.s32 0x00000005 0x00000003 cc=0\n"                  // 5 - 3 - 1 (CF = 0: a borrow)
      "madc.hi.sat.s32 0x40000000 0x40000000 0x7fffffff cc=1\n");  // 2^28 + MAX + 1
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "0x80000000\n0x7fffffff\n0x80000000\n0x80000000\n0x7fffffff\n0x00000001\n0x7fffffff\n");
}

TEST(Robustness, EvalNumbersThatOverflowTheOperand) {
  const auto r =
      eval("add.u64 0x10000000000000000 0x1\nadd.u64 0x" + std::string(5000, 'f') + " 0x1\nadd.u16 0x10000 0x1\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "error: 1:9: operand 1 '0x10000000000000000' does not fit in 64 bits\n"
            "error: 2:9: operand 1 '0x" +
                std::string(5000, 'f') +
                "' does not fit in 64 bits\n"
                "error: 3:9: operand 1 '0x10000' does not fit in 16 bits\n");
}

TEST(Robustness, EvalLineLimitIsConfigurable) {
  EvalOptions options;
  options.max_line = 16;
  const std::string input = "add.u32 0x1 0x2\nadd.u32 0x1 0x00002\n";
  std::FILE* in = fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  std::ostringstream err;
  EXPECT_EQ(run_eval(in, out, err, options), 1);
  std::fclose(in);
  std::fclose(out);
  EXPECT_EQ(std::string(buf, len), "0x00000003\nerror: 2:1: line is 19 bytes long; the limit is 16\n");
  std::free(buf);
}

TEST(Robustness, EvalBinaryInputIsAnErrorPerLine) {
  const auto r = eval(std::string("\x7f"
                                  "ELF\x02\x01\x01\x00\x00\n",
                                  10) +
                      std::string("\0\0\0\n", 4));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "error: 1:1: invalid byte 0x7f: input is ASCII text\nerror: 2:1: invalid byte 0x00: input is ASCII text\n");
}

// Numbers that overflow in directives: a register count and a .version.
TEST(Robustness, CheckDirectiveNumbersThatOverflow) {
  const std::string input = ".target sm_90\n.reg .b32 %r<99999999999999999999999>;\n.version 99999999999999999999.1\n";
  std::FILE* in = fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  std::ostringstream out, err;
  CheckOptions options;
  options.input_name = "t.ptx";
  EXPECT_EQ(run_check(in, out, err, options), 1);
  std::fclose(in);
  EXPECT_EQ(out.str(),
            "t.ptx:2:14: error: expected a register count like %r<8>\n"
            "t.ptx:3:10: error: bad .version '99999999999999999999.1' (expected MAJOR.MINOR)\n");
}

// Found by hand next to fuzz_sweep_spec: a config, program or sweep file that
// is endless (/dev/zero) or huge was read until memory ran out; `ptxfu sweep`
// with `base: /dev/zero` died of std::bad_alloc.
TEST(Robustness, EndlessFilesAreRefusedNotReadToExhaustion) {
  const auto message = [](auto load) {
    try {
      load();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { models::load_config_file("/dev/zero"); }),
            "/dev/zero: larger than 1048576 bytes: not a config");
  SimCmdOptions sim;
  sim.program_path = "/dev/zero";
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(sim, out, err), 1);
  EXPECT_EQ(err.str(), "ptxfu sim: /dev/zero: larger than 16777216 bytes\n");
  EXPECT_EQ(message([] { sweep::load_spec("/dev/zero"); }), "/dev/zero: larger than 1048576 bytes");
  const std::string spec = "name: x\nbase: /dev/zero\nparameters:\n  warps: [1]\nprograms:\n  - ffma.chain\n";
  EXPECT_EQ(message([&] { sweep::load_spec_text(spec, "s.yaml"); }),
            "s.yaml:2:7: key 'base': /dev/zero: larger than 1048576 bytes: not a config");
}

}  // namespace
}  // namespace ptxfu::cli
