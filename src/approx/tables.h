// The special function unit's interpolation tables, generated once on first
// use (thread-safe static initialisation) from the functions themselves; see
// quad_table.h for the method. Every table covers the reduced argument
// u in [0, 1):
//
//   table        f(u)                    index bits  frac bits  used by
//   rcp          1 / (1 + u)             8           30         rcp, div, rcp.f64
//   sqrt_even    sqrt(1 + u)             7           30         sqrt (even exponent)
//   sqrt_odd     sqrt(2 (1 + u))         7           30         sqrt (odd exponent)
//   rsqrt_even   1 / sqrt(1 + u)         7           30         rsqrt
//   rsqrt_odd    1 / sqrt(2 (1 + u))     7           30         rsqrt
//   ex2          2^u                     7           30         ex2 (all formats)
//   lg2          log2(1 + u)             7           30         lg2
//   sinc_q       sin(pi u / 2) / u       7           30         sin, cos
//                (pi/2 at u = 0; sin(pi u/2) = u * sinc_q(u) keeps relative
//                precision for small u)
//   cos_q        cos(pi u / 2)           7           30         sin, cos
//   tanh[k]      tanh(2^(k-8) (1 + u))   5           26         tanh, k = 0..11
//                (one table per binade [2^-8, 16))
#pragma once
#include <vector>

#include "approx/quad_table.h"

namespace ptxfu::approx {

struct MufuTables {
  QuadTable rcp;
  QuadTable sqrt_even;
  QuadTable sqrt_odd;
  QuadTable rsqrt_even;
  QuadTable rsqrt_odd;
  QuadTable ex2;
  QuadTable lg2;
  QuadTable sinc_q;
  QuadTable cos_q;
  std::vector<QuadTable> tanh;  // binade k covers |x| in [2^(k-8), 2^(k-7))
};

inline constexpr int kTanhMinExp = -8;  // below 2^-8, tanh(x) = x
inline constexpr int kTanhMaxExp = 4;   // from 2^4 on, tanh(x) = 1

const MufuTables& mufu_tables();

}  // namespace ptxfu::approx
