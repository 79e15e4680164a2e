#include "isa/decode.h"

#include <optional>

#include <fmt/format.h>

#include "isa/table.h"

namespace ptxfu::isa {
namespace {

bool lookup_op(std::string_view word, Op& out) {
  for (const OpInfo& o : kOps)
    if (o.name == word) {
      out = o.op;
      return true;
    }
  return false;
}

// The enumerator whose name is `word` in a table of names kept in enum
// order; entries before `first` are not names (Cmp::none).
template <typename Enum, size_t N>
bool lookup_name(const std::string_view (&names)[N], std::string_view word, Enum& out, size_t first = 0) {
  for (size_t i = first; i < N; ++i)
    if (names[i] == word) {
      out = static_cast<Enum>(i);
      return true;
    }
  return false;
}

// Whether some row of `op` satisfies `pred`.
template <typename Pred>
bool any_row_of(Op op, Pred pred) {
  for (const FormRow* row = rows_begin(); row != rows_end(); ++row)
    if ((row->ops & op_bit(op)) && pred(*row)) return true;
  return false;
}

// Whether some row of `op` takes a comparison (setp, set): then its words
// .lo/.hi/... are comparisons, not modes.
bool takes_comparison(Op op) {
  return any_row_of(op, [](const FormRow& r) { return r.cmps != 0; });
}

// Every rounding word, cvt's included: ptxas words them alike where illegal.
constexpr ModSet kAnyRounding = kRoundingMods | kIntRoundingMods | bit(Mod::rna) | bit(Mod::rs);

// Whether the rows of `op` ask for a direction (shf.l/shf.r): then ptxas
// reads it as part of the name, and the name alone names nothing.
bool named_with_direction(Op op) {
  return any_row_of(op, [](const FormRow& r) { return (r.required & kNameMods) != 0; });
}

// Whether ptxas reads modifier `m` of `op` as part of the name (shf.l,
// cvt.pack): some row requires or selects it. Then it must come first.
bool part_of_name(Op op, Mod m) {
  return (bit(m) & kNameMods) &&
         any_row_of(op, [m](const FormRow& r) { return ((r.required | r.selector) & bit(m)) != 0; });
}

// Whether some row of `op` for these types takes a boolean operation (.and
// .or .xor with a predicate source): a BoolOp with the wrong operand count
// is then an argument mismatch.
bool takes_boolop(Op op, Type t1) {
  return any_row_of(op, [t1](const FormRow& r) { return (r.types & type_bit(t1)) && (r.selector & kBoolMods); });
}

bool fail(Diagnostic& err, unsigned column, std::string message) {
  err.column = column;
  err.message = std::move(message);
  return false;
}

std::string feature_text(const Feature& f, const Instr& in) {
  std::string text(f.text);
  auto replace = [&text](std::string_view key, std::string_view value) {
    for (auto pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos))
      text.replace(pos, key.size(), value);
  };
  replace("{op}", name(in.op));
  replace("{type2}", name(in.type2));
  replace("{type}", name(in.type));
  return text;
}

// Where ptxas words an instruction's errors its own way (measured, ptxas 13.0).
struct OpWording {
  Op op;
  std::string_view no_mode;  // the mode (.hi/.lo/.wide) is missing or not first
};
constexpr OpWording kOpWordings[] = {
    {Op::madc, "Not a name of any known instruction: '{}'"},
    {Op::mul24, "Not a name of any known instruction: '{}'"},
    {Op::mad24, "Not a name of any known instruction: '{}'"},
    {Op::dp2a, "'.hi/.lo' modifier required for instruction '{}'"},
};

// How ptxas words a required modifier that is missing, where not generically
// ("Modifier '.x' required for instruction 'op'"); {type} is the destination type.
struct RequiredWording {
  Op op;
  Mod mod;
  std::string_view text;
};
constexpr RequiredWording kRequiredWordings[] = {
    {Op::cvt, Mod::satfinite, "'.satfinite' modifier required for instruction 'cvt' with destination type '.{type}'"},
    {Op::cvt, Mod::sat, ".sat modifier required for instruction 'cvt.pack'"},
};

std::string required_message(Op op, Mod m, Type type) {
  for (const RequiredWording& w : kRequiredWordings)
    if (w.op == op && w.mod == m) {
      std::string text(w.text);
      if (const auto pos = text.find("{type}"); pos != std::string::npos) text.replace(pos, 6, name(type));
      return text;
    }
  return fmt::format("Modifier '.{}' required for instruction '{}'", name(m), name(op));
}

std::string no_mode_message(Op op) {
  for (const OpWording& w : kOpWordings)
    if (w.op == op) return fmt::format(fmt::runtime(w.no_mode), name(op));
  return fmt::format("Unexpected instruction types specified for '{}'", name(op));
}

std::string missing_selector_message(Op op, ModSet selectors) {
  if ((selectors & ~kModeMods) == 0)  // mul.u32: ptxas knows mul.lo, mul.hi, ...
    return no_mode_message(op);
  const bool rounding = (selectors & kRoundingMods) != 0;
  const bool approx = (selectors & bit(Mod::approx)) != 0;
  if (rounding && approx)
    return fmt::format("Rounding modifier or '.approx' modifier required for instruction '{}'", name(op));
  if (rounding) return fmt::format("Rounding modifier required for instruction '{}'", name(op));
  if (approx) return fmt::format(".approx modifier required for instruction '{}'", name(op));
  if (selectors & kBoolMods) return fmt::format("Boolean operation is required for instruction '{}'", name(op));
  return fmt::format("Unexpected instruction types specified for '{}'", name(op));
}

// Modifiers that may not appear twice (or two of a group), with ptxas's
// words; ptxas accepts other repeats such as .sat.sat or .NaN.NaN.
struct RepeatRule {
  ModSet group;
  std::string_view message;  // {op} and {mode} substituted
};
constexpr RepeatRule kRepeatRules[] = {
    {kRoundingMods | kIntRoundingMods | bit(Mod::rna) | bit(Mod::rs), "Multiple rounding modifiers specified"},
    {bit(Mod::xorsign), "Multiple .xorsign modifiers specified"},
    {kTestpMods, "Multiple testp operation modifiers specified"},
    {bit(Mod::clamp) | bit(Mod::wrap), "Multiple clamp modifiers specified"},
    {kBoolMods, "Multiple instruction post-operation flags set"},
    {kPrmtMods, "Multiple permute modifiers specified"},
    {bit(Mod::ftz), "Duplicate .ftz modifier"},
    {bit(Mod::oob), "Duplicate .oob modifier"},
    {bit(Mod::abs), "Multiple .abs modifiers specified"},
    {bit(Mod::full), "Unknown modifier '.full'"},
    {kModeMods, "Comparison qualifier is not allowed for instruction '{op}.{mode}'"},
};

std::string repeat_message(const RepeatRule& rule, Op op, ModSet mods) {
  std::string text(rule.message);
  if (const auto pos = text.find("{op}"); pos != std::string::npos) text.replace(pos, 4, name(op));
  if (const auto pos = text.find("{mode}"); pos != std::string::npos) {
    for (unsigned i = 0; i < static_cast<unsigned>(Mod::kCount); ++i)
      if ((mods & rule.group) & bit(static_cast<Mod>(i))) {
        text.replace(pos, 6, name(static_cast<Mod>(i)));
        break;
      }
  }
  return text;
}

// How ptxas words a modifier that no form of the instruction takes at all.
struct ForeignModifier {
  ModSet mods;
  std::string_view message;  // {op} and {mod} substituted
};
constexpr ForeignModifier kForeignModifiers[] = {
    {bit(Mod::wide) | bit(Mod::full) | bit(Mod::pack), "Unknown modifier '.{mod}'"},
    {bit(Mod::hi) | bit(Mod::lo), "Comparison qualifier is not allowed for instruction '{op}'"},
    {bit(Mod::clamp) | bit(Mod::wrap), "Illegal modifier 'Clamp' for instruction '{op}'"},
    {kPrmtMods, "Illegal modifier 'Permute' for instruction '{op}'"},
    {kNameMods, "Illegal modifier 'Component' for instruction '{op}'"},
};

std::string illegal_modifier_message(Op op, ModSet mods, Type type, Mod m) {
  ModSet anywhere = 0;     // every modifier some form of `op` allows
  ModSet other_types = 0;  // ... some form of `op` for other types allows
  for (const FormRow* row = rows_begin(); row != rows_end(); ++row) {
    if (!(row->ops & op_bit(op))) continue;
    anywhere |= row->allowed();
    if (!(row->types & type_bit(type))) other_types |= row->allowed();
  }
  std::string text = "Illegal modifier '.{mod}' for instruction '{op}'";
  if (!(anywhere & bit(m)))
    for (const ForeignModifier& f : kForeignModifiers)
      if (f.mods & bit(m)) text = f.message;
  if (other_types & bit(m) & bit(Mod::sat)) text = "Modifier '.{mod}' does not apply to '.{type}' type";
  if (other_types & bit(m) & bit(Mod::relu))
    text = "Illegal modifier '.{mod}' for instruction '{op}' with type '.{type}'";
  const std::string full_name = instruction_name(op, mods);
  for (auto [key, value] :
       {std::pair<std::string_view, std::string_view>{"{op}", full_name}, {"{mod}", name(m)}, {"{type}", name(type)}})
    if (const auto pos = text.find(key); pos != std::string::npos) text.replace(pos, key.size(), value);
  return text;
}

bool matches_types(const FormRow& row, Op op, const Type (&t)[3], unsigned num_types) {
  if (!(row.ops & op_bit(op)) || !(row.types & type_bit(t[0]))) return false;
  if (row.types2 == 0) return num_types == 1;
  if (num_types < 2 || !(row.types2 & type_bit(t[1]))) return false;
  if (row.types3 == 0) return num_types == 2;
  return num_types == 3 && (row.types3 & type_bit(t[2]));
}

}  // namespace

