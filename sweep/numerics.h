// Numerics as a design space (`mode: numerics`): each point is a set of
// tensor-core block parameters (block width W, kept bits B, carry bits,
// sum fraction bits, output rounding) derived from a shipped numerics row,
// run by the src/mma engine on a seeded GEMM and measured against the exact
// product (MPFR), beside the block RTL's cell count and logic depth for
// that set (Yosys figures from CSV files, or a labelled estimate).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mma/numerics.h"
#include "sweep/spec.h"

namespace ptxfu::sweep {

// A GEMM workload: A (M x K) and B (K x N) drawn from a distribution by a
// SplitMix64 stream (the same seed gives the same matrices everywhere), C = +0.
struct GemmWorkload {
  std::string name;
  int m = 0, n = 0, k = 0;
  std::string distribution;  // normal (mean 0, sd 1), uniform ([-1, 1)), positive ([0, 1))
  uint64_t seed = 1;
};

// One row of a synthesis CSV (scripts/synth-block.sh).
struct SynthRow {
  std::string in, out, round;
  int w = 0, b = 0, carry = 0, sum_frac = 0;
  long cells = 0, depth = 0;
};

struct NumericsSpec {
  std::string path, name;
  std::string target;  // the base row: sm_NN, in, out (mma.sync)
  mma::Elem in{}, out{};
  const mma::NumericsRow* base = nullptr;
  std::vector<Parameter> parameters;  // block_width, kept_bits, carry_bits, sum_frac_bits, rounding
  std::vector<GemmWorkload> gemms;
  std::vector<SynthRow> synth;     // every row of the `synth:` files
  std::vector<std::string> plots;  // error metrics charted against cells
  struct Point {
    std::string key;
    size_t gemm = 0;
    mma::BlockParams params{};
  };
  std::vector<Point> points;
};

// Parameter names, metric names and the CSV columns, in order.
const std::vector<std::string>& numerics_parameter_names();
const std::vector<std::string>& numerics_metrics();
std::vector<std::string> numerics_columns();

// True when the file's YAML says `mode: numerics` (a file that does not
// parse is left to the ordinary loader's error).
bool is_numerics_spec_file(const std::string& path);

// Loads and validates a numerics spec (each parameter set checked as the
// RTL's configure check does). Throws models::ConfigError with file:line:col.
NumericsSpec load_numerics_spec(const std::string& path);
NumericsSpec load_numerics_spec_text(const std::string& text, const std::string& path);

// The matrices of a workload as bit patterns of `in`: A row-major, B by
// columns (element (k, n) at [n * K + k]).
struct GemmData {
  std::vector<uint64_t> a, b_cols;
};
GemmData make_gemm(const GemmWorkload& w, mma::Elem in);

// The exact D = A B (C = +0) as MPFR values, kept opaque: each element
// correctly rounded to binary64 (for norms) and the fp32/f16 error of a
// result measured in ulps of the exact value.
class ExactGemm {
 public:
  ExactGemm(const GemmWorkload& w, const GemmData& data, mma::Elem in);
  ~ExactGemm();
  ExactGemm(const ExactGemm&) = delete;
  ExactGemm& operator=(const ExactGemm&) = delete;
  size_t size() const { return n_; }
  // |d - exact| in ulps of the exact value in `out` (the ulp at its binade,
  // the subnormal ulp below the normal range), and d - exact in binary64.
  double ulp_error(size_t i, const fp::Format& out, uint64_t d, double* diff) const;
  double exact_double(size_t i) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  size_t n_;
};

struct NumericsMetrics {
  double max_ulp = 0, mean_ulp = 0, rel_error = 0;  // rel_error: ||D - exact||_F / ||exact||_F
};
// D by the row through the engine, measured against the exact product.
NumericsMetrics measure(const mma::NumericsRow& row, const GemmWorkload& w, const GemmData& data,
                        const ExactGemm& exact);

// The cell count and logic depth of the block RTL for a parameter set:
// "yosys" when a synthesis row matches it (stages 0), "estimate" otherwise
// (see docs/sweep.md), "none" when nothing to estimate from.
struct Cost {
  std::string source;
  long cells = 0, depth = 0;
};
Cost cost_of(const std::vector<SynthRow>& synth, mma::Elem in, mma::Elem out, const mma::BlockParams& p);

// The shipped targets whose row has these parameters ("sm_80-89", several
// joined by '+'), or "".
std::string shipped_label(mma::Elem in, mma::Elem out, const mma::BlockParams& p);

// The values of one point: the CSV row after key, program and parameters.
std::vector<std::string> point_values(const NumericsSpec::Point& pt);

}  // namespace ptxfu::sweep
