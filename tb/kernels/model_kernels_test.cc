// The SM model on kernels: residency from the config's limits, cycle counts
// that follow from the config's latencies (dependent chains, memory, bank
// conflicts), stalls attributed to the instruction that waited, the error
// paths, and `ptxfu sim KERNEL.ptx` from the command line.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "kernel_test_util.h"
#include "model_run.h"
#include "models/config.h"
#include "models/kernel_sm.h"
#include "scratch_dir.h"

namespace ptxfu::kernel::testing {
namespace {

using models::ArchConfig;
using models::WarpStall;

std::string module(const std::string& entry_body, const std::string& params = "") {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(" + params + ")\n{\n" + entry_body + "}\n";
}

Kernel load_text(const std::string& text) { return load_kernel(text, "k.ptx"); }

// The config run_on_model uses without YAML of its own.
ArchConfig test_config() {
  const char* name = std::getenv("PTXFU_TEST_CONFIG");
  return models::load_config(name ? name : "sm_90");
}

// ---- residency: the CUDA occupancy rules applied to the config's limits

TEST(Residency, EveryConfigsLimitsDecide) {
  // Nine 32-bit registers and two 64-bit ones (four words) live at once
  // before the first add; a predicate counts nothing.
  std::string body = ".reg .pred %p<2>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<2>;\nsetp.eq.u32 %p1, 1, 1;\n";
  for (int i = 0; i < 9; ++i) body += "mov.u32 %r" + std::to_string(i) + ", " + std::to_string(i) + ";\n";
  body += "mov.u64 %rd0, 1;\nmov.u64 %rd1, 2;\n";
  for (int i = 1; i < 9; ++i) body += "@%p1 add.u32 %r0, %r0, %r" + std::to_string(i) + ";\n";
  body += "add.u64 %rd0, %rd0, %rd1;\nret;\n";
  const Kernel k = load_text(module(body));
  const unsigned regs = models::estimated_registers(k);
  EXPECT_EQ(regs, 13u);
  for (const auto& e : models::embedded_configs()) {
    const ArchConfig c = models::load_config(std::string(e.name));
    for (const unsigned threads : {32u, 96u, 256u, 1024u}) {
      Launch l;
      l.grid = {1000};
      l.block = {threads};
      const uint64_t warps = (threads + 31) / 32;
      const uint64_t g = c.sm.register_granularity;
      const uint64_t per_warp = (regs * 32 + g - 1) / g * g;
      uint64_t want = c.sm.max_ctas;
      want = std::min<uint64_t>(want, c.max_warps / warps);
      if (c.sm.reserved_shared_per_cta)
        want = std::min<uint64_t>(want, c.sm.shared_bytes / c.sm.reserved_shared_per_cta);
      want = std::min<uint64_t>(want, c.sm.registers / (per_warp * warps));
      const models::Residency r = models::residency(c, k, l, regs);
      EXPECT_EQ(r.ctas, want) << c.name << " " << threads << " threads";
      EXPECT_EQ(r.warps_per_cta, warps);
    }
  }
}

TEST(Residency, SharedMemoryAndRegistersLimit) {
  const Kernel k = load_text(module("ret;\n"));
  const ArchConfig c = models::load_config("sm_86");  // 100 KiB, 1 KiB reserved per CTA, 16 CTAs, 48 warps
  Launch l;
  l.grid = {64};
  l.block = {64};
  l.shared_bytes = 40 * 1024;
  models::Residency r = models::residency(c, k, l, 16);
  EXPECT_EQ(r.ctas, 102400u / (41u * 1024));
  EXPECT_EQ(r.limit, "shared memory");
  l.shared_bytes = 0;
  r = models::residency(c, k, l, 255);  // 255 * 32 rounds to 8192 a warp, 16384 a CTA
  EXPECT_EQ(r.ctas, 65536u / 16384);
  EXPECT_EQ(r.limit, "registers");
  l.grid = {2};
  r = models::residency(c, k, l, 16);
  EXPECT_EQ(r.ctas, 2u);
  EXPECT_EQ(r.limit, "grid");
  l.shared_bytes = 200 * 1024;
  try {
    models::residency(c, k, l, 16);
    ADD_FAILURE() << "a CTA larger than the SM's shared memory was accepted";
  } catch (const models::ConfigError& e) {
    EXPECT_TRUE(Contains(e.what(), "does not fit on an SM of sm_86"));
    EXPECT_TRUE(Contains(e.what(), "shared memory"));
  }
}

// ---- cycle counts that follow from the config

// One warp, `n` links of a dependent chain `link` (which reads and writes %f1).
ModelRun chain(const std::string& link, unsigned n, const std::string& yaml = "") {
  std::string body = ".reg .f32 %f<4>;\nmov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f3F000000;\n";
  for (unsigned i = 0; i < n; ++i) body += link + "\n";
  body += "ret;\n";
  const Kernel k = load_text(module(body));
  Launch l;
  l.block = {32};
  return run_on_model(k, l, false, 0, yaml);
}

TEST(ModelTiming, DependentChainsTakeTheConfiguredLatency) {
  const ArchConfig c = test_config();
  struct Case {
    std::string link;
    models::Unit unit;
  };
  for (const Case& t :
       {Case{"fma.rn.f32 %f1, %f1, %f2, %f2;", models::Unit::fma}, Case{"ex2.approx.f32 %f1, %f1;", models::Unit::mufu},
        Case{"min.f32 %f1, %f1, %f2;", models::Unit::alu}}) {
    const ModelRun a = chain(t.link, 8), b = chain(t.link, 40);
    ASSERT_TRUE(a.result.ok && b.result.ok) << a.result.error << b.result.error;
    const Kernel k = load_text(module(".reg .f32 %f<4>;\n" + t.link + "\nret;\n"));
    // A link waits for its predecessor's result as the dependency table has
    // a consumer of its own class read it, and for its unit.
    const models::Timing timing = c.timing_for(k.insts[0].form);
    const unsigned latency = std::max(c.dependent_latency(timing, timing), timing.occupancy());
    EXPECT_GE(latency, timing.latency);
    EXPECT_EQ(c.timing_for(k.insts[0].form).unit, t.unit) << t.link;
    EXPECT_EQ(b.cycles - a.cycles, 32u * latency) << t.link;
  }
}

// A pointer chase: each load's address is the previous load's result plus
// the base (the buffer holds zeros).
ModelRun chase(const std::string& space, unsigned n, const std::string& yaml) {
  std::string body = ".reg .b64 %rd<4>;\n";
  body += space == "shared" ? ".shared .align 8 .b8 buf[64];\nmov.u64 %rd1, buf;\n" : "ld.param.u64 %rd1, [p];\n";
  for (unsigned i = 0; i < n; ++i) body += "ld." + space + ".u64 %rd2, [%rd1];\nadd.s64 %rd1, %rd1, %rd2;\n";
  body += "ret;\n";
  const Kernel k = load_text(module(body, ".param .u64 p"));
  Launch l;
  l.block = {32};
  l.args = {Arg::zeros(64)};
  return run_on_model(k, l, false, 0, yaml);
}

std::string embedded_text(const std::string& name) {
  for (const auto& e : models::embedded_configs())
    if (e.name == name) return std::string(e.text);
  return "";
}

TEST(ModelTiming, LoadsTakeTheLatencyOfTheirStateSpace) {
  // Every global access a hit: no miss share in the config.
  std::string yaml = embedded_text("sm_80");
  const std::string miss = "global_miss: 290, global_hit_rate: 0.5, ";
  ASSERT_NE(yaml.find(miss), std::string::npos);
  yaml.replace(yaml.find(miss), miss.size(), "");
  const ArchConfig c = models::load_config_text(yaml, "hits.yaml");
  const Kernel add = load_text(module(".reg .b64 %rd<4>;\nadd.s64 %rd1, %rd1, %rd2;\nret;\n"));
  const models::Timing add_timing = c.timing_for(add.insts[0].form);
  const models::Timing lsu = c.units[static_cast<size_t>(models::Unit::lsu)];
  // One link: the load's latency (or what the dependency table gives a load
  // result read by the add), then the add's result read by the next load.
  auto link = [&](const ArchConfig& cfg, unsigned load_latency) {
    models::Timing load = lsu;
    load.latency = load_latency;
    return cfg.dependent_latency(load, add_timing) + cfg.dependent_latency(add_timing, lsu);
  };
  for (const auto& [space, latency] :
       {std::pair{std::string("global"), c.memory.global}, std::pair{std::string("shared"), c.memory.shared}}) {
    const ModelRun a = chase(space, 2, yaml), b = chase(space, 10, yaml);
    ASSERT_TRUE(a.result.ok && b.result.ok) << a.result.error << b.result.error;
    EXPECT_EQ(b.cycles - a.cycles, 8u * link(c, latency)) << space;
    EXPECT_GE(link(c, latency), latency + add_timing.latency) << space;
  }
  // With the embedded miss share of one half, hits and misses alternate.
  const ArchConfig sm80 = models::load_config("sm_80");
  const ModelRun a = chase("global", 2, embedded_text("sm_80")), b = chase("global", 10, embedded_text("sm_80"));
  ASSERT_TRUE(a.result.ok && b.result.ok);
  EXPECT_EQ(b.cycles - a.cycles, 4u * link(sm80, sm80.memory.global) + 4u * link(sm80, sm80.memory.global_miss));
}

TEST(ModelTiming, SharedBankConflictsSerialise) {
  const ArchConfig c = test_config();
  auto run = [&](unsigned stride_words) {
    const std::string body =
        ".reg .b32 %r<4>;\n.shared .align 4 .b8 buf[4096];\nmov.u32 %r1, %laneid;\nmul.lo.u32 %r2, %r1, " +
        std::to_string(4 * stride_words) + ";\nst.shared.u32 [%r2], %r1;\nst.shared.u32 [%r2], %r1;\nret;\n";
    Launch l;
    l.block = {32};
    return run_on_model(load_text(module(body)), l, false);
  };
  const ModelRun linear = run(1), conflicted = run(32), two_way = run(2);
  ASSERT_TRUE(linear.result.ok && conflicted.result.ok && two_way.result.ok);
  const unsigned interval = c.units[static_cast<size_t>(models::Unit::lsu)].interval;
  EXPECT_EQ(conflicted.cycles - linear.cycles, 31u * interval);  // 32 lanes on one bank: 32 passes
  EXPECT_EQ(two_way.cycles - linear.cycles, 1u * interval);      // stride 2: two lanes a bank
}

// Warp 1 reaches the barrier at once; warp 0 first runs a dependent chain.
TEST(ModelTiming, BarrierWaitsAreCountedAtTheBarrier) {
  std::string body =
      ".reg .pred %p<2>;\n.reg .b32 %r<2>;\n.reg .f32 %f<3>;\nmov.u32 %r1, %tid.x;\n"
      "setp.ge.u32 %p1, %r1, 32;\n@%p1 bra WAIT;\n";
  for (int i = 0; i < 20; ++i) body += "fma.rn.f32 %f1, %f1, %f2, %f2;\n";
  body += "WAIT:\nbar.sync 0;\nret;\n";
  const Kernel k = load_text(module(body));
  Launch l;
  l.block = {64};
  const ModelRun r = run_on_model(k, l, false);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  size_t bar = 0;
  while (k.insts[bar].kind != Kind::bar) ++bar;
  const unsigned fma = test_config().units[static_cast<size_t>(models::Unit::fma)].latency;
  EXPECT_GE(r.lines[bar][static_cast<size_t>(WarpStall::barrier)], 19u * fma);
  EXPECT_EQ(r.issued[bar], 2u);  // one bar.sync per warp
  for (size_t i = 0; i < r.lines.size(); ++i)
    if (i != bar) {
      EXPECT_EQ(r.lines[i][static_cast<size_t>(WarpStall::barrier)], 0u) << "instruction " << i;
    }
}

TEST(ModelTiming, MoreCtasThanFitRunInWaves) {
  // Dynamic shared memory for one CTA at a time: CTAs run one after another,
  // each starting in the cycle the one before it retires.
  const Kernel k = load_text(module(".reg .f32 %f<3>;\nfma.rn.f32 %f1, %f1, %f2, %f2;\nret;\n"));
  const ArchConfig c = test_config();
  Launch one, four;
  one.block = four.block = {256};
  four.grid = {4};
  one.shared_bytes = four.shared_bytes = c.sm.shared_bytes / 2 + 1;
  EXPECT_EQ(models::residency(c, k, four, 8).ctas, 1u);
  const ModelRun a = run_on_model(k, one, false), b = run_on_model(k, four, true);
  ASSERT_TRUE(a.result.ok && b.result.ok) << a.result.error << b.result.error;
  EXPECT_EQ(b.result.ctas, 4u);
  EXPECT_EQ(b.cycles, 4 * a.cycles);
}

// ld.param and ld.const are constant-bank operands: no unit holds them, so
// no warp waits at one for a busy unit (the softmax kernel's first ld.param
// was its top pipe_busy line when they went through the load/store unit), and
// a consumer has the value the config's const/param latency after the issue.
TEST(ModelTiming, ConstantBankReadsOccupyNoUnit) {
  const Kernel k = load_corpus("softmax", "sm_90", "softmax_warp_per_row");
  Launch l;
  l.grid = {16};
  l.block = {128};
  l.args = {Arg::zeros(65536), Arg::zeros(65536), Arg::s32(64), Arg::s32(256)};
  const ModelRun r = run_on_model(k, l, false);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  unsigned params = 0;
  for (size_t i = 0; i < k.insts.size(); ++i) {
    if (k.insts[i].mnemonic.substr(0, 9) != "ld.param.") continue;
    ++params;
    EXPECT_EQ(r.issued[i], 64u);  // every warp of 16 CTAs of 4 warps
    EXPECT_EQ(r.lines[i][static_cast<size_t>(WarpStall::pipe_busy)], 0u) << k.where(k.insts[i]);
  }
  EXPECT_EQ(params, 4u);
  // One warp: ld.const's result is read by an add; the add issues the const latency later.
  const Kernel c = load_text(
      ".version 8.0\n.target sm_90\n.address_size 64\n.const .align 4 .b8 tab[16];\n"
      ".visible .entry k()\n{\n.reg .b32 %r<4>;\nld.const.u32 %r1, [tab+4];\n"
      "add.s32 %r2, %r1, %r1;\nret;\n}\n");
  const ArchConfig cfg = test_config();
  models::Timing load = cfg.units[static_cast<size_t>(models::Unit::lsu)];
  load.latency = cfg.memory.constant;
  const models::Timing add = cfg.timing_for(c.insts[1].form);
  Launch one;
  const ModelRun a = run_on_model(c, one, false), b = run_on_model(c, one, true);
  ASSERT_TRUE(a.result.ok) << a.result.error;
  EXPECT_EQ(a.lines[1][static_cast<size_t>(WarpStall::memory)], cfg.dependent_latency(load, add) - 1);
  EXPECT_EQ(a.cycles, b.cycles);
}

// ---- errors on the model

// The cluster parameters of memory: (no published figure in the configs yet)
// take effect: a chain of .shared::cluster loads slows by the DSMEM latency
// it adds, a row of barrier.cluster by the barrier's.
TEST(ModelTiming, ClusterParametersTimeDsmemAndBarrierCluster) {
  const std::string base = embedded_text("sm_90");
  ASSERT_NE(base.find("memory: {"), std::string::npos);
  auto with = [&](const std::string& keys) {
    std::string yaml = base;
    yaml.insert(yaml.find("memory: {") + 9, keys);
    return yaml;
  };
  Launch l;
  l.grid = {2};
  l.block = {32};
  l.cluster = {2};
  const unsigned n = 10;
  l.args = {Arg::u32(n)};
  for (const bool at : {false, true}) {
    const Kernel chase = load_handwritten("cluster.ptx", "dsmem_chase");
    const ModelRun a = run_on_model(chase, l, at, 0, with("dsmem: 100, ")),
                   b = run_on_model(chase, l, at, 0, with("dsmem: 400, "));
    ASSERT_TRUE(a.result.ok && b.result.ok) << a.result.error << b.result.error;
    EXPECT_GE(b.cycles - a.cycles, (n - 1) * 300u) << a.cycles << " " << b.cycles;
    EXPECT_LE(b.cycles - a.cycles, (n + 1) * 300u) << a.cycles << " " << b.cycles;
    const Kernel syncs = load_handwritten("cluster.ptx", "cluster_syncs");
    const ModelRun c = run_on_model(syncs, l, at, 0, with("cluster_barrier: 50, ")),
                   d = run_on_model(syncs, l, at, 0, with("cluster_barrier: 550, "));
    ASSERT_TRUE(c.result.ok && d.result.ok) << c.result.error << d.result.error;
    EXPECT_GE(d.cycles - c.cycles, (n - 1) * 500u) << c.cycles << " " << d.cycles;
    EXPECT_LE(d.cycles - c.cycles, (n + 1) * 500u) << c.cycles << " " << d.cycles;
  }
}

TEST(ModelErrors, CycleLimit) {
  const Kernel k = load_handwritten("errors.ptx", "spin");
  Launch l;
  l.block = {64};
  for (const bool at : {false, true}) {
    const ModelRun r = run_on_model(k, l, at, 1000);
    EXPECT_FALSE(r.result.ok);
    EXPECT_TRUE(Contains(r.result.error, "cycle limit of 1000 reached"));
    EXPECT_TRUE(Contains(r.result.error, "bra.uni"));
  }
}

TEST(ModelErrors, AHungMbarrierWaitNamesTheBarrierAndItsWarps) {
  const Kernel k = load_handwritten("async.ptx", "hang");
  Launch l;
  l.block = {64};
  for (const bool at : {false, true}) {
    const ModelRun r = run_on_model(k, l, at, 5000);
    ASSERT_FALSE(r.result.ok);
    EXPECT_TRUE(Contains(r.result.error, "cycle limit of 5000 reached (--max-cycles)"));
    EXPECT_TRUE(Contains(r.result.error,
                         "a wait on the mbarrier at __shared__ 0x0 in block (0,0,0) never completes "
                         "(phase 0: 1 of 65 arrivals pending, tx-count 0): warps 0, 1 wait on it"));
  }
}

// A cp.async's data is in shared memory when the load/store unit's global
// latency has passed, not at issue: a load right after it reads what was
// there; after the wait, the copy. %globaltimer counts the config's clock.
TEST(ModelTiming, AsyncCopiesLandAfterTheirLatency) {
  const Kernel k = load_handwritten("async.ptx", "lands");
  Launch l;
  l.args = {Arg::buffer(bytes_of(std::vector<uint32_t>{0x12345678u})), Arg::zeros(24)};
  const ArchConfig c = test_config();
  for (const bool at : {false, true}) {
    const ModelRun r = run_on_model(k, l, at);
    ASSERT_TRUE(r.result.ok) << r.result.error;
    const auto out = values_of<uint32_t>(r.result.memory, 1);
    EXPECT_EQ(out[0], 0u) << "read before the copy landed";
    EXPECT_EQ(out[1], 0x12345678u) << "read after cp.async.wait_all";
    const auto t = values_of<uint64_t>(r.result.memory, 1);
    // %globaltimer is read one issue before %clock64: within a few cycles of clock * 1000 / MHz.
    const double ns = static_cast<double>(t[1]);
    const double want = static_cast<double>(t[2]) * 1000.0 / c.async.clock_mhz;
    EXPECT_LE(ns, want);
    EXPECT_GE(ns, want - 20 * 1000.0 / c.async.clock_mhz);
    // The wait held the warp at least the global latency.
    EXPECT_GE(r.cycles, c.memory.global);
  }
}

TEST(ModelErrors, ClusterTooBigAndABarrierClusterNotAllReach) {
  const Kernel k = load_handwritten("cluster.ptx", "half_barrier");
  Launch l;
  l.grid = {4};
  l.block = {64};
  l.cluster = {2};
  for (const bool at : {false, true}) {
    const ModelRun r = run_on_model(k, l, at, 2000);
    EXPECT_FALSE(r.result.ok);
    EXPECT_TRUE(Contains(r.result.error, "cycle limit of 2000 reached"));
    // warp 0 of the first CTA waits; 64 of the cluster's 128 threads arrived
    EXPECT_TRUE(Contains(r.result.error,
                         "warp 0 of block (0,0,0) was at 'ret': Barrier error detected. barrier.cluster.wait in "
                         "cluster (0,0,0) waits for 128 threads; 64 have arrived"));
  }
  // a cluster of 16 CTAs of 1024 threads: more warps than an SM holds at once
  l.grid = {16};
  l.block = {1024};
  l.cluster = {16};
  const ModelRun big = run_on_model(k, l, false, 2000);
  EXPECT_FALSE(big.result.ok);
  EXPECT_TRUE(Contains(big.result.error, "a cluster of 16 CTAs of 'half_barrier' does not fit on an SM"))
      << big.result.error;
}

TEST(ModelErrors, FaultsReadAsOnTheFunctionalExecutor) {
  const Kernel k = load_handwritten("errors.ptx", "copy");
  Launch l;
  l.grid = {2};
  l.block = {64};
  l.args = {Arg::zeros(100 * 4), Arg::zeros(128 * 4), Arg::u32(128)};
  const RunResult f = run_functional(k, l);
  const ModelRun m = run_on_model(k, l, false);
  ASSERT_FALSE(f.ok);
  EXPECT_FALSE(m.result.ok);
  EXPECT_EQ(m.result.error, f.error);
  EXPECT_TRUE(Contains(m.result.error, "out of bounds"));
}

// ---- the command line

std::string errors_ptx() { return std::string(PTXFU_KERNELS_DIR) + "/errors.ptx"; }

TEST(SimCli, RunsAKernelAndWritesItsBuffers) {
  const testing_support::ScratchDir scratch;
  const std::string dir = scratch / "ptxfu_sim_out";
  std::filesystem::remove_all(dir);
  const Cli r = ptxfu("sim " + errors_ptx() + " --entry copy --grid 2 --block 64 --arg buf:random:512:7 " +
                      "--arg buf:zeros:512 --arg u32:128 --out-dir " + dir + " --config sm_80 --profile");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "CTAs               2"));
  EXPECT_TRUE(Contains(r.out, "top stall lines"));
  const std::string in = read_file(dir + "/arg0.bin"), out = read_file(dir + "/arg1.bin");
  // buf:random is SplitMix64 from the seed, little-endian
  SplitMix64 rng{7};
  std::string want;
  for (int i = 0; i < 64; ++i) {
    const uint64_t v = rng.next();
    for (int b = 0; b < 8; ++b) want += static_cast<char>(v >> (8 * b));
  }
  EXPECT_TRUE(in == want);
  EXPECT_TRUE(out == want);                                  // copy: out[i] = in[i]
  EXPECT_FALSE(std::filesystem::exists(dir + "/arg2.bin"));  // a scalar
}

