// The floating-point executor: maps a decoded instruction (op, types,
// modifiers) onto the fp core. One Policy per instruction, built here from
// the modifiers; the core applies it.
#include "exec/execute.h"
#include "fp/ops.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

using isa::Mod;
using isa::Op;
using isa::Type;

fp::Policy policy(const isa::Instr& in) {
  fp::Policy p;
  p.rnd = rounding_of(in);
  p.ftz = in.has(Mod::ftz);
  p.sat = in.has(Mod::sat);
  p.relu = in.has(Mod::relu);
  p.oob = in.has(Mod::oob);
  return p;
}

fp::TestClass testp_class(const isa::Instr& in) {
  if (in.has(Mod::finite)) return fp::TestClass::finite;
  if (in.has(Mod::infinite)) return fp::TestClass::infinite;
  if (in.has(Mod::number)) return fp::TestClass::number;
  if (in.has(Mod::notanumber)) return fp::TestClass::notanumber;
  if (in.has(Mod::normal)) return fp::TestClass::normal;
  return fp::TestClass::subnormal;
}

// One lane of the operation `op` (the form's) on lane operands `s`. Inline,
// so that a loop over one op folds the dispatch away.
[[gnu::always_inline]] inline uint64_t lane(Op op, const isa::Instr& in, const fp::Format& f, const fp::Policy& p,
                                            const uint64_t* s) {
  const fp::MinMaxMode mm{in.has(Mod::nan), in.has(Mod::xorsign), in.has(Mod::abs)};
  switch (op) {
    case Op::add: return fp::add(f, s[0], s[1], p);
    case Op::sub: return fp::sub(f, s[0], s[1], p);
    case Op::mul: return fp::mul(f, s[0], s[1], p);
    case Op::fma:
    case Op::mad: return fp::fma(f, s[0], s[1], s[2], p);
    case Op::div: return fp::div(f, s[0], s[1], p);
    case Op::rcp: return fp::rcp(f, s[0], p);
    case Op::sqrt: return fp::sqrt(f, s[0], p);
    case Op::abs: return fp::abs(f, s[0], p);
    case Op::neg: return fp::neg(f, s[0], p);
    case Op::min: return in.num_src == 3 ? fp::min3(f, s[0], s[1], s[2], p, mm) : fp::min(f, s[0], s[1], p, mm);
    case Op::max: return in.num_src == 3 ? fp::max3(f, s[0], s[1], s[2], p, mm) : fp::max(f, s[0], s[1], p, mm);
    case Op::copysign: return fp::copysign(f, s[0], s[1]);
    case Op::testp: return fp::testp(f, testp_class(in), s[0]);
    default: return 0;
  }
}

// Everything execute_float derives from the decoded form, derived once so
// that a warp's 32 lanes only do arithmetic.
struct FloatPlan {
  const fp::Format* f = nullptr;
  const fp::Format* src_f = nullptr;  // mixed precision: the narrow source format
  fp::Policy p;
  unsigned lanes = 1;
  unsigned w = 0;
  uint64_t mask = 0;
};

bool plan_float(const isa::Instr& in, FloatPlan& plan) {
  plan.f = isa::info(in.type).format;
  if (plan.f == nullptr || !in.row || in.row->executor != isa::Executor::floating) return false;
  plan.p = policy(in);
  const fp::Format* src_f = isa::info(in.type2).format;
  plan.src_f = in.type2 != in.type ? src_f : nullptr;
  if (plan.src_f && in.op != Op::add && in.op != Op::sub && in.op != Op::fma) return false;
  plan.lanes = isa::info(in.type).lanes;
  plan.w = isa::lane_bits(in.type);
  plan.mask = plan.w == 64 ? ~uint64_t{0} : (uint64_t{1} << plan.w) - 1;
  return true;
}

