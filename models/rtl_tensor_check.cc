#include "models/rtl_tensor_check.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/config.h"

namespace ptxfu::models {
namespace {

// What a row's tensor core does instead of blocks, for the message.
const char* not_blocks(mma::Method m) {
  return m == mma::Method::fma_chain ? "a chain of IEEE f64 fmas" : "integer arithmetic (exact products and sum)";
}

// The family word `ptxfu cosim --op mma.block --replay` reads for a row.
const char* family_word(const mma::NumericsRow& row) {
  if (row.families & static_cast<uint8_t>(mma::Family::mma_sync)) return "mma";
  if (row.families & static_cast<uint8_t>(mma::Family::wmma)) return "wmma";
  return "wgmma";
}

uint32_t tag_mask(unsigned bits) { return bits >= 32 ? ~uint32_t{0} : (uint32_t{1} << bits) - 1; }

std::string hex_list(const uint64_t* v, int n, int bits) {
  std::string s;
  for (int k = 0; k < n; ++k) s += fmt::format("{}0x{:0{}x}", k ? "," : "", v[k], (bits + 3) / 4);
  return s;
}

}  // namespace

void check_rtl_tensor(const kernel::Kernel& k, int sm, bool broken) {
  for (const kernel::Inst& in : k.insts) {
    if (in.kind != kernel::Kind::mma) continue;
    const mma::Instruction& inst = k.tensor_ops[in.tensor_op].inst;
    const mma::NumericsRow* row = mma::find_row(sm, inst.family, inst.a, inst.d);
    if (row == nullptr) continue;  // not on this SM: it faults where it runs, as without the RTL
    if (row->method != mma::Method::block_fma)
      throw ConfigError(fmt::format("--rtl-tensor: {}: '{}' on sm_{} is {}: the block FMA RTL has no datapath for it",
                                    k.where(in), in.mnemonic, sm, not_blocks(row->method)));
    if (cosim::find_block_model(cosim::block_datapath(*row), -1, broken) == nullptr)
      throw ConfigError(fmt::format(
          "--rtl-tensor: {}: '{}' on sm_{} computes blocks of {}, and this build has no {}block FMA model with "
          "those parameters (PTXFU_COSIM_BLOCK_SETS in cosim/CMakeLists.txt); it has:\n{}",
          k.where(in), in.mnemonic, sm, cosim::describe_block(*row), broken ? "broken " : "",
          cosim::available_blocks()));
  }
}

RtlTensorCheck::RtlTensorCheck(const kernel::Kernel& k, int sm, bool broken) : kernel_(k), sm_(sm), broken_(broken) {}

RtlTensorCheck::~RtlTensorCheck() = default;

void RtlTensorCheck::at(uint32_t pc, uint32_t warp, const kernel::Dim3& ctaid) {
  where_ = {pc, warp, ctaid};
  new_instruction_ = true;
}

RtlTensorCheck::Stream& RtlTensorCheck::stream_for(const mma::NumericsRow& row) {
  for (const auto& s : streams_)
    if (s->row == &row) return *(last_ = s.get());
  auto s = std::make_unique<Stream>();
  s->row = &row;
  s->model = cosim::find_block_model(cosim::block_datapath(row), -1, broken_);
  if (s->model == nullptr)  // check_rtl_tensor() says so before the run
    throw ConfigError("--rtl-tensor: no block FMA model for " + cosim::describe_block(row));
  s->unit = s->model->make(s->model->params, s->model->stages, s->model->tag_bits);
  s->unit->reset();
  s->ring.resize(s->model->stages + 2);  // a result is out NUM_STAGES beats after its block went in
  const std::string used = fmt::format("{} NUM_STAGES={}{}", cosim::describe(s->model->params), s->model->stages,
                                       s->model->broken ? " (broken: PTXFU_BREAK_ALIGNMENT)" : "");
  if (std::find(stats_.models.begin(), stats_.models.end(), used) == stats_.models.end())
    stats_.models.push_back(used);  // rows of several families may share a block
  streams_.push_back(std::move(s));
  return *(last_ = streams_.back().get());
}

void RtlTensorCheck::block(const mma::NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                           uint64_t d) {
  Stream& s = last_ != nullptr && last_->row == &row ? *last_ : stream_for(row);
  const auto width = static_cast<std::size_t>(s.model->params.width);
  if (n > width || s.count == s.ring.size())
    throw ConfigError(
        fmt::format("--rtl-tensor: a block of {} products for a {}-wide model, {} in flight", n, width, s.count));
  Pending& p = s.ring[(s.head + s.count++) % s.ring.size()];
  std::copy(a, a + n, p.a);
  std::copy(b, b + n, p.b);
  std::fill(p.a + n, p.a + width, 0);  // +0 * +0 adds nothing to a block
  std::fill(p.b + n, p.b + width, 0);
  p.c = c;
  p.expected = d;
  p.tag = s.next_tag;
  p.where = where_;
  s.next_tag = (s.next_tag + 1) & tag_mask(s.unit->tag_bits());
  ++stats_.blocks;
  stats_.instructions += new_instruction_ ? 1 : 0;
  new_instruction_ = false;
  const cosim::BlockBeat beat{p.a, p.b, c, p.tag};
  for (unsigned tries = 0; !cycle(s, &beat); ++tries) {
    if (tries > 4 * s.unit->latency() + 16) {  // with out_ready high the RTL always takes a beat
      --s.count;
      compare_lost(s, p);
      return;
    }
  }
}

bool RtlTensorCheck::cycle(Stream& s, const cosim::BlockBeat* beat) {
  uint64_t result = 0;
  uint32_t tag = 0;
  bool valid = false;
  const bool accepted = s.unit->cycle(beat, true, result, tag, valid);
  if (valid) compare(s, result, tag);
  return accepted;
}

void RtlTensorCheck::compare(Stream& s, uint64_t got, uint32_t tag) {
  if (s.count == 0) {
    ++stats_.mismatches;
    stats_.report(fmt::format("# {}: an RTL result (0x{:x}, tag {}) that no block waits for",
                              cosim::describe(s.model->params), got, tag));
    return;
  }
  const Pending& p = s.ring[s.head];
  s.head = (s.head + 1) % s.ring.size();
  --s.count;
  if (got == p.expected && tag == p.tag) return;
  ++stats_.mismatches;
  stats_.report(report(
      s, p, tag == p.tag ? fmt::format("RTL 0x{:x}", got) : fmt::format("RTL tag {} where {} was due", tag, p.tag)));
}

void RtlTensorCheck::compare_lost(Stream& s, const Pending& p) {
  ++stats_.mismatches;
  stats_.report(report(s, p, "no RTL result"));
}

std::string RtlTensorCheck::report(const Stream& s, const Pending& p, const std::string& got) const {
  const mma::NumericsRow& row = *s.row;
  const int width = s.model->params.width;
  const int in_bits = mma::format_of(row.datapath_in)->width(), out_bits = mma::format_of(row.out)->width();
  const kernel::Inst& in = kernel_.insts[p.where.pc];
  return fmt::format(
      "# {} '{}' warp {} of CTA ({},{},{}) on sm_{}, block {} NUM_STAGES={}: engine 0x{:0{}x}, {}\n"
      "mma.block sm_{} {} {} {} a={} b={} c=0x{:0{}x} # expected 0x{:0{}x}",
      kernel_.where(in), in.mnemonic, p.where.warp, p.where.ctaid.x, p.where.ctaid.y, p.where.ctaid.z, sm_,
      cosim::describe(s.model->params), s.model->stages, p.expected, (out_bits + 3) / 4, got, sm_, family_word(row),
      mma::elem_name(row.datapath_in), mma::elem_name(row.out), hex_list(p.a, width, in_bits),
      hex_list(p.b, width, in_bits), p.c, (out_bits + 3) / 4, p.expected, (out_bits + 3) / 4);
}

RtlTensorStats RtlTensorCheck::finish() {
  for (const auto& sp : streams_) {
    Stream& s = *sp;
    for (unsigned i = 0; s.count > 0 && i < s.unit->latency() + 4; ++i) cycle(s, nullptr);
    while (s.count > 0) {  // never came out
      const Pending& p = s.ring[s.head];
      s.head = (s.head + 1) % s.ring.size();
      --s.count;
      compare_lost(s, p);
    }
  }
  return stats_;
}

}  // namespace ptxfu::models
