#include "isa/forms.h"

#include "isa/decode.h"

namespace ptxfu::isa {

std::string spell(Op op, ModSet mods, Type type, Type type2, bool two_types, Cmp cmp, Type type3) {
  std::string s(name(op));
  // A modifier that is part of the name (cvt.pack) leads.
  if (mods & bit(Mod::pack)) s += ".pack";
  if (cmp != Cmp::none) (s += '.') += name(cmp);
  for (unsigned i = 0; i < static_cast<unsigned>(Mod::kCount); ++i)
    if ((mods & ~bit(Mod::pack)) & bit(static_cast<Mod>(i))) (s += '.') += name(static_cast<Mod>(i));
  (s += '.') += name(type);
  if (two_types) (s += '.') += name(type2);
  if (type3 != Type::kCount) (s += '.') += name(type3);
  return s;
}

std::string spell(const Instr& in) {
  return spell(in.op, in.mods, in.type, in.type2, in.row && in.row->types2 != 0, in.cmp,
               in.row && in.row->types3 != 0 ? in.type3 : Type::kCount);
}

Instr make_form(Op op, Type type, ModSet mods, unsigned num_src, Type type2, Cmp cmp, Type type3) {
  const bool two_types = type2 != Type::kCount;
  Instr in{op, type, two_types ? type2 : type, mods, cmp, static_cast<uint8_t>(num_src), nullptr, type3};
  Instr decoded;
  Diagnostic d;
  if (decode(spell(op, mods, type, in.type2, two_types, cmp, type3), num_src, 1, decoded, d)) in.row = decoded.row;
  return in;
}

bool modifiers_legal(const FormRow& row, ModSet mods) {
  // Messages aside, every op and type of a row agrees.
  const Op any_op = static_cast<Op>(__builtin_ctzll(row.ops));
  const Type any_type = static_cast<Type>(__builtin_ctzll(row.types));
  return !modifier_error(row, any_op, any_type, mods);
}

void for_each_op_and_type(const FormRow& row, const std::function<void(const Instr&)>& visit) {
  for (unsigned o = 0; o < static_cast<unsigned>(Op::kCount); ++o) {
    if (!(row.ops & op_bit(static_cast<Op>(o)))) continue;
    for (unsigned t = 0; t < static_cast<unsigned>(Type::kCount); ++t) {
      if (!(row.types & type_bit(static_cast<Type>(t)))) continue;
      for (unsigned t2 = 0; t2 < static_cast<unsigned>(Type::kCount); ++t2) {
        if (row.types2 ? !(row.types2 & type_bit(static_cast<Type>(t2))) : t2 != t) continue;
        for (unsigned t3 = 0; t3 <= static_cast<unsigned>(Type::kCount); ++t3) {
          const auto third = static_cast<Type>(t3);
          if (row.types3 ? t3 == static_cast<unsigned>(Type::kCount) || !(row.types3 & type_bit(third))
                         : third != Type::kCount)
            continue;
          for (unsigned c = 0; c < static_cast<unsigned>(Cmp::kCount); ++c) {
            const bool wanted = row.cmps ? (row.cmps & cmp_bit(static_cast<Cmp>(c))) != 0 : c == 0;
            if (wanted)
              visit(Instr{static_cast<Op>(o), static_cast<Type>(t), static_cast<Type>(t2), 0, static_cast<Cmp>(c),
                          static_cast<uint8_t>(row.num_values()), &row, third});
          }
        }
      }
    }
  }
}

void for_each_legal_form(const std::function<void(const Instr&)>& visit) {
  for (const FormRow* row = rows_begin(); row != rows_end(); ++row) {
    const ModSet allowed = row->allowed();
    for_each_op_and_type(*row, [&](const Instr& base) {
      // Every subset of the allowed modifiers (submask enumeration).
      for (ModSet m = allowed;; m = (m - 1) & allowed) {
        if (modifiers_legal(*row, m)) {
          Instr in = base;
          in.mods = m;
          visit(in);
        }
        if (m == 0) break;
      }
    });
  }
}

}  // namespace ptxfu::isa
