#include "models/config.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "isa/forms.h"
#include "isa/target_options.h"
#include "models/text_file.h"
#include "models/yaml_reader.h"

namespace ptxfu::models {
namespace {

std::vector<std::string_view> unit_names() {
  std::vector<std::string_view> v;
  for (const UnitRow& r : kUnits) v.push_back(r.name);
  return v;
}

// "a, b or c"
std::string alternatives(const std::vector<std::string_view>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return s;
}

// The config schema's own readers on top of the shared YAML reader.
struct Reader : YamlReader {
  unsigned integer(const YAML::Node& n, const std::string& key, unsigned lo, unsigned hi) const {
    return static_cast<unsigned>(YamlReader::integer(n, key, lo, hi));
  }

  unsigned lanes(const YAML::Node& n, const std::string& key) const {
    const unsigned v = integer(n, key, 1, 32);
    if (32 % v != 0) fail(n, key, fmt::format("expected 1, 2, 4, 8, 16 or 32 lanes, got {}", v));
    return v;
  }

  Unit unit(const YAML::Node& n, const std::string& key) const {
    const std::string s = string(n, key);
    if (const std::optional<Unit> u = unit_named(s)) return *u;
    fail(n, key, fmt::format("unknown unit '{}' (expected {})", s, alternatives(unit_names())));
  }

  Timing timing(const YAML::Node& n, const std::string& key, Unit u, bool with_unit) const {
    if (with_unit)
      only_keys(n, key, {"unit", "lanes", "interval", "latency"});
    else
      only_keys(n, key, {"lanes", "interval", "latency"});
    Timing t;
    t.unit = with_unit ? unit(required(n, "unit", key), key + ".unit") : u;
    t.lanes = lanes(required(n, "lanes", key), key + ".lanes");
    t.interval = n["interval"] ? integer(n["interval"], key + ".interval", 1, 4096) : 1;
    t.latency = integer(required(n, "latency", key), key + ".latency", 1, 100000);
    t.dep = dep_class_of(t.unit);
    return t;
  }

  DepClass dep_class(const YAML::Node& n, const std::string& key) const {
    const std::string s = string(n, key);
    for (size_t i = 0; i < kNumDepClasses; ++i)
      if (kDepClassNames[i] == s) return static_cast<DepClass>(i);
    fail(n, key,
         fmt::format("unknown class '{}' (expected {})", s,
                     alternatives({std::begin(kDepClassNames), std::end(kDepClassNames)})));
  }