std::string instruction_name(Op op, ModSet mods) {
  std::string text(name(op));
  if (mods & bit(Mod::pack)) return text += ".pack";
  for (Mod m : {Mod::hi, Mod::lo, Mod::wide})
    if (mods & bit(m)) return (text += '.') += name(m);
  return text;
}

std::optional<std::string> modifier_error(const FormRow& row, Op op, Type type, ModSet mods) {
  const ModSet allowed = row.allowed();
  for (unsigned i = 0; i < static_cast<unsigned>(Mod::kCount); ++i) {
    const Mod m = static_cast<Mod>(i);
    if (!(mods & bit(m)) || (allowed & bit(m))) continue;
    if (bit(m) & kAnyRounding)
      return fmt::format("Illegal rounding modifier for instruction '{}'", instruction_name(op, mods & allowed));
    return illegal_modifier_message(op, mods & allowed, type, m);
  }
  if (row.selector && !(mods & row.selector)) return missing_selector_message(op, row.selector);
  for (unsigned i = 0; i < static_cast<unsigned>(Mod::kCount); ++i) {
    const Mod m = static_cast<Mod>(i);
    if ((row.required & bit(m)) && !(mods & bit(m))) return required_message(op, m, type);
  }
  if (__builtin_popcountll(mods & kRoundingMods) > 1) return std::string("Multiple rounding modifiers specified");
  if ((row.selector & kModeMods) && __builtin_popcountll(mods & row.selector) > 1)
    return fmt::format("Unexpected instruction types specified for '{}'", name(op));
  if ((row.selector & kRoundingMods) == 0 && __builtin_popcountll(mods & row.selector) > 1)
    return fmt::format("Illegal modifier combination for instruction '{}'", name(op));
  for (const PairRule& rule : kPairRules) {
    if (!(allowed & bit(rule.a)) || !(allowed & bit(rule.b)) || !(mods & bit(rule.a))) continue;
    const bool has_b = (mods & bit(rule.b)) != 0;
    if (rule.requires_b && !has_b) {
      if (!rule.message.empty()) return fmt::format(fmt::runtime(rule.message), instruction_name(op, mods));
      return fmt::format("Modifier '.{}' requires modifier '.{}'", name(rule.a), name(rule.b));
    }
    if (!rule.requires_b && has_b)
      return fmt::format("Modifier '.{}' cannot be combined with modifier '.{}'", name(rule.a), name(rule.b));
  }
  return std::nullopt;
}

