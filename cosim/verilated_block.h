// A verilated block FMA (rtl_ref/ptxfu_block_fma.sv, one parameter set per
// Verilator model class M) behind the BlockUnit interface. Included by the
// generated factory only (ptxfu_block_factory() in cosim/rtl.cmake).
//
// One cycle = two evaluations, as in verilated_unit.h: inputs change with the
// clock low, outputs are sampled before the rising edge.
#pragma once
#include <cstddef>
#include <memory>
#include <type_traits>

#include <verilated.h>

#include "cosim/block_models.h"

namespace ptxfu::cosim {

// Writes n elements of `bits` bits each (element k at bits k*bits) into a
// Verilator port: an integer for ports up to 64 bits, a VlWide beyond.
template <class Port>
void put_elements(Port& port, const uint64_t* elems, unsigned n, unsigned bits) {
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = 0;
    for (unsigned k = 0; k < n; ++k) v |= (elems[k] & mask) << (k * bits);
    port = static_cast<Port>(v);
  } else {
    constexpr std::size_t kWords = sizeof(Port) / sizeof(EData);
    uint64_t acc = 0;  // bits not yet written, the lowest first (a bit stream: bits <= 32)
    unsigned fill = 0;
    std::size_t w = 0;
    for (unsigned k = 0; k < n; ++k) {
      acc |= (elems[k] & mask) << fill;
      fill += bits;
      for (; fill >= 32; fill -= 32, acc >>= 32) port[w++] = static_cast<EData>(acc);
    }
    for (; w < kWords; ++w, acc >>= 32) port[w] = static_cast<EData>(acc);
  }
}

template <class M>
class VerilatedBlock final : public BlockUnit {
 public:
  VerilatedBlock(const BlockParams& p, unsigned stages, unsigned tag_bits)
      : width_(static_cast<unsigned>(p.width)),
        elem_bits_(static_cast<unsigned>(mma::format_of(p.in)->width())),
        stages_(stages),
        tag_bits_(tag_bits),
        ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);  // registers start random: exposes missing resets
    model_ = std::make_unique<M>(ctx_.get(), "top");
    model_->in_valid_i = 0;
    model_->out_ready_i = 1;
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
  }
  ~VerilatedBlock() override { model_->final(); }

  unsigned latency() const override { return stages_; }
  unsigned tag_bits() const override { return tag_bits_; }

  void reset() override {
    model_->rst_ni = 0;
    uint64_t r;
    uint32_t t;
    bool v;
    for (int i = 0; i < 3; ++i) cycle(nullptr, true, r, t, v);
    model_->rst_ni = 1;
  }

  bool cycle(const BlockBeat* in, bool out_ready, uint64_t& result, uint32_t& tag, bool& out_valid) override {
    model_->clk_i = 0;
    model_->in_valid_i = in != nullptr;
    if (in != nullptr) {
      put_elements(model_->a_i, in->a, width_, elem_bits_);
      put_elements(model_->b_i, in->b, width_, elem_bits_);
      model_->c_i = static_cast<std::remove_reference_t<decltype(model_->c_i)>>(in->c);
      model_->tag_i = in->tag;
    }
    model_->out_ready_i = out_ready;
    model_->eval();
    const bool accepted = in != nullptr && model_->in_ready_o;
    out_valid = model_->out_valid_o && out_ready;
    result = model_->result_o;
    tag = model_->tag_o;
    model_->clk_i = 1;
    model_->eval();
    return accepted;
  }

 private:
  unsigned width_, elem_bits_, stages_, tag_bits_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> model_;
};

// The factory entry of model class M (the generated table names it).
template <class M>
std::unique_ptr<BlockUnit> make_block_unit(const BlockParams& p, unsigned stages, unsigned tag_bits) {
  return std::make_unique<VerilatedBlock<M>>(p, stages, tag_bits);
}

}  // namespace ptxfu::cosim
