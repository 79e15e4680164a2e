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
#include "isa/decode.h"
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
      "fma.rn.f16 0x3c00 0x4000 0x3c00\n"  // 1 * 2 + 1 = 3
      "\n"
      "add.cc.u32 0xffffffff 0x00000001\n"  // wraps, carry out
      "// another comment\n"
      "addc.u32 0x00000001 0x00000002 cc=1\n"              // 1 + 2 + 1
      "mul.wide.s32 0xffffffff 0x00000002\n"               // -1 * 2 = -2 in 64 bits
      "fma.rn.f32.f16 0x3c00 0x4000 0x3f800000\n"          // 1 * 2 + 1.0f = 3.0f
      "add.u16x2 0xffff0001, 0x00010001\n"                 // lanes wrap independently
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
      "fma.rn.f16 0x3c00 0x4000\n"  // one operand short
      "add.f16 0x3c00 0x13c00\n"    // 17 bits for a 16-bit operand
      "add.f16 0x3c00 3c00\n"       // not 0x hex
      "addc.u32 0x1 0x2\n"          // carry-in missing
      "add.u32 0x1 0x2 cc=1\n"      // carry-in on a form without one
      "add.u32 0x1 0x2 cc=2\n"
      "fma.rn.oob.f16 0x3c00 0x3c00 0x3c00\n"  // legal on the default (newest) target: 1 * 1 + 1
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
  EXPECT_EQ(eval("fma.rn.oob.f16 0x3c00 0x3c00 0x3c00\n", "sm_80")
                .out.find("error: 1:1: Modifier '.oob' requires .target sm_90"),
            0u);
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
// output has the destination's width. Forms the default (newest) target
// lacks (the .rs conversions of sm_100a and sm_103a) run on sm_100a.
TEST(EvalCli, EveryFormOfTheTableExecutes) {
  std::mt19937_64 rng(2024);
  struct Batch {
    std::string input;
    std::vector<size_t> lengths;  // of each output line
  } on_default, on_sm100a;
  const isa::Capabilities newest = isa::capabilities_of(isa::newest_target(), isa::kNewestPtx);
  isa::for_each_legal_form([&](const isa::Instr& in) {
    isa::Diagnostic d;
    Batch& b = isa::check_target(in, newest, 1, d) ? on_default : on_sm100a;
    b.input += isa::spell(in);
    const unsigned dest_elements = isa::elements(in.row->dest);
    if (dest_elements > 1) b.input += dest_elements == 2 ? " {_,_}" : " {_,_,_,_}";
    for (unsigned k = 0; k < in.num_src; ++k) {
      const unsigned bits = isa::src_bits(in, k);
      char buf[48];
      if (bits > 64) {
        std::snprintf(buf, sizeof buf, " 0x%016llx%016llx", static_cast<unsigned long long>(rng()),
                      static_cast<unsigned long long>(rng()));
      } else {
        const uint64_t v = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
        std::snprintf(buf, sizeof buf, " 0x%llx", static_cast<unsigned long long>(v));
      }
      b.input += buf;
    }
    if (isa::reads_carry(in)) b.input += " cc=1";
    b.input += "\n";
    // a predicate: one digit; a second destination (q, or lop3's p): " 0x0";
    // a vector's elements separated by one space
    const size_t one = 2 + (isa::dest_bits(in) + 3) / 4;
    const bool second_predicate = isa::num_dests(in) == 2 && dest_elements == 1;
    b.lengths.push_back(dest_elements * one + (dest_elements - 1) + (isa::writes_carry(in) ? 5 : 0) +
                        (second_predicate ? 4 : 0));
  });
  size_t forms = 0;
  for (const auto& [batch, target] : {std::pair<const Batch&, const char*>{on_default, ""}, {on_sm100a, "sm_100a"}}) {
    const auto r = eval(batch.input, target);
    EXPECT_EQ(r.status, 0) << target << ": " << r.out.substr(0, 2000);
    std::istringstream lines(r.out);
    std::string line;
    size_t i = 0;
    for (; std::getline(lines, line) && i < batch.lengths.size(); ++i) EXPECT_EQ(line.size(), batch.lengths[i]) << line;
    EXPECT_EQ(i, batch.lengths.size());
    forms += i;
  }
  EXPECT_GT(on_sm100a.lengths.size(), 0u);
  std::cout << "forms evaluated: " << forms << " (" << on_sm100a.lengths.size() << " on sm_100a)\n";
}

// The packing families and their conventions (README, eval): mov packs its
// sources with the first lowest and prints an unpacked vector's elements
// first to last, separated by one space, the destination written {_, _};
// cvt.pack takes a, b (and c) in PTX order; a .rs conversion's vector
// {a, b, e, f} is four operands, then rbits, on a target that has .rs.
TEST(EvalCli, PackingForms) {
  const auto r = eval(
      "mov.b32 0x1234 0x5678\n"
      "mov.b32 {_,_} 0x56781234\n"
      "mov.b32 {_, _, _, _} 0x56781234\n"
      "mov.b64 0x0001 0x0002 0x0003 0x0004\n"
      "mov.b16 0x12 0x34\n"
      "mov.b128 0x1111111122222222 0x3333333344444444\n"
      "mov.b128 {_,_,_,_} 0x44444444333333332222222211111111\n"
      "cvt.pack.sat.s16.s32 0x00010000 0x80000000\n"
      "cvt.pack.sat.u8.s32.b32 0x00000100 0xffffff00 0x0000abcd\n"
      "cvt.pack.sat.s4.s32.b32 0xfffffff0 0x00000007 0x00000000\n"
      "mov.b32 0x12345678\n");  // an unpacking mov without its destination vector
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "0x56781234\n"
            "0x1234 0x5678\n"
            "0x34 0x12 0x78 0x56\n"
            "0x0004000300020001\n"
            "0x3412\n"
            "0x33333333444444441111111122222222\n"
            "0x11111111 0x22222222 0x33333333 0x44444444\n"
            "0x7fff8000\n"
            "0xabcdff00\n"
            "0x00000087\n"
            "error: 11:1: Arguments mismatch for instruction 'mov'\n");
  const std::string rs =
      "cvt.rs.f16x2.f32 0x3f801000 0x3f801000 0xf000e000\n"
      "cvt.rs.satfinite.e4m3x4.f32 0x3f880000 0x3f880000 0x3f880000 0x3f880000 0x807f7f80\n"
      "cvt.rs.satfinite.e2m1x4.f32 0x3fa00000 0x3fa00000 0x3fa00000 0x3fa00000 0x80807f7f\n";
  const auto on_100a = eval(rs, "sm_100a");
  EXPECT_EQ(on_100a.status, 0) << on_100a.out;
  EXPECT_EQ(on_100a.out, "0x3c013c00\n0x39383839\n0x3232\n");
  EXPECT_EQ(eval(rs, "sm_103a").out, on_100a.out);
  // the default (newest) target has no .rs: ptxas's words
  EXPECT_EQ(eval(rs.substr(0, rs.find('\n') + 1)).out,
            "error: 1:1: Feature '.rs' not supported on .target 'sm_121f'\n");
  EXPECT_EQ(
      eval("mov.b32 {_,%r1} 0x1\n").out.rfind("error: 1:9: '{_,%r1}': a destination vector is written with sinks", 0),
      0u);
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
