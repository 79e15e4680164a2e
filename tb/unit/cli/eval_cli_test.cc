// `ptxfu eval` against its contract (README / DESIGN.md): one output line per
// instruction line, carries, errors in place, every form of the table, and
// constant memory on long streams.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "cli/eval_cmd.h"
#include "isa/forms.h"
#include "isa/table.h"

namespace ptxfu::cli {
namespace {

struct Run {
  int status;
  std::string out;
  std::string err;
};

Run eval(const std::string& input, const std::string& target = "") {
  std::FILE* in = input.empty() ? std::tmpfile() : fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  std::FILE* out = std::tmpfile();
  EvalOptions options;
  if (!target.empty()) options.target.target = target;
  std::ostringstream err;
  const int status = run_eval(in, out, err, options);
  std::fclose(in);
  std::rewind(out);
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, out)) > 0) text.append(buf, n);
  std::fclose(out);
  return {status, text, err.str()};
}

// Expected values worked out by hand from the PTX semantics.
TEST(EvalCli, ContractExamples) {
  const auto r = eval(
      "# comment\n"
      "fma.rn.f16 0x3c00 0x4000 0x3c00\n"            // 1 * 2 + 1 = 3
      "\n"
      "add.cc.u32 0xffffffff 0x00000001\n"           // wraps, carry out
      "// another comment\n"
      "addc.u32 0x00000001 0x00000002 cc=1\n"        // 1 + 2 + 1
      "mul.wide.s32 0xffffffff 0x00000002\n"         // -1 * 2 = -2 in 64 bits
      "fma.rn.f32.f16 0x3c00 0x4000 0x3f800000\n"    // 1 * 2 + 1.0f = 3.0f
      "add.u16x2 0xffff0001, 0x00010001\n"           // lanes wrap independently
      "dp4a.s32.s32 0xff02ff03 0x01010101 0x00000000\n");  // (-1)+2+(-1)+3
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out,
            "0x4200\n"
            "0x00000000 cc=1\n"
            "0x00000004\n"
            "0xfffffffffffffffe\n"
            "0x40400000\n"
            "0x00000002\n"
            "0x00000003\n");
}

TEST(EvalCli, ErrorsTakeTheLineAndProcessingContinues) {
  const auto r = eval(
      "fma.rn.f16 0x3c00 0x4000\n"              // one operand short
      "add.f16 0x3c00 0x13c00\n"                // 17 bits for a 16-bit operand
      "add.f16 0x3c00 3c00\n"                   // not 0x hex
      "addc.u32 0x1 0x2\n"                      // carry-in missing
      "add.u32 0x1 0x2 cc=1\n"                  // carry-in on a form without one
      "add.u32 0x1 0x2 cc=2\n"
      "fma.rn.oob.f16 0x3c00 0x3c00 0x3c00\n"   // legal on the default (newest) target: 1 * 1 + 1
      "add.u32 0x1 0x2\n");
  EXPECT_EQ(r.status, 1);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> got;
  while (std::getline(lines, line)) got.push_back(line);
  ASSERT_EQ(got.size(), 8u) << r.out;
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i].rfind("error: ", 0), 0u) << got[i];
  EXPECT_NE(got[0].find("Arguments mismatch"), std::string::npos) << got[0];
  EXPECT_NE(got[1].find("does not fit in 16 bits"), std::string::npos) << got[1];
  EXPECT_NE(got[3].find("reads the carry flag"), std::string::npos) << got[3];
  EXPECT_NE(got[4].find("does not read the carry flag"), std::string::npos) << got[4];
  EXPECT_EQ(got[6], "0x4000");
  EXPECT_EQ(got[7], "0x00000003");
  EXPECT_EQ(eval("fma.rn.oob.f16 0x3c00 0x3c00 0x3c00\n", "sm_80").out.find("error: 1:1: Modifier '.oob' requires .target sm_90"), 0u);
}

TEST(EvalCli, BadInputNeverCrashes) {
  std::string junk;
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) junk += static_cast<char>(rng());
  const auto r = eval(junk);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(eval(std::string(1 << 20, 'a') + "\n").out, "error: 1:1: line is 1048576 bytes long; the limit is 65536\n");
  EXPECT_EQ(eval("add.u32 0x1 0x2\n", "sm_99").status, 2);
}

