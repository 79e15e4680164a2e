#include "cosim/block_cosim.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include "cosim/block_vectors.h"
#include "mma/block_fma.h"

namespace ptxfu::cosim {

std::string available_block_stages() {
  std::vector<unsigned> seen;
  for (const BlockModel& m : block_models())
    if (!m.broken && std::find(seen.begin(), seen.end(), m.stages) == seen.end()) seen.push_back(m.stages);
  std::string s;
  for (unsigned st : seen) s += (s.empty() ? "" : ", ") + std::to_string(st);
  return s.empty() ? "none" : s + " (not every set has every one)";
}

namespace {

bool parse_sm(const std::string& arch, int* sm) {
  unsigned n = 0;
  char tail = 0, extra = 0;
  const int got = std::sscanf(arch.c_str(), "sm_%u%c%c", &n, &tail, &extra);
  if (got < 1 || (got == 2 && tail != 'a' && tail != 'f') || got == 3) return false;
  *sm = static_cast<int>(n);
  return true;
}

bool parse_family(const std::string& f, mma::Family* out) {
  if (f == "mma") return *out = mma::Family::mma_sync, true;
  if (f == "wmma") return *out = mma::Family::wmma, true;
  if (f == "wgmma") return *out = mma::Family::wgmma, true;
  return false;
}

}  // namespace

const BlockModel* resolve_block(const std::string& arch, const std::string& family, const std::string& in,
                                const std::string& out, int stages, bool broken, const mma::NumericsRow** row,
                                std::string& error) {
  int sm = 0;
  mma::Family fam{};
  mma::Elem ein{}, eout{};
  if (!parse_sm(arch, &sm)) return error = "--arch wants sm_NN, not '" + arch + "'", nullptr;
  if (!parse_family(family, &fam)) return error = "--family wants mma, wmma or wgmma, not '" + family + "'", nullptr;
  if (!mma::parse_elem(in, &ein)) return error = "--in: no element type '" + in + "'", nullptr;
  if (!mma::parse_elem(out, &eout)) return error = "--out: no element type '" + out + "'", nullptr;
  const mma::NumericsRow* r = mma::find_row(sm, fam, ein, eout);
  if (r == nullptr) return error = arch + " has no " + family + " " + in + " -> " + out + " tensor-core row", nullptr;
  if (r->method != mma::Method::block_fma)
    return error = arch + " " + in + " -> " + out + " is not a block FMA (exact products and sum)", nullptr;
  if (r->datapath_in != r->in || r->c_align != mma::CAlign::with_block)
    return error = arch + " " + family + " " + in + " -> " + out + " is not one block: its operands are widened to " +
                   std::string(mma::elem_name(r->datapath_in)) +
                   " and c is added apart; co-simulate that datapath (--in " +
                   std::string(mma::elem_name(r->datapath_in)) + ")",
           nullptr;
  const BlockModel* m = find_block_model(*r, stages, broken);
  if (m == nullptr) {
    const BlockParams want{r->in,         r->out,           r->block_width, r->kept_bits,
                           r->carry_bits, r->sum_frac_bits, r->out_rounding};
    return error = "this build has no " + std::string(broken ? "broken " : "") + "block FMA model for " +
                   describe(want) + (stages >= 0 ? " NUM_STAGES=" + std::to_string(stages) : "") + " (" + arch +
                   "); built:\n" + available_blocks(),
           nullptr;
  }
  *row = r;
  return m;
}

namespace {

constexpr uint64_t kBlockVectors = uint64_t{1} << 16;  // a thread's unit of work, with seeds of its own
constexpr uint64_t kChunk = 4096;                      // vectors generated and checked at once

struct Failure {
  uint64_t index;
  BlockVector v;
  uint64_t expected, got;
};

struct Outcome {
  uint64_t vectors = 0, failed = 0;
  std::vector<Failure> first;
};

// Streams `vectors` through the unit, a beat a cycle, and compares each
// result (in order, tags checked) with the engine's.
Outcome check(BlockUnit& unit, const mma::NumericsRow& row, const std::vector<BlockVector>& vectors,
              uint64_t first_index, unsigned keep, double stall_rate = 0.0, uint64_t stall_seed = 0) {
  const auto n = static_cast<std::size_t>(row.block_width);
  std::vector<uint64_t> expected(vectors.size());
  for (std::size_t i = 0; i < vectors.size(); ++i)
    expected[i] = mma::block_fma(row, n, vectors[i].a, vectors[i].b, vectors[i].c);
  const uint32_t tag_mask = unit.tag_bits() >= 32 ? ~0u : (1u << unit.tag_bits()) - 1;
  Outcome o;
  std::size_t sent = 0, received = 0;
  // Input bubbles and output backpressure, each cycle with probability stall_rate.
  const auto threshold = static_cast<uint64_t>(stall_rate * 18446744073709551615.0);
  const auto stall = [&] { return stall_rate > 0 && util::splitmix64(stall_seed) < threshold; };
  for (uint64_t idle = 0; received < vectors.size() && idle < 1000 + 4 * uint64_t{unit.latency()};) {
    BlockBeat beat;
    const BlockBeat* offer = nullptr;
    const bool bubble = stall(), out_ready = !stall();
    if (sent < vectors.size() && !bubble) {
      beat = {vectors[sent].a, vectors[sent].b, vectors[sent].c, static_cast<uint32_t>(sent) & tag_mask};
      offer = &beat;
    }
    uint64_t result = 0;
    uint32_t tag = 0;
    bool valid = false;
    if (unit.cycle(offer, out_ready, result, tag, valid)) ++sent;
    if (valid)
      idle = 0;
    else if (out_ready)
      ++idle;  // a lost beat ends the run (counted below), not a hang
    if (!valid) continue;
    const std::size_t i = received++;
    const bool tag_ok = tag == (static_cast<uint32_t>(i) & tag_mask);
    if (result != expected[i] || !tag_ok) {
      ++o.failed;
      if (o.first.size() < keep)
        o.first.push_back({first_index + i, vectors[i], expected[i], tag_ok ? result : ~result});
    }
  }
  o.failed += vectors.size() - received;  // lost beats
  o.vectors = vectors.size();
  return o;
}

uint64_t block_seed(uint64_t seed, uint64_t b) {
  uint64_t state = seed;
  state = util::splitmix64(state) + b;
  return b == 0 ? seed : util::splitmix64(state);
}

std::string hex(uint64_t v, int bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", (bits + 3) / 4, static_cast<unsigned long long>(v));
  return buf;
}

std::string replay_line(const CosimOptions& o, const BlockParams& p, const BlockVector& v) {
  const int ib = mma::format_of(p.in)->width(), ob = mma::format_of(p.out)->width();
  std::string s = "mma.block " + o.arch + " " + o.family + " " + o.in + " " + o.out + " a=";
  for (int k = 0; k < p.width; ++k) s += (k ? "," : "") + hex(v.a[k], ib);
  s += " b=";
  for (int k = 0; k < p.width; ++k) s += (k ? "," : "") + hex(v.b[k], ib);
  return s + " c=" + hex(v.c, ob);
}

int bad(std::ostream& out, const std::string& why) {
  out << "error: " << why << "\n";
  return 2;
}

}  // namespace

namespace {

// The structured set first, then random vectors, in blocks of kBlockVectors
// (block b's random vectors seeded by block_seed(seed, b)) over the threads,
// each with a unit of its own; merged in block order, so the report does
// not depend on the thread count.
int run_vectors(const CosimOptions& o, const mma::NumericsRow& row, const BlockModel& m, std::ostream& out) {
  const std::vector<BlockVector> fixed = BlockVectors(m.params, o.seed).structured();
  const uint64_t blocks = (o.vectors + kBlockVectors - 1) / kBlockVectors;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const auto jobs = static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(o.jobs ? o.jobs : hw, blocks)));
  std::vector<Outcome> outcome(blocks);
  std::atomic<uint64_t> next{0};
  const auto work = [&] {
    std::unique_ptr<BlockUnit> unit = m.make(m.params, m.stages, m.tag_bits);
    unit->reset();
    std::vector<BlockVector> vectors(kChunk);
    for (uint64_t b; (b = next.fetch_add(1)) < blocks;) {
      const uint64_t first = b * kBlockVectors, last = std::min(o.vectors, first + kBlockVectors);
      BlockVectors source(m.params, block_seed(o.seed, b));
      Outcome& sum = outcome[b];
      for (uint64_t at = first; at < last; at += kChunk) {  // a chunk at a time: the pipe drains between them
        vectors.resize(std::min<uint64_t>(kChunk, last - at));
        for (uint64_t i = at; i < at + vectors.size(); ++i) {
          BlockVector& v = vectors[i - at];
          if (i < fixed.size())
            v = fixed[i];
          else
            source.random(v);
        }
        const Outcome c = check(*unit, row, vectors, at, o.max_reported, o.stall_rate, block_seed(o.seed, b) ^ at);
        sum.vectors += c.vectors, sum.failed += c.failed;
        for (const Failure& f : c.first)
          if (sum.first.size() < o.max_reported) sum.first.push_back(f);
      }
    }
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  uint64_t vectors = 0, failed = 0;
  std::vector<Failure> first;
  for (const Outcome& b : outcome) {
    vectors += b.vectors, failed += b.failed;
    for (const Failure& f : b.first)
      if (first.size() < o.max_reported) first.push_back(f);
  }
  const int ob = mma::format_of(m.params.out)->width();
  if (failed) {
    out << "# mma.block " << o.arch << " " << describe(m.params) << " NUM_STAGES=" << m.stages
        << (m.broken ? " (broken: PTXFU_BREAK_ALIGNMENT)" : "")
        << ": first failing blocks, replayable with `ptxfu cosim --op mma.block --replay -`\n";
    for (const Failure& f : first)
      out << replay_line(o, m.params, f.v) << " # vector " << f.index << " expected " << hex(f.expected, ob) << " got "
          << hex(f.got, ob) << "\n";
  }
  out << "# mma.block " << o.arch << " " << o.family << " " << o.in << " -> " << o.out << " on " << describe(m.params)
      << " NUM_STAGES=" << m.stages << ": " << std::min<uint64_t>(fixed.size(), o.vectors)
      << " structured blocks, then seeded random; " << blocks << " blocks on " << jobs
      << (jobs == 1 ? " thread\n" : " threads\n");
  const double rate = seconds > 0 ? static_cast<double>(vectors) / seconds : 0.0;
  out << "vectors=" << vectors << " mismatches=" << failed
      << " vectors_per_s=" << static_cast<uint64_t>(std::llround(rate)) << "\n";
  return failed ? 1 : 0;
}

// Reads "a=0x..,0x.." style lists into `dst` (at most 64 elements).
bool parse_list(const std::string& word, const char* key, uint64_t* dst, int want) {
  const std::string prefix = std::string(key) + "=";
  if (word.compare(0, prefix.size(), prefix) != 0) return false;
  std::stringstream ss(word.substr(prefix.size()));
  int n = 0;
  for (std::string item; std::getline(ss, item, ',');) {
    if (n >= want || item.empty()) return false;
    char* end = nullptr;
    dst[n++] = std::strtoull(item.c_str(), &end, 16);
    if (*end != 0) return false;
  }
  return n == want;
}

// One replay line: its block through the RTL (alone in the pipe) and the
// engine. Returns 0 match, 1 mismatch, 2 malformed (message in `why`).
int replay_one(const std::string& line, const CosimOptions& o, std::ostream& out, std::string& why) {
  std::istringstream words(line.substr(0, line.find('#')));
  std::string op, arch, family, in, eout, a, b, c;
  if (!(words >> op >> arch >> family >> in >> eout >> a >> b >> c) || op != "mma.block")
    return why = "wants: mma.block ARCH FAMILY IN OUT a=... b=... c=...", 2;
  const mma::NumericsRow* row = nullptr;
  const BlockModel* m = resolve_block(arch, family, in, eout, o.stages, o.broken, &row, why);
  if (m == nullptr) return 2;
  BlockVector v{};
  if (!parse_list(a, "a", v.a, m->params.width) || !parse_list(b, "b", v.b, m->params.width) ||
      !parse_list(c, "c", &v.c, 1))
    return why = "a= and b= want " + std::to_string(m->params.width) + " hex elements, c= one", 2;
  std::unique_ptr<BlockUnit> unit = m->make(m->params, m->stages, m->tag_bits);
  unit->reset();
  const Outcome r = check(*unit, *row, {v}, 0, 1);
  const uint64_t engine = mma::block_fma(*row, static_cast<std::size_t>(m->params.width), v.a, v.b, v.c);
  const int ob = mma::format_of(m->params.out)->width();
  out << hex(r.failed && !r.first.empty() ? r.first[0].got : engine, ob) << " # engine " << hex(engine, ob)
      << (r.failed ? " MISMATCH" : " match") << "\n";
  return r.failed ? 1 : 0;
}

int run_replay(const CosimOptions& o, std::ostream& out) {
  std::ifstream file;
  if (o.replay_file != "-") {
    file.open(o.replay_file);
    if (!file) return bad(out, "cannot read '" + o.replay_file + "'");
  }
  std::istream& in = o.replay_file == "-" ? std::cin : file;
  int status = 0;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    if (line.compare(start, 8, "vectors=") == 0) continue;  // a cosim report's summary: piped in whole
    std::string why;
    const int r = replay_one(line.substr(start), o, out, why);
    if (r == 2) {
      out << "error: " << o.replay_file << ":" << line_no << ":" << start + 1 << ": " << why << "\n";
      status = std::max(status, 1);
    } else {
      status = std::max(status, r);
    }
  }
  return status;
}

}  // namespace

int run_block_cosim(const CosimOptions& o, std::ostream& out) {
  if (!o.replay_file.empty()) return run_replay(o, out);
  if (o.arch.empty() || o.in.empty() || o.out.empty())
    return bad(out, "--op mma.block needs --arch, --in and --out (e.g. --arch sm_80 --in f16 --out f32)");
  if (o.exhaustive || o.shard_count != 1 || !o.trace_file.empty() || !o.coverage_file.empty() || o.golden != "core")
    return bad(out, "--op mma.block takes no --exhaustive, --shard, --trace, --coverage or --golden ref");
  const mma::NumericsRow* row = nullptr;
  std::string err;
  const BlockModel* m = resolve_block(o.arch, o.family, o.in, o.out, o.stages, o.broken, &row, err);
  if (m == nullptr) return bad(out, err);
  return run_vectors(o, *row, *m, out);
}

int run_block_row(const CosimOptions& o, const mma::NumericsRow& row, const BlockModel& m, std::ostream& out) {
  if (!block_matches(m.params, row)) return bad(out, "the model " + describe(m.params) + " is not this row's block");
  return run_vectors(o, row, m, out);
}

}  // namespace ptxfu::cosim
