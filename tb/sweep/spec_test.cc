// Sweep specs: the shipped examples load; every mistake is reported with the
// spec's file, line, column and key before anything runs; points, keys and
// samples are stable; result files survive a torn last line.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cli/sweep_results.h"
#include "cli/sweep_spec.h"

namespace ptxfu::cli::sweep {
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

std::string temp_dir() {
  std::string t = ::testing::TempDir() + "sweep_spec_XXXXXX";
  return ::mkdtemp(t.data()) ? t : "";
}

TEST(SweepSpec, ShippedExamplesLoad) {
  const Spec fma = load_spec(kSweeps + "fma_latency_warps.yaml");
  EXPECT_EQ(fma.parameters.size(), 2u);
  EXPECT_EQ(fma.points.size(), fma.parameters[0].values.size() * fma.parameters[1].values.size());
  const Spec hfma2 = load_spec(kSweeps + "hfma2_lanes_issue.yaml");
  EXPECT_EQ(hfma2.programs.size(), 2u);
  EXPECT_EQ(hfma2.points.size(), 4u * 4u * 2u);
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
      {head + "parameters:\n  units.fma.lanes: [32, 3]\n", R"(^s\.yaml:4:25: .*expected 1, 2, 4, 8, 16 or 32 lanes, got 3)"},
      {head + "parameters:\n  units.fma.latancy: [4]\n", R"(^s\.yaml:4:23: key 'parameters\.units\.fma\.latancy\[0\]': .*unknown key)"},
      {head + "parameters:\n  scheduler: [gto, fifo]\n", R"(^s\.yaml:4:20: .*unknown policy 'fifo')"},
      {head + "parameters:\n  warps: [8, 65]\n", R"(^s\.yaml:4:14: key 'parameters\.warps\[1\]': 65 warps: sm_90 allows 1\.\.64)"},
      {head + "parameters:\n  features.add: [[], [warp_drive]]\n", R"(^s\.yaml:4:22: .*unknown feature 'warp_drive')"},
      {head + "parameters:\n  forms[*.f17x2].lanes: [4]\n", R"(no entry with match: "\*\.f17x2")"},
      {head + "parameters:\n  forms[99].lanes: [4]\n", R"(the base config's 'forms' has 12 entries)"},
      {head + "parameters:\n  issue_width: {from: 1, to: 4, step: 0}\n", R"(^s\.yaml:4:39: key 'parameters\.issue_width\.step': expected an integer 1\.\.)"},
      {head + "parameters:\n  issue_width: {from: 1, to: 4, stride: 1}\n", R"(key 'parameters\.issue_width\.stride': unknown key)"},
      {head + "parameters:\n  issue_width: {sample: 9, from: 1, to: 4, seed: 1}\n", R"(9 distinct values asked for, 1\.\.4 has 4)"},
      {head + "parameters:\n  issue_width: {sample: 2, from: 1, to: 4}\n", R"(key 'parameters\.issue_width\.seed': missing)"},
      {head + "parameters:\n  status: [1]\n", R"(key 'parameters\.status': a result column)"},
      {head + "parameters:\n  issue_width: [1, 1]\n", R"(value 1 given twice)"},
      {head + "parameters:\n  mode: [lt, ft]\n", R"(^s\.yaml:4:14: key 'parameters\.mode\[1\]': expected lt or at)"},
      {"base: sm_42\nprograms: [ffma.chain]\nparameters: {warps: 1}\n", R"(^s\.yaml:1:7: key 'base': no embedded config 'sm_42')"},
      {"base: sm_90\nprograms: [fmaa.chain]\nparameters: {warps: 1}\n", R"(^s\.yaml:2:12: key 'programs\[0\]': unknown microbenchmark 'fmaa')"},
      {"base: sm_90\nprograms: [ffma.loop]\nparameters: {warps: 1}\n", R"(unknown kind 'loop' \(expected chain or stream\))"},
      {"base: sm_90\nprograms: [missing.ptx]\nparameters: {warps: 1}\n", R"(^s\.yaml:2:12: key 'programs\[0\]': cannot open 'missing\.ptx')"},
      {head + "parameters: {warps: 1}\nmetrics: [cycles, ipcc]\n", R"(^s\.yaml:4:19: key 'metrics\[1\]': unknown metric 'ipcc')"},
      {head + "parameters: {warps: 1}\nmetrics: [cycles]\nplot: ipc\n", R"(^s\.yaml:5:7: key 'plot': 'ipc' is not one of the recorded metrics)"},
      {head + "parameters: {warps: 1}\nparamaters: {}\n", R"(^s\.yaml:4:1: key 'paramaters': unknown key)"},
      {head, R"(key 'parameters': missing)"},
      {"programs: [ffma.chain]\nparameters: {warps: 1}\n", R"(key 'base': missing)"},
      {"base: [unclosed\n", R"(^s\.yaml:\d+:\d+: )"},
      {"", R"(empty sweep spec)"},
  };
  for (const auto& c : cases) {
    const std::string msg = spec_error(c.text);
    EXPECT_TRUE(std::regex_search(msg, std::regex(c.expect))) << "spec:\n" << c.text << "message: " << msg << "\nexpected: " << c.expect;
  }
}

