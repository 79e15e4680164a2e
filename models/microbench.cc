#include "models/microbench.h"

#include <algorithm>

#include <fmt/format.h>

#include "isa/decode.h"
#include "isa/forms.h"
#include "kernel/tensor.h"
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
  std::vector<kernel::Kernel> programs;  // four per (config, bench): chain n, chain 2n, stream m, stream 2m
  std::vector<BenchResult> results;
  programs.reserve(configs.size() * micro_benches().size() * 4);
  std::vector<SimJob> jobs;
  for (const ArchConfig& c : configs) {
    for (const MicroBench& b : micro_benches()) {
      const std::string base = fmt::format("{}:{}", c.name, b.name);
      programs.push_back(kernel::load_straight_line(chain_program(b, kChain), base + ":chain", c.caps));
      programs.push_back(kernel::load_straight_line(chain_program(b, 2 * kChain), base + ":chain2", c.caps));
      programs.push_back(kernel::load_straight_line(stream_program(b, kRounds), base + ":stream", c.caps));
      programs.push_back(kernel::load_straight_line(stream_program(b, 2 * kRounds), base + ":stream2", c.caps));
      for (size_t k = 0; k < 4; ++k) {
        SimJob j;
        j.config = &c;
        j.kernel = &programs[programs.size() - 4 + k];
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

namespace ptxfu::models {
namespace {

// Decodes a form spelled without operands: the source count is the one at
// which the table knows it.
bool decode_form(const std::string& form, const isa::Capabilities* caps, isa::Instr& out, std::string& error) {
  std::string first_error;
  for (unsigned n = 0; n <= 8; ++n) {
    isa::Diagnostic d;
    const bool ok = caps ? isa::check_form(form, n, *caps, 1, out, d) : isa::decode(form, n, 1, out, d);
    if (ok) return true;
    // Prefer a reason that is not about the operand count.
    if (first_error.empty() ||
        (first_error.find("mismatch") != std::string::npos && d.message.find("mismatch") == std::string::npos))
      first_error = d.message;
  }
  error = fmt::format("'{}': {}", form, first_error);
  return false;
}

// A value every register of a width starts with (1.0 in the float formats).
uint64_t initial_value(unsigned bits) {
  switch (bits) {
    case 1: return 1;
    case 8: return 0x3c;
    case 16: return 0x3c00;
    case 32: return 0x3f800000;
    default: return 0x3ff0000000000000;
  }
}

bool dest_is_pred(const isa::Instr& in) {
  return in.row->dest == isa::Operand::pred || in.row->dest == isa::Operand::pred_pair;
}

isa::Operand src_kind(const isa::Instr& in, unsigned value) { return in.row->src[isa::src_position(in, value)]; }

// The source value of `in` that can read a first destination of `bits` bits
// (a predicate when `pred`); -1 when none.
int chain_source(const isa::Instr& in, unsigned bits, bool pred) {
  for (unsigned k = 0; k < in.num_src; ++k) {
    const isa::Operand o = src_kind(in, k);
    if (o == isa::Operand::imm) continue;
    if ((o == isa::Operand::pred) != pred) continue;
    if (pred || isa::src_bits(in, k) == bits) return static_cast<int>(k);
  }
  return -1;
}

// Builds a straight-line program's text: every register declared and set
// to the value of initial_value() before the measured instructions.
struct Builder {
  std::string decls, init, body;
  unsigned count = 0;

  std::string reg(unsigned bits) {
    std::string name = fmt::format("%r{}", count++);
    if (bits == 1) {
      decls += fmt::format(".reg .pred {};\n", name);
      init += fmt::format("setp.ne.u32 {}, 1, 0;\n", name);
    } else {
      const unsigned width = bits < 16 ? 16 : bits;  // sub-word values live in 16-bit registers
      decls += fmt::format(".reg .b{} {};\n", width, name);
      init += fmt::format("mov.b{} {}, {:#x};\n", width, name, initial_value(bits));
    }
    return name;
  }

  // Fresh registers for every source of `in`.
  std::vector<std::string> sources(const isa::Instr& in) {
    std::vector<std::string> v;
    for (unsigned k = 0; k < in.num_src; ++k) {
      const isa::Operand o = src_kind(in, k);
      if (o == isa::Operand::imm)
        v.push_back("0x96");  // lop3's LUT: a ^ b ^ c
      else
        v.push_back(reg(o == isa::Operand::pred ? 1 : isa::src_bits(in, k)));
    }
    return v;
  }

  // One instruction; `dest` is its first destination (a second predicate
  // destination, where the form has one, a register of its own).
  void instr(const isa::Instr& in, const std::string& dest, const std::vector<std::string>& src) {
    const std::string second = in.row->dest == isa::Operand::pred_pair ? "|" + reg(1) : "";
    body += fmt::format("{} {}{}", isa::spell(in), dest, second);
    for (const std::string& s : src) body += ", " + s;
    body += ";\n";
  }

  std::string text() const { return decls + init + body; }
  // The index of the body's last instruction among the program's.
  size_t last_pc() const {
    return static_cast<size_t>(std::count(init.begin(), init.end(), '\n') +
                               std::count(body.begin(), body.end(), '\n')) -
           1;
  }
};

unsigned first_dest_bits(const isa::Instr& in) { return dest_is_pred(in) ? 1 : isa::dest_bits(in); }

kernel::Kernel load(const ArchConfig& c, const std::string& text, const std::string& name) {
  return kernel::load_straight_line(text, name, c.caps);
}

// Latency: the producer, then one dependent consumer (or mov glue).
// `consumer_pc` is the consumer's index, the producer's is consumer_pc - 1.
kernel::Kernel latency_program(const ArchConfig& c, const isa::Instr& producer, const isa::Instr& consumer,
                               const std::string& name, std::string& chained_through, size_t& consumer_pc) {
  Builder b;
  const unsigned bits = first_dest_bits(producer);
  const bool pred = dest_is_pred(producer);
  const std::string d = b.reg(bits);
  const auto psrc = b.sources(producer);
  const int k = chain_source(consumer, bits, pred);
  std::vector<std::string> csrc;
  std::string cdest;
  if (k >= 0) {
    csrc = b.sources(consumer);
    csrc[static_cast<size_t>(k)] = d;
    cdest = b.reg(first_dest_bits(consumer));
  } else {
    cdest = b.reg(bits);
  }
  b.instr(producer, d, psrc);
  if (k >= 0) {
    b.instr(consumer, cdest, csrc);
    chained_through = isa::spell(consumer);
  } else {  // nothing of the consumer reads it: an ALU mov does
    chained_through = pred ? "mov.pred" : fmt::format("mov.b{}", bits < 16 ? 16 : bits);
    b.body += fmt::format("{} {}, {};\n", chained_through, cdest, d);
  }
  consumer_pc = b.last_pc();
  return load(c, b.text(), name);
}

// Throughput: `rounds` of eight independent instances, each writing its own
// accumulator from shared sources.
kernel::Kernel stream_program(const ArchConfig& c, const isa::Instr& in, unsigned rounds, const std::string& name) {
  Builder b;
  const auto src = b.sources(in);
  std::vector<std::string> acc;
  for (unsigned a = 0; a < kAccumulators; ++a) acc.push_back(b.reg(first_dest_bits(in)));
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned a = 0; a < kAccumulators; ++a) b.instr(in, acc[a], src);
  return load(c, b.text(), name);
}

// mma.sync forms are kernel statements, not forms of the instruction table:
// their fragments are register vectors whose sizes the lowerer gives.
// The fragments of an mma form on `target` ("sm_90"); throws
// std::invalid_argument saying why it is no mma on that target.
kernel::tensor::FragmentRegs mma_fragments(const std::string& form, const std::string& target) {
  std::vector<std::string_view> words;
  for (size_t at = 0; at <= form.size();) {
    const size_t dot = std::min(form.find('.', at), form.size());
    words.emplace_back(form.data() + at, dot - at);
    at = dot + 1;
  }
  return kernel::tensor::fragment_regs(kernel::tensor::lower_mma(words, form, target));
}

std::string fragment(Builder& b, int regs, int bits) {
  std::string s = "{";
  for (int i = 0; i < regs; ++i) s += (i ? ", " : "") + b.reg(static_cast<unsigned>(bits));
  return s + "}";
}

// Latency: D of one mma is C of the next (the accumulator chain of a GEMM's
// k loop); throughput: eight independent mma per round writing their own D.
struct ChainPrograms {
  std::string latency, stream, stream2;
  size_t consumer_pc = 0;  // the chain's second instruction
};

ChainPrograms mma_programs(const std::string& form, const kernel::tensor::FragmentRegs& r) {
  if (r.c != r.d || r.c_bits != r.d_bits)
    throw std::invalid_argument(fmt::format("'{}': C and D differ in type, no D -> C chain to time", form));
  ChainPrograms p;
  {
    Builder b;
    const std::string a = fragment(b, r.a, r.a_bits), bm = fragment(b, r.b, r.b_bits), c = fragment(b, r.c, r.c_bits);
    const std::string d0 = fragment(b, r.d, r.d_bits), d1 = fragment(b, r.d, r.d_bits);
    b.body += fmt::format("{} {}, {}, {}, {};\n", form, d0, a, bm, c);
    b.body += fmt::format("{} {}, {}, {}, {};\n", form, d1, a, bm, d0);
    p.consumer_pc = b.last_pc();
    p.latency = b.text();
  }
  for (unsigned rounds : {kRounds, 2 * kRounds}) {
    Builder b;
    const std::string a = fragment(b, r.a, r.a_bits), bm = fragment(b, r.b, r.b_bits), c = fragment(b, r.c, r.c_bits);
    std::vector<std::string> acc;
    for (unsigned k = 0; k < kAccumulators; ++k) acc.push_back(fragment(b, r.d, r.d_bits));
    for (unsigned n = 0; n < rounds; ++n)
      for (const std::string& d : acc) b.body += fmt::format("{} {}, {}, {}, {};\n", form, d, a, bm, c);
    (rounds == kRounds ? p.stream : p.stream2) = b.text();
  }
  return p;
}

// The jobs of a bench's last three programs: the latency chain on one warp
// (its issues recorded), then the two streams on every warp slot.
void queue_bench_jobs(const ArchConfig& c, const std::vector<kernel::Kernel>& programs, std::vector<SimJob>& jobs) {
  for (size_t k = 0; k < 3; ++k) {
    SimJob j;
    j.config = &c;
    j.kernel = &programs[programs.size() - 3 + k];
    j.warps = k == 0 ? 1 : c.max_warps;
    j.record_issues = k == 0;
    jobs.push_back(j);
  }
}

// Queues the three programs of an mma form's bench (latency, stream m,
// stream 2m); false, with r.error saying why, when it is no mma of c's target.
// Loads a form's three programs and queues their jobs (a loader error
// throws, nothing queued); the result names the unit and the reference.
void queue_chain(const ArchConfig& c, FormBenchResult& r, const ChainPrograms& p, Unit unit,
                 std::vector<kernel::Kernel>& programs, std::vector<SimJob>& jobs, size_t& consumer_pc) {
  const std::string base = fmt::format("{}:{}", c.name, r.form);
  kernel::Kernel lat = load(c, p.latency, base + ":latency");
  kernel::Kernel s1 = load(c, p.stream, base + ":stream");
  kernel::Kernel s2 = load(c, p.stream2, base + ":stream2");
  programs.push_back(std::move(lat));
  programs.push_back(std::move(s1));
  programs.push_back(std::move(s2));
  consumer_pc = p.consumer_pc;
  queue_bench_jobs(c, programs, jobs);
  r.unit = unit;
  r.chained_through = r.form;
  r.reference = c.reference(r.form);
}

bool add_mma_bench(const ArchConfig& c, FormBenchResult& r, std::vector<kernel::Kernel>& programs,
                   std::vector<SimJob>& jobs, size_t& consumer_pc) {
  if (!r.consumer.empty()) {
    r.error = "--consumer is not measured for mma forms (the dependent is the next mma's C)";
    return false;
  }
  try {
    const ChainPrograms p = mma_programs(r.form, mma_fragments(r.form, fmt::format("sm_{}", c.caps.sm)));
    queue_chain(c, r, p, Unit::tensor, programs, jobs, consumer_pc);
  } catch (const std::exception& e) {  // std::invalid_argument or kernel::KernelError
    const std::string why = e.what();  // the loader reports both mma of the chain: the first says it
    r.error = why.substr(0, why.find('\n'));
    return false;
  }
  return true;
}

// Load forms ("ld.shared.u32"): the published microbenchmarks' pointer
// chase. A shared word holds its own address, so each load's result is the
// next one's address; the latency is the issue-to-issue distance of two
// dependent loads (a p-chase's per-load figure), the stream eight independent
// loads a round. Shared only: a straight-line program declares no .global
// buffer, and the model's global latency is a hit-rate mixture (memory:).
constexpr std::string_view kSharedChase = "ld.shared.u32";

std::string chase_header() {
  return ".shared .align 4 .b32 chase_word;\n.reg .b32 %c<10>;\nmov.u32 %c0, chase_word;\n"
         "st.shared.u32 [%c0], %c0;\n";
}

ChainPrograms load_programs() {
  ChainPrograms p;
  p.latency = chase_header() + "ld.shared.u32 %c1, [%c0];\nld.shared.u32 %c2, [%c1];\n";
  p.consumer_pc = 3;  // mov, st, ld, ld
  for (unsigned rounds : {kRounds, 2 * kRounds}) {
    std::string s = chase_header();
    for (unsigned n = 0; n < rounds; ++n)
      for (unsigned a = 0; a < kAccumulators; ++a) s += fmt::format("ld.shared.u32 %c{}, [%c0];\n", a + 1);
    (rounds == kRounds ? p.stream : p.stream2) = s;
  }
  return p;
}

// Queues a load form's three programs; false, with r.error saying why, when
// it is not measured.
bool add_load_bench(const ArchConfig& c, FormBenchResult& r, std::vector<kernel::Kernel>& programs,
                    std::vector<SimJob>& jobs, size_t& consumer_pc) {
  if (!r.consumer.empty()) {
    r.error = "--consumer is not measured for load forms (the dependent is the next load's address)";
    return false;
  }
  queue_chain(c, r, load_programs(), Unit::lsu, programs, jobs, consumer_pc);
  return true;
}

}  // namespace

bool is_mma_form(const std::string& form) { return form.rfind("mma.", 0) == 0; }

bool is_load_form(const std::string& form) { return form == kSharedChase; }

std::string form_error(const std::string& form) {
  if (is_load_form(form)) return "";
  if (is_mma_form(form)) {  // an mma of some target
    std::string why;
    for (const char* target : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
      try {
        mma_fragments(form, target);
        return "";
      } catch (const std::invalid_argument& e) {
        why = e.what();
      }
    }
    return why;  // the engine's message names the form
  }
  isa::Instr in;
  std::string error;
  if (!decode_form(form, nullptr, in, error)) return error;
  if (in.num_src > 4) return fmt::format("'{}' has {} source values; the model takes at most 4", form, in.num_src);
  if (isa::is_vector(in.row->dest)) return fmt::format("'{}' writes a vector; the model bench cannot chain it", form);
  return "";
}

FormBenchSpec spec_of(const ArchConfig& config, const Reference& reference) {
  FormBenchSpec s{&config, reference.bench, ""};
  for (const MicroBench& b : micro_benches())
    if (b.name == reference.bench) s.form = std::string(b.mnemonic);
  const auto arrow = reference.bench.find(" -> ");
  if (arrow != std::string::npos) {
    s.form = reference.bench.substr(0, arrow);
    s.consumer = reference.bench.substr(arrow + 4);
  }
  return s;
}

std::vector<FormBenchResult> run_form_benches(const std::vector<FormBenchSpec>& specs) {
  std::vector<FormBenchResult> results;
  std::vector<kernel::Kernel> programs;  // three per measured spec: latency, stream m, stream 2m
  programs.reserve(specs.size() * 3);
  std::vector<SimJob> jobs;
  std::vector<size_t> consumer_pcs, measured;
  for (const FormBenchSpec& s : specs) {
    const ArchConfig& c = *s.config;
    FormBenchResult r;
    r.config = c.name;
    r.form = s.form;
    r.consumer = s.consumer;
    if (is_mma_form(s.form) || is_load_form(s.form)) {
      size_t consumer_pc = 0;
      const bool queued = is_mma_form(s.form) ? add_mma_bench(c, r, programs, jobs, consumer_pc)
                                              : add_load_bench(c, r, programs, jobs, consumer_pc);
      if (queued) {
        consumer_pcs.push_back(consumer_pc);
        measured.push_back(results.size());
      }
      results.push_back(std::move(r));
      continue;
    }
    isa::Instr producer, consumer;
    std::string error = form_error(s.form);
    if (error.empty() && !s.consumer.empty()) error = form_error(s.consumer);
    if (error.empty() && decode_form(s.form, &c.caps, producer, error) &&
        (s.consumer.empty() || decode_form(s.consumer, &c.caps, consumer, error))) {
      if (s.consumer.empty()) consumer = producer;
      r.form = isa::spell(producer);
      if (!s.consumer.empty()) r.consumer = isa::spell(consumer);
      r.unit = c.timing_for(producer).unit;
      const std::string base = fmt::format("{}:{}", c.name, r.form);
      size_t consumer_pc = 0;
      try {
        programs.push_back(latency_program(c, producer, consumer, base + ":latency", r.chained_through, consumer_pc));
        programs.push_back(stream_program(c, producer, kRounds, base + ":stream"));
        programs.push_back(stream_program(c, producer, 2 * kRounds, base + ":stream2"));
      } catch (const kernel::KernelError& e) {
        programs.resize(programs.size() / 3 * 3);
        r.error = e.what();
        results.push_back(std::move(r));
        continue;
      }
      queue_bench_jobs(c, programs, jobs);
      consumer_pcs.push_back(consumer_pc);
      measured.push_back(results.size());
      // The reference: a built-in bench's name, the form, or "FORM -> CONSUMER".
      if (r.consumer.empty()) {
        for (const MicroBench& b : micro_benches())
          if (b.mnemonic == r.form && (r.reference = c.reference(b.name))) break;
        if (!r.reference) r.reference = c.reference(r.form);
      } else {
        r.reference = c.reference(r.form + " -> " + r.consumer);
      }
    } else {
      r.error = error.empty() ? "not measured" : error;
    }
    results.push_back(std::move(r));
  }
  const std::vector<SimResult> sims = simulate(jobs);
  for (size_t m = 0; m < measured.size(); ++m) {
    FormBenchResult& r = results[measured[m]];
    const SimResult* s = &sims[3 * m];
    uint64_t producer_issue = 0, consumer_issue = 0;
    for (const IssueRecord& rec : s[0].issues) {
      if (rec.pc == consumer_pcs[m] - 1) producer_issue = rec.issue_cycle;
      if (rec.pc == consumer_pcs[m]) consumer_issue = rec.issue_cycle;
    }
    r.latency = static_cast<double>(consumer_issue - producer_issue);
    // mma: warp-instructions (mma) per clock per SM; else thread-instructions.
    const double per = r.unit == Unit::tensor ? 1 : 32;
    const double instr = static_cast<double>(s[2].warp_instructions - s[1].warp_instructions) * per;
    r.throughput = instr / static_cast<double>(s[2].cycles - s[1].cycles);
  }
  return results;
}

}  // namespace ptxfu::models
