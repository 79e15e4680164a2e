#include <gtest/gtest.h>
#include <sstream>
#include "cosim/cosim.h"
TEST(Cosim, Smoke) {
  ptxfu::cosim::CosimOptions o;
  o.op = "fma.rn.f16x2"; o.vectors = 100000; o.golden = "ref";
  std::ostringstream out;
  EXPECT_EQ(ptxfu::cosim::run_cosim(o, out), 0) << out.str();
  std::cout << out.str();
}
