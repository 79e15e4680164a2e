// ptxfu's C++ API: the exact core for C++ programs, with no core internals in
// sight. Installed as <ptxfu/ptxfu.hpp>; link ptxfu::core (CMake) or
// `pkg-config --libs ptxfu`. Small and stable on purpose: a checked form that
// evaluates bit patterns (one or many), `check` on PTX text, and the float
// formats of the core's table. The command line is built on the same code, so
// results and messages are those `ptxfu eval` and `ptxfu check` print.
//
//   ptxfu::Form fma("fma.rn.f16", 3);                  // decoded and checked once
//   uint64_t d = fma.eval({0x3c00, 0x4000, 0x3c00}).value;  // 0x4200
//   ptxfu::CheckResult r = ptxfu::check("add.sat.u32 %r1, %r2, %r3;", "sm_80");
//   double x = ptxfu::find_format("e4m3")->decode(0x7e);    // 448
//
//   ptxfu::MmaInstruction mma("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_80");
//   std::vector<uint64_t> d = mma.mma(a, b, c);             // D = A B + C, bit exact
//
// Bit patterns are zero-extended to 64 bits; x2 packs hold lane 0 in the low
// half. Every error is a ptxfu::Error whose what() is the command line's
// message (without its `error: LINE:COL:` prefix).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ptxfu/version.h"

namespace ptxfu {

// The library's version, "MAJOR.MINOR.PATCH" (PTXFU_VERSION in ptxfu/version.h
// is the version of the headers).
const char* version();

class Error : public std::runtime_error {
 public:
  Error(const std::string& message, unsigned column = 0) : std::runtime_error(message), column_(column) {}
  // Where in the form's spelling the problem is (1-based); 0 when not about a position.
  unsigned column() const { return column_; }

 private:
  unsigned column_;
};

// Which target's rules apply, as `ptxfu eval/check --target ... --ptx-version ...`.
struct Target {
  std::string name;                       // "sm_80", "sm_100a"; empty: the newest (eval) or the file's .target (check)
  std::string ptx_version;                // "8.6"; empty: the newest, or the file's .version
  std::vector<std::string> add_features;  // feature ids of the target's mask to add (hypothetical parts)
  std::vector<std::string> remove_features;  // ... or remove

  Target() = default;
  Target(const char* target_name) : name(target_name) {}
  Target(std::string target_name) : name(std::move(target_name)) {}
};

// ---- eval

// One instruction form, as `ptxfu eval` reads its opcode ("fma.rn.ftz.f16x2"),
// decoded and checked for a target once, then evaluated any number of times.
// Cheap to copy; safe to use from several threads.
class Form {
 public:
  // Throws Error when the spelling is not a legal form with `num_sources`
  // source operands on the target, or the target is unknown.
  Form(std::string_view mnemonic, unsigned num_sources, const Target& target = {});

  std::string spelling() const;  // canonical spelling
  unsigned num_sources() const;
  unsigned source_bits(unsigned k) const;  // width of source operand k
  unsigned dest_bits() const;              // width of the destination (1 for a predicate)
  // 2 when the form writes a second destination: setp's q (p|q), lop3's predicate.
  unsigned num_dests() const;
  bool reads_carry() const;   // addc, subc, madc: the carry flag is an input
  bool writes_carry() const;  // .cc forms

  struct Result {
    uint64_t value = 0;   // the destination's bits
    uint64_t second = 0;  // the second destination (0 or 1), where num_dests() == 2
    bool carry = false;   // the carry flag written, where writes_carry()
  };

  // One evaluation. Throws Error if there are not num_sources() operands or one
  // does not fit its width.
  Result eval(std::initializer_list<uint64_t> sources, bool carry_in = false) const;
  Result eval(const uint64_t* sources, bool carry_in = false) const;