bool check_form(std::string_view mnemonic, unsigned num_src, const Capabilities& caps, unsigned column, Instr& out,
                Diagnostic& err, unsigned dest_values) {
  return decode(mnemonic, num_src, column, out, err, dest_values) && check_target(out, caps, column, err);
}

Capabilities capabilities_of(const Target& target, uint16_t ptx) {
  return Capabilities{target.name, target.sm, ptx, target.mask};
}

bool decode(std::string_view mnemonic, unsigned num_src, unsigned column, Instr& out, Diagnostic& err,
            unsigned dest_values) {
  size_t dot = mnemonic.find('.');
  const std::string_view op_word = mnemonic.substr(0, dot);
  Op op;
  if (!lookup_op(op_word, op))
    return fail(err, column, fmt::format("Not a name of any known instruction: '{}'", op_word));

  ModSet mods = 0;
  Cmp cmp = Cmp::none;
  Type type_list[3] = {Type::kCount, Type::kCount, Type::kCount};
  unsigned num_types = 0;
  unsigned first_type_column = column;
  bool mode_first = false;                     // ptxas reads "mad.hi" as the name: the mode must lead
  const bool compares = takes_comparison(op);  // once: the row scan is not per word
  while (dot != std::string_view::npos) {
    const size_t start = dot + 1;
    dot = mnemonic.find('.', start);
    const std::string_view word = mnemonic.substr(start, dot == std::string_view::npos ? dot : dot - start);
    const unsigned word_column = column + static_cast<unsigned>(start) - 1;
    Mod m;
    Type t = Type::kCount;
    Cmp c = Cmp::none;
    if (compares && lookup_name(kCmpNames, word, c, 1)) {  // before the modifiers: .lo/.hi are both
      if (cmp != Cmp::none) return fail(err, word_column, "Multiple comparisons set");
      cmp = c;
    } else if (lookup_name(kModNames, word, m)) {
      if (m == Mod::wide && (mods & kModeMods))  // ptxas reads "mad.lo" as the name, then .wide
        return fail(err, word_column, "Unknown modifier '.wide'");
      for (const RepeatRule& rule : kRepeatRules)
        if ((rule.group & bit(m)) && (mods & rule.group)) return fail(err, word_column, repeat_message(rule, op, mods));
      if (start == op_word.size() + 1) mode_first = (bit(m) & kModeMods) != 0;
      // ptxas reads "shf.l" and "cvt.pack" as the name: the word anywhere else is unknown.
      if (start != op_word.size() + 1 && part_of_name(op, m))
        return fail(err, word_column, fmt::format("Unknown modifier '.{}'", word));
      // ptxas 13.0 accepts the testp classes on every instruction and ignores
      // them (tb/unit/isa/ptxas_agreement_test.cc): so does ptxfu.
      if ((bit(m) & kTestpMods) && op != Op::testp) continue;
      mods |= bit(m);  // other repeats are accepted, as ptxas does
    } else if (const auto found = find_type(word)) {
      t = *found;
      if (num_types == 0) first_type_column = word_column;
      const bool third = num_types == 2 && any_row_of(op, [](const FormRow& r) { return r.types3 != 0; });
      if (num_types == 3 || (num_types == 2 && !third))
        return fail(err, word_column,
                    fmt::format("Unexpected instruction types specified for '{}'",
                                instruction_name(op, mods & bit(Mod::pack))));
      type_list[num_types++] = t;
    } else {
      return fail(err, word_column, fmt::format("Unknown modifier '.{}'", word));
    }
  }
  const Type t1 = type_list[0];
  const Type t2 = num_types >= 2 ? type_list[1] : t1;
  const Type t3 = num_types == 3 ? type_list[2] : Type::kCount;
  const std::string type_error =
      fmt::format("Unexpected instruction types specified for '{}'", instruction_name(op, mods & bit(Mod::pack)));
  if (num_types == 0) return fail(err, column, type_error);

  bool any_type_match = false;
  CmpSet cmps = 0;  // the comparisons the type's rows take
  ModSet selectors = 0;
  const FormRow* chosen = nullptr;
  for (const FormRow* row = rows_begin(); row != rows_end(); ++row) {
    if (!matches_types(*row, op, type_list, num_types)) continue;
    any_type_match = true;
    cmps |= row->cmps;
    if (row->cmps && !(row->cmps & cmp_bit(cmp))) continue;
    if (row->num_values() != num_src || elements(row->dest) != dest_values) continue;
    selectors |= row->selector;
    if (row->selector != 0 && !(row->selector & mods)) continue;
    if (!chosen) chosen = row;
    if ((row->required & mods) == row->required) {
      chosen = row;
      break;
    }
  }
  if (!any_type_match) return fail(err, first_type_column, type_error);
  if (named_with_direction(op) && !(mods & kNameMods))  // "shf" alone names nothing
    return fail(err, column, fmt::format("Not a name of any known instruction: '{}'", name(op)));
  if (cmps && cmp == Cmp::none)
    return fail(err, column, fmt::format("Comparison modifier required for instruction '{}'", name(op)));
  if (cmps && !(cmps & cmp_bit(cmp)))
    return fail(err, column, "Mismatch between instruction type and comparison qualifier");
  if (!chosen) {
    if (selectors == 0 || (selectors & mods))
      return fail(err, column, fmt::format("Arguments mismatch for instruction '{}'", name(op)));
    if ((selectors & kRoundingMods) && (mods & kRoundingMods))  // fma.rz.f16: a mode no form takes
      return fail(err, column, fmt::format("Illegal rounding modifier for instruction '{}'", name(op)));
    if ((selectors & (bit(Mod::clamp) | bit(Mod::wrap))) && (mods & kNameMods))  // shf.l without .clamp/.wrap
      return fail(err, column,
                  fmt::format("Clamp modifier required for instruction '{}.{}'", name(op),
                              name(mods & bit(Mod::l) ? Mod::l : Mod::r)));
    return fail(err, column, missing_selector_message(op, selectors));
  }

  if ((chosen->selector & kModeMods) && !mode_first) return fail(err, column, no_mode_message(op));
  if ((mods & kBoolMods) && !(chosen->allowed() & kBoolMods) && takes_boolop(op, t1))
    return fail(err, column, fmt::format("Arguments mismatch for instruction '{}'", name(op)));
  // cvt.pack with the types or operands of another cvt: ptxas speaks of cvt.pack's.
  if ((mods & bit(Mod::pack)) && !(chosen->allowed() & bit(Mod::pack)) &&
      any_row_of(op, [](const FormRow& r) { return (r.allowed() & bit(Mod::pack)) != 0; })) {
    const bool types_fit = any_row_of(op, [&](const FormRow& r) {
      return (r.allowed() & bit(Mod::pack)) && matches_types(r, op, type_list, num_types);
    });
    return fail(err, column,
                fmt::format(types_fit ? "Arguments mismatch for instruction '{}'"
                                      : "Unexpected instruction types specified for '{}'",
                            instruction_name(op, bit(Mod::pack))));
  }

  if (auto message = modifier_error(*chosen, op, t1, mods)) return fail(err, column, std::move(*message));

  out = Instr{op, t1, t2, mods, cmp, static_cast<uint8_t>(num_src), chosen, t3};
  return true;
}

