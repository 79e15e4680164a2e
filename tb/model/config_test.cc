// Malformed configs and programs get errors that name the file, line,
// column and key; absurd values are rejected before anything is allocated.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "isa/decode.h"
#include "isa/forms.h"
#include "models/simulator.h"
#include "scratch_dir.h"

namespace ptxfu::models {
namespace {

std::string sm90_text() {
  for (const auto& e : embedded_configs())
    if (e.name == "sm_90") return std::string(e.text);
  return "";
}

std::string with(const std::string& from, const std::string& to) {
  std::string t = sm90_text();
  const auto pos = t.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? t : t.replace(pos, from.size(), to);
}

std::string config_error(const std::string& text) {
  try {
    load_config_text(text, "cfg.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Config, ShippedConfigsLoad) {
  for (const auto& e : embedded_configs())
    EXPECT_NO_THROW(load_config_text(std::string(e.text), std::string(e.name))) << e.name;
  EXPECT_EQ(default_config().name, "sm_90");
}

// One resolver for every place a config is asked for: an embedded name, or a
// file (relative to a directory unless absolute).
TEST(Config, EmbeddedNamesAndFilesResolveAlike) {
  const ArchConfig named = load_config("sm_80");
  EXPECT_EQ(named.name, "sm_80");
  EXPECT_EQ(named.origin, "embedded:sm_80");
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/mine.yaml") << with("name: sm_90", "name: mine");
  EXPECT_EQ(load_config(dir + "/mine.yaml").name, "mine");
  EXPECT_EQ(load_config("mine.yaml", dir + "/").origin, dir + "/mine.yaml");
  EXPECT_EQ(resolve_config("sm_75").origin, "embedded:sm_75");
  try {
    load_config("sm_42");
    FAIL() << "sm_42 resolved";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "no embedded config 'sm_42' (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120) and "
              "no file 'sm_42'");
  }
}

// Units are rows of data: each class of the instruction table (isa::Pipe)
// runs on the unit of the same name, `multi` on what multi_instruction names
// and `fp16` on what half_precision names, each keeping its latency class,
// whatever the order of the enums; every form of the table gets one.
TEST(Config, PipesMapToUnitsByTheTable) {
  ArchConfig c = default_config();
  c.forms.clear();
  c.multi_instruction.unit = Unit::alu;
  c.multi_instruction.latency = 99;
  c.half_precision.unit = Unit::mufu;
  c.half_precision.latency = 77;
  for (size_t u = 0; u < kNumUnits; ++u) c.units[u].latency = static_cast<unsigned>(10 + u);
  size_t forms = 0;
  std::set<isa::Pipe> seen;
  isa::for_each_legal_form([&](const isa::Instr& in) {
    ++forms;
    seen.insert(in.row->pipe);
    const Timing t = c.timing_for(in);
    if (in.row->pipe == isa::Pipe::multi || in.row->pipe == isa::Pipe::fp16) {
      const bool multi = in.row->pipe == isa::Pipe::multi;
      EXPECT_EQ(t.latency, multi ? 99u : 77u) << isa::spell(in);
      EXPECT_EQ(t.unit, multi ? Unit::alu : Unit::mufu) << isa::spell(in);
      EXPECT_EQ(t.dep, multi ? DepClass::multi : DepClass::fp16) << isa::spell(in);
      return;
    }
    ASSERT_TRUE(unit_of(in.row->pipe).has_value()) << isa::spell(in);
    EXPECT_EQ(name(t.unit), isa::name(in.row->pipe)) << isa::spell(in);
    EXPECT_EQ(t.latency, 10 + static_cast<size_t>(t.unit)) << isa::spell(in);
  });
  EXPECT_GT(forms, 1000u);
  EXPECT_EQ(seen.size(), static_cast<size_t>(isa::Pipe::kCount)) << "every class has forms";
  EXPECT_EQ(unit_named("fp64"), Unit::fp64);
  EXPECT_EQ(unit_named("multi"), std::nullopt);
}

TEST(Config, ErrorsNameFileLineColumnAndKey) {
  struct Case {
    std::string text;
    std::string expect;  // regex over the message
  };
  const Case cases[] = {
      {with("fma:  {lanes: 32", "fma:  {lanes: 0"),
       R"(^cfg\.yaml:\d+:\d+: key 'units\.fma\.lanes': expected an integer 1\.\.32)"},
      {with("fma:  {lanes: 32", "fma:  {lanes: 3"),
       R"(key 'units\.fma\.lanes': expected 1, 2, 4, 8, 16 or 32 lanes, got 3)"},
      {with("mufu: {lanes: 4, latency: 17}", "mufu: {lanes: 4, latency: 1000000000000}"),
       R"(key 'units\.mufu\.latency': expected an integer 1\.\.100000)"},
      {with("max_warps: 64", "max_warps: 10000000"), R"(key 'max_warps': expected an integer 1\.\.256)"},
      {with("scheduler: gto", "scheduler: fifo"), R"(key 'scheduler': unknown policy 'fifo')"},
      {with("target: sm_90", "target: sm_42"), R"(key 'target': unknown target 'sm_42')"},
      {with("issue_width: 1", "issue_widht: 1"), R"(^cfg\.yaml:9:1: key 'issue_widht': unknown key)"},
      {with("sub_partitions: 4", "sub_partitions: [4]"), R"(key 'sub_partitions': expected an integer)"},
      {with("  fp64: {lanes: 16, interval: 1, latency: 8}\n", ""), R"(key 'units\.fp64': missing)"},
      {with("class: fma, lanes: 16, latency: 4}   # IMAD", "class: tensor, lanes: 16, latency: 4}   # IMAD"),
       R"(key 'forms\[[0-9]+\]\.class': unknown class 'tensor' \(expected fma, alu, fp64, mufu, conv, fp16 or multi\))"},
      {with("target: sm_90", "target: sm_90\nfeatures: {add: [warp_drive]}"), R"(unknown feature 'warp_drive')"},
      {with("half_precision: {unit: fma, lanes: 32, latency: 5}\n", ""), R"(key 'half_precision': missing)"},
      {with("half_precision: {unit: fma", "half_precision: {unit: hmma"),
       R"(key 'half_precision\.unit': unknown unit 'hmma')"},
      {with("multi_instruction: {unit: fma", "multi_instruction: {unit: rt_core"),
       R"(key 'multi_instruction\.unit': unknown unit 'rt_core' \(expected fma, alu, fp64, mufu, conv, lsu, branch, warp or tensor\))"},
      {with("  mufu: {", "  sfu: {"),
       R"(key 'units\.sfu': unknown key \(expected one of: fma, alu, fp64, mufu, conv, lsu, branch, warp, tensor\))"},
      {with("{f16.f32: 342,", "{f16.f33: 342,"),
       R"(key 'tensor\.rates\.f16\.f33': expected IN\.OUT, two element types)"},
      {with("{f16.f32: 342,", "{f16.f32: 0,"), R"(key 'tensor\.rates\.f16\.f32': expected a rate 1/64\.\.65536)"},
      {with("m16n8k8.f16.f32: 17,", "m16n8.f16.f32: 17,"),
       R"(key 'tensor\.latencies\.m16n8\.f16\.f32': expected SHAPE\.IN\.OUT, a shape and two element types)"},
      {with("m16n8k8.f16.f32: 17,", "m16n8k8.f16.f32: 0,"),
       R"(key 'tensor\.latencies\.m16n8k8\.f16\.f32': expected an integer 1\.\.100000)"},
      {with("global_hit_rate: 0.5", "global_hit_rate: 1.5"),
       R"(key 'memory\.global_hit_rate': expected a fraction from 0 to 1)"},
      {with("global_hit_rate: 0.5, ", ""), R"(key 'memory': global_miss and global_hit_rate go together)"},
      {with("line_bytes: 128", "line_bytes: 100"), R"(key 'memory\.line_bytes': expected a power of two)"},
      {with("shared: 30, ", ""), R"(key 'memory\.shared': missing)"},
      {with("max_ctas: 32", "max_ctas: 0"), R"(key 'sm\.max_ctas': expected an integer 1\.\.1024)"},
      {with("registers: 65536", "regs: 65536"), R"(key 'sm\.regs': unknown key)"},
      {with("{producer: alu, consumer: alu,", "{producer: rt_core, consumer: alu,"),
       R"(key 'dependencies\[0\]\.producer': unknown class 'rt_core' \(expected fma, alu, fp16, fp64, mufu, conv, multi, lsu, branch, warp or tensor\))"},
      {with("{producer: alu, consumer: alu, latency: 4,", "{producer: alu, consumer: [alu, alu], latency: 4,"),
       R"(key 'dependencies\[0\]': the pair alu -> alu is given twice)"},
      {with("{producer: alu, consumer: alu, latency: 4,", "{producer: alu, consumer: alu, latency: 0,"),
       R"(key 'dependencies\[0\]\.latency': expected an integer 1\.\.100000)"},
      {with("class: fma, lanes: 16, latency: 4}   # IMAD",
            "class: fma, lanes: 16, latency: 4, latency_class: hmma}   # IMAD"),
       R"(key 'forms\[[0-9]+\]\.latency_class': unknown class 'hmma')"},
      {"name: [unclosed", R"(^cfg\.yaml:\d+:\d+: )"},
      {"", R"(empty config)"},
  };
  for (const auto& c : cases) {
    const std::string msg = config_error(c.text);
    EXPECT_TRUE(std::regex_search(msg, std::regex(c.expect))) << "expected /" << c.expect << "/ got: " << msg;
  }
}

// dependent_latency: the `dependencies:` entry for the pair of classes,
// else the producer's latency, never below it; every embedded config has a
// table with a source on every entry.
TEST(Config, DependentLatencyReadsThePairTable) {
  const ArchConfig c = load_config("sm_80");
  const Timing fma = c.units[static_cast<size_t>(Unit::fma)];
  const Timing alu = c.units[static_cast<size_t>(Unit::alu)];
  const Timing mufu = c.units[static_cast<size_t>(Unit::mufu)];
  const Timing fp64 = c.units[static_cast<size_t>(Unit::fp64)];
  EXPECT_EQ(c.dependent_latency(fma, fma), 4u);  // NAK SM80 CoupledFMA -> FMA
  EXPECT_EQ(c.dependent_latency(fma, alu), 5u);  // -> ALU
  EXPECT_EQ(c.dependent_latency(alu, fma), 5u);
  EXPECT_EQ(c.dependent_latency(fp64, alu), 10u);  // RedirectedFP64 -> ALU
  EXPECT_EQ(c.dependent_latency(fp64, fp64), 6u);
  EXPECT_EQ(c.dependent_latency(mufu, alu), mufu.latency);  // variable latency: no entry
  // An entry below the producer's own latency has no effect.
  ArchConfig low = c;
  low.dependency_table[static_cast<size_t>(DepClass::fma)][static_cast<size_t>(DepClass::alu)] = 1;
  EXPECT_EQ(low.dependent_latency(fma, alu), fma.latency);
  // The half-precision forms carry the fp16 class; cvt F2I runs on the conversion unit.
  isa::Diagnostic d;
  isa::Instr hfma2, f2i, f2fp;
  ASSERT_TRUE(isa::decode("fma.rn.f16x2", 3, 1, hfma2, d));
  ASSERT_TRUE(isa::decode("cvt.rzi.s32.f32", 1, 1, f2i, d));
  ASSERT_TRUE(isa::decode("cvt.rn.f16x2.f32", 2, 1, f2fp, d));
  EXPECT_EQ(c.timing_for(hfma2).dep, DepClass::fp16);
  EXPECT_EQ(c.dependent_latency(c.timing_for(hfma2), fma), 5u);
  EXPECT_EQ(c.timing_for(f2i).unit, Unit::conv);
  EXPECT_EQ(c.timing_for(f2fp).unit, Unit::alu);
  for (const auto& e : embedded_configs()) {
    const ArchConfig k = load_config(std::string(e.name));
    EXPECT_GE(k.dependencies.size(), 20u) << k.name;
    for (const Dependency& dep : k.dependencies) EXPECT_FALSE(dep.source.empty()) << k.name;
  }
}

// sm_80 rejects .oob (an sm_90 feature) unless the config adds it.
TEST(Config, FeatureOverridesReachTheTarget) {
  const std::string program = ".reg .b16 %h<4>;\nfma.rn.oob.f16 %h1, %h2, %h3, %h1;\n";
  const ArchConfig plain = load_config_text(with("target: sm_90", "target: sm_80"), "x.yaml");
  try {
    kernel::load_straight_line(program, "p.ptx", plain.caps);
    ADD_FAILURE() << "sm_80 without the override accepted .oob";
  } catch (const kernel::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("Modifier '.oob' requires .target sm_90 or higher"), std::string::npos)
        << e.what();
  }
  const ArchConfig c = load_config_text(with("target: sm_90", "target: sm_80\nfeatures: {add: [oob]}"), "x.yaml");
  EXPECT_EQ(kernel::load_straight_line(program, "p.ptx", c.caps).insts[0].kind, kernel::Kind::arith);
}

// The published figures live in configs/references.yaml, apart from the
// parameters; its loader names the key of a malformed entry.
TEST(Config, ReferencesAreReadApartFromTheParameters) {
  EXPECT_FALSE(load_config("sm_90").references.empty());
  try {
    load_references_text("sm_90:\n  {a: 1}: {source: x}\n", "refs.yaml");
    ADD_FAILURE() << "accepted a mapping as a bench name";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'sm_90': expected a string"), std::string::npos) << e.what();
  }
}

TEST(Config, AbsurdWarpCountsAreRejectedBeforeElaboration) {
  const ArchConfig c = default_config();
  const kernel::Kernel p = kernel::load_straight_line(".reg .b32 %r<2>;\nadd.s32 %r1, %r0, 1;\n", "p.ptx", c.caps);
  SimJob job;
  job.config = &c;
  job.kernel = &p;
  job.warps = 10'000'000;
  try {
    validate(job);
    FAIL() << "accepted 10^7 warps";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("1..64 warps"), std::string::npos) << e.what();
  }
  job.warps = 2;
  job.threads = 65;
  try {
    validate(job);
    FAIL() << "accepted 65 threads in 2 warps";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "65 threads do not make 2 warps");
  }
  job.threads = 33;
  EXPECT_NO_THROW(validate(job));
}

