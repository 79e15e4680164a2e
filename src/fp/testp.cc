// testp: floating-point class tests (PTX ISA 9.7.4.1).
#include "fp/ops.h"

namespace ptxfu::fp {

uint64_t testp(const Format& f, TestClass c, uint64_t a) {
  const Class k = classify(f, a);
  switch (c) {
    case TestClass::finite: return k != Class::inf && k != Class::nan;
    case TestClass::infinite: return k == Class::inf;
    case TestClass::number: return k != Class::nan;
    case TestClass::notanumber: return k == Class::nan;
    case TestClass::normal: return k == Class::normal || k == Class::zero;  // "zero is normal", says PTX
    case TestClass::subnormal: return k == Class::subnormal;
  }
  return 0;
}

}  // namespace ptxfu::fp
