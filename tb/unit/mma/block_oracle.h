// An independent oracle for the tensor-core block rule, for the tests: it
// shares no code with src/mma (nor src/fp). Values travel as doubles (every
// input and product of the tested formats is one exactly); the block sum is
// formed with MPFR at a precision that makes it exact, then truncated and
// rounded as the rule says, written out from the papers' description:
//   each nonzero addend (products a*b and c) is cut towards zero to a
//   multiple of 2^(E - kept), E the largest exponent of the block (a
//   product's exponent is the sum of its factors' exponents, subnormals at
//   emin); the cut addends are summed exactly; the sum is cut to sum_bits
//   fraction bits when sum_bits >= 0, then rounded to the output format.
//   A zero result is +0, whatever the addends' signs (the H100 probe).
//   The blocks take the k in ascending runs of `width`; with k_split s > 1
//   and k_group g the instruction is s chained ones of n / s, the runs of g
//   dealt to them in turn (k to instruction (k / g) mod s), each in blocks
//   of `width`. With c_apart
//   the chain of blocks starts from 0 and c is added to its result, rounded
//   by c_rnd. Exponents for the alignment are read as those of a format
//   with `align_exp_bits` exponent bits when nonzero (fp8 operands widened
//   to f16: subnormal fp8 values are normal there).
#pragma once
#include <cstdint>
#include <vector>

#include "oracle/mpfr_oracle.h"

namespace ptxfu::mma::test {

// An input format: widths, and whether its top exponent holds numbers
// (e4m3: no infinity, NaN only at S.1111.111).
struct InFormat {
  int exp_bits, frac_bits;
  bool finite_top = false;
};
inline constexpr InFormat kInF16{5, 10}, kInBF16{8, 7}, kInTF32{8, 10}, kInE4M3{4, 3, true}, kInE5M2{5, 2};

struct Rule {
  int width;     // products a block
  int kept;      // bits kept below the block's largest exponent
  int sum_bits;  // fraction bits of the block sum (-1: not cut)
  oracle::Rnd rnd;
  InFormat in;
  oracle::Spec out;
  bool c_apart = false;
  oracle::Rnd c_rnd = oracle::Rnd::rn;
  int k_group = 0;
  int align_exp_bits = 0;
  int k_split = 1;
};

// Exact value of an input encoding (finite values only).
double decode_input(const InFormat& f, uint64_t bits);
// The rule applied in blocks of rule.width in ascending k, each block's
// result the next one's c. Inputs and c as exact values; returns the
// result's bits in rule.out.
uint64_t oracle_chain(const Rule& rule, const std::vector<double>& a, const std::vector<double>& b, double c);

}  // namespace ptxfu::mma::test
