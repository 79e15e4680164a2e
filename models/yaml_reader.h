// Reading YAML with errors that name the file, line, column and key path:
// "FILE:LINE:COL: key 'units.fma.lanes': expected ...". Shared by the
// config loader and the sweep spec loader.
#pragma once
#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/config.h"

namespace ptxfu::models {

struct YamlReader {
  const std::string& origin;

  [[noreturn]] void fail(const YAML::Node& node, const std::string& key, const std::string& message) const {
    const YAML::Mark m = node.Mark();
    if (m.is_null()) throw ConfigError(fmt::format("{}: key '{}': {}", origin, key, message));
    throw ConfigError(fmt::format("{}:{}:{}: key '{}': {}", origin, m.line + 1, m.column + 1, key, message));
  }

  // Rejects keys the schema does not know (typos must not pass silently).
  void only_keys(const YAML::Node& map, const std::string& where, const std::vector<std::string_view>& known) const {
    if (!map.IsMap()) fail(map, where, "expected a mapping");
    for (const auto& kv : map) {
      const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
      if (std::none_of(known.begin(), known.end(), [&](std::string_view s) { return k == s; })) {
        std::string list;
        for (std::string_view s : known) list += std::string(list.empty() ? "" : ", ") + std::string(s);
        fail(kv.first, where.empty() ? k : where + "." + k, "unknown key (expected one of: " + list + ")");
      }
    }
  }
  void only_keys(const YAML::Node& map, const std::string& where, std::initializer_list<const char*> known) const {
    only_keys(map, where, std::vector<std::string_view>(known.begin(), known.end()));
  }

  YAML::Node required(const YAML::Node& map, const char* key, const std::string& where) const {
    const YAML::Node n = map[key];
    if (!n) fail(map, where.empty() ? key : where + "." + key, "missing");
    return n;
  }

  std::string string(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected a string");
    return n.Scalar();
  }

  long long integer(const YAML::Node& n, const std::string& key, long long lo, long long hi) const {
    if (!n.IsScalar()) fail(n, key, fmt::format("expected an integer {}..{}", lo, hi));
    const std::string& s = n.Scalar();
    long long v = 0;
    size_t used = 0;
    try {
      v = std::stoll(s, &used, 10);
    } catch (...) {
      used = 0;
    }
    if (s.empty() || used != s.size() || v < lo || v > hi)
      fail(n, key, fmt::format("expected an integer {}..{}, got '{}'", lo, hi, s));
    return v;
  }

  double number(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected a number");
    try {
      size_t used = 0;
      const double v = std::stod(n.Scalar(), &used);
      if (used == n.Scalar().size() && v >= 0 && v < 1e9) return v;
    } catch (...) {
    }
    fail(n, key, fmt::format("expected a non-negative number, got '{}'", n.Scalar()));
  }

  std::vector<std::string> strings(const YAML::Node& n, const std::string& key) const {
    if (!n.IsSequence()) fail(n, key, "expected a list");
    std::vector<std::string> out;
    for (size_t i = 0; i < n.size(); ++i) out.push_back(string(n[i], fmt::format("{}[{}]", key, i)));
    return out;
  }
};

}  // namespace ptxfu::models
