// The verilated half-precision RTL (rtl_ref/ptxfu_hfma2.sv, SystemC output)
// behind a build-independent interface: the signals one instance is bound
// to, and a factory over the NUM_STAGES variants this build verilated
// (models/CMakeLists.txt). The factory's table is generated
// (ptxfu_rtl_factory in cosim/rtl.cmake, cosim/rtl_models.h); only that
// generated file sees the Verilator classes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "cosim/rtl_models.h"

namespace ptxfu::models {

// Inputs every instance of one unit shares: all lanes of a beat have the
// same operation, format, modifiers and tag.
struct HalfPipeShared {
  sc_core::sc_signal<bool> clk{"clk"}, rst_n{"rst_n"}, in_valid{"in_valid"}, out_ready{"out_ready"};
  sc_core::sc_signal<bool> fmt{"fmt"}, ftz{"ftz"}, sat{"sat"}, relu{"relu"}, oob{"oob"};
  sc_core::sc_signal<uint32_t> op{"op"}, tag{"tag"};
};

// The signals of one instance (one thread of the warp: two 16-bit lanes).
struct HalfPipeLane {
  sc_core::sc_signal<uint32_t> a, b, c, result, tag_out;
  sc_core::sc_signal<bool> in_ready, out_valid;
};

inline constexpr unsigned kHalfPipeTagBits = 8;  // -GTAG_W (models/CMakeLists.txt)

// The flavour of cosim/rtl_models.h for the models: a verilated SystemC
// module V of unit K bound to the signals of one thread.
struct HalfPipeModel {
  using Make = std::unique_ptr<sc_core::sc_module> (*)(const char* name, HalfPipeShared& shared, HalfPipeLane& lane);
  template <class V, cosim::UnitKind K>
  static std::unique_ptr<sc_core::sc_module> make(const char* name, HalfPipeShared& s, HalfPipeLane& l) {
    static_assert(K == cosim::UnitKind::hfma2, "the models bind the HFMA2 only");
    auto m = std::make_unique<V>(name);
    m->clk_i(s.clk);
    m->rst_ni(s.rst_n);
    m->in_valid_i(s.in_valid);
    m->in_ready_o(l.in_ready);
    m->op_i(s.op);
    m->fmt_i(s.fmt);
    m->ftz_i(s.ftz);
    m->sat_i(s.sat);
    m->relu_i(s.relu);
    m->oob_i(s.oob);
    m->a_i(l.a);
    m->b_i(l.b);
    m->c_i(l.c);
    m->tag_i(s.tag);
    m->out_valid_o(l.out_valid);
    m->out_ready_i(s.out_ready);
    m->result_o(l.result);
    m->tag_o(l.tag_out);
    return m;
  }
};

// An instance of ptxfu_hfma2 with NUM_STAGES = `stages` (the copy built with
// +define+PTXFU_BREAK_ROUNDING when `broken`), bound to the signals. Null
// when this build has no such model.
std::unique_ptr<sc_core::sc_module> make_hfma2_pipe(const char* name, unsigned stages, bool broken,
                                                    HalfPipeShared& shared, HalfPipeLane& lane);
// The NUM_STAGES values this build has (broken or not), for messages.
std::vector<unsigned> hfma2_pipe_stages(bool broken);

}  // namespace ptxfu::models
