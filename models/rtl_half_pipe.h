// The verilated half-precision RTL (rtl_ref/ptxfu_hfma2.sv, SystemC output)
// behind a build-independent interface: the signals one instance is bound
// to, and a factory over the NUM_STAGES variants this build verilated
// (models/CMakeLists.txt: PTXFU_MODEL_RTL_STAGES). Only rtl_half_pipe.cc sees
// the generated classes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

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

inline constexpr unsigned kHalfPipeTagBits = 8;  // -GTAG_W

// An instance of ptxfu_hfma2 with NUM_STAGES = `stages` (the copy built with
// +define+PTXFU_BREAK_ROUNDING when `broken`), bound to the signals. Null
// when this build has no such model.
std::unique_ptr<sc_core::sc_module> make_hfma2_pipe(const char* name, unsigned stages, bool broken,
                                                    HalfPipeShared& shared, HalfPipeLane& lane);
// The NUM_STAGES values this build has (broken or not), for messages.
std::vector<unsigned> hfma2_pipe_stages(bool broken);

}  // namespace ptxfu::models
