#include "cosim/cosim.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "cosim/block_cosim.h"
#include "cosim/checker.h"
#include "cosim/golden.h"
#include "cosim/rtl_form.h"
#include "cosim/rtl_units.h"
#include "cosim/vectors.h"
#include "util/splitmix64.h"

namespace ptxfu::cosim {

bool parse_shard(const std::string& text, CosimOptions& o) {
  unsigned k = 0, n = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%u/%u%c", &k, &n, &tail) != 2 || n == 0 || k >= n) return false;
  o.shard_index = k;
  o.shard_count = n;
  return true;
}

std::string available_stages(const std::string& unit) {
  const UnitKind kind = unit == "hmnmx2" ? UnitKind::hmnmx2 : UnitKind::hfma2;
  std::string s;
  for (int st : rtl_stages(kind)) s += (s.empty() ? "" : " ") + std::to_string(st);
  return s;
}

namespace {

void summary(std::ostream& out, uint64_t vectors, uint64_t mismatches, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(vectors) / seconds : 0.0;
  out << "vectors=" << vectors << " mismatches=" << mismatches
      << " vectors_per_s=" << static_cast<uint64_t>(std::llround(rate)) << "\n";
}

int bad(std::ostream& out, const std::string& why) {
  out << "error: " << why << "\n";
  return 2;
}

// Runs go in blocks: each gets a fresh checker (its random filler and, in a
// random run, its vectors seeded by the block), so the report is the same
// for any number of threads, and each thread drives a unit (a
// VerilatedContext) of its own.
constexpr uint64_t kBlockVectors = uint64_t{1} << 18;
constexpr size_t kGoldenChunk = 4096;  // vectors per call of the batched golden model

struct BlockOutcome {
  uint64_t vectors = 0;
  uint64_t failed = 0;
  uint64_t records = 0;
  std::vector<Mismatch> first;
};

// Checks `n` vectors, next() giving each in turn, with the golden results
// computed a chunk at a time.
template <class Next>
BlockOutcome check_stream(Checker& checker, const GoldenMany& golden_many, const Form& form, uint64_t n, Next next) {
  std::vector<Vector> vectors(kGoldenChunk);
  std::vector<uint64_t> src[3], expected(kGoldenChunk);
  for (auto& s : src) s.resize(kGoldenChunk);
  const uint64_t* src_ptr[3] = {src[0].data(), src[1].data(), src[2].data()};
  const uint32_t mask = lane_mask(form);
  for (uint64_t done = 0; done < n;) {
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(kGoldenChunk, n - done));
    for (size_t i = 0; i < chunk; ++i) {
      vectors[i] = next();
      for (unsigned k = 0; k < 3; ++k) src[k][i] = vectors[i].src[k] & mask;
    }
    golden_many(form.instr, chunk, src_ptr, expected.data());
    for (size_t i = 0; i < chunk; ++i) checker.step(vectors[i], static_cast<uint32_t>(expected[i]));
    done += chunk;
  }
  checker.finish();
  const Scoreboard& board = checker.scoreboard();
  return {checker.vectors(), checker.mismatches(), board.records(), board.first_mismatches()};
}

unsigned job_count(const CosimOptions& o) {
  if (o.jobs != 0) return o.jobs;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string hex32(uint64_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
  return buf;
}

// What a run found: counts, the failing vectors' report, and a note for the
// line before the summary.
struct RunOutcome {
  uint64_t vectors = 0;
  uint64_t failed = 0;
  std::string errors;
  std::string note;
};

// Runs blocks 0 to blocks-1 (run_one(unit, b) checks block b) over the
// threads, and merges them in block order: the first mismatches reported are
// those of the first blocks. Returns the number of threads in `jobs`.
template <class RunOne>
RunOutcome run_blocks(Unit& unit, const Form& form, const CosimOptions& o, bool one_unit, uint64_t blocks,
                      RunOne run_one, unsigned& jobs) {
  jobs = one_unit ? 1u : static_cast<unsigned>(std::min<uint64_t>(job_count(o), std::max<uint64_t>(blocks, 1)));
  std::vector<BlockOutcome> outcome(blocks);
  std::atomic<uint64_t> next{0};
  const auto work = [&](Unit& u) {
    for (uint64_t b; (b = next.fetch_add(1)) < blocks;) outcome[b] = run_one(u, b);
  };
  std::vector<std::thread> helpers;
  for (unsigned j = 1; j < jobs; ++j)
    helpers.emplace_back([&] {  // each thread builds its own unit: one VerilatedContext per thread
      std::string ignored;
      std::unique_ptr<Unit> own = make_rtl_unit(form.unit, o.stages, o.broken, ignored);
      own->reset();
      work(*own);
    });
  work(unit);
  for (auto& t : helpers) t.join();

  RunOutcome r;
  std::vector<Mismatch> first;
  uint64_t records = 0;
  for (const BlockOutcome& b : outcome) {
    r.vectors += b.vectors;
    r.failed += b.failed;
    records += b.records;
    for (const Mismatch& m : b.first)
      if (first.size() < Scoreboard::kKeep) first.push_back(m);
  }
  r.errors = Scoreboard::errors(first, records, o.max_reported);
  return r;
}

std::string blocks_on_threads(uint64_t blocks, unsigned jobs) {
  return std::to_string(blocks) + (blocks == 1 ? " block on " : " blocks on ") + std::to_string(jobs) +
         (jobs == 1 ? " thread\n" : " threads\n");
}

// Every input of the form (this shard's part).
RunOutcome run_exhaustive(Unit& unit, const Golden& golden, const GoldenMany& golden_many, const Form& form,
                          const CosimOptions& o, bool one_unit) {
  const uint64_t size = VectorSource::exhaustive_size(form);
  const uint64_t begin = static_cast<uint64_t>((static_cast<unsigned __int128>(size) * o.shard_index) / o.shard_count);
  const uint64_t end =
      static_cast<uint64_t>((static_cast<unsigned __int128>(size) * (o.shard_index + 1)) / o.shard_count);
  const uint64_t blocks = (end - begin + kBlockVectors - 1) / kBlockVectors;
  unsigned jobs = 1;
  RunOutcome r = run_blocks(
      unit, form, o, one_unit, blocks,
      [&](Unit& u, uint64_t b) {
        const uint64_t first = begin + b * kBlockVectors, last = std::min(end, first + kBlockVectors);
        Checker checker(u, golden, form, o.seed + first / kBlockVectors, o.stall_rate);
        uint64_t index = first;
        return check_stream(checker, golden_many, form, last - first,
                            [&] { return VectorSource::exhaustive(form, index++); });
      },
      jobs);
  const uint64_t combos = (end - begin) * form.lanes, first_combo = begin * form.lanes;
  const std::string range = combos == 0 ? "none" : hex32(first_combo) + " to " + hex32(first_combo + combos - 1);
  r.note = "# exhaustive: input combinations " + range + " (" + std::to_string(combos) + " of " +
           std::to_string(size * form.lanes) + ", " + std::to_string(form.lanes) + " per vector), " +
           blocks_on_threads(blocks, jobs);
  return r;
}

// The seed of a random run's block b: the run's own seed for the first (so a
// run of one block is what it always was), a SplitMix64 mix of it and b for
// the others (no two shards' blocks share one).
uint64_t block_seed(uint64_t run_seed, uint64_t b) {
  if (b == 0) return run_seed;
  uint64_t state = run_seed;
  state = util::splitmix64(state) + b;
  return util::splitmix64(state);
}

// This shard's part of the structured set first, then random vectors, in
// blocks: block b's random vectors come from block_seed(seed + K, b).
RunOutcome run_random(Unit& unit, const Golden& golden, const GoldenMany& golden_many, const Form& form,
                      const CosimOptions& o, bool one_unit) {
  const uint64_t run_seed = o.seed + o.shard_index;
  const VectorSource structured_source(form, run_seed);
  const std::vector<Vector>& fixed = structured_source.structured();
  const uint64_t structured =
      fixed.size() > o.shard_index ? (fixed.size() - o.shard_index + o.shard_count - 1) / o.shard_count : 0;
  const uint64_t blocks = (o.vectors + kBlockVectors - 1) / kBlockVectors;
  unsigned jobs = 1;
  RunOutcome r = run_blocks(
      unit, form, o, one_unit, blocks,
      [&](Unit& u, uint64_t b) {
        const uint64_t first = b * kBlockVectors, last = std::min(o.vectors, first + kBlockVectors);
        Checker checker(u, golden, form, block_seed(run_seed, b), o.stall_rate);
        VectorSource source(form, block_seed(run_seed, b));
        uint64_t index = first;
        return check_stream(checker, golden_many, form, last - first, [&] {
          const uint64_t i = index++;
          return i < structured ? fixed[o.shard_index + i * o.shard_count] : source.random();
        });
      },
      jobs);
  r.note = "# random: " + std::to_string(std::min(structured, o.vectors)) +
           " structured vectors, then seeded random; " + blocks_on_threads(blocks, jobs);
  return r;
}

}  // namespace

int run_cosim(const CosimOptions& o, std::ostream& out) {
  Form form;
  std::string err;
  if (o.op.empty()) return bad(out, "--op is required, e.g. --op fma.rn.f16x2");
  if (o.op == "mma.block") return run_block_cosim(o, out);
  if (!make_form(o.op, form, err)) return bad(out, err);
  if (!o.unit.empty() && o.unit != name(form.unit))
    return bad(out, "'" + o.op + "' runs on unit " + name(form.unit) + ", not " + o.unit);
  if (o.shard_count == 0 || o.shard_index >= o.shard_count) return bad(out, "--shard K/N needs 0 <= K < N");
  if (o.exhaustive && !VectorSource::exhaustive_possible(form))
    return bad(out,
               "--exhaustive needs a one- or two-operand form ('" + o.op + "' has 2^48 input combinations per lane)");
  const bool one_unit = !o.trace_file.empty() || !o.coverage_file.empty();
  if (one_unit && o.jobs > 1) return bad(out, "--trace and --coverage record one unit: they take --jobs 1");
  Golden golden;
  GoldenMany golden_many;
  if (o.golden == "ref") {
    golden = reference_golden();
    golden_many = one_at_a_time(golden);
  } else if (o.golden == "core") {
    golden = core_golden();
    golden_many = core_golden_many();
  } else {
    return bad(out, "--golden must be core or ref");
  }
  if (!golden) return bad(out, "this build has no floating-point core executor; use --golden ref");

  std::unique_ptr<Unit> unit = make_rtl_unit(form.unit, o.stages, o.broken, err);
  if (!unit) return bad(out, err);
  if (!o.trace_file.empty() && !unit->open_trace(o.trace_file))
    return bad(out, "cannot write the waveform '" + o.trace_file + "' (tracing not compiled in?)");
  unit->reset();

  const auto start = std::chrono::steady_clock::now();
  const RunOutcome r = o.exhaustive ? run_exhaustive(*unit, golden, golden_many, form, o, one_unit)
                                    : run_random(*unit, golden, golden_many, form, o, one_unit);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  unit->close_trace();

  const bool pass = r.failed == 0;
  if (!pass) {
    out << "# " << o.op << " on " << unit->name() << " (golden: " << o.golden
        << "): first failing vectors, replayable with `ptxfu eval`\n";
    out << r.errors;
  }
  if (pass && !o.coverage_file.empty() && !unit->write_coverage(o.coverage_file))
    out << "# no coverage written: this build has no coverage instrumentation\n";
  out << r.note;
  summary(out, r.vectors, r.failed, seconds);
  return pass ? 0 : 1;
}

}  // namespace ptxfu::cosim
