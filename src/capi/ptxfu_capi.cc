#include "capi/ptxfu.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exec/execute.h"
#include "isa/decode.h"
#include "isa/table.h"
#include "ptxfu/ptxfu.hpp"

namespace {

thread_local std::string last_error;

int fail(int status, std::string message) {
  last_error = std::move(message);
  return status;
}

// Rows of num_src operands to one column per operand (column k at k * stride),
// one pass over the rows; NumSrc a constant so the inner loop unrolls. The
// widths are checked in the same pass, on values already in registers: true
// when an operand has a bit of `over` set.
template <unsigned NumSrc>
bool to_columns(const uint64_t* rows, uint32_t m, const uint64_t* over, uint64_t* columns, size_t stride) {
  uint64_t any = 0;
  for (uint32_t i = 0; i < m; ++i)
    for (unsigned k = 0; k < NumSrc; ++k) {
      const uint64_t v = rows[static_cast<size_t>(i) * NumSrc + k];
      any |= v & over[k];
      columns[k * stride + i] = v;
    }
  return any != 0;
}

bool to_columns(const uint64_t* rows, unsigned num_src, uint32_t m, const uint64_t* over, uint64_t* columns,
                size_t stride) {
  switch (num_src) {
    case 1: return to_columns<1>(rows, m, over, columns, stride);
    case 2: return to_columns<2>(rows, m, over, columns, stride);
    case 3: return to_columns<3>(rows, m, over, columns, stride);
    case 4: return to_columns<4>(rows, m, over, columns, stride);
    default: return false;
  }
}

// The message for the first too-wide operand of a block whose first vector is i0.
std::string first_too_wide(const char* op, const ptxfu::Form& form, const uint64_t* rows, unsigned num_src, uint32_t m,
                           uint32_t i0) {
  for (uint32_t i = 0; i < m; ++i)
    for (unsigned k = 0; k < num_src; ++k) {
      const unsigned bits = form.source_bits(k);
      if (const uint64_t v = rows[static_cast<size_t>(i) * num_src + k]; bits < 64 && v >> bits)
        return fmt::format("{}: vector {}: operand {} 0x{:x} does not fit in {} bits", op, i0 + i, k + 1, v, bits);
    }
  return {};
}

// A form as the array entry point runs it: checked once, and where the
// core's float executor takes it whole, the decoded instruction for it.
struct ArrayForm {
  std::string op;
  unsigned num_src = 0;
  std::optional<ptxfu::Form> form;
  ptxfu::isa::Instr instr;
  bool float_path = false;  // one destination, no carry: exec::execute_float_many
  uint64_t over[4] = {};    // the bits that no operand k may have
};

// The form of the last call on this thread: a caller evaluates one form over
// many arrays, and decoding it costs as much as a few thousand vectors.
const ArrayForm& form_of(const char* op, unsigned num_src) {
  using namespace ptxfu;
  thread_local ArrayForm last;
  if (last.form && last.num_src == num_src && last.op == op) return last;
  last.form.reset();
  last.form.emplace(op, num_src);  // throws ptxfu::Error
  last.op = op;
  last.num_src = num_src;
  isa::Diagnostic d;
  static const isa::Capabilities newest = isa::capabilities_of(isa::newest_target(), isa::kNewestPtx);
  last.float_path = isa::check_form(op, num_src, newest, 1, last.instr, d) && last.instr.row &&
                    last.instr.row->executor == isa::Executor::floating && isa::num_dests(last.instr) == 1 &&
                    !isa::writes_carry(last.instr);
  for (unsigned k = 0; k < num_src; ++k) {
    const unsigned bits = last.form->source_bits(k);
    last.over[k] = bits < 64 ? ~uint64_t{0} << bits : 0;
  }
  return last;
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
  if (!isa::check_form(op, num_src, newest, 1, instr, d))
    return fail(PTXFU_BAD_FORM, fmt::format("{}: {}", op, d.message));
  uint64_t lane[4] = {};
  for (unsigned k = 0; k < num_src; ++k) {
    const unsigned bits = isa::src_bits(instr, k);
    if (bits < 64 && (src[k] >> bits))
      return fail(PTXFU_BAD_OPERAND,
                  fmt::format("{}: operand {} 0x{:x} does not fit in {} bits", op, k + 1, src[k], bits));
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
extern "C" int ptxfu_eval_array(const char* op, unsigned num_src, uint32_t n, const uint64_t* src, const int* carry_in,
                                uint64_t* results, int* carry_out) {
  last_error.clear();
  if (!op || (n > 0 && (!results || (num_src > 0 && !src))) || num_src > 4)
    return fail(PTXFU_BAD_FORM, "bad arguments");
  const ArrayForm* af = nullptr;
  try {
    af = &form_of(op, num_src);
  } catch (const ptxfu::Error& e) {
    return fail(PTXFU_BAD_FORM, fmt::format("{}: {}", op, e.what()));
  }
  // In blocks that stay in the L1 cache, each operand copied out to a
  // contiguous column, so that the core's array form runs at its contiguous
  // (vectorised) speed, its widths checked in the same pass; the carry flags
  // as bytes, as eval_many takes them. The float forms go to the core's float
  // executor directly: eval_many would check the widths a second time.
  constexpr uint32_t kBlock = 512;
  constexpr size_t kColumnStride = kBlock + 8;  // columns apart, so that they do not alias one another in the cache
  alignas(64) uint64_t columns[kColumnStride * 4];
  const uint64_t* sources[4] = {};
  const ptrdiff_t strides[4] = {1, 1, 1, 1};
  for (unsigned k = 0; k < num_src; ++k) sources[k] = columns + k * kColumnStride;
  uint8_t cin[kBlock], cout[kBlock];
  for (uint32_t i0 = 0; i0 < n; i0 += kBlock) {
    const uint32_t m = n - i0 < kBlock ? n - i0 : kBlock;
    const uint64_t* block = src + static_cast<size_t>(i0) * num_src;
    if (to_columns(block, num_src, m, af->over, columns, kColumnStride))
      return fail(PTXFU_BAD_OPERAND, first_too_wide(op, *af->form, block, num_src, m, i0));
    if (af->float_path && ptxfu::exec::execute_float_many(af->instr, m, sources, strides, results + i0)) {
      if (carry_out) std::fill(carry_out + i0, carry_out + i0 + m, 0);
      continue;
    }
    if (carry_in)
      for (uint32_t i = 0; i < m; ++i) cin[i] = carry_in[i0 + i] != 0;
    try {
      af->form->eval_many(m, sources, strides, carry_in ? cin : nullptr, 1, results + i0, nullptr,
                          carry_out ? cout : nullptr);
    } catch (const ptxfu::Error& e) {  // unreachable after the width check above
      return fail(PTXFU_BAD_OPERAND, fmt::format("{}: {}", op, e.what()));
    }
    if (carry_out)
      for (uint32_t i = 0; i < m; ++i) carry_out[i0 + i] = cout[i];
  }
  return PTXFU_OK;
}

namespace {

// The instruction, or a status and message.
int make_mma(const char* instruction, const char* target, std::optional<ptxfu::MmaInstruction>& out) {
  if (!instruction || !target) return fail(PTXFU_BAD_FORM, "bad arguments");
  try {
    out.emplace(instruction, target);
  } catch (const ptxfu::Error& e) {
    return fail(PTXFU_BAD_FORM, e.what());
  }
  return PTXFU_OK;
}

}  // namespace

extern "C" int ptxfu_mma_shape(const char* instruction, const char* target, int* m, int* n, int* k) {
  last_error.clear();
  std::optional<ptxfu::MmaInstruction> inst;
  if (const int status = make_mma(instruction, target, inst)) return status;
  if (m) *m = inst->m();
  if (n) *n = inst->n();
  if (k) *k = inst->k();
  return PTXFU_OK;
}

extern "C" int ptxfu_matmul(const char* instruction, const char* target, uint32_t m, uint32_t n, uint32_t k,
                            const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d) {
  last_error.clear();
  std::optional<ptxfu::MmaInstruction> inst;
  if (const int status = make_mma(instruction, target, inst)) return status;
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) return fail(PTXFU_BAD_SHAPE, "matrix sizes beyond 2^31 - 1");
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  try {
    inst->check_shapes(mi, ki, ki, ni, mi, ni, true);
  } catch (const ptxfu::Error& e) {
    return fail(PTXFU_BAD_SHAPE, e.what());
  }
  if (!a || !b || !c || !d) return fail(PTXFU_BAD_FORM, "bad arguments");
  try {
    inst->matmul(mi, ni, ki, a, b, c, d);
  } catch (const ptxfu::Error& e) {
    return fail(PTXFU_BAD_OPERAND, e.what());
  }
  return PTXFU_OK;
}

extern "C" int ptxfu_mma(const char* instruction, const char* target, const uint64_t* a, const uint64_t* b,
                         const uint64_t* c, uint64_t* d) {
  int m = 0, n = 0, k = 0;
  if (const int status = ptxfu_mma_shape(instruction, target, &m, &n, &k)) return status;
  return ptxfu_matmul(instruction, target, static_cast<uint32_t>(m), static_cast<uint32_t>(n), static_cast<uint32_t>(k),
                      a, b, c, d);
}

extern "C" const char* ptxfu_last_error(void) { return last_error.c_str(); }
