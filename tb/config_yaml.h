// A config as the timing oracles read it: its YAML with yaml-cpp and the
// README's rules (Configs), sharing no code with models/config.cc.
#pragma once
#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxfu::testing_support {

struct OTiming {
  std::string unit;  // the unit's name
  unsigned lanes = 32, interval = 1, latency = 0;
  std::string dep;  // the latency class
};

struct OForm {
  std::string match, cls, unit, latency_class;
  std::optional<unsigned> lanes, interval, latency;
  unsigned sequence_instructions = 0;  // 0: not a sequence
  std::map<std::string, unsigned> path;
};

// `sm:` (README defaults where a key is optional).
struct OSm {
  unsigned max_ctas = 0, shared_bytes = 0, reserved_shared_per_cta = 0, registers = 0, register_granularity = 256;
};

// `memory:`: latencies by state space; global_miss and the hit share go together.
struct OMemory {
  unsigned shared = 0, global = 0, global_miss = 0, local = 0, constant = 0, param = 0, atomic = 0;
  unsigned line_bytes = 0, shared_banks = 0;
  double global_hit_rate = 1.0;
};

struct OConfig {
  unsigned sub_partitions = 0, issue_width = 0, max_warps = 0;
  bool lrr = false;
  OSm sm;
  OMemory memory;
  std::map<std::string, OTiming> units;
  OTiming multi;  // the `multi` class
  OTiming half;   // the `fp16` class
  std::vector<OForm> forms;
  std::map<std::pair<std::string, std::string>, unsigned> dependencies;  // (producer, consumer) -> cycles

  // The dependencies: entry for a pair, 0 when none names it.
  unsigned pair_latency(const std::string& producer, const std::string& consumer) const {
    const auto it = dependencies.find({producer, consumer});
    return it == dependencies.end() ? 0u : it->second;
  }
};

// Cycles a warp-instruction holds its unit.
inline unsigned occupancy(const OTiming& t) { return 32 / t.lanes * t.interval; }

inline OTiming timing_node(const YAML::Node& n, const std::string& unit) {
  OTiming t;
  t.unit = unit;
  t.dep = unit;
  t.lanes = n["lanes"].as<unsigned>();
  if (n["interval"]) t.interval = n["interval"].as<unsigned>();
  t.latency = n["latency"].as<unsigned>();
  return t;
}

// A name or a list of names.
inline std::vector<std::string> names(const YAML::Node& n) {
  if (n.IsScalar()) return {n.as<std::string>()};
  std::vector<std::string> v;
  for (const auto& e : n) v.push_back(e.as<std::string>());
  return v;
}

inline OConfig read_config(const YAML::Node& root) {
  OConfig c;
  c.sub_partitions = root["sub_partitions"].as<unsigned>();
  c.issue_width = root["issue_width"].as<unsigned>();
  c.max_warps = root["max_warps"].as<unsigned>();
  c.lrr = root["scheduler"].as<std::string>() == "lrr";
  const YAML::Node sm = root["sm"];
  c.sm.max_ctas = sm["max_ctas"].as<unsigned>();
  c.sm.shared_bytes = sm["shared_bytes"].as<unsigned>();
  if (sm["reserved_shared_per_cta"]) c.sm.reserved_shared_per_cta = sm["reserved_shared_per_cta"].as<unsigned>();
  c.sm.registers = sm["registers"].as<unsigned>();
  if (sm["register_granularity"]) c.sm.register_granularity = sm["register_granularity"].as<unsigned>();
  const YAML::Node mem = root["memory"];
  c.memory = {mem["shared"].as<unsigned>(),
              mem["global"].as<unsigned>(),
              mem["global_miss"] ? mem["global_miss"].as<unsigned>() : mem["global"].as<unsigned>(),
              mem["local"].as<unsigned>(),
              mem["const"].as<unsigned>(),
              mem["param"].as<unsigned>(),
              mem["atomic"].as<unsigned>(),
              mem["line_bytes"].as<unsigned>(),
              mem["shared_banks"].as<unsigned>(),
              mem["global_hit_rate"] ? mem["global_hit_rate"].as<double>() : 1.0};
  for (const auto& kv : root["units"])
    c.units[kv.first.as<std::string>()] = timing_node(kv.second, kv.first.as<std::string>());
  const YAML::Node m = root["multi_instruction"];
  c.multi = timing_node(m, m["unit"] ? m["unit"].as<std::string>() : "fma");
  c.multi.dep = "multi";
  const YAML::Node h = root["half_precision"];
  c.half = timing_node(h, h["unit"].as<std::string>());
  c.half.dep = "fp16";
  for (const auto& f : root["forms"]) {
    OForm o;
    o.match = f["match"].as<std::string>();
    if (f["class"]) o.cls = f["class"].as<std::string>();
    if (f["unit"]) o.unit = f["unit"].as<std::string>();
    if (f["latency_class"]) o.latency_class = f["latency_class"].as<std::string>();
    if (f["lanes"]) o.lanes = f["lanes"].as<unsigned>();
    if (f["interval"]) o.interval = f["interval"].as<unsigned>();
    if (f["latency"]) o.latency = f["latency"].as<unsigned>();
    if (const YAML::Node q = f["sequence"]) {
      o.sequence_instructions = q["instructions"].as<unsigned>();
      for (const auto& kv : q["path"]) o.path[kv.first.as<std::string>()] = kv.second.as<unsigned>();
    }
    c.forms.push_back(o);
  }
  for (const auto& d : root["dependencies"])
    for (const std::string& p : names(d["producer"]))
      for (const std::string& q : names(d["consumer"])) c.dependencies[{p, q}] = d["latency"].as<unsigned>();
  return c;
}

// A form's timing: its class's unit (multi: multi_instruction, fp16:
// half_precision, each keeping its class whatever unit it takes), then the
// first matching override.
inline OTiming timing_of(const OConfig& c, const std::string& spelling, const std::string& cls) {
  if (cls == "mov") return c.units.at("alu");
  OTiming t = cls == "multi" ? c.multi : cls == "fp16" ? c.half : c.units.at(cls);
  for (const OForm& o : c.forms) {
    if (!o.cls.empty() && o.cls != cls) continue;
    if (fnmatch(o.match.c_str(), spelling.c_str(), 0) != 0) continue;
    if (!o.unit.empty()) t = c.units.at(o.unit);
    if (o.sequence_instructions) {
      t = c.units.at(t.unit);
      t.interval *= o.sequence_instructions;
      t.latency = 0;
      for (const auto& [unit, n] : o.path) t.latency += n * c.units.at(unit).latency;
    }
    if (o.lanes) t.lanes = *o.lanes;
    if (o.interval) t.interval = *o.interval;
    if (o.latency) t.latency = *o.latency;
    if (cls == "multi" || cls == "fp16") t.dep = cls;
    if (!o.latency_class.empty()) t.dep = o.latency_class;
    break;
  }
  return t;
}

}  // namespace ptxfu::testing_support