TEST(SimCli, JsonCarriesThePerLineProfile) {
  const Cli r = ptxfu("sim " + errors_ptx() + " --entry scale --arg f32:1.5 --arg buf:zeros:4 --json --profile");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* key : {"\"cycles\"", "\"ctas\": 1", "\"residency\"", "\"lines\"", "\"stalls\"", "\"lsu\""})
    EXPECT_TRUE(Contains(r.out, key));
  EXPECT_TRUE(Contains(r.out, "\"source\": \"\\tadd.f32 \\t%f2, %f1, %f1;\""));
}

TEST(SimCli, ErrorsNameTheParameterOrTheLine) {
  struct Case {
    std::string args, message;
  };
  const std::string copy = "sim " + errors_ptx() + " --entry copy ";
  const Case cases[] = {
      {copy + "--arg buf:zeros:4",
       "'copy' takes 3 parameters (.u64 in_param, .u64 out_param, .u32 n_param); 1 --arg given"},
      {copy + "--arg buf:zeros:4 --arg buf:zeros:4 --arg u32:x", "--arg 3 'u32:x' for parameter 2 ('.u32 n_param')"},
      {copy + "--arg f32:1 --arg buf:zeros:4 --arg u32:1", "the argument is a 4-byte scalar"},
      {copy + "--arg buf:zeros:4 --arg buf:zeros:4 --arg buf:zeros:4",
       "a buffer's address needs a 64-bit integer parameter"},
      {copy + "--arg buf:zeros:4 --arg buf:zeros:4 --arg q32:1", "unknown type 'q32'"},
      {copy + "--arg buf:/nonexistent --arg buf:zeros:4 --arg u32:1", "cannot open the file"},
      {copy + "--grid 0 --arg buf:zeros:4 --arg buf:zeros:4 --arg u32:1", "--grid '0'"},
      {copy + "--grid 2 --block 64 --arg buf:zeros:4 --arg buf:zeros:512 --arg u32:1", "out of bounds"},
      {"sim " + errors_ptx() + " --entry spin --max-cycles 500", "cycle limit of 500 reached"},
      {"sim " + std::string(PTXFU_KERNELS_DIR) + "/unsupported.ptx", "unsupported.ptx:"},
      {"sim " + errors_ptx(), "entry"},  // several entries, none named
  };
  for (const Case& c : cases) {
    const Cli r = ptxfu(c.args);
    EXPECT_NE(r.status, 0) << c.args;
    EXPECT_TRUE(Contains(r.out, c.message)) << c.args;
  }
}

