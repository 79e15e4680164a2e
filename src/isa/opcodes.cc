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

// PTX ISA chapter 10, "Special Registers": each with the width of its
// value (1: a predicate), whether it is a vector read by component (.x),
// and the target and PTX version it needs (the cluster registers: sm_90 and
// PTX 7.8, as ptxas 13.0 says).
constexpr SpecialRegister kSpecialRegisters[] = {
    {"%tid", 32, true},
    {"%ntid", 32, true},
    {"%laneid", 32, false},
    {"%warpid", 32, false},
    {"%nwarpid", 32, false},
    {"%ctaid", 32, true},
    {"%nctaid", 32, true},
    {"%smid", 32, false},
    {"%nsmid", 32, false},
    {"%gridid", 64, false},
    {"%is_explicit_cluster", 1, false, 90, 78},
    {"%clusterid", 32, true, 90, 78},
    {"%nclusterid", 32, true, 90, 78},
    {"%cluster_ctaid", 32, true, 90, 78},
    {"%cluster_nctaid", 32, true, 90, 78},
    {"%cluster_ctarank", 32, false, 90, 78},
    {"%cluster_nctarank", 32, false, 90, 78},
    {"%lanemask_eq", 32, false},
    {"%lanemask_le", 32, false},
    {"%lanemask_lt", 32, false},
    {"%lanemask_ge", 32, false},
    {"%lanemask_gt", 32, false},
    {"%clock", 32, false},
    {"%clock_hi", 32, false},
    {"%clock64", 64, false},
    {"%globaltimer", 64, false},
    {"%globaltimer_lo", 32, false},
    {"%globaltimer_hi", 32, false},
    {"%total_smem_size", 32, false},
    {"%aggr_smem_size", 32, false},
    {"%dynamic_smem_size", 32, false},
    {"%current_graph_exec", 64, false},
    {"%reserved_smem_offset_begin", 32, false},
    {"%reserved_smem_offset_end", 32, false},
    {"%reserved_smem_offset_cap", 32, false},
    {"%reserved_smem_offset_0", 32, false},
    {"%reserved_smem_offset_1", 32, false},
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

std::optional<SpecialRegister> special_register(std::string_view name) {
  const std::string_view base = name.substr(0, name.find('.'));
  const std::string_view component = base.size() < name.size() ? name.substr(base.size() + 1) : "";
  for (const SpecialRegister& r : kSpecialRegisters)
    if (r.name == base) {
      if (component.empty()) return r;
      if (r.vector && (component == "x" || component == "y" || component == "z" || component == "w"))
        return SpecialRegister{name, r.bits, false, r.sm, r.ptx};
      return std::nullopt;
    }
  if (!component.empty() || !numbered_special(base)) return std::nullopt;
  const bool wide = base.size() > 3 && base.substr(base.size() - 3) == "_64";
  return SpecialRegister{name, wide ? 64u : 32u, false};
}

bool is_special_register(std::string_view name) { return special_register(name).has_value(); }

}  // namespace ptxfu::isa
