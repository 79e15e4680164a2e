// The block FMA parameter sets as the harness and the models look them up
// (block_models.h); the table itself is generated (ptxfu_block_factory).
#include "cosim/block_models.h"

namespace ptxfu::cosim {

bool block_matches(const BlockParams& p, const mma::NumericsRow& r) {
  return r.method == mma::Method::block_fma && r.datapath_in == r.in && r.in == p.in && r.out == p.out &&
         r.c_align == mma::CAlign::with_block && r.subnormals && r.block_width == p.width && r.kept_bits == p.kept &&
         r.carry_bits == p.carry && r.sum_frac_bits == p.sum_frac && r.out_rounding == p.round;
}

mma::NumericsRow block_datapath(const mma::NumericsRow& row) {
  mma::NumericsRow d = row;
  d.in = row.datapath_in, d.c_align = mma::CAlign::with_block, d.k_split = 1, d.k_group = 0;
  return d;
}

std::string describe(const BlockParams& p) {
  std::string s = std::string(mma::elem_name(p.in)) + "->" + std::string(mma::elem_name(p.out)) +
                  " W=" + std::to_string(p.width) + " B=" + std::to_string(p.kept) +
                  " carry=" + std::to_string(p.carry);
  if (p.sum_frac < 63) s += " sum=" + std::to_string(p.sum_frac);
  return s + (p.round == fp::Rounding::rz ? " rz" : " rn");
}

std::string describe_block(const mma::NumericsRow& row) {
  return describe(
      {row.datapath_in, row.out, row.block_width, row.kept_bits, row.carry_bits, row.sum_frac_bits, row.out_rounding});
}

const BlockModel* find_block_model(const mma::NumericsRow& row, int stages, bool broken) {
  for (const BlockModel& m : block_models()) {
    if (block_matches(m.params, row) && m.broken == broken && (stages < 0 || m.stages == static_cast<unsigned>(stages)))
      return &m;
  }
  return nullptr;
}

std::string available_blocks() {
  std::string s;
  for (const BlockModel& m : block_models())
    s += "  " + describe(m.params) + " NUM_STAGES=" + std::to_string(m.stages) + (m.broken ? " (broken)" : "") + "\n";
  return s.empty() ? "  (none)\n" : s;
}

}  // namespace ptxfu::cosim
