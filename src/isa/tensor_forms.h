// The warp-level matrix instructions as rows of data: mma.sync and mma.sp by
// shape and type (the fragments each operand holds, the layouts, modifiers
// and the targets and PTX ISA version each needs; tensor_rows_mma.cc); mma
// with block scaling, ldmatrix/stmatrix/movmatrix, wmma and wgmma in rows of
// their own (tensor_rows_block_scale.cc, _matrix.cc, _wmma.cc, _wgmma.cc;
// what they share: tensor_rows.h, internal).
// check_tensor_statement() judges a statement against them the
// way ptxas 13.0 does, in its order and words; the rows were checked against
// ptxas (tb/unit/isa/tensor_agreement_test.cc, data from
// scripts/tensor-forms-ptxas.py).
#pragma once
#include <cstdint>
#include <string_view>

#include "isa/decode.h"
#include "isa/registers.h"
#include "isa/statement.h"

namespace ptxfu::isa {

// Something a form needs from the target: ptxas's "Feature 'NAME' requires
// .target sm_NN or higher" / "... requires PTX ISA .version X.Y or later".
struct TensorGate {
  std::string_view name;  // empty: no gate
  uint16_t min_sm = 0;
  uint16_t min_ptx = 0;
  bool target_first = false;      // ptxas names the target before the version where both fall short
  std::string_view targets = {};  // non-empty: only these targets have it ("... 'x' not supported on .target ...")
  bool instruction = false;       // ptxas calls it an "Instruction", not a "Feature", there
};

// Which modifiers an mma row takes besides its shape, layouts and types.
// kMmaBitOpIgnored: ptxas 13.0 takes .xor/.and.popc on the 4-bit forms too.
// k{A,B}SizeIsArguments: that fragment of the wrong size is "Arguments
// mismatch" to ptxas 13.0, not "Argument vector size mismatch".
enum MmaMods : uint8_t {
  kMmaPlain = 0,
  kMmaSatfinite = 1,
  kMmaBitOp = 2,
  kMmaBitOpIgnored = 4,
  kMmaASizeIsArguments = 8,
  kMmaBSizeIsArguments = 16,
  kMmaOrderedOnly = 32,  // mma.sp::ordered_metadata only: plain .sp is "Illegal modifier '.sp'"
};

// One mma.sync form family: d = a * b + c on one shape.
struct MmaRow {
  std::string_view shape;                // "m16n8k16"
  std::string_view ab;                   // the A and B types, space separated (each of them independently)
  std::string_view cd;                   // the C and D types
  uint8_t a = 0, b = 0;                  // registers in the A and B fragments (0: ptxas takes any vector)
  uint8_t c16 = 0;                       // registers in C (and D) with .f16 accumulators
  uint8_t c32 = 0;                       // ... with 32- or 64-bit ones
  bool any_layout = false;               // every .alayout.blayout, else .row.col only
  bool mixed_acc = false;                // D .f32 may take C .f16 (else D and C have one type)
  uint8_t mods = kMmaPlain;              // MmaMods
  std::string_view layout_name = "mma";  // the instruction as ptxas names it in layout errors
  TensorGate gates[3] = {};
  bool sparse = false;         // an mma.sp row: A holds half of its K, and e (metadata) and f (selector) follow C
  uint8_t selector_max = 0;    // mma.sp: the largest sparsity selector f
  std::string_view kind = {};  // the .kind it needs ("kind::f8f6f4"); empty: none
};

const MmaRow* mma_rows_begin();
const MmaRow* mma_rows_end();

// Whether `st` is a tensor-core statement these rows judge (mma and mma.sp,
// mma with block scaling; wmma.load/store/mma; wgmma.mma_async, .fence,
// .commit_group, .wait_group; ldmatrix and stmatrix but their .m16n16/.m8n16
// forms; movmatrix; tcgen05, whose rows are tcgen05_forms.h's).
bool is_tensor_statement(const Statement& st);

// Judges `st` (is_tensor_statement) on `caps`: its modifiers, types, target,
// and each operand's form, size and register width where `regs` knows them.
bool check_tensor_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa
