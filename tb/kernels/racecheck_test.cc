// `ptxfu sim --racecheck` (kernel/racecheck.h) on the SM model: the
// hand-written kernels of racecheck.ptx, whose racing lines are marked
// `// RACE tag` and whose lines that race with nothing are marked
// `// CLEAN tag` (the oracle: the markers, by construction of each kernel);
// a corpus kernel with its barriers taken out; the corpus kernels that
// synchronise through barriers, cp.async waits, mbarriers and cooperative
// groups' tile barriers, which must run clean; and the command line.
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "kernel_test_util.h"
#include "model_run.h"
#include "models/config.h"
#include "models/simulator.h"

namespace ptxfu::kernel::testing {
namespace {

// The lines of racecheck.ptx marked `// RACE tag` and `// CLEAN tag`.
struct Markers {
  std::map<std::string, std::set<unsigned>> race, clean;
};

Markers markers() {
  std::istringstream in(read_file(std::string(PTXFU_KERNELS_DIR) + "/racecheck.ptx"));
  Markers m;
  const std::regex marker(R"(// (RACE|CLEAN) (\w+))");
  std::string text;
  for (unsigned line = 1; std::getline(in, text); ++line) {
    std::smatch found;
    if (!std::regex_search(text, found, marker)) continue;
    (found[1] == "RACE" ? m.race : m.clean)[found[2]].insert(line);
  }
  return m;
}

RaceReport racecheck(const Kernel& k, const Launch& l, bool approximately_timed) {
  const models::ArchConfig config = models::load_config("sm_90");
  models::SimJob job;
  job.config = &config;
  job.kernel = &k;
  job.launch = l;
  job.racecheck = true;
  job.style = approximately_timed ? models::TimingStyle::approximately_timed : models::TimingStyle::loosely_timed;
  const models::SimResult r = models::simulate({job}).front();
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.racecheck);
  return r.races;
}

Launch launch(uint32_t threads, std::vector<Arg> args) {
  Launch l;
  l.block = {threads};
  l.args = std::move(args);
  return l;
}

std::vector<uint8_t> random_bytes(size_t n) {
  SplitMix64 rng{5};
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng.next());
  return v;
}

// One hand-written kernel: its launch, and per tag the kinds its hazards
// may have and how many there must be (0: any number above zero).
struct RacyCase {
  std::string entry;
  Launch launch;
  std::map<std::string, std::pair<std::set<HazardKind>, uint64_t>> tags;
};

std::vector<RacyCase> racy_cases() {
  using H = HazardKind;
  const std::vector<uint8_t> in = random_bytes(128);
  return {
      // Each thread's read pairs with the other warp's write of the same element: one hazard each.
      {"unsynced", launch(64, {Arg::zeros(256)}), {{"unsynced", {{H::read_after_write, H::write_after_read}, 64}}}},
      {"both_write", launch(64, {}), {{"both_write", {{H::write_after_write}, 1}}}},
      {"early_read",
       launch(32, {Arg::buffer(in), Arg::zeros(128)}),
       {{"early_read", {{H::async_read}, 32}}, {"early_write", {{H::async_write}, 32}}}},
      // Warp 1 reads before warp 0's copy (then the copy's write races), while it is pending, or after
      // warp 0's wait (a write no barrier orders).
      {"copied_unsynced",
       launch(64, {Arg::buffer(in)}),
       {{"copied_unsynced", {{H::write_after_read, H::async_read, H::read_after_write}, 32}}}},
      {"via_mbarrier", launch(32, {Arg::buffer(in)}), {{"via_mbarrier", {{H::async_read}, 32}}}},
      // cp.async.bulk.wait_group waits for bulk copies only: the cp.async is still pending at the read.
      {"bulk_wait_read", launch(32, {Arg::buffer(in), Arg::zeros(128)}), {{"bulk_wait_read", {{H::async_read}, 32}}}},
  };
}