TEST(StraightLine, IsLoweredAsAKernelBody) {
  const kernel::Kernel k = kernel::load_straight_line(
      ".reg .b32 %r<4>;\nmov.u32 %r0, %tid.x;\nadd.cc.u32 %r1, %r0, 1;\naddc.u32 %r2, %r0, 0;\n"
      "mov.b32 %r3, %r2;\n",
      "p.ptx", default_config().caps);
  ASSERT_EQ(k.insts.size(), 5u);  // and the function's end
  EXPECT_TRUE(k.straight_line);
  EXPECT_EQ(k.insts[0].kind, kernel::Kind::mov);
  EXPECT_EQ(k.insts[1].kind, kernel::Kind::arith);
  EXPECT_EQ(k.insts[2].kind, kernel::Kind::arith);
  EXPECT_EQ(k.insts[3].kind, kernel::Kind::mov);
  EXPECT_EQ(k.insts[4].kind, kernel::Kind::func_end);
  EXPECT_EQ(k.insts[1].line, 3u);  // the program's own lines
  EXPECT_EQ(k.entry().reg_names, (std::vector<std::string>{"%r0", "%r1", "%r2", "%r3"}));
}

TEST(StraightLine, ErrorsNameFileLineAndColumn) {
  const ArchConfig c = default_config();
  struct Case {
    std::string text;
    std::string expect;
  };
  const Case cases[] = {
      {".reg .b32 %r<4>;\n.entry f()\n",
       "p.ptx:2:1: error: Unknown directive '.entry' in the body of 'straight_line_program'"},
      {".reg .b32 %r<4>;\nadd.u32 %r1, %r2, %q9;\n", "p.ptx:2:19: error: Unknown symbol '%q9'"},
      {".reg .b32 %r<4>;\nadd.u32 %r1, %r2, %r3\n", "p.ptx:2:22: error: expected ';'"},
      {".reg .b32 %r<4>;\nfma.rn.f32.f16 %r1, %r2, %r3, %r1;\n",
       "p.ptx:2:1: error: Feature 'fma.f32.f16' requires .target sm_100 or higher"},
      {".reg .b16 %h<4>;\nadd.f16 %h1, %h2, 0x3c00;\n", "p.ptx:2:19: error: Arguments mismatch for instruction 'add'"},
      {".reg .b32 %r<4>;\n", "p.ptx: no instructions to simulate"},
      {".reg .b32 %r<2000000>;\n", "p.ptx:1:11: error: more than 2^20 registers in one function"},
      {std::string(".reg .b32 %r<4>;\nadd.u32 %r1, \xff;\n"), "p.ptx:2:14: error: invalid byte 0xff"},
  };
  for (const auto& k : cases) {
    try {
      kernel::load_straight_line(k.text, "p.ptx", c.caps);
      ADD_FAILURE() << "accepted: " << k.text;
    } catch (const kernel::KernelError& e) {
      EXPECT_NE(std::string(e.what()).find(k.expect), std::string::npos)
          << "expected '" << k.expect << "' got: " << e.what();
    }
  }
}

