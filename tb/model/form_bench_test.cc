// `ptxfu bench --form`: what it measures follows from the config, read here
// independently of the model, and every config's references by form and by
// producer -> consumer pair are reproduced within the stated tolerance
// (latency +-1 cycle, throughput 10%). The expected values are the published
// figures of configs/references.yaml, read here with yaml-cpp (not through the
// model's loader), never the model's own output.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <map>
#include <optional>

#include "models/microbench.h"
#include "sample.h"

namespace ptxfu::models {
namespace {

// One entry of configs/references.yaml.
struct Published {
  std::string bench;
  std::optional<double> latency, throughput;  // null: no figure
  std::string source;
};

std::optional<double> figure(const YAML::Node& n) {
  return n && !n.IsNull() ? std::optional<double>(n.as<double>()) : std::nullopt;
}

// configs/references.yaml, per config name.
std::map<std::string, std::vector<Published>> read_published() {
  std::map<std::string, std::vector<Published>> out;
  for (const auto& config : YAML::LoadFile(PTXFU_SOURCE_DIR "/configs/references.yaml"))
    for (const auto& kv : config.second)
      out[config.first.as<std::string>()].push_back({kv.first.as<std::string>(), figure(kv.second["latency"]),
                                                     figure(kv.second["throughput"]),
                                                     kv.second["source"].as<std::string>()});
  return out;
}

struct Check {
  size_t config;
  std::string form, consumer;
  std::optional<Published> published = std::nullopt;  // a fidelity row; none: a structural check
};

class FormBench : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    uint64_t reference_index = 0;
    for (const auto& e : embedded_configs()) configs_.push_back(load_config(std::string(e.name)));
    const auto published = read_published();
    for (size_t ci = 0; ci < configs_.size(); ++ci) {
      const ArchConfig& c = configs_[ci];
      for (const char* f : {"fma.rn.f32", "add.s32", "mad.lo.s32", "ex2.approx.ftz.f32", "fma.rn.f16x2"})
        checks_.push_back({ci, f, ""});
      checks_.push_back({ci, "fma.rn.f32", "add.s32"});
      checks_.push_back({ci, "add.s32", "fma.rn.f32"});
      checks_.push_back({ci, "fma.rn.f16x2", "fma.rn.f32"});
      checks_.push_back({ci, "fma.rn.f32", "ex2.approx.ftz.f32"});
      checks_.push_back({ci, "ld.shared.u32", ""});
      // Every reference: a built-in bench by its form, a form, or "FORM -> CONSUMER"
      // (under the sanitizers a seeded sample of them: sample.h).
      const auto it = published.find(c.name);
      for (const Published& r : it == published.end() ? std::vector<Published>{} : it->second) {
        if (!test::sampled(reference_index++, 11)) continue;
        Check k{ci, r.bench, "", r};
        for (const MicroBench& b : micro_benches())
          if (b.name == r.bench) k.form = std::string(b.mnemonic);
        const auto arrow = r.bench.find(" -> ");
        if (arrow != std::string::npos) {
          k.form = r.bench.substr(0, arrow);
          k.consumer = r.bench.substr(arrow + 4);
        }
        checks_.push_back(k);
      }
    }
    std::vector<FormBenchSpec> specs;
    for (const Check& k : checks_) specs.push_back({&configs_[k.config], k.form, k.consumer});
    results_ = run_form_benches(specs);
  }

  // The latency the config gives a pair of units' timings, from its
  // `dependencies:` list (not ArchConfig::dependent_latency).
  static unsigned expected_latency(const ArchConfig& c, const Timing& p, const Timing& q) {
    unsigned latency = p.latency;
    for (const Dependency& d : c.dependencies)
      if (d.producer == p.dep && d.consumer == q.dep) latency = std::max(latency, d.latency);
    // A dependent instance on the same unit also waits for the unit.
    if (p.unit == q.unit) latency = std::max(latency, p.occupancy());
    return latency;
  }

  static const FormBenchResult& result(size_t config, const std::string& form, const std::string& consumer = "") {
    for (size_t i = 0; i < checks_.size(); ++i)
      if (checks_[i].config == config && checks_[i].form == form && checks_[i].consumer == consumer &&
          !checks_[i].published)
        return results_[i];
    static const FormBenchResult none;
    ADD_FAILURE() << "no check " << form << " -> " << consumer;
    return none;
  }

  static std::vector<ArchConfig> configs_;
  static std::vector<Check> checks_;
  static std::vector<FormBenchResult> results_;
};
std::vector<ArchConfig> FormBench::configs_;
std::vector<Check> FormBench::checks_;
std::vector<FormBenchResult> FormBench::results_;

