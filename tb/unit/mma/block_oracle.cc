#include "block_oracle.h"

#include <mpfr.h>

#include <algorithm>
#include <climits>
#include <cmath>

namespace ptxfu::mma::test {
namespace {

constexpr mpfr_prec_t kExact = 2200;  // doubles span 2^-1074 .. 2^1024

int emin_of(int exp_bits) { return 2 - (1 << (exp_bits - 1)); }

mpfr_rnd_t to_mpfr(oracle::Rnd r) {
  switch (r) {
    case oracle::Rnd::rn: return MPFR_RNDN;
    case oracle::Rnd::rz: return MPFR_RNDZ;
    case oracle::Rnd::rm: return MPFR_RNDD;
    case oracle::Rnd::rp: return MPFR_RNDU;
  }
  return MPFR_RNDN;
}

// The exponent an addend aligns by: floor(log2 |x|), not below the format's emin.
int align_exp(double x, int emin) { return std::max(std::ilogb(x), emin); }

// x rounded to the output format (precision and range, subnormals) under
// `rnd`, as a double.
// MPFR's recipe: round to the precision in the wide range, then narrow the
// range (mpfr_check_range: overflow, underflow) and round again at the
// subnormal quantum (mpfr_subnormalize, free of double rounding).
double round_out(mpfr_t x, const Rule& r, oracle::Rnd rnd) {
  const mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
  const int emin = emin_of(r.out.exp_bits), emax = (1 << (r.out.exp_bits - 1)) - 1;
  mpfr_t y;
  mpfr_init2(y, r.out.frac_bits + 1);
  int inex = mpfr_set(y, x, to_mpfr(rnd));
  mpfr_set_emin(emin - r.out.frac_bits + 1);
  mpfr_set_emax(emax + 1);
  inex = mpfr_check_range(y, inex, to_mpfr(rnd));
  mpfr_subnormalize(y, inex, to_mpfr(rnd));
  const double v = mpfr_get_d(y, MPFR_RNDN);
  mpfr_clear(y);
  mpfr_set_emin(old_min);
  mpfr_set_emax(old_max);
  return v;
}

// The products and c, each cut to a multiple of 2^(e - kept), summed
// exactly into `sum` (precision kExact) and cut to sum_bits. False when the
// sum is zero.
bool aligned_sum(const Rule& r, const double* a, const double* b, int n, double c, int e, mpfr_t sum) {
  mpfr_t t;
  mpfr_init2(t, kExact);
  mpfr_set_zero(sum, 1);
  for (int k = 0; k <= n; ++k) {
    mpfr_set_d(t, k < n ? a[k] : c, MPFR_RNDN);
    if (k < n) mpfr_mul_d(t, t, b[k], MPFR_RNDN);  // exact at kExact bits
    mpfr_mul_2si(t, t, r.kept - e, MPFR_RNDN);     // in units of 2^(e - kept)
    mpfr_trunc(t, t);
    mpfr_add(sum, sum, t, MPFR_RNDN);
  }
  mpfr_clear(t);
  mpfr_mul_2si(sum, sum, e - r.kept, MPFR_RNDN);
  if (r.sum_bits >= 0 && !mpfr_zero_p(sum)) mpfr_prec_round(sum, r.sum_bits + 1, MPFR_RNDZ);
  return !mpfr_zero_p(sum);
}

// One block: returns the result's value.
double oracle_block(const Rule& r, const double* a, const double* b, int n, double c) {
  const int in_emin = emin_of(r.align_exp_bits ? r.align_exp_bits : r.in.exp_bits);
  const int out_emin = emin_of(r.out.exp_bits);
  int e = INT_MIN;
  for (int k = 0; k < n; ++k) {
    if (a[k] * b[k] != 0) e = std::max(e, align_exp(a[k], in_emin) + align_exp(b[k], in_emin));
  }
  if (c != 0) e = std::max(e, align_exp(c, out_emin));
  if (e == INT_MIN) return 0.0;
  mpfr_t sum;
  mpfr_init2(sum, kExact);
  aligned_sum(r, a, b, n, c, e, sum);
  const double v = round_out(sum, r, r.rnd);
  mpfr_clear(sum);
  return v == 0 ? 0.0 : v;  // +0, also where a negative sum rounds to zero
}

}  // namespace

double decode_input(const InFormat& f, uint64_t bits) {
  const uint64_t frac = bits & ((uint64_t{1} << f.frac_bits) - 1);
  const int biased = static_cast<int>((bits >> f.frac_bits) & ((1u << f.exp_bits) - 1));
  const bool neg = (bits >> (f.exp_bits + f.frac_bits)) & 1;
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const double m = biased == 0 ? static_cast<double>(frac) : static_cast<double>(frac | (uint64_t{1} << f.frac_bits));
  const double v = std::ldexp(m, (biased == 0 ? 1 : biased) - bias - f.frac_bits);
  return neg ? -v : v;
}

uint64_t oracle_chain(const Rule& rule, const std::vector<double>& a, const std::vector<double>& b, double c) {
  const int n = static_cast<int>(a.size());
  std::vector<double> x, y;  // in instruction order
  const int parts = rule.k_group > 0 && rule.k_split > 1 && n % (rule.k_split * rule.k_group) == 0 ? rule.k_split : 1;
  for (int part = 0; part < parts; ++part) {
    for (int k = 0; k < n; ++k) {
      if (parts == 1 || (k / rule.k_group) % parts == part) x.push_back(a[k]), y.push_back(b[k]);
    }
  }
  double acc = rule.c_apart ? 0.0 : c;
  const int len = n / parts;  // one instruction's k
  for (int start = 0; start < n; start += len) {
    for (int k = start; k < start + len; k += rule.width)
      acc = oracle_block(rule, &x[k], &y[k], std::min(rule.width, start + len - k), acc);
  }
  if (rule.c_apart) {
    mpfr_t sum;
    mpfr_init2(sum, kExact);
    mpfr_set_d(sum, acc, MPFR_RNDN);
    mpfr_add_d(sum, sum, c, MPFR_RNDN);  // exact at kExact bits
    const bool exact_zero = mpfr_zero_p(sum) && !(std::signbit(acc) && std::signbit(c));
    acc = exact_zero ? 0.0 : round_out(sum, rule, rule.c_rnd);
    mpfr_clear(sum);
  }
  return oracle::encode(rule.out, acc);
}

}  // namespace ptxfu::mma::test
