// Co-simulation of the reference RTL against the golden model (the exact
// core when this build has it, else the MPFR reference), and self tests that
// prove the harness fails when it should.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cosim/checker.h"
#include "cosim/cosim.h"
#include "cosim/golden.h"
#include "cosim/rtl_form.h"
#include "cosim/rtl_units.h"
#include "cosim/scoreboard.h"
#include "cosim/vectors.h"
#include "fp/policy.h"
#include "isa/forms.h"
#include "scratch_dir.h"

namespace ptxfu::cosim {
namespace {

// The golden model the harness uses by default.
std::string golden_name() { return "core"; }

struct RunResult {
  int status;
  std::string output;
};

RunResult run(const CosimOptions& o) {
  std::ostringstream out;
  const int status = run_cosim(o, out);
  return {status, out.str()};
}

std::string last_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

const std::regex kSummary(R"(vectors=(\d+) mismatches=(\d+) vectors_per_s=(\d+))");

// ---------------------------------------------------------------------------
// 10^6 vectors per operation (structured set first, then seeded random).
// ---------------------------------------------------------------------------
class CosimMillion : public ::testing::TestWithParam<const char*> {};

TEST_P(CosimMillion, MatchesGolden) {
  CosimOptions o;
  o.op = GetParam();
  o.vectors = 1000000;
  o.seed = 20261122;
  o.golden = golden_name();
  const RunResult r = run(o);
  EXPECT_EQ(r.status, 0) << r.output;
  std::smatch m;
  const std::string last = last_line(r.output);
  ASSERT_TRUE(std::regex_match(last, m, kSummary)) << last;
  EXPECT_EQ(m[1], "1000000");
  EXPECT_EQ(m[2], "0");
}

INSTANTIATE_TEST_SUITE_P(Ops, CosimMillion,
                         ::testing::Values("fma.rn.f16x2", "fma.rn.bf16x2", "add.rn.f16x2", "add.rn.bf16x2",
                                           "sub.rn.f16x2", "sub.rn.bf16x2", "mul.rn.f16x2", "mul.rn.bf16x2",
                                           "min.f16x2", "min.bf16x2", "max.f16x2", "max.bf16x2", "neg.f16x2",
                                           "neg.bf16x2", "abs.f16x2", "abs.bf16x2"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (c == '.') c = '_';
                           return s;
                         });

// ---------------------------------------------------------------------------
// Every legal half-precision form the units run: structured set + random.
// ---------------------------------------------------------------------------
std::vector<std::string> unit_forms() {
  std::vector<std::string> forms;
  isa::for_each_legal_form([&](const isa::Instr& in) {
    Form f;
    std::string err;
    const std::string m = isa::spell(in);
    if (make_form(m, f, err) && f.num_src == in.num_src) forms.push_back(m);
  });
  return forms;
}

// Random vectors per form on top of the structured set: 5000, or the value of
// the environment variable PTXFU_COSIM_FORM_VECTORS for longer campaigns.
uint64_t random_per_form() {
  const char* env = std::getenv("PTXFU_COSIM_FORM_VECTORS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 5000;
}

TEST(CosimAllForms, StructuredAndRandom) {
  const std::vector<std::string> forms = unit_forms();
  ASSERT_GE(forms.size(), 40u);
  std::cout << forms.size() << " forms\n";
  unsigned failed = 0;
  for (const std::string& m : forms) {
    Form f;
    std::string err;
    ASSERT_TRUE(make_form(m, f, err)) << err;
    VectorSource src(f, 7);
    CosimOptions o;
    o.op = m;
    o.vectors = src.structured().size() + random_per_form();
    o.seed = 7;
    o.golden = golden_name();
    const RunResult r = run(o);
    if (r.status != 0) {
      ++failed;
      ADD_FAILURE() << m << ":\n" << r.output;
    }
  }
  EXPECT_EQ(failed, 0u) << "of " << forms.size() << " forms";
}

// The MPFR reference and the core agree on every form's structured set plus
// random vectors: the RTL is then checked against two independent models.
// The core is asked one vector at a time and, as exhaustive and random runs
// ask it, in one batch (the array path, blocks of 512 per lane).
TEST(CosimAllForms, ReferenceAgreesWithCore) {
  const Golden core = core_golden();
  const GoldenMany batched = core_golden_many();
  unsigned disagreements = 0;
  for (const std::string& m : unit_forms()) {
    Form f;
    std::string err;
    ASSERT_TRUE(make_form(m, f, err)) << err;
    VectorSource source(f, 11);
    std::vector<Vector> vs = source.structured();
    for (int i = 0; i < 5000; ++i) vs.push_back(source.random());
    std::vector<uint64_t> src[3], many(vs.size());
    for (const Vector& v : vs)
      for (unsigned k = 0; k < 3; ++k) src[k].push_back(f.lanes == 1 ? v.src[k] & 0xffffu : v.src[k]);
    const uint64_t* ptr[3] = {src[0].data(), src[1].data(), src[2].data()};
    batched(f.instr, vs.size(), ptr, many.data());
    for (size_t i = 0; i < vs.size(); ++i) {
      const uint64_t s[3] = {src[0][i], src[1][i], src[2][i]};
      const uint64_t one = core(f.instr, s);
      const uint64_t ref = reference_execute(f.instr, s);
      if ((one != ref || many[i] != ref) && ++disagreements <= 10)
        ADD_FAILURE() << eval_line(f, vs[i]) << ": core " << std::hex << one << ", batched " << many[i]
                      << ", reference " << ref;
    }
  }
  EXPECT_EQ(disagreements, 0u);
}

// ---------------------------------------------------------------------------
// Every compiled pipeline configuration, streaming and with random stalls.
// ---------------------------------------------------------------------------
TEST(CosimPipeline, EveryConfigurationStreamingAndStalled) {
  for (UnitKind k : {UnitKind::hfma2, UnitKind::hmnmx2}) {
    for (int stages : rtl_stages(k)) {
      for (double stall : {0.0, 0.3}) {
        for (const char* op : k == UnitKind::hfma2
                                  ? std::vector<const char*>{"fma.rn.f16x2", "fma.rn.relu.bf16x2"}
                                  : std::vector<const char*>{"max.NaN.xorsign.abs.f16x2", "neg.bf16x2"}) {
          CosimOptions o;
          o.op = op;
          o.vectors = 30000;
          o.stages = stages;
          o.stall_rate = stall;
          o.golden = golden_name();
          const RunResult r = run(o);
          EXPECT_EQ(r.status, 0) << op << " stages=" << stages << " stall=" << stall << "\n" << r.output;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// The harness can fail: the deliberately broken RTL (ties round to odd).
// ---------------------------------------------------------------------------
TEST(CosimBrokenRtl, MismatchesAreReportedInEvalSyntax) {
  CosimOptions o;
  o.op = "fma.rn.f16x2";
  o.vectors = 50000;
  o.broken = true;
  o.golden = golden_name();
  const RunResult r = run(o);
  EXPECT_EQ(r.status, 1);
  std::smatch m;
  const std::string last = last_line(r.output);
  ASSERT_TRUE(std::regex_match(last, m, kSummary)) << last;
  EXPECT_GT(std::stoull(m[2]), 0u);
  // The failing vectors come first, as replayable eval lines.
  EXPECT_TRUE(std::regex_search(
      r.output,
      std::regex(
          R"(\nfma\.rn\.f16x2 0x[0-9a-f]{8} 0x[0-9a-f]{8} 0x[0-9a-f]{8}\n# expected 0x[0-9a-f]{8} got 0x[0-9a-f]{8})")))
      << r.output;
  // The broken model only differs on ties: random vectors alone would rarely
  // show it, the structured halfway cases do.
  Form f;
  std::string err;
  ASSERT_TRUE(make_form("fma.rn.f16x2", f, err));
  std::unique_ptr<Unit> unit = make_rtl_unit(UnitKind::hfma2, -1, true, err);
  ASSERT_NE(unit, nullptr) << err;
  unit->reset();
  Checker c(*unit, golden_name() == "core" ? core_golden() : reference_golden(), f, 1);
  Vector tie;  // 1 + 2^-11 (a tie between 1 and 1 + 2^-10) in lane 0: rounds to 1.0
  tie.src[0] = 0x3c00;
  tie.src[1] = 0x3c00;
  tie.src[2] = 0x1000;
  c.step(tie);
  EXPECT_FALSE(c.finish());
  EXPECT_NE(c.errors().find("fma.rn.f16x2 0x00003c00 0x00003c00 0x00001000"), std::string::npos) << c.errors();
}

// ---------------------------------------------------------------------------
// The checker against C++ implementations of the Unit interface: a correct
// twin passes; twins with a wrong lane, a wrong tag or a wrong latency fail.
// ---------------------------------------------------------------------------
class Twin : public Unit {
 public:
  enum class Fault { none, lane1, tag, slow };
  Twin(const Form& f, unsigned latency, Fault fault) : form_(f), latency_(latency), fault_(fault) {}
  std::string name() const override { return "twin"; }
  UnitKind kind() const override { return form_.unit; }
  unsigned latency() const override { return latency_; }
  unsigned tag_bits() const override { return 16; }
  void reset() override { pipe_.clear(); }
  uint64_t cycles() const override { return cycles_; }
  bool cycle(const Beat* in, bool out_ready, Response& out, bool& out_valid) override {
    // in flight: results with their cycle of completion
    out_valid = false;
    const unsigned lat = latency_ + (fault_ == Fault::slow ? 1 : 0);
    bool accepted = false;
    if (in != nullptr && (pipe_.size() < lat + 1 || out_ready)) {
      uint64_t src[3] = {0, 0, 0};
      const uint32_t ports[3] = {in->a, in->b, in->c};
      for (unsigned i = 0; i < form_.num_src; ++i) src[i] = ports[static_cast<unsigned>(form_.port[i])];
      if (form_.lanes == 1)
        for (auto& s : src) s &= 0xffff;
      uint32_t r = static_cast<uint32_t>(reference_execute(form_.instr, src));
      if (fault_ == Fault::lane1) r ^= 0x10000;
      pipe_.push_back({cycles_ + lat, r, fault_ == Fault::tag ? in->tag ^ 1u : in->tag});
      accepted = true;
    }
    if (!pipe_.empty() && pipe_.front().due <= cycles_ && out_ready) {
      out.result = pipe_.front().result;
      out.tag = pipe_.front().tag;
      out_valid = true;
      pipe_.pop_front();
    }
    ++cycles_;
    return accepted;
  }

 private:
  struct Item {
    uint64_t due;
    uint32_t result;
    uint32_t tag;
  };
  Form form_;
  unsigned latency_;
  Fault fault_;
  std::deque<Item> pipe_;
  uint64_t cycles_ = 0;
};

TEST(CosimChecker, CatchesEachKindOfFault) {
  Form f;
  std::string err;
  ASSERT_TRUE(make_form("fma.rn.f16x2", f, err)) << err;
  const struct {
    Twin::Fault fault;
    const char* what;
  } cases[] = {{Twin::Fault::none, ""},
               {Twin::Fault::lane1, "value (lane 1)"},
               {Twin::Fault::tag, "tag"},
               {Twin::Fault::slow, "latency 4 cycles, configured 3"}};
  for (const auto& c : cases) {
    Twin twin(f, 3, c.fault);
    Checker ck(twin, reference_golden(), f, 3);
    VectorSource src(f, 3);
    bool ok = true;
    for (int i = 0; i < 200; ++i) ok = ck.step(src.random()) && ok;
    ok = ck.finish() && ok;
    if (c.fault == Twin::Fault::none) {
      EXPECT_TRUE(ok) << ck.errors();
      EXPECT_EQ(ck.checked(), 200u);
    } else {
      EXPECT_FALSE(ok);
      EXPECT_NE(ck.errors().find(c.what), std::string::npos) << ck.errors();
    }
  }
}

// ---------------------------------------------------------------------------
// Command-line contract and options.
// ---------------------------------------------------------------------------
// Warp beats (32 threads each, as the in-model RTL unit issues them) behind
// beats of one thread: the queues wrap and grow while beats are in flight,
// and each beat is still checked against its own threads.
TEST(CosimScoreboard, WarpBeatsKeepTheirThreadsAcrossWrapAndGrowth) {
  Form f;
  std::string err;
  ASSERT_TRUE(make_form("fma.rn.f16x2", f, err)) << err;
  Scoreboard board(4);
  auto beat = [&](uint32_t tag, unsigned threads) {
    Expected e;
    e.form = &f;
    e.tag = tag;
    e.issued = 10 * tag;
    e.latency = 5;
    e.threads = threads;
    e.active = threads == 32 ? 0xffffffffu : 1u;
    e.where = "beat " + std::to_string(tag);
    return e;
  };
  auto thread = [](uint32_t tag, unsigned t) {
    ExpectedThread th;
    th.src[0] = tag;
    th.src[1] = t;
    th.expected = tag << 16 | t;
    return th;
  };
  auto issue = [&](uint32_t tag, unsigned threads) {
    std::vector<ExpectedThread> th;
    for (unsigned t = 0; t < threads; ++t) th.push_back(thread(tag, t));
    board.issue(beat(tag, threads), th.data());
  };
  auto arrive = [&](uint32_t tag, unsigned threads, int wrong_thread) {
    uint32_t got[kMaxThreads] = {};
    for (unsigned t = 0; t < threads; ++t) got[t] = thread(tag, t).expected ^ (static_cast<int>(t) == wrong_thread);
    const Expected* e = board.arrive(tag, 10 * tag + 5, got);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->tag, tag);
    EXPECT_EQ(e->where, "beat " + std::to_string(tag));
  };
  // Single-thread beats move the heads off zero, then warp beats wrap them.
  for (uint32_t tag = 0; tag < 6; ++tag) issue(tag, 1);
  for (uint32_t tag = 0; tag < 5; ++tag) arrive(tag, 1, -1);
  for (uint32_t tag = 6; tag < 11; ++tag) issue(tag, 32);
  issue(11, 32);
  board.withdraw();  // the unit did not take beat 11
  EXPECT_EQ(board.pending(), 6u);
  arrive(5, 1, -1);
  for (uint32_t tag = 6; tag < 11; ++tag) arrive(tag, 32, tag == 9 ? 17 : -1);
  EXPECT_EQ(board.pending(), 0u);
  EXPECT_EQ(board.beats_checked(), 11u);
  EXPECT_EQ(board.threads_checked(), 6u + 5u * 32u);
  EXPECT_EQ(board.value_mismatches(), 1u);
  EXPECT_EQ(board.timing_mismatches(), 0u);
  ASSERT_EQ(board.first_mismatches().size(), 1u);
  const Mismatch& m = board.first_mismatches()[0];
  EXPECT_EQ(m.line, "fma.rn.f16x2 0x00000009 0x00000011 0x00000000");
  EXPECT_EQ(m.where, "beat 9 thread 17");
  EXPECT_EQ(m.expected, 9u << 16 | 17u);
  EXPECT_EQ(m.what, "value (lane 0)");
}

TEST(CosimOptions, ErrorsAndShards) {
  CosimOptions o;
  o.op = "fma.rn.f16x2";
  o.unit = "hmnmx2";
  EXPECT_EQ(run(o).status, 2);
  o.unit = "";
  o.exhaustive = true;
  EXPECT_EQ(run(o).status, 2);
  o.op = "fma.rn.f32";
  o.exhaustive = false;
  EXPECT_EQ(run(o).status, 2);
  o.op = "bogus.f16";
  EXPECT_EQ(run(o).status, 2);
  CosimOptions s;
  EXPECT_TRUE(parse_shard("3/8", s));
  EXPECT_EQ(s.shard_index, 3u);
  EXPECT_EQ(s.shard_count, 8u);
  EXPECT_FALSE(parse_shard("8/8", s));
  EXPECT_FALSE(parse_shard("1/0", s));
  EXPECT_FALSE(parse_shard("1/2x", s));
}

TEST(CosimExhaustive, UnaryWholeAndBinaryShard) {
  CosimOptions o;
  o.golden = golden_name();
  o.exhaustive = true;
  o.op = "abs.ftz.f16x2";
  RunResult r = run(o);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(last_line(r.output).rfind("vectors=32768 mismatches=0 ", 0), 0u) << r.output;
  o.op = "max.NaN.bf16x2";
  o.shard_index = 4095;
  o.shard_count = 4096;  // the last 2^31 / 4096 vectors: pairs 0xfff00000 and up
  r = run(o);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(last_line(r.output).rfind("vectors=524288 mismatches=0 ", 0), 0u) << r.output;
}

// A run's report without what the thread count changes: the number of
// threads and the speed.
std::string without_threads(const std::string& report) {
  return std::regex_replace(report.substr(0, report.rfind(" vectors_per_s=")), std::regex(" on \\d+ threads?"), "");
}

// Runs `o` on one thread and on `jobs`: the two reports must agree but for
// what the thread count changes, and a waveform (of one unit) must refuse
// more than one thread. Returns both runs.
std::pair<RunResult, RunResult> on_one_and_on(CosimOptions o, unsigned jobs) {
  o.jobs = 1;
  RunResult one = run(o);
  o.jobs = jobs;
  RunResult many = run(o);
  EXPECT_EQ(without_threads(one.output), without_threads(many.output));
  const testing_support::ScratchDir scratch;
  o.trace_file = scratch / "jobs.fst";
  EXPECT_EQ(run(o).status, 2) << "--trace with --jobs " << jobs;
  return {one, many};
}

// Threads change the speed of an exhaustive run, never its report: the
// broken RTL over a shard of add gives the same failing vectors and counts
// on one thread as on three, in block order.
TEST(CosimExhaustive, ReportIsTheSameOnAnyNumberOfThreads) {
  CosimOptions o;
  o.golden = golden_name();
  o.exhaustive = true;
  o.broken = true;
  o.op = "add.rn.f16x2";
  o.shard_index = 480;
  o.shard_count = 2048;  // 2^20 vectors (four blocks) from a = 0x3c00 (1.0): ties to round
  const auto [one, three] = on_one_and_on(o, 3);
  EXPECT_EQ(one.status, 1) << one.output;
  EXPECT_NE(one.output.find("vectors=1048576 mismatches="), std::string::npos) << one.output;
  // 2^31 vectors of two lanes from pair 0; shard 480 of 2048 starts at pair 480 * 2^21.
  EXPECT_NE(one.output.find("# exhaustive: input combinations 0x3c000000 to 0x3c1fffff (2097152 of 4294967296, 2 "
                            "per vector), 4 blocks on 1 thread\n"),
            std::string::npos)
      << one.output;
  EXPECT_NE(three.output.find("4 blocks on 3 threads\n"), std::string::npos) << three.output;
}

// Random runs go in blocks too, each with seeds of its own: the broken RTL
// over three blocks (a shard's structured part, then random vectors, with
// bubbles and backpressure) reports the same on one thread as on two.
TEST(CosimRandom, ReportIsTheSameOnAnyNumberOfThreads) {
  CosimOptions o;
  o.golden = golden_name();
  o.broken = true;
  o.op = "fma.rn.bf16x2";
  o.vectors = 600000;  // 2^18 vectors a block: three blocks, the last one short
  o.seed = 5;
  o.shard_index = 1;
  o.shard_count = 3;
  o.stall_rate = 0.1;
  const auto [one, two] = on_one_and_on(o, 2);
  EXPECT_EQ(one.status, 1) << one.output;
  EXPECT_NE(one.output.find("vectors=600000 mismatches="), std::string::npos) << one.output;
  EXPECT_NE(one.output.find(" structured vectors, then seeded random; 3 blocks on 1 thread\n"), std::string::npos)
      << one.output;
  EXPECT_NE(two.output.find("3 blocks on 2 threads\n"), std::string::npos) << two.output;
}

// The RTL's OOB_NAN parameter (through the reference, which CMake gives the
// RTL's default) must be the core's constant.
TEST(CosimOob, RtlPatternIsTheCores) {
  EXPECT_EQ(kReferenceOobNan, fp::oob_nan(fp::kF16));
  EXPECT_EQ(kReferenceOobNan, fp::oob_nan(fp::kBF16));
  EXPECT_TRUE(fp::is_oob_nan(fp::kF16, kReferenceOobNan | 0x8000u));  // sign ignored, as in the RTL
}

TEST(CosimTrace, WritesAnFstWaveform) {
  const testing_support::ScratchDir scratch;
  const std::string path = scratch / "cosim_trace.fst";
  std::remove(path.c_str());
  CosimOptions o;
  o.op = "fma.rn.bf16x2";
  o.vectors = 200;
  o.golden = golden_name();
  o.trace_file = path;
  const RunResult r = run(o);
  EXPECT_EQ(r.status, 0) << r.output;
  std::ifstream f(path, std::ios::binary);
  ASSERT_TRUE(f.good());
  f.seekg(0, std::ios::end);
  EXPECT_GT(f.tellg(), 1000);
}

}  // namespace
}  // namespace ptxfu::cosim
