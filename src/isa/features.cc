#include "isa/features.h"

#include <algorithm>
#include <charconv>

namespace ptxfu::isa {
namespace {

struct TargetRow {
  std::string_view name;
  uint16_t sm;
  uint16_t min_ptx;
};

// Every target name PTX ISA 9.1 defines from sm_53 on, with the PTX version
// that introduced it.
constexpr TargetRow kTargets[] = {
    {"sm_53", 53, 42},    {"sm_60", 60, 50},    {"sm_61", 61, 50},    {"sm_62", 62, 50},    {"sm_70", 70, 60},
    {"sm_72", 72, 61},    {"sm_75", 75, 63},    {"sm_80", 80, 70},    {"sm_86", 86, 71},    {"sm_87", 87, 74},
    {"sm_88", 88, 90},    {"sm_89", 89, 78},    {"sm_90", 90, 78},    {"sm_90a", 90, 80},   {"sm_100", 100, 86},
    {"sm_100a", 100, 86}, {"sm_100f", 100, 88}, {"sm_101", 101, 86},  {"sm_101a", 101, 86}, {"sm_103", 103, 88},
    {"sm_103a", 103, 88}, {"sm_103f", 103, 88}, {"sm_110", 110, 90},  {"sm_110a", 110, 90}, {"sm_110f", 110, 90},
    {"sm_120", 120, 87},  {"sm_120a", 120, 87}, {"sm_120f", 120, 88}, {"sm_121", 121, 88},  {"sm_121a", 121, 88},
    {"sm_121f", 121, 88},
};

// Whether `name` is one of the space-separated names in `list`.
bool listed(std::string_view list, std::string_view name) {
  while (!list.empty()) {
    const size_t space = list.find(' ');
    if (list.substr(0, space) == name) return true;
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return false;
}

// The features of target `row`: by sm number; the specific ones on an
// architecture- or family-specific target (sm_100a, sm_100f); the listed
// ones on the targets their row names.
FeatureMask mask_for(const TargetRow& row) {
  const char last = row.name.back();
  const bool specific = last == 'a' || last == 'f';
  FeatureMask mask;
  for (size_t i = 0; i < kNumFeatures; ++i) {
    const Feature& f = kFeatures[i];
    switch (f.scope) {
      case FeatureScope::every_target: mask.set(i, f.min_sm <= row.sm); break;
      case FeatureScope::specific_targets: mask.set(i, f.min_sm <= row.sm && specific); break;
      case FeatureScope::listed_targets: mask.set(i, listed(f.targets, row.name)); break;
    }
  }
  return mask;
}

}  // namespace

std::optional<FeatureId> find_feature(std::string_view id) {
  for (size_t i = 0; i < kNumFeatures; ++i)
    if (kFeatures[i].id == id) return static_cast<FeatureId>(i);
  return std::nullopt;
}

const std::vector<uint16_t>& known_sm_numbers() {
  static const std::vector<uint16_t> numbers = [] {
    std::vector<uint16_t> v;
    for (const auto& t : kTargets)
      if (std::find(v.begin(), v.end(), t.sm) == v.end()) v.push_back(t.sm);
    std::sort(v.begin(), v.end());
    return v;
  }();
  return numbers;
}

std::optional<Target> find_target(std::string_view name) {
  for (const auto& t : kTargets)
    if (t.name == name) return Target{std::string(t.name), t.sm, t.min_ptx, mask_for(t)};
  return std::nullopt;
}

const Target& newest_target() {
  static const Target newest = *find_target("sm_121f");
  return newest;
}

bool apply_feature_overrides(FeatureMask& mask, const std::vector<std::string>& add,
                             const std::vector<std::string>& remove, std::string& error) {
  auto apply = [&](const std::vector<std::string>& ids, bool value) {
    for (const auto& id : ids) {
      const auto f = find_feature(id);
      if (!f) {
        error = "unknown feature '" + id + "' (known: ";
        for (size_t i = 0; i < kNumFeatures; ++i) error += std::string(i ? ", " : "") + std::string(kFeatures[i].id);
        error += ")";
        return false;
      }
      mask.set(*f, value);
    }
    return true;
  };
  return apply(add, true) && apply(remove, false);
}

std::optional<uint16_t> parse_ptx_version(std::string_view text) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 2 != text.size()) return std::nullopt;
  unsigned major = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + dot, major);
  if (ec != std::errc() || p != text.data() + dot || major > 99) return std::nullopt;
  const char minor = text[dot + 1];
  if (minor < '0' || minor > '9') return std::nullopt;
  return static_cast<uint16_t>(major * 10 + (minor - '0'));
}

std::string format_ptx_version(uint16_t v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }

}  // namespace ptxfu::isa