TEST(SimCli, NoOutputsFromAFailedRun) {
  const testing_support::ScratchDir scratch;
  const std::string dir = scratch / "ptxfu_sim_failed";
  std::filesystem::remove_all(dir);
  const Cli r = ptxfu("sim " + errors_ptx() + " --entry copy --grid 2 --block 64 --arg buf:zeros:4 " +
                      "--arg buf:zeros:512 --arg u32:1 --out-dir " + dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_FALSE(std::filesystem::exists(dir + "/arg1.bin"));
}

// A straight-line program's profile annotates the file's own lines.
TEST(SimCli, StraightLineProfileAnnotatesTheFilesLines) {
  const Cli r = ptxfu("sim " + std::string(PTXFU_SOURCE_DIR) + "/examples/sim_mix.ptx --json --profile");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "\"line\": 13,"));
  EXPECT_TRUE(Contains(r.out, "\"source\": \"fma.rn.f32 %f2, %f0, %f1, %f1;    // 1.25\""));
}

// printf's text comes first on stdout (--no-printf: none; --json: the
// "printf" key); --const fills __constant__ memory; buf:...+OFFSET passes an
// address inside a buffer.
TEST(SimCli, PrintfConstAndBufferOffsets) {
  const std::string ptx = std::string(PTXFU_CORPUS_DIR) + "/printf_const.sm_80.ptx";
  const testing_support::ScratchDir scratch;
  const std::string x = scratch / "x.bin", coeffs = scratch / "coeffs.bin", dir = scratch / "out";
  std::filesystem::remove_all(dir);
  std::vector<float> xs = {9.0f, 0.5f, -1.25f, 3.0f}, cs = {1, 2, 3, 4, 5, 6, 7, 8};
  std::ofstream(x, std::ios::binary).write(reinterpret_cast<const char*>(xs.data()), 16);
  std::ofstream(coeffs, std::ios::binary).write(reinterpret_cast<const char*>(cs.data()), 32);
  const std::string run = "sim " + ptx + " --entry _Z14printf_formatsPKfi --block 2 --arg buf:" + x + "+4 --arg s32:2";
  const Cli printed = ptxfu(run), silent = ptxfu(run + " --no-printf"), json = ptxfu(run + " --json");
  ASSERT_EQ(printed.status, 0) << printed.out;
  EXPECT_EQ(printed.out.rfind("t000 b0: alpha | 0.50|", 0), 0u) << printed.out;  // x[1]: the +4 offset
  EXPECT_TRUE(Contains(printed.out, "t001 b0: beta  |-1.25|"));
  EXPECT_EQ(silent.out.rfind("ptxfu sim: ", 0), 0u) << silent.out;
  EXPECT_TRUE(Contains(json.out, "\"printf\": \"t000 b0: alpha | 0.50|"));
  const std::string poly = "sim " + ptx + " --entry _Z10const_polyPKfPfPji --block 4 --arg buf:" + x +
                           " --arg buf:zeros:16 --arg buf:zeros:16 --arg s32:4 --out-dir " + dir;
  const Cli filled = ptxfu(poly + " --const kCoeffs=" + coeffs + " --const kMask=random:5");
  ASSERT_EQ(filled.status, 0) << filled.out;
  const std::string y = read_file(dir + "/arg1.bin"), bits = read_file(dir + "/arg2.bin");
  SplitMix64 rng{5};
  const uint64_t m01 = rng.next(), m23 = rng.next();
  const uint32_t mask[4] = {static_cast<uint32_t>(m01), static_cast<uint32_t>(m01 >> 32), static_cast<uint32_t>(m23),
                            static_cast<uint32_t>(m23 >> 32)};
  for (int i = 0; i < 4; ++i) {
    float acc = 0.0f, got;
    uint32_t got_bits;
    for (int c = 7; c >= 0; --c) acc = std::fma(acc, xs[i], cs[c]);
    std::memcpy(&got, y.data() + 4 * i, 4);
    std::memcpy(&got_bits, bits.data() + 4 * i, 4);
    EXPECT_EQ(bits_of(got), bits_of(acc)) << i;
    EXPECT_EQ(got_bits, bits_of(xs[i]) ^ mask[i]) << i;
  }
  const Cli small = ptxfu(poly + " --const kMask=" + coeffs), unknown = ptxfu(poly + " --const kMasks=random:1");
  EXPECT_EQ(small.status, 1);
  EXPECT_TRUE(Contains(small.out, "variable 'kMask' holds 16 bytes; 32 given"));
  EXPECT_EQ(unknown.status, 1);
  EXPECT_TRUE(Contains(unknown.out, "no .const or .global variable named 'kMasks'"));
  const Cli past = ptxfu("sim " + ptx + " --entry _Z14printf_formatsPKfi --arg buf:zeros:16+17 --arg s32:0");
  EXPECT_EQ(past.status, 1);
  EXPECT_TRUE(Contains(past.out, "offset 17 is past the end of the 16-byte buffer"));
}