// Found by fuzz_config: a key that is a list or a mapping ("{[a]: 1}") made
// yaml-cpp throw TypedBadConversion, which escaped the loader (std::terminate).
// The absurd values of docs/reliability.md get clear errors too.
TEST(Config, MalformedKeysAndAbsurdValuesAreConfigErrors) {
  struct Case {
    std::string text;
    std::string expect;
  };
  const Case cases[] = {
      {with("  - {match: \"mul.[hlw]*\", class: fma", "  - {[match]: \"mul.[hlw]*\", class: fma"),
       R"(key 'forms\[[0-9]+\]\.\?': unknown key)"},
      {"? [name]\n: sm_90\n", R"(^cfg\.yaml:1:3: key '\?': unknown key)"},
      {sm90_text() + "reference:\n  ffma: {latency: 4, source: x}\n", R"(key 'reference': unknown key)"},
      {with("fma:  {lanes: 32", "fma:  {lanes: 99999999999999999999999"),
       R"(key 'units\.fma\.lanes': expected an integer 1\.\.32)"},
      {with("mufu: {lanes: 4, latency: 17}", "mufu: {lanes: 4, latency: -1}"),
       R"(key 'units\.mufu\.latency': expected an integer 1\.\.100000, got '-1')"},
      {with("max_warps: 64", "max_warps: 1e9"), R"(key 'max_warps': expected an integer 1\.\.256, got '1e9')"},
  };
  for (const auto& c : cases) {
    std::string msg;
    try {
      load_config_text(c.text, "cfg.yaml");
      msg = "no error";
    } catch (const ConfigError& e) {
      msg = e.what();
    }  // any other exception fails the test
    EXPECT_TRUE(std::regex_search(msg, std::regex(c.expect))) << "expected /" << c.expect << "/ got: " << msg;
  }
}

}  // namespace
}  // namespace ptxfu::models