uint64_t run_float(const isa::Instr& in, const FloatPlan& plan, const uint64_t* src) {
  if (plan.src_f) {  // mixed precision: add/sub/fma .f32.{f16,bf16}
    switch (in.op) {
      case Op::add: return fp::add_mixed(*plan.src_f, *plan.f, src[0], src[1], plan.p);
      case Op::sub: return fp::sub_mixed(*plan.src_f, *plan.f, src[0], src[1], plan.p);
      default: return fp::fma_mixed(*plan.src_f, *plan.f, src[0], src[1], src[2], plan.p);
    }
  }
  if (plan.lanes == 1) return lane(in.op, in, *plan.f, plan.p, src) & plan.mask;
  uint64_t value = 0;
  for (unsigned l = 0; l < plan.lanes; ++l) {
    uint64_t s[3] = {0, 0, 0};
    for (unsigned i = 0; i < in.num_src && i < 3; ++i) s[i] = (src[i] >> (l * plan.w)) & plan.mask;
    value |= (lane(in.op, in, *plan.f, plan.p, s) & plan.mask) << (l * plan.w);
  }
  return value;
}

}  // namespace

bool execute_float(const isa::Instr& in, const uint64_t* src, Result& out) {
  FloatPlan plan;
  if (!plan_float(in, plan)) return false;
  out.value = run_float(in, plan, src);
  return true;
}

namespace {

// The ops the core has array forms for (fp::add_n ...); packs use them lane by lane.
bool is_array_op(const isa::Instr& in, const FloatPlan& plan) {
  const bool op = in.op == Op::add || in.op == Op::sub || in.op == Op::mul || in.op == Op::fma || in.op == Op::mad;
  return op && !plan.src_f;
}

// n elements of one planned form (element i of source k at src[k][i * strides[k]]).
void run_float_many(const isa::Instr& in, const FloatPlan& plan, size_t n, const uint64_t* const* src,
                    const ptrdiff_t* strides, uint64_t* results);

}  // namespace

bool execute_float_lanes(const isa::Instr& in, LaneSources src, unsigned lanes, uint32_t active, uint64_t* results) {
  FloatPlan plan;
  if (!plan_float(in, plan)) return false;
  if (lanes <= kMaxLanes && is_array_op(in, plan)) {
    // A warp at once through the array forms; every lane is computed (the
    // arithmetic has no side effects) and the active ones kept.
    const ptrdiff_t strides[4] = {1, 1, 1, 1};
    const uint32_t all_lanes = lanes >= 32 ? ~uint32_t{0} : (uint32_t{1} << lanes) - 1;
    if ((active & all_lanes) == all_lanes) {
      run_float_many(in, plan, lanes, src, strides, results);
      return true;
    }
    uint64_t all[kMaxLanes];
    run_float_many(in, plan, lanes, src, strides, all);
    for (unsigned lane = 0; lane < lanes; ++lane)
      if (active >> lane & 1) results[lane] = all[lane];
    return true;
  }
  const unsigned sources = in.num_src < 4 ? in.num_src : 4;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (!(active >> lane & 1)) continue;
    uint64_t s[4] = {};
    for (unsigned k = 0; k < sources; ++k) s[k] = src[k][lane];
    results[lane] = run_float(in, plan, s);
  }
  return true;
}

namespace {

// n scalar lanes of one op through the core's array forms (fp::add_n ...):
// contiguous operands directly, others (strided, broadcast) gathered in
// blocks.
template <Op kOp, unsigned kSources>
void scalar_lanes(const FloatPlan& plan, size_t n, const uint64_t* const* src, const ptrdiff_t* strides,
                  uint64_t* results) {
  const auto run = [&](size_t m, const uint64_t* const* s, uint64_t* d) {
    switch (kOp) {
      case Op::add: fp::add_n(*plan.f, m, s[0], s[1], d, plan.p); break;
      case Op::sub: fp::sub_n(*plan.f, m, s[0], s[1], d, plan.p); break;
      case Op::mul: fp::mul_n(*plan.f, m, s[0], s[1], d, plan.p); break;
      default: fp::fma_n(*plan.f, m, s[0], s[1], s[2], d, plan.p); break;
    }
  };
  bool contiguous = true;
  for (unsigned k = 0; k < kSources; ++k) contiguous &= strides[k] == 1;
  if (contiguous) return run(n, src, results);
  constexpr size_t kBlock = 512;
  uint64_t buf[kSources][kBlock];
  for (size_t i0 = 0; i0 < n; i0 += kBlock) {
    const size_t m = n - i0 < kBlock ? n - i0 : kBlock;
    const uint64_t* s[kSources];
    for (unsigned k = 0; k < kSources; ++k) {
      for (size_t i = 0; i < m; ++i) buf[k][i] = src[k][static_cast<ptrdiff_t>(i0 + i) * strides[k]];
      s[k] = buf[k];
    }
    run(m, s, results + i0);
  }
}

void array_form(const isa::Instr& in, const FloatPlan& plan, size_t n, const uint64_t* const* src,
                const ptrdiff_t* strides, uint64_t* results) {
  switch (in.op) {
    case Op::add: return scalar_lanes<Op::add, 2>(plan, n, src, strides, results);
    case Op::sub: return scalar_lanes<Op::sub, 2>(plan, n, src, strides, results);
    case Op::mul: return scalar_lanes<Op::mul, 2>(plan, n, src, strides, results);
    default: return scalar_lanes<Op::fma, 3>(plan, n, src, strides, results);
  }
}

// Packed forms (f16x2, bf16x2) through the same array forms: each lane of a
// block is unpacked into arrays of its own, computed, and packed back.
void packed_array_form(const isa::Instr& in, const FloatPlan& plan, size_t n, const uint64_t* const* src,
                       const ptrdiff_t* strides, uint64_t* results) {
  constexpr size_t kBlock = 512;
  const unsigned sources = in.op == Op::fma || in.op == Op::mad ? 3 : 2;
  uint64_t lane_src[3][kBlock];
  uint64_t lane_result[kBlock];
  const uint64_t* s[3] = {lane_src[0], lane_src[1], lane_src[2]};
  const ptrdiff_t unit[3] = {1, 1, 1};
  for (size_t i0 = 0; i0 < n; i0 += kBlock) {
    const size_t m = n - i0 < kBlock ? n - i0 : kBlock;
    for (size_t i = 0; i < m; ++i) results[i0 + i] = 0;
    for (unsigned l = 0; l < plan.lanes; ++l) {
      const unsigned shift = l * plan.w;
      for (unsigned k = 0; k < sources; ++k)
        for (size_t i = 0; i < m; ++i)
          lane_src[k][i] = (src[k][static_cast<ptrdiff_t>(i0 + i) * strides[k]] >> shift) & plan.mask;
      array_form(in, plan, m, s, unit, lane_result);
      for (size_t i = 0; i < m; ++i) results[i0 + i] |= (lane_result[i] & plan.mask) << shift;
    }
  }
}

void run_float_many(const isa::Instr& in, const FloatPlan& plan, size_t n, const uint64_t* const* src,
                    const ptrdiff_t* strides, uint64_t* results) {
  if (is_array_op(in, plan))  // the common arithmetic: the core's array forms
    return plan.lanes == 1 ? array_form(in, plan, n, src, strides, results)
                           : packed_array_form(in, plan, n, src, strides, results);
  const unsigned ns = in.num_src < 4 ? in.num_src : 4;
  uint64_t s[4] = {};
  for (size_t i = 0; i < n; ++i) {
    for (unsigned k = 0; k < ns; ++k) s[k] = src[k][static_cast<ptrdiff_t>(i) * strides[k]];
    results[i] = run_float(in, plan, s);
  }
}

}  // namespace

bool execute_float_many(const isa::Instr& in, size_t n, const uint64_t* const* src, const ptrdiff_t* strides,
                        uint64_t* results) {
  FloatPlan plan;
  if (!plan_float(in, plan)) return false;
  run_float_many(in, plan, n, src, strides, results);
  return true;
}

}  // namespace ptxfu::exec
