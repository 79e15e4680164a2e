// Sweep specs: the shipped examples load; every mistake is reported with the
// spec's file, line, column and key before anything runs; points, keys and
// samples are stable; result files survive a torn last line.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "host/ptxfu_host.hpp"
#include "scratch_dir.h"
#include "sweep/launch_args.h"
#include "sweep/results.h"
#include "sweep/run.h"
#include "sweep/spec.h"

namespace ptxfu::sweep {
namespace {

const std::string kSweeps = std::string(PTXFU_SOURCE_DIR) + "/configs/sweeps/";

std::string spec_error(const std::string& text) {
  try {
    load_spec_text(text, "s.yaml");
  } catch (const models::ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SweepSpec, ShippedExamplesLoad) {
  const Spec fma = load_spec(kSweeps + "fma_latency_warps.yaml");
  EXPECT_EQ(fma.parameters.size(), 2u);
  EXPECT_EQ(fma.points.size(), fma.parameters[0].values.size() * fma.parameters[1].values.size());
  const Spec hfma2 = load_spec(kSweeps + "hfma2_lanes_issue.yaml");
  EXPECT_EQ(hfma2.programs.size(), 2u);
  EXPECT_EQ(hfma2.points.size(), 4u * 4u * 2u);
  const Spec arch = load_spec(kSweeps + "arch_warps.yaml");
  EXPECT_EQ(arch.parameters[0].values, (std::vector<std::string>{"sm_80", "sm_90", "sm_100"}));
  EXPECT_EQ(arch.points.size(), 3u * 7u * 2u);
  const Spec kernels = load_spec(kSweeps + "kernel_arch.yaml");
  ASSERT_EQ(kernels.programs.size(), 2u);
  EXPECT_EQ(kernels.programs[0].id, "matmul64");
  EXPECT_TRUE(kernels.programs[0].kernel && kernels.programs[1].kernel);
  EXPECT_EQ(kernels.points.size(), 2u * 3u * 3u);
  const Spec scan = load_spec(kSweeps + "scan_program.yaml");
  ASSERT_EQ(scan.programs.size(), 1u);
  EXPECT_TRUE(scan.programs[0].host);
  EXPECT_EQ(scan.launches, 3u);
  EXPECT_EQ(scan.points.size(), 2u * 2u * 2u);
}

TEST(SweepSpec, ErrorsNameFileLineColumnAndKey) {
  const std::string head = "base: sm_90\nprograms: [ffma.chain]\n";
  struct Case {
    std::string text;
    std::string expect;  // regex over the message
  };
  const Case cases[] = {
      {head + "parameters:\n  units.fma.latency: [4, 0]\n",
       R"(^s\.yaml:4:26: key 'parameters\.units\.fma\.latency\[1\]': units\.fma\.latency = 0: key 'units\.fma\.latency': expected an integer 1\.\.100000, got '0')"},
      {head + "parameters:\n  units.fma.lanes: [32, 3]\n",
       R"(^s\.yaml:4:25: .*expected 1, 2, 4, 8, 16 or 32 lanes, got 3)"},
      {head + "parameters:\n  units.fma.latancy: [4]\n",
       R"(^s\.yaml:4:23: key 'parameters\.units\.fma\.latancy\[0\]': .*unknown key)"},
      {head + "parameters:\n  scheduler: [gto, fifo]\n", R"(^s\.yaml:4:20: .*unknown policy 'fifo')"},
      {head + "parameters:\n  warps: [8, 65]\n",
       R"(^s\.yaml:4:14: key 'parameters\.warps\[1\]': 65 warps: sm_90 allows 1\.\.64)"},
      {head + "parameters:\n  features.add: [[], [warp_drive]]\n", R"(^s\.yaml:4:22: .*unknown feature 'warp_drive')"},
      {head + "parameters:\n  forms[*.f17x2].lanes: [4]\n", R"(no entry with match: "\*\.f17x2")"},
      {head + "parameters:\n  forms[99].lanes: [4]\n", R"(the base config's 'forms' has [0-9]+ entries)"},
      {head + "parameters:\n  issue_width: {from: 1, to: 4, step: 0}\n",
       R"(^s\.yaml:4:39: key 'parameters\.issue_width\.step': expected an integer 1\.\.)"},
      {head + "parameters:\n  issue_width: {from: 1, to: 4, stride: 1}\n",
       R"(key 'parameters\.issue_width\.stride': unknown key)"},
      {head + "parameters:\n  issue_width: {sample: 9, from: 1, to: 4, seed: 1}\n",
       R"(9 distinct values asked for, 1\.\.4 has 4)"},
      {head + "parameters:\n  issue_width: {sample: 2, from: 1, to: 4}\n",
       R"(key 'parameters\.issue_width\.seed': missing)"},
      {head + "parameters:\n  status: [1]\n", R"(key 'parameters\.status': a result column)"},
      {head + "parameters:\n  issue_width: [1, 1]\n", R"(value 1 given twice)"},
      {head + "parameters:\n  mode: [lt, ft]\n", R"(^s\.yaml:4:14: key 'parameters\.mode\[1\]': expected lt or at)"},
      {"base: sm_42\nprograms: [ffma.chain]\nparameters: {warps: 1}\n",
       R"(^s\.yaml:1:7: key 'base': no embedded config 'sm_42')"},
      {"base: sm_90\nprograms: [fmaa.chain]\nparameters: {warps: 1}\n",
       R"(^s\.yaml:2:12: key 'programs\[0\]': unknown microbenchmark 'fmaa')"},
      {"base: sm_90\nprograms: [ffma.loop]\nparameters: {warps: 1}\n",
       R"(unknown kind 'loop' \(expected chain or stream\))"},
      {"base: sm_90\nprograms: [missing.ptx]\nparameters: {warps: 1}\n",
       R"(^s\.yaml:2:12: key 'programs\[0\]': cannot open 'missing\.ptx')"},
      {head + "parameters: {warps: 1}\nmetrics: [cycles, ipcc]\n",
       R"(^s\.yaml:4:19: key 'metrics\[1\]': unknown metric 'ipcc')"},
      {head + "parameters: {warps: 1}\nmetrics: [cycles]\nplot: ipc\n",
       R"(^s\.yaml:5:7: key 'plot': 'ipc' is not one of the recorded metrics)"},
      {head + "parameters: {warps: 1}\nparamaters: {}\n", R"(^s\.yaml:4:1: key 'paramaters': unknown key)"},
      {head, R"(key 'parameters': missing)"},
      {"programs: [ffma.chain]\nparameters: {warps: 1}\n", R"(key 'base': missing)"},
      {"base: [unclosed\n", R"(^s\.yaml:\d+:\d+: )"},
      {"", R"(empty sweep spec)"},
  };
  for (const auto& c : cases) {
    const std::string msg = spec_error(c.text);
    EXPECT_TRUE(std::regex_search(msg, std::regex(c.expect)))
        << "spec:\n"
        << c.text << "message: " << msg << "\nexpected: " << c.expect;
  }
}

// A combination that no single value shows is caught before running.
TEST(SweepSpec, CombinationsAreValidatedBeforeRunning) {
  const std::string msg =
      spec_error("base: sm_90\nprograms: [ffma.chain]\nparameters:\n  max_warps: [8, 64]\n  warps: [4, 16]\n");
  EXPECT_TRUE(std::regex_search(
      msg, std::regex(R"(^s\.yaml:4:3: key 'parameters': point 1 \(ffma\.chain max_warps=8 warps=16\): 16 warps)")))
      << msg;
}

TEST(SweepSpec, RangesSamplesAndKeyPaths) {
  const Spec s = load_spec_text(
      "base: sm_90\nprograms: [ffma.chain, {bench: hfma2, kind: stream, length: 4}]\n"
      "parameters:\n"
      "  warps: {from: 1, to: 64, times: 4}\n"
      "  units.fma.latency: {from: 2, to: 10, step: 4}\n"
      "  units.alu.latency: {sample: 3, from: 1, to: 1000, seed: 7}\n"
      "  forms[0].latency: 9\n"
      "  features.add: [[], [oob]]\n",
      "s.yaml");
  ASSERT_EQ(s.parameters.size(), 5u);
  EXPECT_EQ(s.parameters[0].values, (std::vector<std::string>{"1", "4", "16", "64"}));
  EXPECT_EQ(s.parameters[1].values, (std::vector<std::string>{"2", "6", "10"}));
  EXPECT_EQ(s.parameters[2].values.size(), 3u);
  EXPECT_EQ(s.parameters[4].values, (std::vector<std::string>{"[]", "[oob]"}));
  EXPECT_EQ(s.programs[1].id, "hfma2.stream.4");
  EXPECT_EQ(s.points.size(), 2u * 4 * 3 * 3 * 1 * 2);
  // The same seed gives the same sample, every time and everywhere.
  const Spec again = load_spec_text(
      "base: sm_90\nprograms: [ffma.chain]\nparameters:\n  units.alu.latency: {sample: 3, from: 1, to: 1000, seed: "
      "7}\n",
      "t.yaml");
  EXPECT_EQ(again.parameters[0].values, s.parameters[2].values);
  // Keys are distinct, and the values reach the config.
  std::set<std::string> keys;
  for (const auto& p : s.points) keys.insert(p.key);
  EXPECT_EQ(keys.size(), s.points.size());
  const Point& last = s.points.back();
  const PointJob pj = build_point(s, last);
  EXPECT_EQ(pj.job.warps, 64u);
  EXPECT_EQ(pj.config->units[0].latency, 10u);
  EXPECT_EQ(pj.config->forms[0].latency, 9u);
  EXPECT_EQ(std::to_string(pj.config->units[1].latency), s.parameters[2].values.back());
}

TEST(SweepSpec, KeysDependOnValuesNotOnOrderOrSpelling) {
  const Spec a =
      load_spec_text("base: sm_90\nprograms: [ffma.chain]\nparameters:\n  warps: [4]\n  issue_width: [2]\n", "a.yaml");
  const Spec b = load_spec_text(
      "base: sm_90\nprograms: [ffma.chain]\nparameters:\n  issue_width: [1, 2]\n  warps: {from: 4, to: 4}\n", "b.yaml");
  EXPECT_EQ(a.points[0].key, b.points[1].key);
  EXPECT_NE(a.points[0].key, b.points[0].key);
}

TEST(SweepSpec, TopLevelSampleKeepsASeededSubset) {
  const std::string text =
      "base: sm_90\nprograms: [ffma.chain]\nparameters:\n  warps: {from: 1, to: 64}\n  issue_width: [1, 2, 3, "
      "4]\nsample: {count: 10, seed: 3}\n";
  const Spec a = load_spec_text(text, "a.yaml");
  const Spec b = load_spec_text(text, "a.yaml");
  ASSERT_EQ(a.points.size(), 10u);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(a.points[i].key, b.points[i].key);
  for (size_t i = 1; i < 10; ++i) EXPECT_LT(a.points[i - 1].index, a.points[i].index);
}

// A program that the base accepts but one point's feature mask does not is a
// failed point, recorded, not a spec error.
TEST(SweepSpec, ProgramIllegalForAPointIsAPointError) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/oob.ptx")
      << ".reg .b32 %h<4>;\nmov.b32 %h1, 0x3c003c00;\nfma.rn.oob.f16x2 %h0, %h1, %h1, %h1;\n";
  std::ofstream(dir + "/s.yaml") << "base: sm_90\nprograms: [oob.ptx]\nparameters:\n  features.remove: [[], [oob]]\n";
  const Spec s = load_spec(dir + "/s.yaml");
  EXPECT_EQ(s.programs[0].id, "oob");
  EXPECT_TRUE(build_point(s, s.points[0]).error.empty());
  EXPECT_NE(build_point(s, s.points[1]).error.find("feature 'oob' removed"), std::string::npos)
      << build_point(s, s.points[1]).error;
}

// `base:` as a list makes the base config the first parameter: a column, a
// part of each point's identity, and every override applied on each base.
TEST(SweepSpec, ABaseListIsTheFirstParameter) {
  const Spec s = load_spec_text(
      "base: [sm_80, sm_90, sm_100]\nprograms: [ffma.chain, hfma2.stream]\nparameters:\n  warps: [1, 8]\n"
      "  units.fma.latency: [4, 6]\n",
      "s.yaml");
  ASSERT_EQ(s.parameters.size(), 3u);
  EXPECT_EQ(s.parameters[0].key, "base");
  EXPECT_EQ(s.parameters[0].values, (std::vector<std::string>{"sm_80", "sm_90", "sm_100"}));
  ASSERT_EQ(s.bases.size(), 3u);
  EXPECT_EQ(s.bases[2].origin, "embedded:sm_100");
  EXPECT_EQ(s.base, "[sm_80, sm_90, sm_100]");
  EXPECT_EQ(columns(s)[2], "base");
  EXPECT_EQ(s.points.size(), 2u * 3 * 2 * 2);
  std::set<std::string> keys;
  for (const auto& p : s.points) keys.insert(p.key);
  EXPECT_EQ(keys.size(), s.points.size()) << "points that differ only in their base must have distinct keys";
  // Each point runs its own base, with the overrides on top of it.
  for (const Point& p : s.points) {
    const PointJob pj = build_point(s, p);
    EXPECT_EQ(pj.config->name, s.bases[p.base].name) << describe(s, p);
    EXPECT_EQ(pj.config->origin, s.bases[p.base].origin);
    EXPECT_EQ(pj.config->units[0].latency, std::stoul(s.parameters[2].values[p.choice[2]]));
    EXPECT_EQ(pj.config->units[0].lanes, models::load_config(s.bases[p.base].name).units[0].lanes);
    EXPECT_EQ(p.base, p.choice[0]);
  }
  EXPECT_EQ(describe(s, s.points[3]), "ffma.chain base=sm_80 warps=8 units.fma.latency=6");
  // A point's key is that of the same point in a sweep of its base alone.
  const Spec one = load_spec_text(
      "base: sm_90\nprograms: [ffma.chain, hfma2.stream]\nparameters:\n  warps: [1, 8]\n"
      "  units.fma.latency: [4, 6]\n",
      "one.yaml");
  EXPECT_EQ(columns(one)[2], "warps");  // a single base is not a column
  for (size_t i = 0; i < one.points.size(); ++i) {
    const Point& q = one.points[i];
    const auto it = std::find_if(s.points.begin(), s.points.end(), [&](const Point& p) {
      return p.base == 1 && p.program == q.program && p.choice[1] == q.choice[0] && p.choice[2] == q.choice[1];
    });
    ASSERT_NE(it, s.points.end());
    EXPECT_EQ(it->key, q.key);
  }
}

// Config files in the list, relative to the spec, and the errors of a list.
TEST(SweepSpec, BaseListErrorsNameTheEntry) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string sm90 = models::resolve_config("sm_90").text;
  // A copy of sm_90 without the f64 form override, and one with fewer warps.
  std::string no_f64 = sm90;
  const size_t f64 = no_f64.find("  - {match: \"*.f64\"");
  ASSERT_NE(f64, std::string::npos);
  no_f64.erase(f64, no_f64.find('\n', f64) + 1 - f64);
  std::ofstream(dir + "/no_f64.yaml") << std::regex_replace(no_f64, std::regex("name: sm_90"), "name: no_f64");
  std::ofstream(dir + "/small.yaml") << std::regex_replace(
      std::regex_replace(sm90, std::regex("max_warps: 64"), "max_warps: 32"), std::regex("name: sm_90"), "name: small");
  std::ofstream(dir + "/copy.yaml") << sm90;
  auto error_of = [&](const std::string& text) {
    std::ofstream(dir + "/s.yaml") << text;
    try {
      load_spec(dir + "/s.yaml");
    } catch (const models::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string tail = "programs: [ffma.chain]\nparameters: {warps: 1}\n";
  const std::string at = std::regex_replace(dir, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") + R"(/s\.yaml:)";
  struct Case {
    std::string text;
    std::string expect;
  };
  const Case cases[] = {
      {"base: [sm_80, sm_42]\n" + tail, "^" + at + R"(1:15: key 'base\[1\]': no embedded config 'sm_42')"},
      {"base:\n  - sm_80\n  - nothere.yaml\n" + tail,
       "^" + at + R"(3:5: key 'base\[1\]': no embedded config 'nothere\.yaml' .* and no file '.*/nothere\.yaml')"},
      {"base: []\n" + tail, "^" + at + R"(1:7: key 'base': expected at least one config)"},
      {"base: [sm_80, {name: x}]\n" + tail, "^" + at + R"(1:15: key 'base\[1\]': expected a string)"},
      {"base: [sm_80, sm_90, sm_80]\n" + tail, "^" + at + R"(1:22: key 'base\[2\]': 'sm_80' given twice)"},
      {"base: [sm_90, copy.yaml]\n" + tail,
       "^" + at + R"(1:15: key 'base\[1\]': 'copy\.yaml' is the same config as base\[0\] \('sm_90'\))"},
      {"base: [sm_80]\nprograms: [ffma.chain]\nparameters:\n  base: [sm_90]\n",
       "^" + at + R"(4:3: key 'parameters\.base': the base config is swept by giving base: a list)"},
      // An override that one base lacks names that base.
      {"base: [sm_90, no_f64.yaml]\nprograms: [ffma.chain]\nparameters:\n  forms[*.f64].latency: [16, 8]\n",
       "^" + at +
           R"(4:26: key 'parameters\.forms\[\*\.f64\]\.latency\[0\]': forms\[\*\.f64\]\.latency = 16 on base 'no_f64\.yaml': .*no entry with match: "\*\.f64")"},
      {"base: [sm_90, small.yaml]\nprograms: [ffma.chain]\nparameters:\n  warps: [16, 64]\n",
       "^" + at + R"(4:15: key 'parameters\.warps\[1\]': 64 warps: small allows 1\.\.32)"},
  };
  for (const auto& c : cases) {
    const std::string msg = error_of(c.text);
    EXPECT_TRUE(std::regex_search(msg, std::regex(c.expect)))
        << "spec:\n"
        << c.text << "message: " << msg << "\nexpected: " << c.expect;
  }
  // Files in the list load, relative to the spec.
  std::ofstream(dir + "/ok.yaml") << "base: [sm_90, small.yaml]\n" << tail;
  const Spec s = load_spec(dir + "/ok.yaml");
  EXPECT_EQ(s.parameters[0].values, (std::vector<std::string>{"sm_90", "small.yaml"}));
  EXPECT_EQ(build_point(s, s.points[1]).config->max_warps, 32u);
}

// A program one base's feature mask rejects fails on that base's points; a
// program that no base accepts is a spec error.
TEST(SweepSpec, AProgramIllegalOnOneBaseFailsThosePoints) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/oob.ptx")
      << ".reg .b32 %h<4>;\nmov.b32 %h1, 0x3c003c00;\nfma.rn.oob.f16x2 %h0, %h1, %h1, %h1;\n";
  std::ofstream(dir + "/s.yaml") << "base: [sm_80, sm_90]\nprograms: [oob.ptx]\nparameters:\n  warps: 1\n";
  const Spec s = load_spec(dir + "/s.yaml");
  ASSERT_EQ(s.points.size(), 2u);
  EXPECT_NE(build_point(s, s.points[0]).error.find("sm_90"), std::string::npos) << build_point(s, s.points[0]).error;
  EXPECT_TRUE(build_point(s, s.points[1]).error.empty()) << build_point(s, s.points[1]).error;
  std::ofstream(dir + "/t.yaml") << "base: [sm_80, sm_86]\nprograms: [oob.ptx]\nparameters:\n  warps: 1\n";
  try {
    load_spec(dir + "/t.yaml");
    ADD_FAILURE() << "no error";
  } catch (const models::ConfigError& e) {
    EXPECT_TRUE(std::regex_search(e.what(),
                                  std::regex(R"(t\.yaml:2:12: key 'programs\[0\]': no base accepts it; on 'sm_80': )")))
        << e.what();
  }
}

// ---- kernel launches as programs

const std::string kCorpus = std::string(PTXFU_SOURCE_DIR) + "/tb/corpus/ptx/";

// softmax_warp_per_row(in, out, rows, cols) of the corpus, 8 rows of 64.
std::string softmax_program(const std::string& indent = "  ") {
  return indent + "- kernel: " + kCorpus + "softmax.sm_80.ptx\n" + indent + "  entry: softmax_warp_per_row\n" + indent +
         "  grid: 2\n" + indent + "  block: 128\n" + indent +
         "  args: [buf:random:2048:1, buf:zeros:2048, s32:8, s32:64]\n";
}

// `cluster:` is `ptxfu sim --cluster`; a shape that does not divide the
// grid is an error at the key (kernel::cluster_shape's words).
TEST(SweepSpec, AKernelProgramTakesAClusterShape) {
  const std::string program = "base: sm_90\nparameters:\n  mode: [lt]\nprograms:\n  - {kernel: " + kCorpus +
                              "cluster_dsmem.sm_90.ptx, entry: cluster_neighbour, grid: [4, 2], block: 32, cluster: ";
  const std::string args = ", args: [buf:zeros:1024, buf:zeros:128, buf:zeros:1024, f32:1.0]}\n";
  const Spec s = load_spec_text(program + "[2, 2]" + args, "s.yaml");
  ASSERT_TRUE(s.programs[0].kernel);
  const kernel::Dim3 c = s.programs[0].kernel->launch.cluster;
  EXPECT_EQ(c.x, 2u);
  EXPECT_EQ(c.y, 2u);
  EXPECT_EQ(c.z, 1u);
  const std::string e = spec_error(program + "3" + args);
  EXPECT_NE(e.find("programs[0].cluster"), std::string::npos) << e;
  EXPECT_NE(e.find("the grid is not a whole number of clusters"), std::string::npos) << e;  // cluster_shape's rule
}

// A kernel entry is a launch: its label, its parsed arguments, the metrics
// kernels record, and each point a kernel job on its config.
TEST(SweepSpec, AKernelProgramIsALaunch) {
  const Spec s =
      load_spec_text("base: [sm_80, sm_90]\nparameters:\n  mode: [lt, at]\nprograms:\n" + softmax_program() +
                         "  - {name: mm, kernel: " + kCorpus +
                         "matmul_tiled.sm_80.ptx, entry: matmul_tiled_dynamic, grid: \"2,2\","
                         " block: [8, 8], shared_bytes: 512, registers_per_thread: 64, max_cycles: 1000000,"
                         " args: [buf:zeros:1024, buf:zeros:1024, buf:zeros:1024, s32:16, u32:16, s32:0x10, s32:8]}\n",
                     "s.yaml");
  ASSERT_EQ(s.programs.size(), 2u);
  EXPECT_EQ(s.programs[0].id, "softmax_warp_per_row");  // the entry, when no name: is given
  EXPECT_EQ(s.programs[1].id, "mm");
  ASSERT_TRUE(s.programs[1].kernel);
  const KernelProgram& k = *s.programs[1].kernel;
  EXPECT_EQ(k.launch.grid.x, 2u);
  EXPECT_EQ(k.launch.grid.y, 2u);
  EXPECT_EQ(k.launch.block.y, 8u);
  EXPECT_EQ(k.launch.shared_bytes, 512u);
  EXPECT_EQ(k.registers_per_thread, 64u);
  EXPECT_EQ(k.max_cycles, 1000000u);
  ASSERT_EQ(k.launch.args.size(), 7u);
  EXPECT_EQ(k.launch.args[0].data.size(), 1024u);
  EXPECT_EQ(k.launch.args[5].value, 16u);
  EXPECT_EQ(s.metrics, (std::vector<std::string>{"cycles",
                                                 "warp_instructions",
                                                 "ipc",
                                                 "ctas",
                                                 "pipes.fma.utilisation",
                                                 "pipes.alu.utilisation",
                                                 "pipes.fp64.utilisation",
                                                 "pipes.mufu.utilisation",
                                                 "pipes.conv.utilisation",
                                                 "pipes.lsu.utilisation",
                                                 "pipes.branch.utilisation",
                                                 "pipes.warp.utilisation",
                                                 "pipes.tensor.utilisation",
                                                 "stalls.pipe_busy",
                                                 "stalls.dependency",
                                                 "stalls.memory",
                                                 "stalls.control",
                                                 "stalls.barrier",
                                                 "stalls.not_selected",
                                                 "stalls.idle"}));
  ASSERT_EQ(s.points.size(), 2u * 2 * 2);
  std::set<std::string> keys;
  for (const Point& p : s.points) {
    keys.insert(p.key);
    const PointJob pj = build_point(s, p);
    EXPECT_TRUE(pj.error.empty()) << pj.error;
    EXPECT_EQ(pj.program, nullptr);
    ASSERT_EQ(pj.job.kernel, s.programs[p.program].kernel->kernel.get());
    EXPECT_EQ(pj.job.launch.args.size(), p.program ? 7u : 4u);
    EXPECT_EQ(pj.job.registers_per_thread, p.program ? 64u : 0u);
    EXPECT_EQ(pj.config->name, s.bases[p.base].name);
    EXPECT_EQ(pj.job.style == models::TimingStyle::approximately_timed, s.parameters[1].values[p.choice[1]] == "at");
  }
  EXPECT_EQ(keys.size(), s.points.size());
  // Straight-line programs record the kernels' stall reasons, not ctas.
  const Spec lines = load_spec_text("base: sm_90\nprograms: [ffma.chain]\nparameters: {warps: 1}\n", "s.yaml");
  EXPECT_EQ(lines.metrics.back(), "stalls.idle");
  EXPECT_EQ(std::count(lines.metrics.begin(), lines.metrics.end(), "ctas"), 0);
  // Mixed: the metrics both kinds record.
  const Spec mixed =
      load_spec_text("base: sm_90\nparameters: {mode: lt}\nprograms:\n  - ffma.chain\n" + softmax_program(), "s.yaml");
  EXPECT_EQ(std::count(mixed.metrics.begin(), mixed.metrics.end(), "ctas"), 0);
  EXPECT_EQ(mixed.metrics.back(), "stalls.idle");
}

// A launch's key is what decides its result: the same values spelled
// otherwise are the same point, another launch is another point.
TEST(SweepSpec, KernelKeysDependOnTheLaunch) {
  auto key_of = [](const std::string& grid, const std::string& rows, const std::string& name = "") {
    const Spec s =
        load_spec_text("base: sm_90\nparameters: {mode: lt}\nprograms:\n  - {" + name + "kernel: " + kCorpus +
                           "softmax.sm_80.ptx, entry: softmax_warp_per_row, grid: " + grid +
                           ", block: 128, args: [buf:random:2048:1, buf:zeros:2048, " + rows + ", s32:64]}\n",
                       "s.yaml");
    return s.points.at(0).key;
  };
  EXPECT_EQ(key_of("2", "s32:8"), key_of("[2, 1]", "u32:0x8"));
  EXPECT_NE(key_of("2", "s32:8"), key_of("3", "s32:8"));
  EXPECT_NE(key_of("2", "s32:8"), key_of("2", "s32:7"));
  EXPECT_NE(key_of("2", "s32:8"), key_of("2", "s32:8", "name: other, "));
}

// Every mistake in a kernel entry is named at its key, with the parameter
// where an argument is wrong.
TEST(SweepSpec, KernelErrorsNameTheKeyAndTheParameter) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/straight.ptx") << ".reg .b32 %r<2>;\nmov.b32 %r1, 1;\n";
  std::ofstream(dir + "/bad.ptx")
      << ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  frobnicate;\n  ret;\n}\n";
  const std::string softmax = kCorpus + "softmax.sm_80.ptx";
  auto error_of = [&](const std::string& programs, const std::string& rest = "parameters: {mode: lt}\n") {
    std::ofstream(dir + "/s.yaml") << "base: sm_90\n" << rest << "programs:\n" << programs;
    try {
      load_spec(dir + "/s.yaml");
    } catch (const models::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string at = std::regex_replace(dir, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") + R"(/s\.yaml:)";
  // One launch, block style; each case replaces one line of it.
  const std::string launch = "  - kernel: " + softmax +
                             "\n    entry: softmax_warp_per_row\n    grid: 2\n    block: 128\n"
                             "    args: [buf:random:2048:1, buf:zeros:2048, s32:8, s32:64]\n";
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = launch;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  struct Case {
    std::string programs, rest, expect;
  };
  const std::string params = "parameters: {mode: lt}\n";
  const Case cases[] = {
      {with(softmax, "nothere.ptx"), params,
       at + R"(4:13: key 'programs\[0\]\.kernel': cannot open '.*/nothere\.ptx')"},
      {with("softmax_warp_per_row", "softmax"), params,
       at +
           R"(5:12: key 'programs\[0\]\.entry': .*no \.entry named 'softmax' \(the module has softmax_warp_per_row, softmax_row128_float4\))"},
      {with("    entry: softmax_warp_per_row\n", ""), params,
       at + R"(4:5: key 'programs\[0\]\.entry': .*2 \.entry functions; name one)"},
      {with("s32:8", "s32:x"), params,
       at +
           R"(8:47: key 'programs\[0\]\.args\[2\]': 's32:x' for parameter 2 \('\.u32 softmax_warp_per_row_param_2'\): expected an integer)"},
      {with("buf:zeros:2048", "buf:zeros:0"), params,
       at + R"(8:31: key 'programs\[0\]\.args\[1\]': 'buf:zeros:0' for parameter 1 .*expected a size)"},
      {with("buf:random:2048:1", "buf:in.bin"), params,
       at + R"(8:12: key 'programs\[0\]\.args\[0\]': 'buf:.*/in\.bin' for parameter 0 .*cannot open the file)"},
      {with(", s32:64]", "]"), params,
       at +
           R"(8:11: key 'programs\[0\]\.args': 'softmax_warp_per_row' takes 4 parameters \(\.u64 softmax_warp_per_row_param_0, .*\); 3 arguments given)"},
      {with("    args: [buf:random:2048:1, buf:zeros:2048, s32:8, s32:64]\n", ""), params,
       at + R"(4:5: key 'programs\[0\]\.args': 'softmax_warp_per_row' takes 4 parameters .*; 0 arguments given)"},
      {with("s32:8", "u64:8"), params,
       at +
           R"(4:5: key 'programs\[0\]': .*argument 2 for parameter 2 \('\.u32 softmax_warp_per_row_param_2', 4 bytes\): the argument is a 8-byte scalar)"},
      {with("s32:8", "buf:zeros:8"), params,
       at + R"(4:5: key 'programs\[0\]': .*parameter 2 .*a buffer's address needs a 64-bit integer parameter)"},
      {with("grid: 2", "grid: 2,x"), params,
       at + R"(6:11: key 'programs\[0\]\.grid': grid '2,x': expected X\[,Y\[,Z\]\] of positive integers)"},
      {with("block: 128", "block: 2048"), params, at + R"(4:5: key 'programs\[0\]': .*a block has 1 to 1024 threads)"},
      {with("block: 128", "blok: 128"), params, at + R"(7:5: key 'programs\[0\]\.blok': unknown key)"},
      {with("grid: 2", "grid: 2\n    max_cycles: 0"), params,
       at + R"(7:17: key 'programs\[0\]\.max_cycles': expected an integer 1\.\.)"},
      {with(softmax, "bad.ptx"), params, at + R"(4:13: key 'programs\[0\]\.kernel': .*bad\.ptx:6:3: .*frobnicate)"},
      // A kernel file named as a straight-line program, and the warps a kernel cannot take.
      {"  - " + softmax + "\n", params,
       at + R"(4:5: key 'programs\[0\]': '.*softmax\.sm_80\.ptx' holds kernels \(\.entry\): name it as \{kernel:)"},
      {launch, "parameters: {warps: [1, 2]}\n",
       at +
           R"(2:21: key 'parameters\.warps': warps sizes straight-line programs; kernel 'softmax_warp_per_row' runs the warps of its block:)"},
      // A metric one kind of program does not record.
      {launch + "  - ffma.chain\nmetrics: [cycles, ctas]\n", params,
       at +
           R"(10:19: key 'metrics\[1\]': 'ctas' is recorded for kernels only, and 'ffma\.chain' is a straight-line program)"},
      {launch + "metrics: [stalls.no_ready_warp]\n", params,
       at + R"(9:11: key 'metrics\[0\]': unknown metric 'stalls\.no_ready_warp' \(known: cycles, )"},
      {launch + launch, params,
       at + R"(9:5: key 'programs\[1\]': program 'softmax_warp_per_row' given twice \(name: tells two launches)"},
      // A launch that does not fit one point's config.
      {with("block: 128", "block: 1024\n    registers_per_thread: 32"), "parameters: {max_warps: [32, 16]}\n",
       at + R"(2:13: key 'parameters': point 1 \(softmax_warp_per_row max_warps=16\): .*does not fit on an SM)"},
  };
  for (const auto& c : cases) {
    const std::string msg = error_of(c.programs, c.rest);
    EXPECT_TRUE(std::regex_search(msg, std::regex("^" + c.expect)))
        << "programs:\n"
        << c.programs << "message: " << msg << "\nexpected: " << c.expect;
  }
  // buf:FILE is relative to the spec, and known by its bytes.
  std::ofstream(dir + "/in.bin") << std::string(2048, '\1');
  std::ofstream(dir + "/s.yaml") << "base: sm_90\nparameters: {mode: lt}\nprograms:\n"
                                 << with("buf:random:2048:1", "buf:in.bin");
  const Spec s = load_spec(dir + "/s.yaml");
  EXPECT_EQ(s.programs[0].kernel->launch.args[0].data, std::vector<uint8_t>(2048, 1));
  const std::string key = s.points[0].key;
  std::ofstream(dir + "/in.bin") << std::string(2048, '\2');
  EXPECT_NE(load_spec(dir + "/s.yaml").points[0].key, key);
}

// A host program (`ptxfu run`'s YAML) as a sweep program: a smaller scan
// than examples/scan.yaml, its three launches sharing device memory.
constexpr uint32_t kScanCount = 2048;  // 8 blocks of 256

std::string scan_program(const testing_support::ScratchDir& d) {
  std::filesystem::copy_file(std::string(PTXFU_SOURCE_DIR) + "/examples/scan.ptx", d / "scan.ptx");
  std::ofstream(d / "scan.yaml")
      << "kernel: scan.ptx\n"
         "buffers:\n"
         "  data: {type: u32, count: 2048, init: arange}\n"
         "  out: {type: u32, count: 2048}\n"
         "  sums: {type: u32, count: 9}\n"
         "launches:\n"
         "  - {entry: scan_blocks, grid: 8, block: 256, args: [data, out, sums+1, \"u32:2048\"]}\n"
         "  - {entry: scan_sums, grid: 1, block: 32, args: [sums+1, \"u32:8\"]}\n"
         "  - {entry: add_offsets, grid: 8, block: 256, args: [out, sums, \"u32:2048\"]}\n";
  return d / "scan.yaml";
}

// The same program through the host API, written here apart from the
// program runner: each launch's result.
std::vector<LaunchResult> scan_by_hand(const std::string& ptx, const std::string& config, bool at) {
  Device dev(config);
  dev.set_approximately_timed(at);
  Module m = dev.load_module(ptx);
  std::vector<uint32_t> data(kScanCount);
  for (uint32_t i = 0; i < kScanCount; ++i) data[i] = i;
  const DeviceBuffer x = dev.malloc_copy(data.data(), data.size() * 4), out = dev.malloc(kScanCount * 4),
                     sums = dev.malloc(9 * 4);
  const Scalar n = Scalar::u32(kScanCount);
  return {m.get_function("scan_blocks").launch({8}, {256}, {x, out, sums.slice(4), n}),
          m.get_function("scan_sums").launch({1}, {32}, {sums.slice(4), Scalar::u32(8)}),
          m.get_function("add_offsets").launch({8}, {256}, {out, sums, n})};
}

TEST(SweepHostProgram, PerLaunchMetricsAreTheHostApisAndTheTotalTheirSum) {
  const testing_support::ScratchDir d;
  const std::string program = scan_program(d);
  std::ofstream(d / "spec.yaml") << "base: [sm_80, sm_90]\nparameters:\n  mode: [lt, at]\nprograms:\n  - program: "
                                 << program << "\nmetrics: [cycles, warp_instructions, stalls.barrier]\n";
  for (const unsigned jobs : {1u, 2u}) {  // in this process, and in child processes
    RunOptions o;
    o.spec_path = d / "spec.yaml";
    o.out_dir = d / ("out" + std::to_string(jobs));
    o.jobs = jobs;
    o.quiet = o.no_plots = true;
    std::ostringstream out, err;
    ASSERT_EQ(run_sweep(o, out, err), 0) << err.str();
    const Table t = read_table(o.out_dir);
    ASSERT_EQ(t.rows.size(), 4u);
    for (const auto& row : t.rows) {
      const std::string base = row[t.column("base")], mode = row[t.column("mode")];
      SCOPED_TRACE(base + " " + mode + " jobs " + std::to_string(jobs));
      EXPECT_EQ(row[t.column("program")], "scan");
      const std::vector<LaunchResult> want = scan_by_hand(d / "scan.ptx", base, mode == "at");
      uint64_t cycles = 0, instructions = 0;
      for (size_t i = 0; i < want.size(); ++i) {
        const std::string at = "launches[" + std::to_string(i) + "].";
        EXPECT_EQ(row[t.column(at + "cycles")], std::to_string(want[i].cycles));
        EXPECT_EQ(row[t.column(at + "warp_instructions")], std::to_string(want[i].warp_instructions));
        EXPECT_EQ(row[t.column(at + "stalls.barrier")], std::to_string(want[i].stalls.at("barrier")));
        cycles += want[i].cycles;
        instructions += want[i].warp_instructions;
      }
      EXPECT_EQ(row[t.column("cycles")], std::to_string(cycles));
      EXPECT_EQ(row[t.column("warp_instructions")], std::to_string(instructions));
      EXPECT_EQ(t.column("launches[3].cycles"), t.header.size());
    }
    // The JSON lines carry the same columns, numbers as numbers.
    std::ifstream jsonl(o.out_dir + "/results.jsonl");
    std::string line;
    ASSERT_TRUE(std::getline(jsonl, line));
    const nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_TRUE(j.at("launches[2].cycles").is_number()) << line;
    EXPECT_EQ(j.at("cycles").get<uint64_t>(), j.at("launches[0].cycles").get<uint64_t>() +
                                                  j.at("launches[1].cycles").get<uint64_t>() +
                                                  j.at("launches[2].cycles").get<uint64_t>());
  }
}

// A launch the host API refuses is that point's failure, at the program's
// line and column, and the run goes on.
TEST(SweepHostProgram, ALaunchThatFailsIsAPointError) {
  const testing_support::ScratchDir d;
  scan_program(d);
  std::ofstream(d / "short.yaml") << "kernel: scan.ptx\nbuffers: {x: {type: u32, count: 4}}\n"
                                     "launches:\n  - {entry: scan_sums, block: 32, args: [x]}\n";
  std::ofstream(d / "spec.yaml") << "base: sm_90\nparameters: {mode: lt}\nprograms:\n  - program: short.yaml\n"
                                    "  - program: scan.yaml\nmetrics: [cycles]\n";
  RunOptions o;
  o.spec_path = d / "spec.yaml";
  o.out_dir = d / "out";
  o.jobs = 1;
  o.quiet = o.no_plots = true;
  std::ostringstream out, err;
  EXPECT_EQ(run_sweep(o, out, err), 1) << err.str();
  const Table t = read_table(o.out_dir);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0][t.column("status")], "error");
  EXPECT_EQ(t.rows[0][t.column("launches[0].cycles")], "");
  EXPECT_TRUE(std::regex_search(t.rows[0][t.column("error")],
                                std::regex(R"(short\.yaml:4:5: key 'launches\[0\]': .*2 parameters)")))
      << t.rows[0][t.column("error")];
  EXPECT_EQ(t.rows[1][t.column("status")], "ok");
}

TEST(SweepHostProgram, ErrorsNameTheSpecAndTheProgramFileLineAndColumn) {
  const testing_support::ScratchDir d;
  const std::string program = scan_program(d);
  std::ofstream(d / "bad.yaml") << "kernel: scan.ptx\nbogus: 1\nlaunches: [{entry: scan_sums, args: []}]\n";
  std::ofstream(d / "no_entry.yaml") << "kernel: scan.ptx\nlaunches:\n  - {entry: scan_all, args: []}\n";
  const std::string head = "base: sm_90\nparameters: {mode: lt}\nprograms:\n  - program: ";
  struct Case {
    std::string text;
    std::string expect;  // regex over the message
  };
  const Case cases[] = {
      {head + (d / "missing.yaml") + "\n",
       R"(^s\.yaml:4:14: key 'programs\[0\]\.program': .*missing\.yaml: cannot open the program$)"},
      {head + (d / "bad.yaml") + "\n",
       R"(^s\.yaml:4:14: key 'programs\[0\]\.program': .*bad\.yaml:2:1: key 'bogus': unknown key)"},
      {head + (d / "no_entry.yaml") + "\n",
       R"(^s\.yaml:4:14: key 'programs\[0\]\.program': .*no_entry\.yaml:3:\d+: key 'launches\[0\]\.entry': .*scan_all)"},
      {"base: sm_90\nparameters: {warps: 2}\nprograms:\n  - program: " + program + "\n",
       R"(key 'parameters\.warps': warps sizes straight-line programs)"},
      {head + program + "\n    bogus: 1\n", R"(^s\.yaml:5:5: key 'programs\[0\]\.bogus': unknown key)"},
  };
  for (const Case& c : cases) {
    const std::string e = spec_error(c.text);
    EXPECT_TRUE(std::regex_search(e, std::regex(c.expect))) << c.text << "\n" << e;
  }
}

TEST(SweepResults, CsvRoundTrips) {
  const std::vector<std::string> fields = {"a", "b,c", "say \"hi\"", "", " padded ", "[oob]"};
  const std::string line = csv_line(fields);
  ASSERT_EQ(line.back(), '\n');
  std::vector<std::string> back;
  ASSERT_TRUE(parse_csv_line(line.substr(0, line.size() - 1), back));
  EXPECT_EQ(back, fields);
  EXPECT_EQ(csv_line({"two\nlines"}), "two lines\n");
  EXPECT_FALSE(parse_csv_line("\"unterminated", back));
}

TEST(SweepResults, JsonLinesHaveNumbersAndNullErrors) {
  const auto j =
      nlohmann::json::parse(json_line({"key", "program", "warps", "status", "ipc", "error"},
                                      {"0123", "ffma.chain", "8", "ok", "0.5", ""}, {{"host_seconds", 0.25}}));
  EXPECT_EQ(j["key"], "0123");
  EXPECT_EQ(j["warps"], 8);
  EXPECT_EQ(j["ipc"], 0.5);
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_EQ(j["host_seconds"], 0.25);
  // A base is text, whatever it looks like.
  EXPECT_EQ(nlohmann::json::parse(json_line({"key", "base"}, {"0123", "100"}, {}))["base"], "100");
}

// A torn last line (the machine went down mid-write) is cut off on opening;
// a JSON line without its CSV row is dropped; complete rows are kept.
TEST(SweepResults, StoreRepairsATornTail) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::vector<std::string> header = {"key", "program", "status", "cycles", "error"};
  {
    Store s(dir, header);
    s.append({"k1", "p", "ok", "10", ""}, nlohmann::ordered_json::object());
    s.append({"k2", "p", "ok", "20", ""}, nlohmann::ordered_json::object());
  }
  std::ofstream(dir + "/results.csv", std::ios::app) << "k3,p,o";
  std::ofstream(dir + "/results.jsonl", std::ios::app) << "{\"key\":\"k3\",\"status\":\"ok\"}\n{\"key\":\"k4\"";
  {
    Store s(dir, header);
    EXPECT_EQ(s.table().rows.size(), 2u);
    EXPECT_THROW(Store(dir, header), StoreError);  // locked while `s` is open
  }
  std::ifstream csv(dir + "/results.csv"), jsonl(dir + "/results.jsonl");
  const std::string c((std::istreambuf_iterator<char>(csv)), {}), j((std::istreambuf_iterator<char>(jsonl)), {});
  EXPECT_EQ(c, "key,program,status,cycles,error\nk1,p,ok,10,\nk2,p,ok,20,\n");
  EXPECT_EQ(std::count(j.begin(), j.end(), '\n'), 2);
  EXPECT_EQ(j.find("k3"), std::string::npos);
  // Another sweep's columns are refused, not mixed in.
  EXPECT_THROW(Store(dir, {"key", "program", "status", "ipc", "error"}), StoreError);
}

// What parse_arg says of a bad launch argument ("no error" when it takes it).
std::string parse_error(const char* spec, const kernel::Param& p) {
  try {
    parse_arg(spec, 0, p);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

// --arg tex:...: a texture object from its spec; each bad spec an error naming
// what is wrong.
TEST(LaunchArgs, TextureSpecsGiveObjectsOrNameWhatIsWrong) {
  const kernel::Param p{"_Z8fetch_1dyPfi_param_0", 0, 8, "u64", false};
  const kernel::Arg a =
      parse_arg("tex:zeros:format=unorm8,width=50,height=3,address=wrap,filter=linear,normalized=1", 0, p);
  ASSERT_EQ(a.kind, kernel::Arg::Kind::texture);
  EXPECT_EQ(a.texture->width, 50);
  EXPECT_EQ(a.texture->height, 3);
  EXPECT_EQ(a.texture->dims, 2);
  EXPECT_EQ(a.texture->texels.size(), 150u);
  EXPECT_EQ(a.texture->address, kernel::AddressMode::wrap);
  EXPECT_EQ(a.texture->filter, kernel::FilterMode::linear);
  EXPECT_TRUE(a.texture->normalized);
  auto message = [&](const char* spec) { return parse_error(spec, p); };
  EXPECT_NE(message("tex:zeros:width=4").find("needs format= and width="), std::string::npos);
  EXPECT_NE(message("tex:zeros:format=f32,width=4,address=repeat").find("bad 'address=repeat'"), std::string::npos);
  EXPECT_NE(message("tex:zeros:format=u8,width=4,filter=linear").find("linear filtering needs"), std::string::npos);
  EXPECT_NE(message("tex:/nonexistent/texels:format=f32,width=4").find("cannot open"), std::string::npos);
}

// --arg tmap:...: a tensor map from its spec, encoded at the byte offsets
// kernel/tensormap.h documents; each bad spec an error naming what is wrong.
TEST(LaunchArgs, TensorMapSpecsEncodeTheDocumentedLayout) {
  const kernel::Param p{"_Z3tmaPv_param_0", 0, 128, "b8", false};
  const kernel::Arg a = parse_arg("tmap:zeros:11520:type=f32,dims=72x40,box=32x16,swizzle=128B,oob=nan", 0, p);
  ASSERT_EQ(a.kind, kernel::Arg::Kind::tensor_map);
  EXPECT_EQ(a.data.size(), 11520u);
  EXPECT_EQ(a.map_buffer, -1);
  kernel::TensorMap m = a.map;
  m.address = 0x1234567890;
  const auto b = kernel::encode(m);
  auto u32 = [&](size_t at) { return uint32_t{b[at]} | b[at + 1] << 8 | b[at + 2] << 16 | uint32_t{b[at + 3]} << 24; };
  EXPECT_EQ(u32(0), 0x34567890u);
  EXPECT_EQ(u32(4), 0x12u);
  EXPECT_EQ(b[8], 7);   // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  EXPECT_EQ(b[9], 2);   // rank
  EXPECT_EQ(b[11], 3);  // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(b[12], 1);  // NaN fill
  EXPECT_EQ(u32(16), 72u);
  EXPECT_EQ(u32(20), 40u);
  EXPECT_EQ(u32(40), 72u * 4);  // packed: a row of 72 f32
  EXPECT_EQ(u32(72), 32u);
  EXPECT_EQ(u32(76), 16u);
  EXPECT_EQ(u32(92), 1u);  // element strides default to 1
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&b[112]), 4), "PTXT");
  kernel::TensorMap back;
  EXPECT_EQ(kernel::decode(b.data(), back), "");
  EXPECT_EQ(back.strides[0], 288u);
  EXPECT_EQ(parse_arg("tmap:arg2:type=u8,dims=64,box=16,offset=32", 0, p).map_buffer, 1);
  auto message = [&](const char* spec) { return parse_error(spec, p); };
  EXPECT_NE(message("tmap:zeros:64:type=f32,dims=16x4,box=16").find("as many box= extents as dims"), std::string::npos);
  EXPECT_NE(message("tmap:zeros:64:type=f32,dims=16,box=16,swizzle=16B").find("bad 'swizzle=16B'"), std::string::npos);
  EXPECT_NE(message("tmap:zeros:64:type=f8,dims=16,box=16").find("bad 'type=f8'"), std::string::npos);
  EXPECT_NE(message("tmap:zeros:64:type=f32,dims=16,box=300").find("box= takes"), std::string::npos);
  EXPECT_NE(message("tmap:type=f32").find("expected tmap:BUFFER"), std::string::npos);
}

}  // namespace
}  // namespace ptxfu::sweep
