// What the tensor-core families (tensor_rows_mma.cc, tensor_rows_block_scale.cc,
// tensor_rows_matrix.cc, tensor_rows_wmma.cc, tensor_rows_wgmma.cc: their rows
// and rules) and the entry that sends a statement to them (tensor_forms.cc)
// share. Internal to src/isa; not installed.
#pragma once

#include <string>
#include <string_view>

#include "isa/decode.h"
#include "isa/registers.h"
#include "isa/statement.h"
#include "isa/tensor_forms.h"

namespace ptxfu::isa::tensor_rows {

// The gates of more than one family.
inline constexpr TensorGate kBf16{".bf16", 80, 70, true};
inline constexpr TensorGate kTf32{".tf32", 80, 70, true};
inline constexpr TensorGate kOrdered{".sp::ordered_metadata", 80, 85};
inline constexpr TensorGate kFp6Fp4{
    "mma with with FP6/FP4 floating point type", 120, 87, false, "sm_120a sm_121a", true};
inline constexpr std::string_view kF8f6f4Types = "e4m3 e5m2 e3m2 e2m3 e2m1";

// Type names an mma may spell; others are modifiers.
inline constexpr std::string_view kTypeNames =
    "f16 bf16 tf32 f32 f64 s8 u8 s4 u4 b1 s32 u32 b32 e4m3 e5m2 e2m1 e3m2 e2m3 b8 b16 b64 u16 s16 u64 s64 f16x2 bf16x2";
inline constexpr std::string_view kRoundings = "rn rz rm rp rna rs";
inline constexpr std::string_view kForeignModifiers =
    "ftz sat relu approx full wide hi lo cc NaN xorsign abs oob trans shared global volatile relaxed acquire release";

// Whether `word` is one of the space-separated words of `list`.
bool listed(std::string_view list, std::string_view word);
// ptxas's message for a word an instruction does not take: an illegal
// modifier where it is one of another instruction's, else an unknown one.
std::string foreign_word(std::string_view word, std::string_view instruction);
// Sets `err` at `at`; false.
bool fail(Diagnostic& err, const Token& at, std::string message);
// "Feature 'x' requires ..." where `caps` lack the gate; empty when they have it.
std::string gate_error(const TensorGate& g, const Capabilities& caps, std::string_view kind = "Feature",
                       std::string_view on = "");

// The mnemonic's words after the opcode.
struct Words {
  std::string_view list[24];
  unsigned n = 0;
};
Words split(std::string_view mnemonic);

// The words mma, wmma and wgmma mnemonics take alike.
struct SharedWords {
  bool sync = false, aligned = false, satfinite = false, popc = false;
  std::string_view bitop;  // "xor", "and" or empty
};
// Records `x` where it is one of those words; false where it is not.
bool read_shared_word(std::string_view x, SharedWords& w);

// Whether `w` is a shape of some mma.sync row (tensor_rows_mma.cc).
bool is_mma_shape(std::string_view w);

// What an operand element must be: the register kinds and width one
// fragment register of that type takes (a bit-size .b32 fits any 32-bit
// register; .s32 integer ones, .f16x2 and .f32 ...).
struct ElementKind {
  unsigned bits;
  bool integer;   // integer registers fit
  bool floating;  // float registers fit
};
ElementKind element_of(std::string_view type);
// Checks the registers of one operand (vector elements or a scalar): one
// width across a vector, and each of the kind `want`.
bool check_elements(const Token& op, OperandForm form, const ElementKind& want, const RegisterTable* regs,
                    std::string_view instr, Diagnostic& err);
// How many registers operand `k` holds (1 but for a vector).
unsigned elements_in(const Statement& st, unsigned k);

// The families' rules, each judging a statement of its instructions.
bool check_mma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);
bool is_block_scale(const Statement& st);
bool check_block_scale(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);
bool check_ldst_matrix(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err,
                       bool store);
bool check_movmatrix(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);
bool check_wgmma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);
bool check_wmma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa::tensor_rows