bool check_target(const Instr& in, const Capabilities& caps, unsigned column, Diagnostic& err) {
  auto check_one = [&](FeatureId id, Type type) {
    if (id == kNoFeature) return true;
    const Feature& f = kFeatures[id];
    const char* kind = f.kind == FeatureKind::modifier ? "Modifier" : "Feature";
    Instr named = in;
    named.type = type;
    const std::string text = feature_text(f, named);
    if (!caps.mask.test(id)) {
      if (f.scope == FeatureScope::specific_targets)
        return fail(err, column, fmt::format("Instruction '{}' not supported on .target '{}'", text, caps.target_name));
      if (f.scope == FeatureScope::listed_targets)
        return fail(err, column, fmt::format("{} '{}' not supported on .target '{}'", kind, text, caps.target_name));
      if (f.min_sm > caps.sm)
        return fail(err, column, fmt::format("{} '{}' requires .target sm_{} or higher", kind, text, f.min_sm));
      return fail(err, column,
                  fmt::format("{} '{}' is not supported on .target {} (feature '{}' removed by configuration)", kind,
                              text, caps.target_name, f.id));
    }
    if (caps.ptx < f.min_ptx)
      return fail(
          err, column,
          fmt::format("{} '{}' requires PTX ISA .version {} or later", kind, text, format_ptx_version(f.min_ptx)));
    return true;
  };
  // ptxas speaks of a type the target lacks before the form that uses it.
  for (const Type t : {in.type, in.type2, in.type3})
    if (t != Type::kCount && !check_one(info(t).feature, t)) return false;
  if (!check_one(in.row->feature, in.type)) return false;
  for (const ModFeature& mf : in.row->mod_features)
    if (mf.feature != kNoFeature && in.has(mf.mod) && !check_one(mf.feature, in.type)) return false;
  return true;
}

}  // namespace ptxfu::isa
