#include "isa/opcodes.h"

namespace ptxfu::isa {
namespace {

// From the PTX ISA's instruction chapters (9.7.3 onwards), by chapter.
constexpr std::string_view kOtherInstructions[] = {
    // (comparison and selection, logic and shift, and prmt are rows of the
    // instruction table: isa/table.cc)
    // data movement and conversion
    "mov",
    "shfl",
    "ld",
    "ldu",
    "st",
    "multimem",
    "prefetch",
    "prefetchu",
    "applypriority",
    "discard",
    "createpolicy",
    "isspacep",
    "cvta",
    "cvt",
    "mapa",
    "getctarank",
    "cp",
    "tensormap",
    "ldmatrix",
    "stmatrix",
    "movmatrix",
    "alloca",
    "stacksave",
    "stackrestore",
    // texture and surface
    "tex",
    "tld4",
    "txq",
    "istypep",
    "suld",
    "sust",
    "sured",
    "suq",
    // control flow
    "bra",
    "brx",
    "call",
    "ret",
    "exit",
    // synchronisation and communication
    "bar",
    "barrier",
    "membar",
    "fence",
    "atom",
    "red",
    "vote",
    "match",
    "activemask",
    "redux",
    "griddepcontrol",
    "elect",
    "mbarrier",
    "setmaxnreg",
    "clusterlaunchcontrol",
    // warp-level and asynchronous matrix instructions
    "wmma",
    "mma",
    "wgmma",
    "tcgen05",
    // video
    "vadd",
    "vsub",
    "vabsdiff",
    "vmin",
    "vmax",
    "vshl",
    "vshr",
    "vmad",
    "vset",
    "vadd2",
    "vsub2",
    "vavrg2",
    "vabsdiff2",
    "vmin2",
    "vmax2",
    "vset2",
    "vadd4",
    "vsub4",
    "vavrg4",
    "vabsdiff4",
    "vmin4",
    "vmax4",
    "vset4",
    // miscellaneous
    "brkpt",
    "nanosleep",
    "pmevent",
    "trap",
};

// PTX ISA chapter 10, "Special Registers".
constexpr std::string_view kSpecialRegisters[] = {
    "%tid",
    "%ntid",
    "%laneid",
    "%warpid",
    "%nwarpid",
    "%ctaid",
    "%nctaid",
    "%smid",
    "%nsmid",
    "%gridid",
    "%is_explicit_cluster",
    "%clusterid",
    "%nclusterid",
    "%cluster_ctaid",
    "%cluster_nctaid",
    "%cluster_ctarank",
    "%cluster_nctarank",
    "%lanemask_eq",
    "%lanemask_le",
    "%lanemask_lt",
    "%lanemask_ge",
    "%lanemask_gt",
    "%clock",
    "%clock_hi",
    "%clock64",
    "%globaltimer",
    "%globaltimer_lo",
    "%globaltimer_hi",
    "%total_smem_size",
    "%aggr_smem_size",
    "%dynamic_smem_size",
    "%current_graph_exec",
    "%reserved_smem_offset_begin",
    "%reserved_smem_offset_end",
    "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0",
    "%reserved_smem_offset_1",
};

// Numbered families: %pm0..%pm7, %pm0_64..%pm7_64, %envreg0..%envreg31.
bool numbered_special(std::string_view name) {
  auto digits_below = [](std::string_view d, unsigned limit) {
    if (d.empty() || d.size() > 2) return false;
    unsigned v = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    return v < limit;
  };
  if (name.substr(0, 7) == "%envreg") return digits_below(name.substr(7), 32);
  if (name.substr(0, 3) == "%pm") {
    std::string_view rest = name.substr(3);
    if (rest.size() > 3 && rest.substr(rest.size() - 3) == "_64") rest.remove_suffix(3);
    return digits_below(rest, 8);
  }
  return false;
}

}  // namespace

bool is_other_instruction(std::string_view opcode) {
  for (auto o : kOtherInstructions)
    if (o == opcode) return true;
  return false;
}

bool is_special_register(std::string_view name) {
  const std::string_view base = name.substr(0, name.find('.'));
  const std::string_view component = base.size() < name.size() ? name.substr(base.size() + 1) : "";
  for (auto r : kSpecialRegisters)
    if (r == base) return component.empty() || component == "x" || component == "y" || component == "z";
  return component.empty() && numbered_special(base);
}

}  // namespace ptxfu::isa
