// Features and targets as data. A feature is something a form or modifier
// needs that not every sm target or PTX ISA version has; a target's feature
// mask is the set it provides. Configs may add or remove features by id to
// model hypothetical parts (an sm_80 with .oob, say).
#pragma once
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxfu::isa {

using FeatureId = uint8_t;
inline constexpr FeatureId kNoFeature = 0xff;
inline constexpr size_t kMaxFeatures = 64;
using FeatureMask = std::bitset<kMaxFeatures>;

// How ptxas words the diagnostic: "Feature 'x' requires ..." or
// "Modifier 'x' requires ...".
enum class FeatureKind : uint8_t { feature, modifier };

// Which targets of an sm number have a feature: all of them, or only the
// architecture- and family-specific ones (sm_100a, sm_100f, ...), for which
// ptxas says "Instruction '...' not supported on .target 'sm_100'"; or only
// the targets the row lists (Feature::targets), whatever their number:
// "Feature '.rs' not supported on .target 'sm_120a'".
enum class FeatureScope : uint8_t { every_target, specific_targets, listed_targets };

struct Feature {
  std::string_view id;    // stable name used by configs
  std::string_view text;  // ptxas wording; {op}, {type}, {type2} are substituted
  FeatureKind kind;
  uint16_t min_sm;   // e.g. 90
  uint16_t min_ptx;  // PTX ISA version times ten, e.g. 81 for 8.1
  FeatureScope scope = FeatureScope::every_target;
  std::string_view targets = {};  // listed_targets: the target names, separated by spaces
};

// One row per feature. min_sm/min_ptx were checked against NVIDIA's ptxas
// (tb/unit/isa/ptxas_agreement_test.cc) where ptxas still accepts the target.
inline constexpr Feature kFeatures[] = {
    {"bf16_type", ".{type}", FeatureKind::feature, 80, 70},
    {"f16_arith", "{op}.f16", FeatureKind::feature, 53, 42},
    {"f16_neg", "neg.f16", FeatureKind::feature, 53, 60},
    {"f16_abs", "abs.f16", FeatureKind::feature, 53, 65},
    {"half_minmax", "{op}.{type}", FeatureKind::feature, 80, 70},
    {"bf16_arith", "{op}.bf16", FeatureKind::feature, 90, 78},
    {"bf16_fma", "{op}.bf16", FeatureKind::feature, 80, 70},
    {"bf16_absneg", "{op}.bf16", FeatureKind::feature, 80, 70},
    {"half_relu", ".relu", FeatureKind::modifier, 80, 70},
    {"oob", ".oob", FeatureKind::modifier, 90, 81},
    {"xorsign", ".xorsign", FeatureKind::modifier, 86, 72},
    {"minmax_nan", ".NaN", FeatureKind::modifier, 80, 70},
    {"minmax_3input", "{op}.f32 with 3 input operands", FeatureKind::feature, 100, 88},
    {"f32x2", "{op}.f32x2", FeatureKind::feature, 100, 86},
    {"mixed_precision", "{op}.f32.{type2}", FeatureKind::feature, 100, 86},
    {"int_simd16x2", "{op}.{type}", FeatureKind::feature, 90, 80},
    {"int_relu", ".relu", FeatureKind::modifier, 90, 80},
    {"tanh_f32", "tanh", FeatureKind::feature, 75, 70},
    {"half_tanh", "tanh.{type}", FeatureKind::feature, 75, 70},
    {"half_ex2", "ex2.{type}", FeatureKind::feature, 75, 70},
    {"bf16_tanh", "tanh.bf16", FeatureKind::feature, 90, 78},
    {"bf16_ex2", "ex2.bf16", FeatureKind::feature, 90, 78},
    {"dp4a", "{op}", FeatureKind::feature, 61, 50},
    {"bmsk_szext", "{op}", FeatureKind::feature, 70, 76},
    {"fns", "fns", FeatureKind::feature, 30, 60},
    {"half_compare", "{op}.{type}", FeatureKind::feature, 53, 42},
    {"half_set_int", "half precision floating point set instruction with integer result", FeatureKind::feature, 53, 65},
    {"bf16_compare", "{op}.{type}", FeatureKind::feature, 90, 78},
    {"bf16_compare_src", "{op}.{type2}", FeatureKind::feature, 90, 78},
    {"lop3_boolop", "lop3.<BoolOp>", FeatureKind::feature, 70, 82},
    // cvt (conversions)
    {"cvt_bf16", "cvt with .{type}.{type2}", FeatureKind::feature, 90, 78},
    {"cvt_f32_bf16", "cvt with .{type}.{type2}", FeatureKind::feature, 80, 71},
    {"cvt_bf16_ftz", "cvt with .{type}.{type2}.ftz", FeatureKind::feature, 90, 78},
    {"cvt_satfinite", ".satfinite", FeatureKind::modifier, 75, 81},
    {"cvt_pack_half", "cvt.{type}.{type2}", FeatureKind::feature, 80, 70},
    {"cvt_fp8", "cvt with .e4m3x2/.e5m2x2", FeatureKind::feature, 89, 78},
    {"tf32_type", ".tf32", FeatureKind::feature, 80, 70},
    {"cvt_tf32_rn", "cvt with .{type}.{type2}.rn", FeatureKind::feature, 90, 78},
    {"cvt_tf32_rna_satfinite", "'.satfinite' on 'cvt.{type}.{type2}.rna'", FeatureKind::modifier, 80, 81},
    {"cvt_tf32_rn_satfinite", "'.satfinite' on 'cvt.{type}.{type2}.rn'", FeatureKind::modifier, 100, 86},
    {"cvt_fp6", "cvt with .e2m3x2/.e3m2x2", FeatureKind::feature, 100, 86, FeatureScope::specific_targets},
    {"cvt_fp4", "cvt with .e2m1x2", FeatureKind::feature, 100, 86, FeatureScope::specific_targets},
    {"cvt_ue8m0", "cvt with .ue8m0x2", FeatureKind::feature, 100, 86, FeatureScope::specific_targets},
    // stochastic rounding: on sm_100a and sm_103a only (ptxas 13.0 refuses sm_100f, sm_110a, sm_120a, sm_121a, ...)
    {"cvt_rs", ".rs", FeatureKind::feature, 100, 87, FeatureScope::listed_targets, "sm_100a sm_103a"},
    {"b128_type", "Type .b128", FeatureKind::feature, 70, 83},  // mov.b128 (PTX ISA: sm_70, PTX 8.3)
    // cvt.pack (PTX ISA 6.5; sm_72, the sub-byte types sm_75: below sm_75 not checkable with ptxas 13.0)
    {"cvt_pack", "cvt.pack", FeatureKind::feature, 72, 65},
    {"cvt_pack_subbyte", "cvt.pack", FeatureKind::feature, 75, 65},
    {"int2_type", ".{type}", FeatureKind::feature, 75, 65},
};
inline constexpr size_t kNumFeatures = sizeof(kFeatures) / sizeof(kFeatures[0]);
static_assert(kNumFeatures <= kMaxFeatures);

// Compile-time lookup so form rows can name features; a typo fails to compile.
constexpr FeatureId feature(std::string_view id) {
  for (size_t i = 0; i < kNumFeatures; ++i)
    if (kFeatures[i].id == id) return static_cast<FeatureId>(i);
  throw "unknown feature id";
}

std::optional<FeatureId> find_feature(std::string_view id);

struct Target {
  std::string name;  // as written: sm_90a
  uint16_t sm;       // 90
  uint16_t min_ptx;  // the PTX ISA version that introduced the target, times ten
  FeatureMask mask;  // features it provides (before config overrides)
};

// The targets ptxfu knows, oldest first; `a`/`f` variants resolve to the base
// number (their extra features are not arithmetic).
const std::vector<uint16_t>& known_sm_numbers();
std::optional<Target> find_target(std::string_view name);
const Target& newest_target();

// Adds and removes features by id on top of a target's mask (a config's
// `features: {add: [...], remove: [...]}`). Unknown ids are an error.
bool apply_feature_overrides(FeatureMask& mask, const std::vector<std::string>& add,
                             const std::vector<std::string>& remove, std::string& error);

// PTX ISA versions: "8.1" <-> 81.
std::optional<uint16_t> parse_ptx_version(std::string_view text);
std::string format_ptx_version(uint16_t v);
inline constexpr uint16_t kNewestPtx = 91;

}  // namespace ptxfu::isa