  // `n` evaluations: element i reads sources[k][i * strides[k]] for each
  // source k (a stride of 0 repeats one value), carry_in[i * carry_stride]
  // when reads_carry() (nullptr: 0), and writes value[i], and second[i] and
  // carry[i] where they are not nullptr. Throws Error, before computing
  // anything, if an operand does not fit its width.
  void eval_many(size_t n, const uint64_t* const* sources, const ptrdiff_t* strides, const uint8_t* carry_in,
                 ptrdiff_t carry_stride, uint64_t* value, uint64_t* second, uint8_t* carry) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

// ---- check

struct Verdict {
  unsigned line = 0;    // 1-based
  unsigned column = 0;  // 1-based
  bool ok = false;
  std::string message;  // "ok", or ptxas's words
};

struct CheckResult {
  // True when the text is a module (it has a directive): then `verdicts` holds
  // its errors only, in source order, and none means ptxas would accept it.
  // Else the text is loose statements, each with one verdict.
  bool module = false;
  std::vector<Verdict> verdicts;
  bool ok() const;  // nothing was rejected
};

// `ptxfu check` on a text. Throws Error for a bad target (the options, not the
// file's .target directive: that is a verdict).
CheckResult check(std::string_view text, const Target& target = {});

// ---- formats

enum class Rounding { rn, rz, rm, rp };

// A float format of the core's table. Bit patterns are as a register holds
// them: tf32 in an f32 container (the low 13 bits zero), the FP8/FP6/FP4
// and UE8M0 element formats in the low bits.
class Format {
 public:
  std::string_view name() const;  // f16, bf16, f32, f64, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, ue8m0
  int exponent_bits() const;
  int fraction_bits() const;
  int width() const;           // bits of the encoding (sign, exponent, fraction)
  int container_bits() const;  // smallest of 8, 16, 32, 64 bits that holds it
  bool has_sign() const;
  bool has_infinity() const;
  bool has_nan() const;
  bool has_subnormals() const;
  uint64_t max_bits() const;                           // the largest finite value
  uint64_t min_normal_bits() const;                    // the smallest positive normal
  std::optional<uint64_t> min_subnormal_bits() const;  // the smallest positive subnormal
  std::optional<uint64_t> nan_bits() const;            // the canonical NaN results take
  double max() const;
  double min_normal() const;
  std::optional<double> min_subnormal() const;

  // The exact value of a bit pattern (every format's values are doubles).
  double decode(uint64_t bits) const;
  // `value` rounded once to the format. satfinite: infinities and overflow
  // become the largest finite value of the sign (NaN stays NaN); without it
  // overflow is what the format does (inf; NaN for e4m3; the largest finite
  // value for e2m1, e2m3 and e3m2, which encode neither).
  uint64_t encode(double value, Rounding rounding = Rounding::rn, bool satfinite = false) const;

  void decode_many(size_t n, const uint64_t* bits, double* values) const;
  void encode_many(size_t n, const double* values, uint64_t* bits, Rounding rounding = Rounding::rn,
                   bool satfinite = false) const;

  explicit Format(const void* row) : row_(row) {}  // used by formats(); take formats from there

 private:
  const void* row_;  // the core's row
};

// Every format of the core's table, in its order.
const std::vector<Format>& formats();
// nullptr when there is no format of that name.
const Format* find_format(std::string_view name);

// ---- matrix instructions (tensor cores)

// A matrix multiply-accumulate instruction (mma.sync, wmma.mma.sync,
// wgmma.mma_async) for a target, parsed once; D = A B + C bit-exactly, as
// the target's tensor core computes it. Elements are bit patterns,
// zero-extended: A row-major M x K, B row-major K x N, C and D row-major
// M x N; tf32 elements are f32 registers (the low 13 bits are ignored, as
// the hardware truncates them); integers their two's complement bits (s8 in
// 8 bits, s32 in 32). Cheap to copy; safe to use from several threads.
class MmaInstruction {
 public:
  // Throws Error for a malformed name or target, or an instruction the
  // target does not have (the message says where it exists).
  MmaInstruction(std::string_view name, std::string_view target);

  int m() const;
  int n() const;
  int k() const;
  std::string shape() const;  // "m16n8k16"
  // Element types as PTX spells them ("f16", "bf16", "tf32", "e4m3", "f32", "s8", "s32") ...
  std::string_view a_type() const;
  std::string_view b_type() const;
  std::string_view c_type() const;
  std::string_view d_type() const;
  // ... and the bits an element holds (tf32: 32, the register; e2m1: 4).
  unsigned a_bits() const;
  unsigned b_bits() const;
  unsigned c_bits() const;
  unsigned d_bits() const;

  // Throws Error, with the message the front ends print ("A is (16, 15);
  // m16n8k16 needs (16, 16)"), unless A is rows x cols a_rows x a_cols
  // etc. fit one instruction (chain = false) or, chain = true, a chain of
  // it: A M x K, B K x N, C M x N, K a multiple of k().
  void check_shapes(int a_rows, int a_cols, int b_rows, int b_cols, int c_rows, int c_cols, bool chain) const;

  // One instruction: A m() x k(), B k() x n(), C m() x n(). Throws Error
  // for another size or an element wider than its type.
  std::vector<uint64_t> mma(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                            const std::vector<uint64_t>& c) const;
  // A (M x K) B (K x N) + C as a simple kernel computes it: the instruction
  // chained over K in ascending k (each one's D the next one's C), M and N
  // tiled by its shape (every element of D is independent of the tiling).
  std::vector<uint64_t> matmul(int m, int n, int k, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                               const std::vector<uint64_t>& c) const;
  // The same on the caller's buffers (d may be c) of those sizes.
  void matmul(int m, int n, int k, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

// One instruction by name: MmaInstruction(instruction, target).mma(a, b, c). (Not
// ptxfu::mma: that is the core's namespace.)
std::vector<uint64_t> multiply_accumulate(std::string_view instruction, std::string_view target,
                                          const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                          const std::vector<uint64_t>& c);

}  // namespace ptxfu