// --profile's ld.param lines: unit cbank, no pipe_busy (the softmax example of docs/sim.md).
TEST(SimCli, ProfileShowsKernelParametersAsConstantBankReads) {
  const Cli r = ptxfu("sim " + std::string(PTXFU_CORPUS_DIR) +
                      "/softmax.sm_90.ptx --entry softmax_warp_per_row --grid 16 --block 128 --arg "
                      "buf:random:65536:1 --arg buf:zeros:65536 --arg s32:64 --arg s32:256 --config sm_80 --profile "
                      "--json");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  unsigned params = 0;
  for (const nlohmann::json& line : j["lines"]) {
    if (line["source"].get<std::string>().find("ld.param.") == std::string::npos) continue;
    ++params;
    EXPECT_EQ(line["unit"], "cbank") << line.dump();
    EXPECT_EQ(line["stalls"].value("pipe_busy", 0), 0) << line.dump();
  }
  EXPECT_EQ(params, 4u);
}

TEST(SimCli, StraightLineProgramsRefuseKernelOptions) {
  const Cli r = ptxfu("sim " + std::string(PTXFU_SOURCE_DIR) + "/examples/sim_mix.ptx --grid 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.out, "need a kernel"));
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// The liveness estimate beside what ptxas allocates for every corpus entry
// (skipped where ptxas is absent).
TEST(Residency, EstimatedRegistersFollowPtxas) {
  const char* ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::filesystem::exists(ptxas)) GTEST_SKIP() << "no ptxas";
  unsigned entries = 0;
  for (const auto& file : std::filesystem::directory_iterator(PTXFU_CORPUS_DIR)) {
    const std::string path = file.path().string();
    if (path.find(".sm_90.ptx") == std::string::npos || path.find("debug") != std::string::npos) continue;
    FILE* p = popen((std::string(ptxas) + " -arch=sm_90 -v " + path + " -o /dev/null 2>&1").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string text;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
    pclose(p);
    const std::regex entry(R"(Compiling entry function '([^']+)'[\s\S]*?Used (\d+) registers)");
    for (std::sregex_iterator it(text.begin(), text.end(), entry), end; it != end; ++it) {
      const Kernel k = load_kernel(read_file(path), path, {(*it)[1].str(), {}});
      const unsigned ours = models::estimated_registers(k), theirs = std::stoi((*it)[2].str());
      // Within a factor of 2.5 either way: entries that call .funcs are the
      // farthest (ptxas keeps the ABI's registers across the calls).
      EXPECT_LE(ours * 5, theirs * 12 + 4) << (*it)[1] << ": ptxas " << theirs << ", estimate " << ours;
      EXPECT_GE(ours * 5, theirs * 2) << (*it)[1] << ": ptxas " << theirs << ", estimate " << ours;
      ++entries;
    }
  }
  EXPECT_GT(entries, 10u);
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// The reference RTL in the loop of a real kernel: its half-precision FMA
// forms go to the verilated HFMA2 and are checked thread by thread; the
// timing is that of the approximately-timed model without it.
TEST(SimCli, RtlHalfChecksAKernelsHalfArithmetic) {
  const std::string launch = "sim " + std::string(PTXFU_CORPUS_DIR) +
                             "/elementwise_half.sm_90.ptx --entry scale_bias_half2 --grid 4 --block 128 "
                             "--arg buf:random:2048:1 --arg buf:random:2048:2 --arg buf:zeros:2048 "
                             "--arg u16:0x3c00 --arg u32:512 --config sm_80 --json";
  const Cli rtl = ptxfu(launch + " --rtl-half"), plain = ptxfu(launch + " --mode at");
  if (rtl.status != 0 && Contains(rtl.out, "no RTL models")) GTEST_SKIP() << "built without the RTL";
  ASSERT_EQ(rtl.status, 0) << rtl.out;
  ASSERT_EQ(plain.status, 0) << plain.out;
  const std::regex checked(R"("lanes_checked": (\d+))"), mismatches(R"("mismatches": (\d+))"),
      cycles(R"("cycles": (\d+))");
  std::smatch m, n;
  ASSERT_TRUE(std::regex_search(rtl.out, m, checked)) << rtl.out;
  EXPECT_EQ(std::stoul(m[1]), 512u);  // one f16x2 fma per thread
  ASSERT_TRUE(std::regex_search(rtl.out, m, mismatches));
  EXPECT_EQ(m[1], "0");
  ASSERT_TRUE(std::regex_search(rtl.out, m, cycles) && std::regex_search(plain.out, n, cycles));
  EXPECT_EQ(m[1], n[1]);
  EXPECT_NE(ptxfu(launch + " --rtl-half --mode lt").status, 0);
}

}  // namespace
}  // namespace ptxfu::kernel::testing
