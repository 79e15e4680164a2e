// A verilated RTL unit behind the Unit interface. M is the Verilator model
// class (one per unit and pipeline configuration, see cosim/CMakeLists.txt); the
// two units differ only in their control ports (drive_control below).
//
// One cycle = two evaluations: inputs change with the clock low at time 10t,
// the rising edge comes at 10t + 5. Outputs are sampled before the edge.
#pragma once
#include <memory>
#include <string>

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

#include "cosim/rtl_units.h"
#include "cosim/unit.h"

namespace ptxfu::cosim {

template <class M, UnitKind K>
class VerilatedUnit final : public Unit {
 public:
  VerilatedUnit(std::string name, unsigned latency, unsigned tag_bits)
      : name_(std::move(name)), latency_(latency), tag_bits_(tag_bits), ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);  // registers start random: exposes missing resets
#if VM_TRACE_FST
    ctx_->traceEverOn(true);
#endif
    model_ = std::make_unique<M>(ctx_.get(), "top");
    idle_inputs();
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
  }
  ~VerilatedUnit() override {
    close_trace();
    model_->final();
  }

  std::string name() const override { return name_; }
  UnitKind kind() const override { return K; }
  unsigned latency() const override { return latency_; }
  unsigned tag_bits() const override { return tag_bits_; }
  uint64_t cycles() const override { return cycles_; }

  void reset() override {
    model_->rst_ni = 0;
    Response r;
    bool v;
    for (int i = 0; i < 3; ++i) cycle(nullptr, true, r, v);
    model_->rst_ni = 1;
  }

  bool cycle(const Beat* in, bool out_ready, Response& out, bool& out_valid) override {
    model_->clk_i = 0;
    if (in != nullptr) {
      model_->in_valid_i = 1;
      drive_control(in->ctrl);
      model_->a_i = in->a;
      model_->b_i = in->b;
      set_c(in->c);
      model_->tag_i = in->tag;
    } else {
      model_->in_valid_i = 0;
    }
    model_->out_ready_i = out_ready;
    model_->eval();
    dump(10 * cycles_);
    const bool accepted = in != nullptr && model_->in_ready_o;
    out_valid = model_->out_valid_o && out_ready;
    out.result = model_->result_o;
    out.tag = model_->tag_o;
    model_->clk_i = 1;
    model_->eval();
    dump(10 * cycles_ + 5);
    ++cycles_;
    return accepted;
  }

  bool open_trace(const std::string& path) override {
#if VM_TRACE_FST
    trace_ = std::make_unique<VerilatedFstC>();
    model_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
    return trace_->isOpen();
#else
    (void)path;
    return false;
#endif
  }

  void close_trace() override {
#if VM_TRACE_FST
    if (trace_) {
      trace_->close();
      trace_.reset();
    }
#endif
  }

  bool write_coverage(const std::string& path) override {
#if VM_COVERAGE
    ctx_->coveragep()->write(path.c_str());
    return true;
#else
    (void)path;
    return false;
#endif
  }

 private:
  void idle_inputs() {
    model_->in_valid_i = 0;
    model_->out_ready_i = 1;
    model_->a_i = 0;
    model_->b_i = 0;
    set_c(0);
    model_->tag_i = 0;
    drive_control(Control{});
  }

  void drive_control(const Control& c) {
    model_->op_i = c.op & 3u;
    model_->fmt_i = c.bf16;
    model_->ftz_i = c.ftz;
    if constexpr (K == UnitKind::hfma2) {
      model_->sat_i = c.sat;
      model_->relu_i = c.relu;
      model_->oob_i = c.oob;
    } else {
      model_->nan_i = c.nan;
      model_->xorsign_abs_i = c.xorsign_abs;
    }
  }

  void set_c(uint32_t c) {
    if constexpr (K == UnitKind::hfma2)
      model_->c_i = c;
    else
      (void)c;
  }

  void dump(uint64_t time) {
#if VM_TRACE_FST
    if (trace_) trace_->dump(time);
#else
    (void)time;
#endif
  }

  std::string name_;
  unsigned latency_;
  unsigned tag_bits_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> model_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  uint64_t cycles_ = 0;
};

template <class M, UnitKind K>
std::unique_ptr<Unit> VerilatedUnitModel::make(std::string name, unsigned latency, unsigned tag_bits) {
  return std::make_unique<VerilatedUnit<M, K>>(std::move(name), latency, tag_bits);
}

}  // namespace ptxfu::cosim
