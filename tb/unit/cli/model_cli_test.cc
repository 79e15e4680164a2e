// `ptxfu sim` and `ptxfu bench` through the real binary (each simulation
// needs its own process: SystemC elaborates once per process).
#include <gtest/gtest.h>

#include "cli_run.h"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "scratch_dir.h"

namespace {

using ptxfu::cli_test::CmdResult;
using ptxfu::cli_test::run;

const std::string kExample = std::string(PTXFU_SOURCE_DIR) + "/examples/sim_mix.ptx";

TEST(SimCli, JsonHasTheContractedFields) {
  const CmdResult r = run("sim --json --warps 8 " + kExample);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"cycles", "warp_instructions", "ipc", "pipes", "stalls", "registers", "host_seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* unit : {"fma", "alu", "fp64", "mufu"}) {
    EXPECT_TRUE(j["pipes"][unit].contains("busy_cycles")) << unit;
    EXPECT_TRUE(j["pipes"][unit].contains("utilisation")) << unit;
  }
  for (const char* stall : {"pipe_busy", "dependency", "memory", "control", "barrier", "idle"})
    EXPECT_TRUE(j["stalls"].contains(stall)) << stall;
  EXPECT_EQ(j["warp_instructions"], 8 * (15 + 1));  // the program's instructions and its exit
  // %r0 holds %tid.x: lane i of warp 0 is i.
  ASSERT_EQ(j["registers"]["%r0"].size(), 32u);
  for (int lane = 0; lane < 32; ++lane) {
    char want[16];
    std::snprintf(want, sizeof want, "0x%08x", lane);
    EXPECT_EQ(j["registers"]["%r0"][lane], want);
  }
}

// An embedded config's name is taken wherever a config is asked for.
TEST(SimCli, ConfigByEmbeddedName) {
  CmdResult r = run("sim --json --config sm_80 " + kExample);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto by_name = nlohmann::json::parse(r.out);
  EXPECT_EQ(by_name["config"], "sm_80");
  r = run("sim --json --config " + std::string(PTXFU_SOURCE_DIR) + "/configs/sm_80.yaml " + kExample);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["cycles"], by_name["cycles"]);
  r = run("bench --json --config sm_75");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const auto& o : nlohmann::json::parse(r.out)) EXPECT_EQ(o["config"], "sm_75");
  r = run("sim --config sm_42 " + kExample);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("no embedded config 'sm_42' (sm_70, sm_75"), std::string::npos) << r.out;
}

TEST(SimCli, BothTimingStylesGiveTheSameCycles) {
  const auto lt = nlohmann::json::parse(run("sim --json --warps 32 --mode lt " + kExample).out);
  const auto at = nlohmann::json::parse(run("sim --json --warps 32 --mode at " + kExample).out);
  EXPECT_EQ(lt["cycles"], at["cycles"]);
  EXPECT_EQ(lt["stalls"], at["stalls"]);
  EXPECT_EQ(lt["registers"], at["registers"]);
}

TEST(SimCli, TracesAreWritten) {
  const ptxfu::testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  const CmdResult r = run("sim --warps 4 --trace " + dir + "/t.vcd --kanata " + dir + "/t.kanata " + kExample);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream vcd(dir + "/t.vcd"), kanata(dir + "/t.kanata");
  const std::string v((std::istreambuf_iterator<char>(vcd)), {}), k((std::istreambuf_iterator<char>(kanata)), {});
  EXPECT_NE(v.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(v.find("sm0_sp0_fma"), std::string::npos);
  EXPECT_EQ(k.rfind("Kanata\t0004\n", 0), 0u);
  EXPECT_NE(k.find("\nR\t"), std::string::npos);  // instructions retire
}

TEST(SimCli, BadInputGetsAClearErrorAndNonZeroExit) {
  const ptxfu::testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  {
    std::ofstream(dir + "/bad.ptx") << ".reg .b32 %r<4>;\nadd.u32 %r1, %r2, %r3;\nadd.u32 %r1, %r2, %q3;\n";
    std::ofstream(dir + "/bad.yaml") << "name: x\ntarget: sm_90\nsub_partitions: 0\n";
  }
  CmdResult r = run("sim " + dir + "/bad.ptx");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad.ptx:3:19: error: Unknown symbol '%q3'"), std::string::npos) << r.out;
  // A fault reads as compute-sanitizer's report, with the program's line.
  {
    std::ofstream(dir + "/fault.ptx")
        << ".reg .b32 %r<4>;\n.reg .b64 %rd;\nmov.u64 %rd, 0;\nld.global.u32 %r1, [%rd];\n";
  }
  r = run("sim " + dir + "/fault.ptx");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("fault.ptx:4:1: error: Invalid __global__ read of size 4 bytes at 0x0 by thread (0,0,0)"),
            std::string::npos)
      << r.out;
  r = run("sim --config " + dir + "/bad.yaml " + kExample);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad.yaml:3:17: key 'sub_partitions': expected an integer 1..8, got '0'"), std::string::npos)
      << r.out;
  r = run("sim --warps 1000 " + kExample);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("1..64 warps"), std::string::npos) << r.out;
  EXPECT_NE(run("sim --warps 0 " + kExample).status, 0);
  EXPECT_NE(run("sim --mode fast " + kExample).status, 0);
  EXPECT_EQ(run("sim /no/such.ptx").status, 1);
}

