#include "capi/ptxfu.h"

#include <string>

#include <fmt/format.h>

#include "exec/execute.h"
#include "isa/decode.h"
#include "isa/table.h"

namespace {

thread_local std::string last_error;

int fail(int status, std::string message) {
  last_error = std::move(message);
  return status;
}

}  // namespace

extern "C" int ptxfu_eval(const char* op, const uint64_t* src, unsigned num_src, int carry_in, uint64_t* result,
                          int* carry_out) {
  using namespace ptxfu;
  last_error.clear();
  if (!op || !result || (num_src > 0 && !src) || num_src > 4) return fail(PTXFU_BAD_FORM, "bad arguments");
  isa::Instr instr;
  isa::Diagnostic d;
  static const isa::Capabilities newest = isa::capabilities_of(isa::newest_target(), isa::kNewestPtx);
  if (!isa::check_form(op, num_src, newest, 1, instr, d)) return fail(PTXFU_BAD_FORM, fmt::format("{}: {}", op, d.message));
  uint64_t lane[4] = {};
  for (unsigned k = 0; k < num_src; ++k) {
    const unsigned bits = isa::src_bits(instr, k);
    if (bits < 64 && (src[k] >> bits))
      return fail(PTXFU_BAD_OPERAND, fmt::format("{}: operand {} 0x{:x} does not fit in {} bits", op, k + 1, src[k], bits));
    lane[k] = src[k];
  }
  const exec::Result r = exec::execute(instr, lane, carry_in != 0);
  *result = r.value;
  if (carry_out) *carry_out = r.carry_out ? 1 : 0;
  return PTXFU_OK;
}

extern "C" int ptxfu_eval1(const char* op, uint64_t a, uint64_t* d) { return ptxfu_eval(op, &a, 1, 0, d, nullptr); }
extern "C" int ptxfu_eval2(const char* op, uint64_t a, uint64_t b, uint64_t* d) {
  const uint64_t s[2] = {a, b};
  return ptxfu_eval(op, s, 2, 0, d, nullptr);
}
extern "C" int ptxfu_eval3(const char* op, uint64_t a, uint64_t b, uint64_t c, uint64_t* d) {
  const uint64_t s[3] = {a, b, c};
  return ptxfu_eval(op, s, 3, 0, d, nullptr);
}
extern "C" const char* ptxfu_last_error(void) { return last_error.c_str(); }