Timing unit_timing(const ArchConfig& c, Unit u) { return c.units[static_cast<size_t>(u)]; }

// FFMA, IADD3, MUFU chains: the unit's latency, or the config's own pair
// entry where it is longer; throughput: lanes * sub_partitions / interval.
// The ld.shared.u32 chase: memory.shared.
TEST_F(FormBench, ChainsAndStreamsFollowTheConfig) {
  ASSERT_GE(configs_.size(), 8u);
  for (size_t ci = 0; ci < configs_.size(); ++ci) {
    const ArchConfig& c = configs_[ci];
    for (const auto& [form, unit] : {std::pair{"fma.rn.f32", Unit::fma}, std::pair{"add.s32", Unit::alu},
                                     std::pair{"ex2.approx.ftz.f32", Unit::mufu}}) {
      const Timing t = unit_timing(c, unit);
      const FormBenchResult& r = result(ci, form);
      EXPECT_EQ(r.unit, unit) << c.name << " " << form;
      EXPECT_EQ(r.latency, expected_latency(c, t, t)) << c.name << " " << form;
      EXPECT_DOUBLE_EQ(r.throughput, static_cast<double>(t.lanes) * c.sub_partitions / t.interval)
          << c.name << " " << form;
    }
    // The shared-memory pointer chase: one dependent load takes memory.shared
    // (read here with yaml-cpp) on the load/store unit; the stream issues one
    // warp-load per lsu interval per sub-partition.
    const YAML::Node y = YAML::LoadFile(PTXFU_SOURCE_DIR "/configs/" + c.name + ".yaml");
    const FormBenchResult& r = result(ci, "ld.shared.u32");
    EXPECT_EQ(r.unit, Unit::lsu) << c.name;
    EXPECT_EQ(r.latency, y["memory"]["shared"].as<double>()) << c.name;
    const YAML::Node lsu = y["units"]["lsu"];
    EXPECT_NEAR(r.throughput,
                lsu["lanes"].as<double>() * y["sub_partitions"].as<double>() / lsu["interval"].as<double>(),
                0.01 * r.throughput)
        << c.name;
  }
}

TEST_F(FormBench, PairsTakeTheConfigsProducerConsumerLatency) {
  for (size_t ci = 0; ci < configs_.size(); ++ci) {
    const ArchConfig& c = configs_[ci];
    const Timing fma = unit_timing(c, Unit::fma), alu = unit_timing(c, Unit::alu), mufu = unit_timing(c, Unit::mufu);
    EXPECT_EQ(result(ci, "fma.rn.f32", "add.s32").latency, expected_latency(c, fma, alu)) << c.name;
    EXPECT_EQ(result(ci, "add.s32", "fma.rn.f32").latency, expected_latency(c, alu, fma)) << c.name;
    EXPECT_EQ(result(ci, "fma.rn.f32", "ex2.approx.ftz.f32").latency, expected_latency(c, fma, mufu)) << c.name;
    EXPECT_EQ(result(ci, "fma.rn.f32", "add.s32").chained_through, "add.s32");
    // A crossing from the FMA pipe to the ALU costs more than staying (NAK on every table).
    EXPECT_GT(result(ci, "fma.rn.f32", "add.s32").latency, result(ci, "fma.rn.f32").latency) << c.name;
  }
}

TEST_F(FormBench, BadFormsAreErrors) {
  EXPECT_NE(form_error("bogus.f32"), "");
  EXPECT_NE(form_error("fma.rn.f33"), "");
  EXPECT_EQ(form_error("setp.lt.f32"), "");
  EXPECT_EQ(form_error("cvt.rn.f16x2.f32"), "");
  EXPECT_EQ(form_error("ld.shared.u32"), "");
  const auto load = run_form_benches({{&configs_[0], "ld.shared.u32", "add.s32"}, {&configs_[0], "add.s32", ""}});
  EXPECT_NE(load[0].error.find("--consumer is not measured for load forms"), std::string::npos) << load[0].error;
  // Illegal on one target: that row says why, the others measure.
  for (const FormBenchResult& r : results_) EXPECT_EQ(r.error, "") << r.config << " " << r.form;
}

