// The C++ API (ptxfu/ptxfu.hpp) over the core: the same decode, legality
// check, executors, check_source and cvt that the command line uses.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "exec/execute.h"
#include "fp/cvt.h"
#include "isa/check_source.h"
#include "isa/decode.h"
#include "isa/forms.h"
#include "isa/table.h"
#include "isa/target_options.h"
#include "ptxfu/ptxfu.hpp"

namespace ptxfu {
namespace {

constexpr unsigned kMaxSources = 7;  // as `ptxfu eval` reads a line: lop3.or has 5

isa::TargetOptions options_of(const Target& t) {
  isa::TargetOptions o;
  if (!t.name.empty()) o.target = t.name;
  if (!t.ptx_version.empty()) o.ptx_version = t.ptx_version;
  o.add_features = t.add_features;
  o.remove_features = t.remove_features;
  return o;
}

uint64_t width_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

const char* version() { return PTXFU_VERSION; }

// ---- eval

struct Form::Impl {
  isa::Instr instr;
  uint64_t mask[kMaxSources] = {};  // per source operand
  bool float_path = false;          // the float executor, one destination: execute_float_many
};

Form::Form(std::string_view mnemonic, unsigned num_sources, const Target& target) {
  std::string error;
  const auto caps = isa::resolve_capabilities(options_of(target), std::nullopt, std::nullopt, true, error);
  if (!caps) throw Error(error);
  auto impl = std::make_shared<Impl>();
  isa::Diagnostic d;
  if (num_sources > kMaxSources) throw Error("too many operands", 1);  // `ptxfu eval`'s words
  if (!isa::check_form(mnemonic, num_sources, *caps, 1, impl->instr, d)) throw Error(d.message, d.column);
  for (unsigned k = 0; k < num_sources; ++k) impl->mask[k] = width_mask(isa::src_bits(impl->instr, k));
  impl->float_path = impl->instr.row && impl->instr.row->executor == isa::Executor::floating &&
                     isa::num_dests(impl->instr) == 1 && !isa::writes_carry(impl->instr);
  impl_ = std::move(impl);
}

std::string Form::spelling() const { return isa::spell(impl_->instr); }
unsigned Form::num_sources() const { return impl_->instr.num_src; }
unsigned Form::source_bits(unsigned k) const { return k < impl_->instr.num_src ? isa::src_bits(impl_->instr, k) : 0; }
unsigned Form::dest_bits() const { return isa::dest_bits(impl_->instr); }
unsigned Form::num_dests() const { return isa::num_dests(impl_->instr); }
bool Form::reads_carry() const { return isa::reads_carry(impl_->instr); }
bool Form::writes_carry() const { return isa::writes_carry(impl_->instr); }

Form::Result Form::eval(std::initializer_list<uint64_t> sources, bool carry_in) const {
  if (sources.size() != impl_->instr.num_src)
    throw Error(fmt::format("'{}' takes {} source operands, not {}", spelling(), impl_->instr.num_src, sources.size()));
  return eval(sources.begin(), carry_in);
}

Form::Result Form::eval(const uint64_t* sources, bool carry_in) const {
  uint64_t src[kMaxSources] = {};
  for (unsigned k = 0; k < impl_->instr.num_src; ++k) {
    if (sources[k] & ~impl_->mask[k])
      throw Error(fmt::format("operand {} '0x{:x}' does not fit in {} bits", k + 1, sources[k], source_bits(k)));
    src[k] = sources[k];
  }
  const exec::Result r = exec::execute(impl_->instr, src, carry_in);
  return {r.value, r.second, r.carry_out};
}

void Form::eval_many(size_t n, const uint64_t* const* sources, const ptrdiff_t* strides, const uint8_t* carry_in,
                     ptrdiff_t carry_stride, uint64_t* value, uint64_t* second, uint8_t* carry) const {
  const isa::Instr& in = impl_->instr;
  const unsigned ns = in.num_src;
  for (unsigned k = 0; k < ns; ++k) {  // as eval(): an operand wider than its width is an error
    const uint64_t over = ~impl_->mask[k];
    if (over == 0) continue;
    uint64_t any = 0;
    if (strides[k] == 1) {  // contiguous: a loop the compiler vectorises
      for (size_t i = 0; i < n; ++i) any |= sources[k][i];
      any &= over;
    } else {
      for (size_t i = 0; i < n; ++i) any |= sources[k][static_cast<ptrdiff_t>(i) * strides[k]] & over;
    }
    if (any == 0) continue;
    for (size_t i = 0;; ++i)
      if (const uint64_t v = sources[k][static_cast<ptrdiff_t>(i) * strides[k]]; v & over)
        throw Error(fmt::format("operand {} '0x{:x}' does not fit in {} bits", k + 1, v, source_bits(k)));
  }
  if (impl_->float_path) {  // the form planned once for all n
    exec::execute_float_many(in, n, sources, strides, value);
    if (second) std::memset(second, 0, n * sizeof(uint64_t));
    if (carry) std::memset(carry, 0, n);
    return;
  }
  uint64_t src[kMaxSources] = {};
  for (size_t i = 0; i < n; ++i) {
    for (unsigned k = 0; k < ns; ++k) src[k] = sources[k][static_cast<ptrdiff_t>(i) * strides[k]];
    const bool c = carry_in && (carry_in[static_cast<ptrdiff_t>(i) * carry_stride] & 1);
    const exec::Result r = exec::execute(in, src, c);
    value[i] = r.value;
    if (second) second[i] = r.second;
    if (carry) carry[i] = r.carry_out ? 1 : 0;
  }
}

// ---- check

bool CheckResult::ok() const {
  for (const Verdict& v : verdicts)
    if (!v.ok) return false;
  return true;
}

CheckResult check(std::string_view text, const Target& target) {
  constexpr size_t kMaxLine = 64 * 1024;  // as `ptxfu check`
  isa::CheckOutcome o = isa::check_source(text, options_of(target), kMaxLine);
  if (o.usage_error) throw Error(o.usage_message);
  CheckResult r;
  r.module = o.module;
  r.verdicts.reserve(o.verdicts.size());
  for (auto& v : o.verdicts) r.verdicts.push_back({v.loc.line, v.loc.column, !v.error, std::move(v.message)});
  return r;
}

// ---- formats

namespace {

const fp::Format& row(const void* p) { return *static_cast<const fp::Format*>(p); }

// tf32 lives in the top of an f32 register (fp/format.h); the other rows in
// the low bits of theirs.
int register_shift(const fp::Format& f) { return &f == &fp::kTF32 ? fp::kF32.frac_bits - f.frac_bits : 0; }

double to_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

uint64_t from_double(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof d);
  return bits;
}

fp::Rounding core_rounding(Rounding r) {
  switch (r) {
    case Rounding::rz: return fp::Rounding::rz;
    case Rounding::rm: return fp::Rounding::rm;
    case Rounding::rp: return fp::Rounding::rp;
    case Rounding::rn: break;
  }
  return fp::Rounding::rn;
}

}  // namespace

std::string_view Format::name() const { return row(row_).name; }
int Format::exponent_bits() const { return row(row_).exp_bits; }
int Format::fraction_bits() const { return row(row_).frac_bits; }
int Format::width() const { return row(row_).width(); }
int Format::container_bits() const {
  const int w = width() + register_shift(row(row_));
  return w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
}
bool Format::has_sign() const { return row(row_).has_sign(); }
bool Format::has_infinity() const { return row(row_).has_inf(); }
bool Format::has_nan() const { return row(row_).has_nan(); }
bool Format::has_subnormals() const { return row(row_).min_biased() == 1 && row(row_).frac_bits > 0; }

uint64_t Format::max_bits() const { return row(row_).max_finite(false) << register_shift(row(row_)); }
uint64_t Format::min_normal_bits() const {
  const fp::Format& f = row(row_);
  return static_cast<uint64_t>(f.min_biased()) << f.frac_bits << register_shift(f);
}
std::optional<uint64_t> Format::min_subnormal_bits() const {
  if (!has_subnormals()) return std::nullopt;
  return uint64_t{1} << register_shift(row(row_));
}
std::optional<uint64_t> Format::nan_bits() const {
  if (!has_nan()) return std::nullopt;
  return row(row_).nan() << register_shift(row(row_));
}
double Format::max() const { return decode(max_bits()); }
double Format::min_normal() const { return decode(min_normal_bits()); }
std::optional<double> Format::min_subnormal() const {
  const auto b = min_subnormal_bits();
  return b ? std::optional<double>(decode(*b)) : std::nullopt;
}

double Format::decode(uint64_t bits) const {
  const fp::Format& f = row(row_);
  if (bits & ~(f.bits_mask() << register_shift(f)))
    throw Error(register_shift(f)
                    ? fmt::format("0x{:x} is not a {} bit pattern: its low {} bits must be zero", bits, f.name,
                                  register_shift(f))
                    : fmt::format("0x{:x} is not a {} bit pattern: it is {} bits wide", bits, f.name, f.width()));
  const uint64_t r = bits >> register_shift(f);
  return to_double(fp::cvt_float(f, fp::kF64, r, fp::CvtPolicy{}));
}

uint64_t Format::encode(double value, Rounding rounding, bool satfinite) const {
  const fp::Format& f = row(row_);
  fp::CvtPolicy p;
  p.rnd = core_rounding(rounding);
  p.satfinite = satfinite;
  return fp::cvt_float(fp::kF64, f, from_double(value), p) << register_shift(f);
}

void Format::decode_many(size_t n, const uint64_t* bits, double* values) const {
  for (size_t i = 0; i < n; ++i) values[i] = decode(bits[i]);
}

void Format::encode_many(size_t n, const double* values, uint64_t* bits, Rounding rounding, bool satfinite) const {
  for (size_t i = 0; i < n; ++i) bits[i] = encode(values[i], rounding, satfinite);
}

const std::vector<Format>& formats() {
  static const std::vector<Format> all = [] {
    std::vector<Format> v;
    for (const fp::Format* f : fp::kFormatTable) v.emplace_back(f);
    return v;
  }();
  return all;
}

const Format* find_format(std::string_view name) {
  for (const Format& f : formats())
    if (f.name() == name) return &f;
  return nullptr;
}

}  // namespace ptxfu