// A straight-line program runs as a one-CTA kernel: predicates and guards
// work (the example, its registers worked out here); a file with
// an .entry runs as a kernel.
TEST(SimCli, StraightLineRunsGuardsAndKernelsRun) {
  const ptxfu::testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/guard.ptx") << ".reg .b32 %r<4>;\n.reg .pred %p<2>;\nmov.u32 %r1, %laneid;\n"
                                       "setp.eq.u32 %p1, %r1, 5;\n@%p1 add.u32 %r2, %r1, %r1;\n"
                                       "@!%p1 add.u32 %r3, %r1, 7;\n";
  CmdResult r = run("sim --json " + dir + "/guard.ptx");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (int lane = 0; lane < 32; ++lane) {
    const auto hex = [](unsigned v) { return fmt::format("0x{:08x}", v); };
    EXPECT_EQ(j["registers"]["%r2"][lane], hex(lane == 5 ? 10 : 0)) << lane;
    EXPECT_EQ(j["registers"]["%r3"][lane], hex(lane == 5 ? 0 : lane + 7)) << lane;
    EXPECT_EQ(j["registers"]["%p1"][lane], lane == 5 ? "0x1" : "0x0") << lane;
  }
  r = run("sim " + std::string(PTXFU_SOURCE_DIR) +
          "/tb/corpus/ptx/softmax.sm_90.ptx --entry softmax_warp_per_row --block 64 --arg buf:zeros:1024 "
          "--arg buf:zeros:1024 --arg s32:2 --arg s32:128");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("'softmax_warp_per_row' on sm_90"), std::string::npos) << r.out;
}

TEST(BenchCli, JsonArrayOneObjectPerBenchmark) {
  const CmdResult r = run("bench --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 6u);
  for (const auto& o : j) {
    EXPECT_EQ(o["config"], "sm_90");
    for (const char* key : {"bench", "latency", "ref_latency", "throughput", "ref_throughput", "ref_source"})
      EXPECT_TRUE(o.contains(key)) << key;
  }
}

// bench --form: one object per config with the contracted fields; a form of
// no instruction, or one illegal on the config asked for, is an error.
TEST(BenchCli, FormJsonOneObjectPerConfig) {
  CmdResult r = run("bench --form ex2.approx.ftz.f32 --all --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  EXPECT_GE(j.size(), 8u);
  for (const auto& o : j) {
    for (const char* key : {"config", "form", "consumer", "latency", "throughput", "unit"})
      EXPECT_TRUE(o.contains(key)) << key;
    EXPECT_EQ(o["form"], "ex2.approx.ftz.f32");
    EXPECT_TRUE(o["consumer"].is_null());
    EXPECT_EQ(o["unit"], "mufu");
    EXPECT_EQ(o["throughput"], 16.0);
  }
  EXPECT_EQ(j[1]["config"], "sm_75");
  EXPECT_EQ(j[1]["ref_latency"], 21.0);  // the config's mufu_ex2 reference
  r = run("bench --form 'fma.rn.f16x2' --consumer 'fma.rn.f32' --config sm_75 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j[0]["consumer"], "fma.rn.f32");
  EXPECT_EQ(j[0]["latency"], 8.0);  // HFMA2 -> FFMA on Turing (NAK RegLatencySM75)
  r = run("bench --form fma.rn.f42");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("ptxfu bench: 'fma.rn.f42'"), std::string::npos) << r.out;
  r = run("bench --form tanh.approx.f32 --config sm_70");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("requires .target sm_75"), std::string::npos) << r.out;
  r = run("bench --consumer add.s32");
  EXPECT_NE(r.status, 0);
}

}  // namespace

#include "approx/half_table.h"
#include "scratch_dir.h"

namespace {

// Another GPU's table replaces the built-in H100 outputs: write the built-in
// table with one entry changed, load it with --mufu-tables and see the change
// in eval; without the option eval gives the H100's value.
TEST(EvalCli, HardwareTablesReplaceTheBuiltInOnes) {
  using namespace ptxfu::approx;
  const ptxfu::testing_support::ScratchDir scratch;
  const std::string dir = scratch / "mufu_tables";
  std::system(("mkdir -p " + dir).c_str());
  HalfTable table{};
  for (size_t x = 0; x < table.size(); ++x) table[x] = builtin_half(HalfFn::tanh_f16, static_cast<uint16_t>(x));
  const uint16_t model_value = table[0x3c00];  // tanh(1.0) on the H100
  table[0x3c00] = static_cast<uint16_t>(model_value ^ 1);
  {
    std::ofstream out(dir + "/tanh.approx.f16.tab");
    write_table(out, HalfFn::tanh_f16, table, "test: model with one entry changed");
  }
  char want[16];
  std::snprintf(want, sizeof want, "0x%04x\n", model_value ^ 1);
  EXPECT_EQ(run("eval --mufu-tables " + dir + " <<< 'tanh.approx.f16 0x3c00' 2>/dev/null").out, want);
  std::snprintf(want, sizeof want, "0x%04x\n", model_value);
  EXPECT_EQ(run("eval <<< 'tanh.approx.f16 0x3c00'").out, want);
  // A malformed table is an error naming its file and line; nothing runs.
  { std::ofstream(dir + "/tanh.approx.f16.tab") << "function tanh.approx.f16\n0x0000 zz\n"; }
  const CmdResult bad = run("eval --mufu-tables " + dir + " <<< 'tanh.approx.f16 0x3c00'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("tanh.approx.f16.tab:2"), std::string::npos) << bad.out;
  EXPECT_EQ(run("eval --mufu-tables /nonexistent-dir <<< 'tanh.approx.f16 0x3c00'").status, 2);
}

}  // namespace