  // A class name or a list of them.
  std::vector<DepClass> dep_classes(const YAML::Node& n, const std::string& key) const {
    std::vector<DepClass> v;
    if (n.IsSequence()) {
      for (size_t i = 0; i < n.size(); ++i) v.push_back(dep_class(n[i], fmt::format("{}[{}]", key, i)));
      if (v.empty()) fail(n, key, "expected at least one class");
    } else {
      v.push_back(dep_class(n, key));
    }
    return v;
  }
};

int sm_number(std::string_view name) {
  int v = 0;
  for (char c : name)
    if (c >= '0' && c <= '9') v = v * 10 + (c - '0');
  return v;
}

// One config's `references.yaml` block: bench name -> {latency, throughput, source}.
std::vector<Reference> read_references(const Reader& r, const YAML::Node& block, const std::string& config) {
  if (!block.IsMap()) r.fail(block, config, "expected a mapping of benchmark name to {latency, throughput, source}");
  std::vector<Reference> v;
  for (const auto& kv : block) {
    // A key that is a list or mapping is an error, not a yaml-cpp exception.
    const std::string bench = r.string(kv.first, config);
    const std::string key = config + "." + bench;
    r.only_keys(kv.second, key, {"latency", "throughput", "source"});
    Reference p;
    p.bench = bench;
    // null: no figure with a primary source (the bench prints the model alone).
    if (kv.second["latency"] && !kv.second["latency"].IsNull())
      p.latency = r.number(kv.second["latency"], key + ".latency");
    if (kv.second["throughput"] && !kv.second["throughput"].IsNull())
      p.throughput = r.number(kv.second["throughput"], key + ".throughput");
    p.source = r.string(r.required(kv.second, "source", key), key + ".source");
    v.push_back(p);
  }
  return v;
}

// `tensor.latencies: {SHAPE.IN.OUT: cycles}` ("m16n8k8.f16.f32: 17").
std::vector<TensorLatency> read_tensor_latencies(const Reader& r, const YAML::Node& n) {
  std::vector<TensorLatency> out;
  if (!n) return out;
  if (!n.IsMap()) r.fail(n, "tensor.latencies", "expected a mapping of SHAPE.IN.OUT (m16n8k8.f16.f32, ...) to cycles");
  for (const auto& kv : n) {
    const std::string name = r.string(kv.first, "tensor.latencies");
    const std::string key = "tensor.latencies." + name;
    TensorLatency l;
    const size_t d1 = name.find('.'), d2 = d1 == std::string::npos ? d1 : name.find('.', d1 + 1);
    char tail = 0;
    if (d2 == std::string::npos || std::sscanf(name.c_str(), "m%dn%dk%d%c", &l.m, &l.n, &l.k, &tail) != 4 ||
        tail != '.' || !mma::parse_elem(name.substr(d1 + 1, d2 - d1 - 1), &l.in) ||
        !mma::parse_elem(name.substr(d2 + 1), &l.out))
      r.fail(kv.first, key, "expected SHAPE.IN.OUT, a shape and two element types (m16n8k8.f16.f32, ...)");
    l.latency = r.integer(kv.second, key, 1, 100000);
    out.push_back(l);
  }
  return out;
}

// `tensor: {rates: {IN.OUT: multiply-adds per clock per sub-partition}, latency, latencies, source}`.
TensorTiming read_tensor(const Reader& r, const YAML::Node& n) {
  r.only_keys(n, "tensor", {"rates", "latency", "latencies", "source"});
  TensorTiming t;
  t.latency = r.integer(r.required(n, "latency", "tensor"), "tensor.latency", 1, 100000);
  t.source = r.string(r.required(n, "source", "tensor"), "tensor.source");
  const YAML::Node rates = r.required(n, "rates", "tensor");
  if (!rates.IsMap()) r.fail(rates, "tensor.rates", "expected a mapping of IN.OUT (f16.f32, s8.s32, ...) to a rate");
  for (const auto& kv : rates) {
    const std::string pair = r.string(kv.first, "tensor.rates");
    const std::string key = "tensor.rates." + pair;
    const size_t dot = pair.find('.');
    TensorRate rate;
    if (dot == std::string::npos || !mma::parse_elem(pair.substr(0, dot), &rate.in) ||
        !mma::parse_elem(pair.substr(dot + 1), &rate.out))
      r.fail(kv.first, key, "expected IN.OUT, two element types (f16.f32, bf16.f32, tf32.f32, f64.f64, s8.s32, ...)");
    rate.rate = r.number(kv.second, key);
    if (!(rate.rate >= 1.0 / 64 && rate.rate <= 65536)) r.fail(kv.second, key, "expected a rate 1/64..65536");
    t.rates.push_back(rate);
  }
  t.latencies = read_tensor_latencies(r, n["latencies"]);
  return t;
}

// The YAML document of `text`; a syntax error names origin:line:column.
YAML::Node parse_yaml(const std::string& text, const std::string& origin) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", origin, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

}  // namespace

ArchConfig load_config_text(const std::string& text, const std::string& origin) {
  const YAML::Node root = parse_yaml(text, origin);
  const Reader r{{origin}};
  if (!root || root.IsNull()) throw ConfigError(origin + ": empty config");
  r.only_keys(root, "",
              {"name", "description", "target", "ptx_version", "features", "sub_partitions", "issue_width", "max_warps",
               "scheduler", "sm", "units", "memory", "multi_instruction", "half_precision", "forms", "dependencies",
               "tensor", "async"});
  ArchConfig c;
  c.origin = origin;
  c.name = r.string(r.required(root, "name", ""), "name");
  c.description = root["description"] ? r.string(root["description"], "description") : "";

  const YAML::Node target = r.required(root, "target", "");
  isa::TargetOptions options;
  options.target = r.string(target, "target");
  if (root["ptx_version"]) options.ptx_version = r.string(root["ptx_version"], "ptx_version");
  if (const YAML::Node f = root["features"]) {
    r.only_keys(f, "features", {"add", "remove"});
    if (f["add"]) options.add_features = r.strings(f["add"], "features.add");
    if (f["remove"]) options.remove_features = r.strings(f["remove"], "features.remove");
  }
  std::string error;
  const auto caps = isa::resolve_capabilities(options, std::nullopt, std::nullopt, false, error);
  if (!caps) r.fail(target, "target", error);
  c.caps = *caps;

  c.sub_partitions = r.integer(r.required(root, "sub_partitions", ""), "sub_partitions", 1, 8);
  c.issue_width = r.integer(r.required(root, "issue_width", ""), "issue_width", 1, 4);
  c.max_warps = r.integer(r.required(root, "max_warps", ""), "max_warps", 1, 256);
  const YAML::Node sched = r.required(root, "scheduler", "");
  const std::string policy = r.string(sched, "scheduler");
  if (policy == "lrr")
    c.scheduler = SchedulerPolicy::lrr;
  else if (policy == "gto")
    c.scheduler = SchedulerPolicy::gto;
  else
    r.fail(sched, "scheduler", fmt::format("unknown policy '{}' (expected lrr or gto)", policy));

  const YAML::Node sm = r.required(root, "sm", "");
  r.only_keys(sm, "sm",
              {"max_ctas", "shared_bytes", "reserved_shared_per_cta", "registers", "register_granularity", "source"});
  c.sm.max_ctas = r.integer(r.required(sm, "max_ctas", "sm"), "sm.max_ctas", 1, 1024);
  c.sm.shared_bytes = r.integer(r.required(sm, "shared_bytes", "sm"), "sm.shared_bytes", 0, 1u << 30);
  if (sm["reserved_shared_per_cta"])
    c.sm.reserved_shared_per_cta = r.integer(sm["reserved_shared_per_cta"], "sm.reserved_shared_per_cta", 0, 1u << 20);
  c.sm.registers = r.integer(r.required(sm, "registers", "sm"), "sm.registers", 256, 1u << 24);
  if (sm["register_granularity"])
    c.sm.register_granularity = r.integer(sm["register_granularity"], "sm.register_granularity", 1, 4096);
  r.string(r.required(sm, "source", "sm"), "sm.source");

  const YAML::Node units = r.required(root, "units", "");
  r.only_keys(units, "units", unit_names());
  for (const UnitRow& row : kUnits) {
    const std::string name(row.name);
    c.units[static_cast<size_t>(row.unit)] =
        r.timing(r.required(units, name.c_str(), "units"), "units." + name, row.unit, false);
  }
  c.tensor = read_tensor(r, r.required(root, "tensor", ""));
  if (const YAML::Node a = root["async"]) {
    r.only_keys(a, "async", {"clock_mhz", "try_wait_suspend", "bulk_latency", "source"});
    if (a["clock_mhz"]) {
      c.async.clock_mhz = r.number(a["clock_mhz"], "async.clock_mhz");
      if (!(c.async.clock_mhz >= 1 && c.async.clock_mhz <= 100000))
        r.fail(a["clock_mhz"], "async.clock_mhz", "must be 1 to 100000");
    }
    if (a["try_wait_suspend"])
      c.async.try_wait_suspend = r.integer(a["try_wait_suspend"], "async.try_wait_suspend", 1, 1000000);
    if (a["bulk_latency"]) c.async.bulk_latency = r.integer(a["bulk_latency"], "async.bulk_latency", 0, 1000000);
    c.async.source = r.string(r.required(a, "source", "async"), "async.source");
  }
  const YAML::Node mem = r.required(root, "memory", "");
  r.only_keys(mem, "memory",
              {"shared", "global", "global_miss", "global_hit_rate", "local", "const", "param", "atomic", "line_bytes",
               "shared_banks", "dsmem", "cluster_barrier", "source"});
  auto latency = [&](const char* key) {
    return r.integer(r.required(mem, key, "memory"), std::string("memory.") + key, 1, 100000);
  };
  c.memory.shared = latency("shared");
  c.memory.global = latency("global");
  c.memory.local = latency("local");
  c.memory.constant = latency("const");
  c.memory.param = latency("param");
  c.memory.atomic = latency("atomic");
  c.memory.line_bytes = latency("line_bytes");
  if ((c.memory.line_bytes & (c.memory.line_bytes - 1)) != 0)
    r.fail(mem["line_bytes"], "memory.line_bytes", "expected a power of two");
  c.memory.shared_banks = r.integer(r.required(mem, "shared_banks", "memory"), "memory.shared_banks", 1, 64);
  if (mem["dsmem"]) c.memory.dsmem = latency("dsmem");
  if (mem["cluster_barrier"]) c.memory.cluster_barrier = latency("cluster_barrier");
  if (mem["global_miss"].IsDefined() != mem["global_hit_rate"].IsDefined())
    r.fail(mem, "memory", "global_miss and global_hit_rate go together");
  c.memory.global_miss = mem["global_miss"] ? latency("global_miss") : c.memory.global;
  if (mem["global_hit_rate"]) {
    c.memory.global_hit_rate = r.number(mem["global_hit_rate"], "memory.global_hit_rate");
    if (!(c.memory.global_hit_rate >= 0 && c.memory.global_hit_rate <= 1))
      r.fail(mem["global_hit_rate"], "memory.global_hit_rate", "expected a fraction from 0 to 1");
  }
  r.string(r.required(mem, "source", "memory"), "memory.source");

  c.multi_instruction = r.timing(r.required(root, "multi_instruction", ""), "multi_instruction", Unit::fma, true);
  c.multi_instruction.dep = DepClass::multi;
  c.half_precision = r.timing(r.required(root, "half_precision", ""), "half_precision", Unit::fma, true);
  c.half_precision.dep = DepClass::fp16;

  if (const YAML::Node forms = root["forms"]) {
    if (!forms.IsSequence()) r.fail(forms, "forms", "expected a list of {match: GLOB, ...} overrides");
    for (size_t i = 0; i < forms.size(); ++i) {
      const std::string key = fmt::format("forms[{}]", i);
      const YAML::Node f = forms[i];
      r.only_keys(f, key,
                  {"match", "class", "unit", "lanes", "interval", "latency", "latency_class", "sequence", "source"});
      FormOverride o;
      o.match = r.string(r.required(f, "match", key), key + ".match");
      if (f["class"]) {
        const std::string cls = r.string(f["class"], key + ".class");
        for (size_t p = 0; p < static_cast<size_t>(isa::Pipe::kCount); ++p)
          if (isa::kPipeNames[p] == cls) o.pipe_class = static_cast<isa::Pipe>(p);
        if (!o.pipe_class)
          r.fail(f["class"], key + ".class",
                 fmt::format("unknown class '{}' (expected {})", cls,
                             alternatives({std::begin(isa::kPipeNames), std::end(isa::kPipeNames)})));
      }
      if (f["unit"]) o.unit = r.unit(f["unit"], key + ".unit");
      if (f["lanes"]) o.lanes = r.lanes(f["lanes"], key + ".lanes");
      if (f["interval"]) o.interval = r.integer(f["interval"], key + ".interval", 1, 4096);
      if (f["latency"]) o.latency = r.integer(f["latency"], key + ".latency", 1, 100000);
      if (f["latency_class"]) o.dep = r.dep_class(f["latency_class"], key + ".latency_class");
      if (f["source"]) o.source = r.string(f["source"], key + ".source");
      if (const YAML::Node q = f["sequence"]) {
        const std::string skey = key + ".sequence";
        r.only_keys(q, skey, {"instructions", "path"});
        if (f["interval"] || f["latency"])
          r.fail(q, skey, "a sequence's interval and latency follow from it: give neither");
        Sequence seq;
        seq.instructions = r.integer(r.required(q, "instructions", skey), skey + ".instructions", 1, 1000);
        const YAML::Node path = r.required(q, "path", skey);
        if (!path.IsMap()) r.fail(path, skey + ".path", "expected a mapping of unit to instructions");
        r.only_keys(path, skey + ".path", unit_names());
        unsigned on_path = 0;
        for (const UnitRow& row : kUnits)
          if (path[std::string(row.name)]) {
            const std::string pkey = skey + ".path." + std::string(row.name);
            on_path += seq.path[static_cast<size_t>(row.unit)] =
                r.integer(path[std::string(row.name)], pkey, 0, seq.instructions);
          }
        if (on_path == 0 || on_path > seq.instructions)
          r.fail(path, skey + ".path",
                 fmt::format("expected 1 to {} instructions on the path, got {}", seq.instructions, on_path));
        o.sequence = seq;
      }
      c.forms.push_back(o);
    }
  }
  if (const YAML::Node deps = root["dependencies"]) {
    if (!deps.IsSequence())
      r.fail(deps, "dependencies", "expected a list of {producer: CLASS, consumer: CLASS, latency: N, source: TEXT}");
    for (size_t i = 0; i < deps.size(); ++i) {
      const std::string key = fmt::format("dependencies[{}]", i);
      const YAML::Node d = deps[i];
      r.only_keys(d, key, {"producer", "consumer", "latency", "source"});
      const auto producers = r.dep_classes(r.required(d, "producer", key), key + ".producer");
      const auto consumers = r.dep_classes(r.required(d, "consumer", key), key + ".consumer");
      const unsigned latency = r.integer(r.required(d, "latency", key), key + ".latency", 1, 100000);
      const std::string source = r.string(r.required(d, "source", key), key + ".source");
      for (DepClass p : producers)
        for (DepClass q : consumers) {
          unsigned& cell = c.dependency_table[static_cast<size_t>(p)][static_cast<size_t>(q)];
          if (cell != 0) r.fail(d, key, fmt::format("the pair {} -> {} is given twice", name(p), name(q)));
          cell = latency;
          c.dependencies.push_back({p, q, latency, source});
        }
    }
  }
  // The published figures live apart from the parameters (configs/references.yaml).
  if (const auto it = shipped_references().find(c.name); it != shipped_references().end()) c.references = it->second;
  return c;
}

namespace {

// The text of a config file; false when it cannot be opened.
bool read_config_file(const std::string& path, std::string& text) {
  const ReadStatus status = read_text_file(path, kMaxConfigBytes, text);
  if (status == ReadStatus::too_large)
    throw ConfigError(fmt::format("{}: larger than {} bytes: not a config", path, kMaxConfigBytes));
  return status == ReadStatus::ok;
}

}  // namespace

ArchConfig load_config_file(const std::string& path) {
  std::string text;
  if (!read_config_file(path, text)) throw ConfigError(path + ": cannot open config");
  return load_config_text(text, path);
}

ConfigSource resolve_config(const std::string& name_or_path, const std::string& directory) {
  for (const auto& e : embedded_configs())
    if (e.name == name_or_path) return {std::string(e.text), "embedded:" + name_or_path};
  const std::string path = !name_or_path.empty() && name_or_path[0] == '/' ? name_or_path : directory + name_or_path;
  ConfigSource source{"", path};
  if (!read_config_file(path, source.text)) {
    std::string names;
    for (const auto& e : embedded_configs()) names += std::string(names.empty() ? "" : ", ") + std::string(e.name);
    throw ConfigError(fmt::format("no embedded config '{}' ({}) and no file '{}'", name_or_path, names, path));
  }
  return source;
}

ArchConfig load_config(const std::string& name_or_path, const std::string& directory) {
  const ConfigSource source = resolve_config(name_or_path, directory);
  return load_config_text(source.text, source.origin);
}

Timing ArchConfig::pipe_timing(isa::Pipe pipe) const {
  if (const std::optional<Unit> unit = unit_of(pipe)) return units[static_cast<size_t>(*unit)];
  switch (pipe) {
    case isa::Pipe::fp16: return half_precision;
    case isa::Pipe::multi: return multi_instruction;
    case isa::Pipe::fma:
    case isa::Pipe::alu:
    case isa::Pipe::fp64:
    case isa::Pipe::mufu:
    case isa::Pipe::conv:
    case isa::Pipe::kCount: break;  // units of their own (kPipeUnits)
  }
  throw std::logic_error(fmt::format("no timing for the class '{}'", isa::name(pipe)));
}

Timing ArchConfig::timing_for(const isa::Instr& instr) const {
  const isa::Pipe pipe = instr.row->pipe;
  Timing t = pipe_timing(pipe);
  if (forms.empty()) return t;
  const bool own_class = !unit_of(pipe);  // fp16, multi: their latency class whatever unit they take
  const std::string spelled = isa::spell(instr);
  for (const auto& o : forms) {
    if (o.pipe_class && *o.pipe_class != pipe) continue;
    if (fnmatch(o.match.c_str(), spelled.c_str(), 0) != 0) continue;
    if (o.unit) t = units[static_cast<size_t>(*o.unit)];
    if (o.sequence) t = sequence_timing(t.unit, *o.sequence);
    if (o.lanes) t.lanes = *o.lanes;
    if (o.interval) t.interval = *o.interval;
    if (o.latency) t.latency = *o.latency;
    if (own_class) t.dep = pipe_timing(pipe).dep;  // a sequence or a half form, whatever unit it occupies
    if (o.dep) t.dep = *o.dep;
    break;
  }
  return t;
}

Timing FormTimings::operator()(const isa::Instr& instr) {
  if (config_.forms.empty()) return config_.timing_for(instr);
  std::string spelled = isa::spell(instr);
  const auto it = by_form_.find(spelled);
  if (it != by_form_.end()) return it->second;
  const Timing t = config_.timing_for(instr);
  by_form_.emplace(std::move(spelled), t);
  return t;
}

Timing ArchConfig::sequence_timing(Unit unit, const Sequence& s) const {
  Timing t = units[static_cast<size_t>(unit)];
  t.interval *= s.instructions;
  t.latency = 0;
  for (size_t u = 0; u < kNumUnits; ++u) t.latency += s.path[u] * units[u].latency;
  return t;
}

Timing ArchConfig::mma_timing(uint64_t fmas, mma::Elem in, mma::Elem out) const {
  Timing t = units[static_cast<size_t>(Unit::tensor)];
  for (const TensorRate& r : tensor.rates) {
    if (r.in != in || r.out != out) continue;
    t.lanes = 32;
    // Never below the unit's own interval: the shortest an mma holds the unit (sm_90's 4, measured).
    t.interval = static_cast<unsigned>(
        std::max(static_cast<double>(std::max(1u, t.interval)), std::ceil(static_cast<double>(fmas) / r.rate)));
    t.latency = std::max(tensor.latency, t.interval);
    break;
  }
  return t;
}

Timing ArchConfig::mma_timing(int m, int n, int k, uint64_t fmas, mma::Elem in, mma::Elem out) const {
  Timing t = mma_timing(fmas, in, out);
  for (const TensorLatency& l : tensor.latencies)
    if (l.m == m && l.n == n && l.k == k && l.in == in && l.out == out) t.latency = std::max(l.latency, t.interval);
  return t;
}

DepClass dep_class_of(Unit u) {
  switch (u) {
    case Unit::fma: return DepClass::fma;
    case Unit::alu: return DepClass::alu;
    case Unit::fp64: return DepClass::fp64;
    case Unit::mufu: return DepClass::mufu;
    case Unit::conv: return DepClass::conv;
    case Unit::lsu: return DepClass::lsu;
    case Unit::branch: return DepClass::branch;
    case Unit::warp: return DepClass::warp;
    case Unit::tensor: return DepClass::tensor;
    case Unit::kCount: break;
  }
  return DepClass::alu;  // not reached: every unit is a case
}

unsigned ArchConfig::dependent_latency(const Timing& producer, const Timing& consumer) const {
  const unsigned entry = dependency_table[static_cast<size_t>(producer.dep)][static_cast<size_t>(consumer.dep)];
  return std::max(producer.latency, entry);
}

const Reference* ArchConfig::reference(std::string_view bench) const {
  for (const auto& r : references)
    if (r.bench == bench) return &r;
  return nullptr;
}

References load_references_text(const std::string& text, const std::string& origin) {
  const YAML::Node root = parse_yaml(text, origin);
  const Reader r{{origin}};
  if (!root || !root.IsMap()) throw ConfigError(origin + ": expected a mapping of config name to references");
  References refs;
  for (const auto& kv : root) {
    const std::string config = r.string(kv.first, "");
    refs[config] = read_references(r, kv.second, config);
  }
  return refs;
}

const References& shipped_references() {
  static const References refs = load_references_text(
#include "embedded_references.inc"
      , "embedded:references");
  return refs;
}

const std::vector<EmbeddedConfig>& embedded_configs() {
  static const std::vector<EmbeddedConfig> configs = [] {
    std::vector<EmbeddedConfig> v = {
#include "embedded_configs.inc"
    };
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return sm_number(a.name) < sm_number(b.name); });
    return v;
  }();
  return configs;
}

ArchConfig default_config() { return load_config("sm_90"); }

}  // namespace ptxfu::models