TEST(Racecheck, HandWrittenRacesAreReportedAtTheirMarkedLines) {
  const Markers m = markers();
  for (const RacyCase& c : racy_cases()) {
    const Kernel k = load_handwritten("racecheck.ptx", c.entry);
    for (const bool at : {false, true}) {
      SCOPED_TRACE(c.entry + (at ? " (AT)" : " (LT)"));
      const RaceReport report = racecheck(k, c.launch, at);
      std::map<std::string, uint64_t> found;
      for (const RaceSite& s : report.sites) {
        const std::set<unsigned> lines{k.insts[s.first.pc].line, k.insts[s.second.pc].line};
        std::string tag;
        for (const auto& [t, marked] : m.race)
          if (marked == lines || (lines.size() == 1 && marked.count(*lines.begin()))) tag = t;
        ASSERT_TRUE(c.tags.count(tag)) << describe(k, s);
        EXPECT_TRUE(c.tags.at(tag).first.count(s.kind)) << describe(k, s);
        if (s.kind == HazardKind::write_after_write) {
          EXPECT_NE(s.first.warp, s.second.warp);
        }
        found[tag] += s.hazards;
      }
      for (const auto& [tag, want] : c.tags) {
        if (want.second)
          EXPECT_EQ(found[tag], want.second) << tag;
        else
          EXPECT_GT(found[tag], 0u) << tag;
      }
    }
  }
}

TEST(Racecheck, SynchronisedKernelsRunClean) {
  const std::vector<uint8_t> in = random_bytes(128);
  const std::pair<std::string, Launch> cases[] = {{"synced", launch(64, {Arg::zeros(256)})},
                                                  {"copied_synced", launch(64, {Arg::buffer(in)})}};
  const Markers m = markers();
  for (const auto& [entry, l] : cases) {
    const Kernel k = load_handwritten("racecheck.ptx", entry);
    ASSERT_FALSE(m.clean.at(entry).empty());
    for (const bool at : {false, true}) {
      const RaceReport report = racecheck(k, l, at);
      EXPECT_EQ(report.hazards, 0u) << entry << (report.sites.empty() ? "" : ": " + describe(k, report.sites[0]));
    }
  }
  // The lines marked CLEAN in the racy kernels take part in no hazard.
  for (const RacyCase& c : racy_cases()) {
    const Kernel k = load_handwritten("racecheck.ptx", c.entry);
    std::set<unsigned> clean;
    for (const auto& [tag, lines] : m.clean)
      if (c.tags.count(tag)) clean.insert(lines.begin(), lines.end());
    for (const RaceSite& s : racecheck(k, c.launch, false).sites) {
      EXPECT_FALSE(clean.count(k.insts[s.first.pc].line)) << describe(k, s);
      EXPECT_FALSE(clean.count(k.insts[s.second.pc].line)) << describe(k, s);
    }
  }
}

// matmul_tiled_static as nvcc wrote it runs clean; without its bar.syncs
// (each tile is loaded by every warp and read by every other) it races.
TEST(Racecheck, ACorpusKernelWithoutItsBarriersRaces) {
  const std::string path = std::string(PTXFU_CORPUS_DIR) + "/matmul_tiled.sm_90.ptx";
  const std::string text = read_file(path);
  const std::string unsynced = std::regex_replace(text, std::regex(R"(\n\s*bar\.sync\s+0;)"), "\n");
  ASSERT_NE(unsynced, text);
  Launch l;
  l.grid = {2, 2};
  l.block = {16, 16};
  l.args = {Arg::buffer(random_bytes(4096)),
            Arg::buffer(random_bytes(4096)),
            Arg::zeros(4096),
            Arg::s32(32),
            Arg::s32(32),
            Arg::s32(32)};
  EXPECT_EQ(racecheck(load_kernel(text, path, {"matmul_tiled_static", {}}), l, false).hazards, 0u);
  const Kernel k = load_kernel(unsynced, path, {"matmul_tiled_static", {}});
  const RaceReport report = racecheck(k, l, false);
  ASSERT_GT(report.hazards, 0u);
  for (const RaceSite& s : report.sites) {  // between the tile's st.shared and the product's ld.shared
    EXPECT_NE(k.insts[s.first.pc].kind == Kind::st, k.insts[s.second.pc].kind == Kind::st) << describe(k, s);
    EXPECT_NE(s.first.warp, s.second.warp);
  }
}