// Every legal form of the table evaluates (no executor is missing) and its
// output has the destination's width.
TEST(EvalCli, EveryFormOfTheTableExecutes) {
  std::mt19937_64 rng(2024);
  std::string input;
  std::vector<unsigned> widths;
  std::vector<bool> carries;
  std::vector<unsigned> dests;
  isa::for_each_legal_form([&](const isa::Instr& in) {
    input += isa::spell(in);
    for (unsigned k = 0; k < in.num_src; ++k) {
      const unsigned bits = isa::src_bits(in, k);
      const uint64_t v = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
      char buf[24];
      std::snprintf(buf, sizeof buf, " 0x%llx", static_cast<unsigned long long>(v));
      input += buf;
    }
    if (isa::reads_carry(in)) input += " cc=1";
    input += "\n";
    widths.push_back(isa::dest_bits(in));
    carries.push_back(isa::writes_carry(in));
    dests.push_back(isa::num_dests(in));
  });
  const auto r = eval(input);
  EXPECT_EQ(r.status, 0) << r.out.substr(0, 2000);
  std::istringstream lines(r.out);
  std::string line;
  size_t i = 0;
  for (; std::getline(lines, line) && i < widths.size(); ++i) {
    // a predicate: one digit; a second destination (q, or lop3's p): " 0x0"
    const size_t expected = 2 + (widths[i] + 3) / 4 + (carries[i] ? 5 : 0) + (dests[i] == 2 ? 4 : 0);
    EXPECT_EQ(line.size(), expected) << line;
  }
  EXPECT_EQ(i, widths.size());
  std::cout << "forms evaluated: " << widths.size() << "\n";
}

// The comparison, selection, logic and shift forms: predicates are 0x0/0x1,
// a boolean operation or an x2 setp prints p then q, immediates (lop3's
// LUT, prmt's selector) are operands in their position.
TEST(EvalCli, ComparisonLogicAndShiftForms) {
  const auto r = eval(
      "setp.lt.f32 0x3f800000 0x40000000\n"
      "setp.lt.and.f32 0x3f800000 0x40000000 0x1\n"
      "setp.lt.and.f32 0x3f800000 0x40000000 0x0\n"
      "setp.ne.f32 0x7fc00000 0x7fc00000\n"
      "setp.neu.f32 0x7fc00000 0x7fc00000\n"
      "setp.eq.f32 0x80000000 0x00000000\n"
      "setp.eq.ftz.f32 0x00000001 0x00000000\n"
      "setp.lo.u32 0x00000001 0xffffffff\n"
      "setp.lt.s32 0x00000001 0xffffffff\n"
      "setp.gt.f16x2 0x3c00c000 0x00000000\n"
      "setp.eq.xor.f16 0x3c00 0x3c00 0x1\n"
      "set.gt.u32.s16 0x0001 0xffff\n"
      "set.gt.f32.f64 0x4000000000000000 0x3ff0000000000000\n"
      "set.lt.f16x2.f16x2 0x3c00bc00 0x00000000\n"
      "selp.b32 0x00000001 0x00000002 0x0\n"
      "slct.f32.f32 0x00000001 0x00000002 0x80000000\n"
      "and.pred 0x1 0x0\n"
      "not.b16 0x00ff\n"
      "cnot.b32 0x00000000\n"
      "lop3.b32 0xf0f0f0f0 0xcccccccc 0xaaaaaaaa 0x00000096\n"
      "lop3.or.b32 0x00000000 0x00000000 0x00000000 0x00000080 0x0\n"
      "shl.b32 0x00000001 0x00000021\n"
      "shr.s16 0x8000 0x00000010\n"
      "shf.l.wrap.b32 0x80000000 0x00000001 0x00000021\n"
      "shf.r.clamp.b32 0x80000000 0x00000001 0x00000021\n"
      "prmt.b32 0x33221100 0x77665544 0x00003210\n"
      "prmt.b32 0x33221180 0x77665544 0x00008888\n"
      "prmt.rc8.b32 0x33221100 0x77665544 0x00000002\n");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out,
            "0x1\n0x1 0x0\n0x0 0x0\n0x0\n0x1\n0x1\n0x1\n0x1\n0x0\n0x0 0x1\n0x0\n"
            "0xffffffff\n0x3f800000\n0x00003c00\n0x00000002\n0x00000001\n0x0\n0xff00\n0x00000001\n"
            "0x96969696\n0x00000000 0x0\n0x00000000\n0xffff\n0x00000003\n0x00000001\n0x33221100\n0xffffffff\n"
            "0x22222222\n");
}

long peak_rss_kib() {
  std::ifstream s("/proc/self/status");
  std::string line;
  while (std::getline(s, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

TEST(EvalCli, StreamsInConstantMemory) {
  const long before = peak_rss_kib();
  std::FILE* in = popen("yes 'fma.rn.f32 0x3f800000 0x40000000 0x3f800000' | head -n 2000000", "r");
  std::FILE* out = std::fopen("/dev/null", "wb");
  std::ostringstream err;
  EXPECT_EQ(run_eval(in, out, err, EvalOptions{}), 0);
  pclose(in);
  std::fclose(out);
  const long grown = peak_rss_kib() - before;
  EXPECT_LT(grown, 16 * 1024) << "peak RSS grew by " << grown << " KiB over 2M lines (about 90 MB of input)";
}

}  // namespace
}  // namespace ptxfu::cli
