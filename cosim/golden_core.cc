// The core golden model: ptxfu::exec::execute, the same code `ptxfu eval` runs.
#include "cosim/golden.h"
#include "exec/execute.h"

namespace ptxfu::cosim {

Golden core_golden() {
  return [](const isa::Instr& in, const uint64_t* src) { return exec::execute(in, src, false).value; };
}

GoldenMany core_golden_many() {
  return
      [each = one_at_a_time(core_golden())](const isa::Instr& in, size_t n, const uint64_t* const* src, uint64_t* out) {
        const ptrdiff_t strides[3] = {1, 1, 1};
        if (!exec::execute_float_many(in, n, src, strides, out)) each(in, n, src, out);  // not a float form
      };
}

GoldenMany one_at_a_time(Golden golden) {
  return [golden = std::move(golden)](const isa::Instr& in, size_t n, const uint64_t* const* src, uint64_t* out) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t s[3] = {src[0][i], src[1][i], src[2][i]};
      out[i] = golden(in, s);
    }
  };
}

}  // namespace ptxfu::cosim
