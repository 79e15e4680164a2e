#include "models/microbench.h"

#include <fmt/format.h>

#include "models/simulator.h"

namespace ptxfu::models {
namespace {

constexpr unsigned kChain = 64;   // dependent instructions (and twice that)
constexpr unsigned kRounds = 16;  // stream rounds of kAccumulators independent instructions
constexpr unsigned kAccumulators = 8;

std::string header(const MicroBench& b) {
  std::string s = fmt::format(".reg {} %a<{}>;\n", b.reg_type, kAccumulators + 3);
  for (unsigned i = 0; i < kAccumulators + 3; ++i) s += fmt::format("mov{} %a{}, {};\n", b.reg_type, i, b.init);
  return s;
}

std::string instruction(const MicroBench& b, unsigned acc) {
  std::string s = fmt::format("{} %a{}, %a{}", b.mnemonic, acc, acc);
  for (unsigned k = 1; k < b.sources; ++k) s += fmt::format(", %a{}", kAccumulators + k);
  return s + ";\n";
}

}  // namespace

std::string chain_program(const MicroBench& b, unsigned length) {
  std::string s = header(b);
  for (unsigned i = 0; i < length; ++i) s += instruction(b, 0);
  return s;
}

std::string stream_program(const MicroBench& b, unsigned rounds) {
  std::string s = header(b);
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned a = 0; a < kAccumulators; ++a) s += instruction(b, a);
  return s;
}

const std::vector<MicroBench>& micro_benches() {
  static const std::vector<MicroBench> benches = {
      {"ffma", "fma.rn.f32", ".f32", 3, "0f3f800000"},
      {"hfma2", "fma.rn.f16x2", ".b32", 3, "0x3c003c00"},
      {"dfma", "fma.rn.f64", ".f64", 3, "0d3ff0000000000000"},
      {"imad", "mad.lo.s32", ".s32", 3, "3"},
      {"iadd3", "add.s32", ".s32", 2, "3"},
      {"mufu_ex2", "ex2.approx.ftz.f32", ".f32", 1, "0f3f000000"},
  };
  return benches;
}

std::vector<BenchResult> run_benches(const std::vector<ArchConfig>& configs) {
  std::vector<Program> programs;  // four per (config, bench): chain n, chain 2n, stream m, stream 2m
  std::vector<BenchResult> results;
  programs.reserve(configs.size() * micro_benches().size() * 4);
  std::vector<SimJob> jobs;
  for (const ArchConfig& c : configs) {
    for (const MicroBench& b : micro_benches()) {
      const std::string base = fmt::format("{}:{}", c.name, b.name);
      programs.push_back(load_program(chain_program(b, kChain), base + ":chain", c.caps));
      programs.push_back(load_program(chain_program(b, 2 * kChain), base + ":chain2", c.caps));
      programs.push_back(load_program(stream_program(b, kRounds), base + ":stream", c.caps));
      programs.push_back(load_program(stream_program(b, 2 * kRounds), base + ":stream2", c.caps));
      for (size_t k = 0; k < 4; ++k) {
        SimJob j;
        j.config = &c;
        j.program = &programs[programs.size() - 4 + k];
        j.warps = k < 2 ? 1 : c.max_warps;
        jobs.push_back(j);
      }
      results.push_back({c.name, std::string(b.name), 0, 0, c.reference(b.name)});
    }
  }
  const std::vector<SimResult> sims = simulate(jobs);
  for (size_t i = 0; i < results.size(); ++i) {
    const SimResult* r = &sims[4 * i];
    results[i].latency = static_cast<double>(r[1].cycles - r[0].cycles) / kChain;
    const double instr = static_cast<double>(r[3].warp_instructions - r[2].warp_instructions) * 32;
    results[i].throughput = instr / static_cast<double>(r[3].cycles - r[2].cycles);
  }
  return results;
}

}  // namespace ptxfu::models
