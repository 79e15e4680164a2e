// The tcgen05 family (PTX ISA 9.1, "TensorCore 5th Generation Family
// Instructions"; sm_100a and its kin) as rows of data: tcgen05.mma in every
// .kind with .ws, .sp and block scaling, alloc, dealloc,
// relinquish_alloc_permit, ld, st, wait, commit, cp, shift and fence.
// check_tcgen05_statement() judges a statement against them in ptxas 13.0's
// order and words; the rows were checked against ptxas
// (tb/unit/isa/tensor_agreement_test.cc reading tcgen05_forms.ptxas, data
// from scripts/tensor-forms-ptxas.py --tcgen05).
#pragma once
#include "isa/decode.h"
#include "isa/registers.h"
#include "isa/statement.h"

namespace ptxfu::isa {

// Whether `st` is a tcgen05 instruction these rows judge.
bool is_tcgen05_statement(const Statement& st);

// Judges `st` (is_tcgen05_statement) on `caps`: its modifiers, type, target,
// and each operand's form, size and register width where `regs` knows them.
bool check_tcgen05_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);

// The CTA groups a tcgen05 statement names: 1 for .cta_group::1, 2 for ::2
// (ptxas refuses an entry whose code, callees included, uses both).
unsigned tcgen05_cta_groups(const Statement& st);

}  // namespace ptxfu::isa
