#include "exec/execute.h"

#include <stdexcept>
#include <string>

#include "isa/forms.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

using Executor = bool (*)(const isa::Instr&, const uint64_t*, bool, Result&);

bool run_int(const isa::Instr& in, const uint64_t* s, bool c, Result& r) { return execute_int(in, s, c, r); }
bool run_approx(const isa::Instr& in, const uint64_t* s, bool, Result& r) { return execute_approx(in, s, r); }
bool run_float(const isa::Instr& in, const uint64_t* s, bool, Result& r) { return execute_float(in, s, r); }
bool run_compare(const isa::Instr& in, const uint64_t* s, bool, Result& r) { return execute_compare(in, s, r); }
bool run_convert(const isa::Instr& in, const uint64_t* s, bool, Result& r) { return execute_convert(in, s, r); }
bool run_move(const isa::Instr& in, const uint64_t* s, bool, Result& r) { return execute_move(in, s, r); }

[[noreturn]] void no_executor(const isa::Instr& in) {
  // Unreachable for a legal form: the tests run every form of the table.
  throw std::logic_error("no executor for " + isa::spell(in));
}

// The row names its executor; this maps the names to the functions.
Executor executor_for(const isa::Instr& in) {
  if (!in.row) no_executor(in);
  switch (in.row->executor) {
    case isa::Executor::integer: return run_int;
    case isa::Executor::floating: return run_float;
    case isa::Executor::approx: return run_approx;
    case isa::Executor::compare: return run_compare;
    case isa::Executor::convert: return run_convert;
    case isa::Executor::move: return run_move;
  }
  return run_int;
}

}  // namespace

fp::Rounding rounding_of(const isa::Instr& in) {
  if (in.has(isa::Mod::rz)) return fp::Rounding::rz;
  if (in.has(isa::Mod::rm)) return fp::Rounding::rm;
  if (in.has(isa::Mod::rp)) return fp::Rounding::rp;
  return fp::Rounding::rn;
}

bool is_approx_form(const isa::Instr& in) { return in.row && in.row->executor == isa::Executor::approx; }

Result execute(const isa::Instr& instr, const uint64_t* src, bool carry_in) {
  Result r;
  if (!executor_for(instr)(instr, src, carry_in, r)) no_executor(instr);
  return r;
}

void execute_lanes(const isa::Instr& instr, LaneSources src, unsigned lanes, uint32_t active, uint32_t carry_in,
                   uint64_t* results, uint32_t& carry_out) {
  if (active == 0) return;
  const Executor run = executor_for(instr);
  if (run == run_float) {
    if (!execute_float_lanes(instr, src, lanes, active, results)) no_executor(instr);
    return;
  }
  if (run == run_int && execute_int_lanes(instr, src, lanes, active, results)) return;
  if (run == run_compare && execute_compare_lanes(instr, src, lanes, active, results)) return;
  const unsigned sources = instr.num_src < 4 ? instr.num_src : 4;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (!(active >> lane & 1)) continue;
    uint64_t s[4] = {};
    for (unsigned k = 0; k < sources; ++k) s[k] = src[k][lane];
    Result r;
    if (!run(instr, s, (carry_in >> lane) & 1, r)) no_executor(instr);
    results[lane] = r.value;
    carry_out |= static_cast<uint32_t>(r.carry_out) << lane;
  }
}

}  // namespace ptxfu::exec
