// Numerics sweeps (sweep/numerics.h): the error metrics against an exact
// sum written apart (bf16 decoded by hand, products summed as 128-bit
// integers), the parameter checks, the spec's errors, and the example spec
// run end to end at small sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "mma/block_fma.h"
#include "models/config.h"
#include "scratch_dir.h"
#include "sweep/numerics.h"
#include "sweep/results.h"
#include "sweep/run.h"

namespace {

using namespace ptxfu;
using sweep::GemmWorkload;

const std::string kSource = PTXFU_SOURCE_DIR;

const mma::NumericsRow& sm80_bf16() {
  return *mma::find_row(80, mma::Family::mma_sync, mma::Elem::bf16, mma::Elem::f32);
}

// A bf16 or f32 encoding as (-1)^neg * sig * 2^exp, by the IEEE layout.
struct Value {
  bool neg;
  int64_t sig;
  int exp;
};
Value decode(uint64_t bits, int exp_bits, int frac_bits) {
  const int field = static_cast<int>(bits >> frac_bits) & ((1 << exp_bits) - 1);
  const int64_t frac = static_cast<int64_t>(bits & ((uint64_t{1} << frac_bits) - 1));
  const int bias = (1 << (exp_bits - 1)) - 1;
  const bool neg = (bits >> (exp_bits + frac_bits)) & 1;
  if (field == 0) return {neg, frac, 1 - bias - frac_bits};
  return {neg, frac | (int64_t{1} << frac_bits), field - bias - frac_bits};
}

TEST(NumericsMetrics, MatchAnExactIntegerSumOnATinyGemm) {
  const GemmWorkload w{"tiny", 3, 4, 64, "normal", 5};
  const sweep::GemmData data = sweep::make_gemm(w, mma::Elem::bf16);
  const mma::NumericsRow row = mma::custom_row(sm80_bf16(), {8, 20, 6, 63, fp::Rounding::rz});
  const sweep::ExactGemm exact(w, data, mma::Elem::bf16);
  const sweep::NumericsMetrics m = sweep::measure(row, w, data, exact);
  // The oracle: every product and result on one grid 2^low as an __int128.
  const int low = -80;
  long double max_ulp = 0, sum_ulp = 0, err2 = 0, ref2 = 0;
  for (int i = 0; i < w.m; ++i)
    for (int j = 0; j < w.n; ++j) {
      __int128 e = 0;
      for (int k = 0; k < w.k; ++k) {
        const Value a = decode(data.a[i * w.k + k], 8, 7), b = decode(data.b_cols[j * w.k + k], 8, 7);
        ASSERT_GE(a.exp + b.exp, low);
        const __int128 p = static_cast<__int128>(a.sig * b.sig) << (a.exp + b.exp - low);
        e += a.neg != b.neg ? -p : p;
      }
      const uint64_t dbits = mma::block_fma(row, w.k, &data.a[i * w.k], &data.b_cols[j * w.k], 0);
      const Value d = decode(dbits, 8, 23);
      ASSERT_GE(d.exp, low);
      const __int128 dv = (d.neg ? -1 : 1) * (static_cast<__int128>(d.sig) << (d.exp - low));
      const __int128 diff = dv > e ? dv - e : e - dv;
      const __int128 mag = e < 0 ? -e : e;
      int msb = 127;
      while (msb > 0 && !((mag >> msb) & 1)) --msb;
      const int ulp_exp = std::max(msb + low, -126) - 23;
      const long double ulps = std::ldexp(static_cast<long double>(diff), low - ulp_exp);
      max_ulp = std::max(max_ulp, ulps);
      sum_ulp += ulps;
      err2 += std::pow(std::ldexp(static_cast<long double>(diff), low), 2);
      ref2 += std::pow(std::ldexp(static_cast<long double>(mag), low), 2);
    }
  EXPECT_GT(m.max_ulp, 1);  // 20 kept bits lose more than the last bit of fp32
  EXPECT_NEAR(m.max_ulp, static_cast<double>(max_ulp), 1e-9 * max_ulp);
  EXPECT_NEAR(m.mean_ulp, static_cast<double>(sum_ulp / (w.m * w.n)), 1e-9 * max_ulp);
  EXPECT_NEAR(m.rel_error, static_cast<double>(std::sqrt(err2 / ref2)), 1e-9 * m.rel_error);
}

TEST(NumericsMetrics, ShippedParametersGiveTheShippedRowsResults) {
  const GemmWorkload w{"w", 2, 2, 256, "uniform", 9};
  const sweep::GemmData data = sweep::make_gemm(w, mma::Elem::bf16);
  const mma::NumericsRow custom = mma::custom_row(sm80_bf16(), mma::block_params(sm80_bf16()));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(mma::block_fma(custom, w.k, &data.a[i * w.k], &data.b_cols[j * w.k], 0),
                mma::block_fma(sm80_bf16(), w.k, &data.a[i * w.k], &data.b_cols[j * w.k], 0));
}

TEST(NumericsParams, RefusedAsTheRtlConfigureCheckRefuses) {
  const auto refuses = [](mma::BlockParams p, const char* why) {
    try {
      mma::custom_row(sm80_bf16(), p);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refuses({6, 24, 6, 63, fp::Rounding::rz}, "not a power of two");
  refuses({128, 24, 10, 63, fp::Rounding::rz}, "not a power of two");
  refuses({16, 24, 6, 63, fp::Rounding::rz}, "W = 16 needs 7");
  refuses({8, 57, 6, 63, fp::Rounding::rz}, "beyond the 62-bit adder");
  refuses({8, 0, 6, 63, fp::Rounding::rz}, "kept bits");
  refuses({8, 24, 6, 63, fp::Rounding::rm}, "rz or rn");
  const auto f64 = mma::find_row(90, mma::Family::mma_sync, mma::Elem::f64, mma::Elem::f64);
  EXPECT_THROW(mma::custom_row(*f64, {8, 24, 6, 63, fp::Rounding::rz}), std::invalid_argument);
  EXPECT_EQ(mma::min_carry_bits(8), 6);  // 9 addends below 2^(B+2): 2^4 >= 9 over 2 bits of headroom
  EXPECT_EQ(mma::min_carry_bits(16), 7);
}

TEST(NumericsCost, YosysRowsOrLabelledEstimates) {
  const std::vector<sweep::SynthRow> synth = {{"bf16", "f32", "rz", 8, 24, 6, 63, 10000, 200},
                                              {"bf16", "f32", "rz", 16, 25, 7, 63, 20000, 300}};
  const sweep::Cost hit = sweep::cost_of(synth, mma::Elem::bf16, mma::Elem::f32, {8, 24, 6, 63, fp::Rounding::rz});
  EXPECT_EQ(hit.source, "yosys");
  EXPECT_EQ(hit.cells, 10000);
  // The line through (8 * 30, 10000) and (16 * 32, 20000) at 8 * 32.
  const sweep::Cost est = sweep::cost_of(synth, mma::Elem::bf16, mma::Elem::f32, {8, 26, 6, 63, fp::Rounding::rz});
  EXPECT_EQ(est.source, "estimate");
  EXPECT_EQ(est.cells, std::lround(10000 + (256.0 - 240) * 10000 / (512 - 240)));
  EXPECT_EQ(est.depth, 200);  // the measured set of the same W
  EXPECT_EQ(sweep::cost_of(synth, mma::Elem::f16, mma::Elem::f32, {8, 24, 6, 63, fp::Rounding::rz}).source, "none");
  EXPECT_EQ(sweep::shipped_label(mma::Elem::bf16, mma::Elem::f32, {8, 24, 6, 63, fp::Rounding::rz}), "sm_80-89");
  EXPECT_EQ(sweep::shipped_label(mma::Elem::bf16, mma::Elem::f32, {16, 25, 7, 63, fp::Rounding::rz}),
            "sm_90+sm_100-121");
  EXPECT_EQ(sweep::shipped_label(mma::Elem::bf16, mma::Elem::f32, {8, 26, 6, 63, fp::Rounding::rz}), "");
}

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  try {
    sweep::load_numerics_spec_text(text, "s.yaml");
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const models::ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("s.yaml:" + where, 0), 0u) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(NumericsSpec, ErrorsNameTheLineColumnAndKey) {
  const std::string head = "mode: numerics\nrow: {target: sm_80, in: bf16, out: f32}\n";
  const std::string gemm = "gemms: [{m: 2, n: 2, k: 16}]\n";
  expect_error(head + "parameters: {block_width: [8, 12]}\n" + gemm, "3:", "not a power of two");
  expect_error(head + "parameters: {block_width: 16, carry_bits: 6}\n" + gemm, "3:", "W = 16 needs 7");
  expect_error(head + "parameters: {kept_bits: [24, 24]}\n" + gemm, "3:30: key 'parameters.kept_bits[1]'",
               "given twice");
  expect_error(head + "parameters: {rounding: [rz, rm]}\n" + gemm, "3:29: key 'parameters.rounding[1]'", "rz or rn");
  expect_error(head + "parameters: {width: [8]}\n" + gemm, "3:14: key 'parameters.width'", "unknown key");
  expect_error(head + "parameters: {kept_bits: 24}\ngemms: [{m: 2, n: 2, k: 16, distribution: cauchy}]\n",
               "4:43: key 'gemms[0].distribution'", "expected normal, uniform or positive");
  expect_error(head + "parameters: {kept_bits: 24}\ngemms: [{m: 2, n: 2}]\n", "4:9: key 'gemms[0].k'", "missing");
  expect_error("mode: numerics\nrow: {target: sm_90, in: f64, out: f64}\nparameters: {}\n" + gemm, "2:6: key 'row'",
               "not a one-instruction block-FMA row");
  expect_error("mode: numerics\nrow: {target: sm_75, in: bf16, out: f32}\nparameters: {}\n" + gemm, "2:6: key 'row'",
               "no mma.sync bf16 -> f32 row on sm_75");
  expect_error(head + "parameters: {}\n" + gemm + "synth: [nowhere.csv]\n", "5:9: key 'synth[0]'", "cannot read");
  expect_error(head + "parameters: {}\n" + gemm + "plot: cells\n", "5:7: key 'plot'", "expected max_ulp");
}

TEST(NumericsSpec, TheExampleSpecLoads) {
  const sweep::NumericsSpec s = sweep::load_numerics_spec(kSource + "/configs/sweeps/bf16_accumulator_bits.yaml");
  EXPECT_EQ(s.gemms.at(0).k, 4096);
  EXPECT_EQ(s.points.size(), 2u * 7 * 2);
  EXPECT_TRUE(sweep::is_numerics_spec_file(kSource + "/configs/sweeps/bf16_accumulator_bits.yaml"));
  EXPECT_FALSE(sweep::is_numerics_spec_file(kSource + "/configs/sweeps/arch_warps.yaml"));
}

// The example spec at K = 64 through run_sweep: every point ok, the shipped
// sets labelled and costed by Yosys, the rest costed too; a second run
// resumes with nothing to do.
TEST(NumericsRun, TheExampleSpecRunsSmall) {
  testing_support::ScratchDir dir;
  std::ifstream in(kSource + "/configs/sweeps/bf16_accumulator_bits.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto replace_all = [&](const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace_all("m: 64, n: 64, k: 4096", "m: 4, n: 4, k: 64");
  replace_all("../../docs/", kSource + "/docs/");
  const std::string spec = dir.path() + "/small.yaml";
  std::ofstream(spec) << text;
  sweep::RunOptions o;
  o.spec_path = spec;
  o.out_dir = dir.path() + "/out";
  o.quiet = true;
  std::ostringstream out, err;
  ASSERT_EQ(sweep::run_sweep(o, out, err), 0) << err.str();
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0) {
    for (const char* m : {"max_ulp", "mean_ulp", "rel_error"})
      EXPECT_TRUE(std::ifstream(o.out_dir + "/" + m + "_vs_cells.png").good()) << m << "\n" << out.str();
  }
  const sweep::Table t = sweep::read_table(o.out_dir);
  ASSERT_EQ(t.rows.size(), 28u);
  int shipped = 0;
  for (const auto& r : t.rows) {
    EXPECT_EQ(r[t.column("status")], "ok");
    EXPECT_FALSE(r[t.column("cells")].empty());
    if (!r[t.column("shipped")].empty()) {
      ++shipped;
      EXPECT_EQ(r[t.column("cost_source")], "yosys");
    }
  }
  EXPECT_EQ(shipped, 4);  // W8 B24 and W16 B25, on each workload
  std::ostringstream out2;
  ASSERT_EQ(sweep::run_sweep(o, out2, err), 0);
  EXPECT_NE(out2.str().find("28 done before, 0 run now"), std::string::npos) << out2.str();
}

}  // namespace