// A combination that no single value shows is caught before running.
TEST(SweepSpec, CombinationsAreValidatedBeforeRunning) {
  const std::string msg = spec_error("base: sm_90\nprograms: [ffma.chain]\nparameters:\n  max_warps: [8, 64]\n  warps: [4, 16]\n");
  EXPECT_TRUE(std::regex_search(msg, std::regex(R"(^s\.yaml:4:3: key 'parameters': point 1 \(ffma\.chain max_warps=8 warps=16\): 16 warps)")))
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
      "base: sm_90\nprograms: [ffma.chain]\nparameters:\n  units.alu.latency: {sample: 3, from: 1, to: 1000, seed: 7}\n", "t.yaml");
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
  const Spec a = load_spec_text("base: sm_90\nprograms: [ffma.chain]\nparameters:\n  warps: [4]\n  issue_width: [2]\n", "a.yaml");
  const Spec b = load_spec_text("base: sm_90\nprograms: [ffma.chain]\nparameters:\n  issue_width: [1, 2]\n  warps: {from: 4, to: 4}\n", "b.yaml");
  EXPECT_EQ(a.points[0].key, b.points[1].key);
  EXPECT_NE(a.points[0].key, b.points[0].key);
}

TEST(SweepSpec, TopLevelSampleKeepsASeededSubset) {
  const std::string text = "base: sm_90\nprograms: [ffma.chain]\nparameters:\n  warps: {from: 1, to: 64}\n  issue_width: [1, 2, 3, 4]\nsample: {count: 10, seed: 3}\n";
  const Spec a = load_spec_text(text, "a.yaml");
  const Spec b = load_spec_text(text, "a.yaml");
  ASSERT_EQ(a.points.size(), 10u);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(a.points[i].key, b.points[i].key);
  for (size_t i = 1; i < 10; ++i) EXPECT_LT(a.points[i - 1].index, a.points[i].index);
}

// A program that the base accepts but one point's feature mask does not is a
// failed point, recorded, not a spec error.
TEST(SweepSpec, ProgramIllegalForAPointIsAPointError) {
  const std::string dir = temp_dir();
  std::ofstream(dir + "/oob.ptx") << ".reg .b32 %h<4>;\nmov.b32 %h1, 0x3c003c00;\nfma.rn.oob.f16x2 %h0, %h1, %h1, %h1;\n";
  std::ofstream(dir + "/s.yaml") << "base: sm_90\nprograms: [oob.ptx]\nparameters:\n  features.remove: [[], [oob]]\n";
  const Spec s = load_spec(dir + "/s.yaml");
  EXPECT_EQ(s.programs[0].id, "oob");
  EXPECT_TRUE(build_point(s, s.points[0]).error.empty());
  EXPECT_NE(build_point(s, s.points[1]).error.find("feature 'oob' removed"), std::string::npos) << build_point(s, s.points[1]).error;
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
  const auto j = nlohmann::json::parse(json_line({"key", "program", "warps", "status", "ipc", "error"},
                                                 {"0123", "ffma.chain", "8", "ok", "0.5", ""}, {{"host_seconds", 0.25}}));
  EXPECT_EQ(j["key"], "0123");
  EXPECT_EQ(j["warps"], 8);
  EXPECT_EQ(j["ipc"], 0.5);
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_EQ(j["host_seconds"], 0.25);
}

// A torn last line (the machine went down mid-write) is cut off on opening;
// a JSON line without its CSV row is dropped; complete rows are kept.
TEST(SweepResults, StoreRepairsATornTail) {
  const std::string dir = temp_dir();
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

}  // namespace
}  // namespace ptxfu::cli::sweep
