// Enumerates and spells the forms of the instruction table, for tests,
// documentation and `ptxfu check --list-forms`.
#pragma once
#include <functional>
#include <string>

#include "isa/table.h"

namespace ptxfu::isa {

// "fma.rn.ftz.f16": a name modifier (.pack), the comparison, modifiers in
// enum order, then the type suffixes (type3: none when kCount).
std::string spell(Op op, ModSet mods, Type type, Type type2, bool two_types, Cmp cmp = Cmp::none,
                  Type type3 = Type::kCount);
std::string spell(const Instr& in);

// The form (op, mods, types) with its row, found the way decode() finds it;
// `row` stays nullptr when the table has no such form (no executor claims
// it). For tests and tools that name forms by their parts.
Instr make_form(Op op, Type type, ModSet mods, unsigned num_src, Type type2 = Type::kCount, Cmp cmp = Cmp::none,
                Type type3 = Type::kCount);

// Calls `visit` for every op and type (pair) of one row, with no modifiers
// (Instr::row set): the one walk over a row's forms.
void for_each_op_and_type(const FormRow& row, const std::function<void(const Instr&)>& visit);

// Calls `visit` for every legal form of every row: each op, type (pair) and
// modifier combination the row and the pair rules allow. Instr::row is set.
void for_each_legal_form(const std::function<void(const Instr&)>& visit);

// Whether `mods` satisfies the row's selector, required set, single-choice
// groups and the pair rules (types are not checked).
bool modifiers_legal(const FormRow& row, ModSet mods);

}  // namespace ptxfu::isa