TEST(Racecheck, CorpusKernelsRunClean) {
  struct Case {
    const char* name;
    const char* arch;
    const char* entry;
    Dim3 grid, block, cluster;
    uint32_t shared_bytes;
    std::vector<Arg> args;
  };
  const Case cases[] = {
      {"cp_async_gemm",
       "sm_80",
       "_Z13cp_async_gemmPKfS0_Pfiii",
       {2, 2},
       {16, 16},
       {0, 0, 0},
       0,
       {Arg::buffer(random_bytes(4096)), Arg::buffer(random_bytes(4096)), Arg::zeros(4096), Arg::s32(32), Arg::s32(32),
        Arg::s32(32)}},
      {"coop_tiles",
       "sm_80",
       "_Z11tile64_sumsPKjPjS1_",
       {3},
       {256},
       {0, 0, 0},
       0,
       {Arg::buffer(random_bytes(3072)), Arg::zeros(48), Arg::zeros(3072)}},
      {"mbarrier_pipeline",
       "sm_90",
       "_Z17mbarrier_pipelinePKjPjS1_j",
       {1},
       {96},
       {0, 0, 0},
       0,
       {Arg::buffer(random_bytes(4096)), Arg::zeros(4096), Arg::zeros(256), Arg::u32(4)}},
      {"softmax",
       "sm_90",
       "softmax_warp_per_row",
       {4},
       {128},
       {0, 0, 0},
       0,
       {Arg::buffer(random_bytes(16384)), Arg::zeros(16384), Arg::s32(16), Arg::s32(256)}},
      {"matmul_tiled",
       "sm_90",
       "matmul_tiled_dynamic",
       {2, 2},
       {16, 16},
       {0, 0, 0},
       2048,
       {Arg::buffer(random_bytes(4096)), Arg::buffer(random_bytes(4096)), Arg::zeros(4096), Arg::s32(32), Arg::s32(32),
        Arg::s32(32), Arg::s32(16)}},
      {"warp_reduce",
       "sm_90",
       "block_sum",
       {3},
       {256},
       {0, 0, 0},
       0,
       {Arg::buffer(random_bytes(4096)), Arg::zeros(4), Arg::s32(1000)}},
      {"cluster_dsmem",
       "sm_90",
       "cluster_histogram",
       {4},
       {64},
       {2, 1, 1},
       64,
       {Arg::zeros(128), Arg::buffer(random_bytes(1024)), Arg::u32(256), Arg::u32(32)}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Kernel k = load_corpus(c.name, c.arch, c.entry);
    Launch l;
    l.grid = c.grid;
    l.block = c.block;
    l.cluster = c.cluster;
    l.shared_bytes = c.shared_bytes;
    l.args = c.args;
    const RaceReport report = racecheck(k, l, false);
    EXPECT_EQ(report.hazards, 0u) << (report.sites.empty() ? "" : describe(k, report.sites[0]));
  }
}

TEST(Racecheck, TheCommandLineReportsInSanitizersWordsAndExitsWith4) {
  const std::string ptx = std::string(PTXFU_KERNELS_DIR) + "/racecheck.ptx";
  const unsigned line = *markers().race.at("both_write").begin();
  const Cli racy = ptxfu("sim " + ptx + " --entry both_write --block 64 --racecheck");
  EXPECT_EQ(racy.status, 4) << racy.out;
  EXPECT_TRUE(Contains(racy.out, "Error: Race reported between Write access at " + ptx + ":" + std::to_string(line) +
                                     ":2 ('st.shared.u32') by warp 0 lane 0 and Write access"));
  EXPECT_TRUE(Contains(racy.out, "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"));
  const Cli json = ptxfu("sim " + ptx + " --entry both_write --block 64 --racecheck --json");
  EXPECT_EQ(json.status, 4);
  EXPECT_TRUE(Contains(json.out, "\"kind\": \"write_after_write\""));
  const Cli off = ptxfu("sim " + ptx + " --entry both_write --block 64");  // off by default
  EXPECT_EQ(off.status, 0) << off.out;
  EXPECT_EQ(off.out.find("RACECHECK"), std::string::npos);
  const Cli clean = ptxfu("sim " + ptx + " --entry synced --block 64 --arg buf:zeros:256 --racecheck");
  EXPECT_EQ(clean.status, 0) << clean.out;
  EXPECT_TRUE(Contains(clean.out, "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"));
}

}  // namespace
}  // namespace ptxfu::kernel::testing