// The fidelity table: every reference of every config, within +-1 cycle and
// 10%; every published figure in configs/references.yaml is asserted.
TEST_F(FormBench, EveryReferenceIsReproduced) {
  std::map<std::string, unsigned> figures;  // per config
  unsigned references = 0, total = 0;
  for (size_t i = 0; i < checks_.size(); ++i) {
    const Check& k = checks_[i];
    if (!k.published) continue;
    ++references;
    const Published& p = *k.published;
    const FormBenchResult& r = results_[i];
    const std::string what = configs_[k.config].name + " " + p.bench;
    EXPECT_FALSE(p.source.empty()) << what;
    EXPECT_TRUE(p.latency || p.throughput) << what << ": an entry with no figure";
    ASSERT_EQ(r.error, "") << what;
    ASSERT_NE(r.reference, nullptr) << what << ": bench --form finds no reference";
    EXPECT_EQ(r.reference->bench, p.bench) << what << ": bench --form finds another reference";
    if (p.latency) {
      EXPECT_LE(std::fabs(r.latency - *p.latency), 1.0)
          << what << ": model " << r.latency << ", reference " << *p.latency;
      ++figures[r.config];
    }
    if (p.throughput) {
      EXPECT_LE(std::fabs(r.throughput / *p.throughput - 1.0), 0.10)
          << what << ": model " << r.throughput << ", reference " << *p.throughput;
      ++figures[r.config];
    }
  }
  for (const ArchConfig& c : configs_) {
    std::cout << c.name << ": " << figures[c.name] << " figures asserted\n";
    total += figures[c.name];
  }
  // configs/references.yaml: 228 entries, 328 figures (docs/bench.md states them);
  // under the sanitizers a sample of them runs.
  if (!test::kSampled) {
    EXPECT_EQ(references, 228u);
    EXPECT_EQ(total, 328u);
  }
}

}  // namespace
}  // namespace ptxfu::models

namespace ptxfu::models {
namespace {

// mma.sync forms: the chain D -> C and the stream follow the config's tensor
// section, read here with yaml-cpp: an m16n8k16 holds the unit
// max(units.tensor.interval, ceil(2048 / rate)) cycles, its D is ready
// max(latency, that) after its issue; throughput in mma per clock per SM.
TEST(FormBenchMma, ChainAndStreamFollowTheTensorSection) {
  const std::string form = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
  std::vector<ArchConfig> configs;
  for (const char* name : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"})
    configs.push_back(load_config(name));
  std::vector<FormBenchSpec> specs;
  for (const ArchConfig& c : configs) specs.push_back({&c, form, ""});
  const auto results = run_form_benches(specs);
  for (size_t i = 0; i < configs.size(); ++i) {
    const YAML::Node y = YAML::LoadFile(PTXFU_SOURCE_DIR "/configs/" + configs[i].name + ".yaml");
    const double rate = y["tensor"]["rates"]["f16.f32"].as<double>();
    const double occupancy = std::max(y["units"]["tensor"]["interval"].as<double>(), std::ceil(16.0 * 8 * 16 / rate));
    const FormBenchResult& r = results[i];
    ASSERT_EQ(r.error, "") << r.config;
    EXPECT_EQ(r.unit, Unit::tensor);
    EXPECT_EQ(r.latency, std::max(y["tensor"]["latency"].as<double>(), occupancy)) << r.config;
    // The difference of two stream lengths: within 0.1% (the streams' ends do not cancel exactly).
    EXPECT_NEAR(r.throughput, y["sub_partitions"].as<double>() / occupancy, 1e-3 * r.throughput) << r.config;
  }
}

TEST(FormBenchMma, FormsWithoutAChainOrATargetAreErrors) {
  EXPECT_EQ(form_error("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), "");
  EXPECT_NE(form_error("mma.sync.aligned.m16n8k16.row.col.f32.f17.f16.f32"), "");
  EXPECT_NE(form_error("mma.sync.aligned.m16n8k15.row.col.f32.f16.f16.f32"), "");
  const ArchConfig sm75 = load_config("sm_75"), sm90 = load_config("sm_90");
  const auto r = run_form_benches({{&sm75, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", ""},
                                   {&sm90, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32", ""},
                                   {&sm90, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "add.s32"},
                                   {&sm75, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", ""}});
  EXPECT_NE(r[0].error.find("requires .target sm_80"), std::string::npos) << r[0].error;
  EXPECT_NE(r[1].error.find("C and D differ"), std::string::npos) << r[1].error;
  EXPECT_NE(r[2].error.find("--consumer"), std::string::npos) << r[2].error;
  EXPECT_EQ(r[3].error, "") << "m16n8k8 exists from sm_75";
}

}  // namespace
}  // namespace ptxfu::models
