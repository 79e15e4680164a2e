#include "approx/tables.h"

#include <cmath>

namespace ptxfu::approx {
namespace {

constexpr int kFrac = 30;      // fraction bits of the f32-class tables
constexpr int kTanhFrac = 26;  // fraction bits of the tanh tables

long double pi() { return std::acos(-1.0L); }

MufuTables build() {
  MufuTables t{QuadTable(
                   "rcp", [](long double u) { return 1.0L / (1.0L + u); }, 8, kFrac),
               QuadTable(
                   "sqrt_even", [](long double u) { return std::sqrt(1.0L + u); }, 7, kFrac),
               QuadTable(
                   "sqrt_odd", [](long double u) { return std::sqrt(2.0L * (1.0L + u)); }, 7, kFrac),
               QuadTable(
                   "rsqrt_even", [](long double u) { return 1.0L / std::sqrt(1.0L + u); }, 7, kFrac),
               QuadTable(
                   "rsqrt_odd", [](long double u) { return 1.0L / std::sqrt(2.0L * (1.0L + u)); }, 7, kFrac),
               QuadTable(
                   "ex2", [](long double u) { return std::exp2(u); }, 7, kFrac),
               QuadTable(
                   "lg2", [](long double u) { return std::log2(1.0L + u); }, 7, kFrac),
               QuadTable(
                   "sinc_q", [](long double u) { return u == 0 ? pi() / 2 : std::sin(pi() * u / 2) / u; }, 7, kFrac),
               QuadTable(
                   "cos_q", [](long double u) { return std::cos(pi() * u / 2); }, 7, kFrac),
               {}};
  for (int e = kTanhMinExp; e < kTanhMaxExp; ++e) {
    t.tanh.emplace_back(
        "tanh" + std::to_string(e), [e](long double u) { return std::tanh(std::ldexp(1.0L + u, e)); }, 5, kTanhFrac);
  }
  return t;
}

}  // namespace

const MufuTables& mufu_tables() {
  static const MufuTables tables = build();
  return tables;
}

}  // namespace ptxfu::approx
