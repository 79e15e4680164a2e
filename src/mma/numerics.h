// Tensor-core numerics as rows of data. One row per (architecture range,
// instruction family, input type, output type) says how the tensor core of
// that GPU computes a block inner product d = sum_k a[k]*b[k] + c; one
// engine (block_fma.h) reads the row. A new GPU is a new row, not new code.
//
// The model (Khattak & Mikaitis, "Accurate Models of NVIDIA Tensor Cores",
// arXiv:2512.07004; Xie et al., MMA-Sim, arXiv:2511.10909; Fasi et al.,
// PeerJ CS 7:e330, 2021): the products of a block are exact; each addend
// of the block (the products and, when the row says so, c) is aligned to
// the largest exponent among them and truncated towards zero (sign and
// magnitude) to `kept_bits` bits below it; the truncated addends are summed
// exactly, the sum is normalised once and rounded as the row says. Blocks
// of `block_width` products are chained in ascending k (or dealt as
// `k_group` says), each block's result being the next block's c; rows with
// CAlign::separate chain from +0 and add c last. Where a target has no
// datapath for an input type (fp8 on sm_90/sm_100 mma.sync), the row
// widens the operands to the one it has (`datapath_in`).
#pragma once
#include <cstdint>
#include <string_view>

#include "fp/format.h"

namespace ptxfu::mma {

// The element types of matrix instructions, as PTX spells them.
enum class Elem : uint8_t { f16, bf16, tf32, e4m3, e5m2, e3m2, e2m3, e2m1, f32, f64, s8, u8, s4, u4, s32 };

// The float format row of a floating-point element type; nullptr for the
// integer types.
const fp::Format* format_of(Elem e);
bool is_integer(Elem e);
// "f16" -> Elem::f16 ...; false for a name that is no element type.
bool parse_elem(std::string_view name, Elem* out);
std::string_view elem_name(Elem e);

enum class Family : uint8_t { mma_sync = 1, wmma = 2, wgmma = 4 };
inline constexpr uint8_t kAllFamilies = 1 | 2 | 4;

enum class Method : uint8_t {
  block_fma,  // the aligned, truncated block sum above
  fma_chain,  // f64: a chain of IEEE fmas (RNE) in ascending k, starting from c
  integer,    // exact products and sum, wrapping modulo 2^32 (or clamped with .satfinite)
  // mma with block scaling (.kind::mxf4, .kind::mxf4nvf4): runs of
  // block_width products summed exactly, each run times its two scale
  // factors and aligned at the sum of the scales' exponents; those terms and
  // c aligned to the largest exponent, truncated to kept_bits below it,
  // summed exactly and rounded once (block_scaled_fma, block_fma.h).
  block_scaled,
};

// The scale factor types of mma with block scaling: ue8m0 (2^(E-127), 0xff
// NaN) and ue4m3 (an e4m3 without its sign bit, 0x7f NaN).
enum class ScaleType : uint8_t { ue8m0, ue4m3 };
bool parse_scale_type(std::string_view name, ScaleType* out);

// How c enters.
enum class CAlign : uint8_t {
  with_block,  // c is one more addend of the first block, aligned with the products
  // c takes no part in the blocks: their chain starts from +0 and c is added
  // to its result by one IEEE addition in the output format, rounded by
  // c_rounding (sm_90/sm_100 mma.sync fp8: f16 blocks, then c).
  separate,
};

struct NumericsRow {
  uint16_t sm_first, sm_last;  // the sm numbers the row covers (inclusive)
  uint8_t families;            // a mask of Family values
  Elem in, out;                // A/B element type; C/D element type
  Method method;
  int block_width;  // products per block (one normalisation each)
  int kept_bits;    // fraction bits kept below the block's largest exponent when aligning
  // Integer bits the adder has above the largest addend's leading bit. The
  // engine sums exactly; the table checks (numerics.cc) that these bits
  // cover every carry a block can produce, so that exact is what the
  // hardware does too.
  int carry_bits;
  CAlign c_align;
  fp::Rounding c_rounding;  // CAlign::separate: the rounding of the final addition of c
  // Significand bits (after the leading one) the normalised block sum keeps,
  // truncated, before it is rounded to the output format: 13 where a
  // narrower accumulator was measured (fp8 on sm_89 and sm_90); elsewhere
  // 63 (nothing cut: out_rounding alone decides).
  int sum_frac_bits;
  fp::Rounding out_rounding;  // the rounding of the block sum to the output format
  bool subnormals;  // subnormal inputs and results kept; false: read and written as zeros (true everywhere measured)
  // The datapath instructions one instruction becomes: 1, or k_split > 1
  // where the operands are widened into k_split times the registers (fp8
  // bytes to f16 pairs: 2) and run as k_split chained instructions of K /
  // k_split each, the first from +0 (CAlign::separate) or c. Each runs its
  // K in blocks of block_width (H100 mma.sync fp8 m16n8k32: two k16
  // instructions, one block each; m16n8k16: two k8 ones, SASS HMMA.1688).
  int k_split;
  // The order in which the k of one instruction are dealt to those
  // instructions: 0 in ascending runs; g > 0: runs of g go to them in turn
  // (k goes to instruction (k / g) mod k_split), as each fp8 register's
  // bytes 0-1 widen into the first f16 register, bytes 2-3 into the second.
  int k_group;
  // The format the blocks multiply in: `in`, or f16 where the fp8 operands
  // are first widened (exactly) to f16 and fed to the f16 datapath; the
  // alignment then reads their exponents as f16 ones (subnormal fp8 values
  // become normal f16 ones).
  Elem datapath_in;
  bool truncate_inputs;  // tf32: the low 13 bits of an f32 register are ignored, not rounded
  // Method::fma_chain: the NaN an invalid operation (inf * 0, inf - inf)
  // gives; a NaN operand propagates instead (the first of a, b, c, quietened).
  // Block rows give the output format's canonical NaN for every NaN result.
  uint64_t invalid_nan;
  std::string_view source;  // the paper and measurement behind the row, or "choice: ..."
};

// The row for an instruction, or nullptr when the target has no such
// instruction.
const NumericsRow* find_row(int sm, Family family, Elem in, Elem out);

// The block-scaled row (Method::block_scaled) for A/B `in` and D `out` on
// `sm`, or nullptr. They are apart from find_row's: block_fma() cannot run
// them (they need the scale factors).
const NumericsRow* find_block_scaled_row(int sm, Elem in, Elem out);

// All rows (tests walk them); the block-scaled rows are not among them.
struct RowTable {
  const NumericsRow* rows;
  std::size_t size;
};
RowTable numerics_rows();

// The least carry bits a block of `width` products plus c needs for its
// exact sum (the rows' own, and the RTL's configure check's, rule).
int min_carry_bits(int width);

// A block-FMA row like `base` (a Method::block_fma row with one datapath
// instruction, k_split 1) with other block parameters: the numerics
// sweep's design points. Checked as the RTL's configure check checks its
// parameters (cosim/block_params.cmake): width a power of two 1..64,
// kept >= 1, carry >= min_carry_bits(width), kept + carry <= 62,
// sum_frac >= 1, rounding rz or rn. Throws std::invalid_argument saying
// which limit a value breaks.
struct BlockParams {
  int block_width, kept_bits, carry_bits, sum_frac_bits;
  fp::Rounding out_rounding;
};
NumericsRow custom_row(const NumericsRow& base, const BlockParams& p);
BlockParams block_params(const NumericsRow& row);

}  // namespace ptxfu::mma
