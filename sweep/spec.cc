#include "sweep/spec.h"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/microbench.h"
#include "models/text_file.h"
#include "models/yaml_reader.h"
#include "sweep/launch_args.h"
#include "sweep/program.h"
#include "util/splitmix64.h"

namespace ptxfu::sweep {

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::string stem_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  std::string s = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = s.rfind('.');
  return dot == std::string::npos || dot == 0 ? s : s.substr(0, dot);
}

std::string resolve(const std::string& spec_path, const std::string& p) {
  return !p.empty() && p[0] == '/' ? p : directory_of(spec_path) + p;
}

namespace {

using models::ConfigError;

constexpr size_t kMaxPoints = 1000000;
constexpr unsigned kDefaultChain = 64;   // dependent instructions per warp
constexpr unsigned kDefaultRounds = 16;  // stream rounds of independent instructions

// Specs and base configs are at most 1 MiB, programs 16 MiB (models/text_file.h).
std::string read_file(const std::string& path, bool& ok, size_t limit = models::kMaxConfigBytes) {
  std::string text;
  const models::ReadStatus status = models::read_text_file(path, limit, text);
  if (status == models::ReadStatus::too_large)
    throw models::ConfigError(fmt::format("{}: larger than {} bytes", path, limit));
  ok = status == models::ReadStatus::ok;
  return text;
}

std::string flow(const YAML::Node& n) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  return e.c_str();
}

using Reader = models::YamlReader;

// SplitMix64 gives the same numbers on every platform
// (std::uniform_int_distribution is implementation-defined).
uint64_t below(uint64_t& state, uint64_t n) { return util::splitmix64(state) % n; }  // n is small: bias is negligible

// A config key path: name segments separated by dots, list items by [N] or
// by [GLOB], the entry whose `match:` is GLOB (forms[*.f16x2].lanes).
struct Segment {
  std::string name;  // map key; empty for a list item
  bool index = false;
  size_t position = 0;
  std::string match;
};

bool parse_path(const std::string& path, std::vector<Segment>& out) {
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string::npos || close == i + 1 || out.empty()) return false;
      Segment s;
      const std::string inner = path.substr(i + 1, close - i - 1);
      if (inner.find_first_not_of("0123456789") == std::string::npos) {
        s.index = true;
        s.position = std::stoul(inner);
      } else {
        s.match = inner;
      }
      out.push_back(s);
      i = close + 1;
      if (i < path.size() && path[i] != '.' && path[i] != '[') return false;
      if (i < path.size() && path[i] == '.') ++i;
      continue;
    }
    size_t end = i;
    while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
    if (end == i) return false;
    Segment s;
    s.name = path.substr(i, end - i);
    out.push_back(s);
    i = end;
    if (i < path.size() && path[i] == '.') {
      ++i;
      if (i == path.size()) return false;
    }
  }
  return !out.empty();
}

// Sets `path` in the config tree to `value`. Map keys that do not exist are
// created (the config loader then rejects the ones it does not know).
void apply(YAML::Node root, const std::string& path, const YAML::Node& value, std::string& error) {
  std::vector<Segment> segs;
  if (!parse_path(path, segs)) {
    error = "not a config key path (expected names separated by dots, list items as [N] or [GLOB])";
    return;
  }
  YAML::Node cur = root;
  std::string walked;
  for (size_t s = 0; s < segs.size(); ++s) {
    const Segment& g = segs[s];
    const bool last = s + 1 == segs.size();
    YAML::Node next;
    if (!g.name.empty()) {
      walked += (walked.empty() ? "" : ".") + g.name;
      if (cur.IsNull()) cur = YAML::Node(YAML::NodeType::Map);
      if (!cur.IsMap()) {
        error = fmt::format("'{}' is not a mapping in the base config", walked.substr(0, walked.rfind('.')));
        return;
      }
      if (last) {
        cur[g.name] = YAML::Clone(value);
        return;
      }
      if (!cur[g.name]) cur[g.name] = YAML::Node(YAML::NodeType::Map);
      next.reset(cur[g.name]);
    } else {
      if (!cur.IsSequence()) {
        error = fmt::format("'{}' is not a list in the base config", walked);
        return;
      }
      size_t at = g.position;
      if (g.index) {
        walked += fmt::format("[{}]", g.position);
        if (at >= cur.size()) {
          error = fmt::format("the base config's '{}' has {} entries", walked.substr(0, walked.rfind('[')), cur.size());
          return;
        }
      } else {
        walked += "[" + g.match + "]";
        at = cur.size();
        for (size_t k = 0; k < cur.size(); ++k)
          if (cur[k].IsMap() && cur[k]["match"] && cur[k]["match"].IsScalar() && cur[k]["match"].Scalar() == g.match)
            at = k;
        if (at == cur.size()) {
          error = fmt::format("no entry with match: \"{}\" in the base config's list", g.match);
          return;
        }
      }
      if (last) {
        cur[at] = YAML::Clone(value);
        return;
      }
      next.reset(cur[at]);
    }
    cur.reset(next);
  }
}

// "ORIGIN:L:C: key 'x': message" -> "key 'x': message" (the location is in
// the generated text, meaningless to the user).
std::string strip_origin(const std::string& what, const std::string& origin) {
  if (what.rfind(origin, 0) != 0) return what;
  std::string s = what.substr(origin.size());
  const size_t key = s.find("key '");
  if (key != std::string::npos) return s.substr(key);
  while (!s.empty() && (s[0] == ':' || s[0] == ' ' || (s[0] >= '0' && s[0] <= '9'))) s.erase(0, 1);
  return s;
}

struct Located {
  YAML::Node node;  // for its mark
  std::string key;  // spec key path, e.g. parameters.units.fma.latency[2]
};

const char* const kReservedColumns[] = {"key", "program", "status", "error", "host_seconds"};

// The base config with the point's settings applied, as YAML text.
std::string config_text_for(const YAML::Node& base, const std::vector<std::pair<const Parameter*, size_t>>& settings,
                            const std::string& origin) {
  YAML::Node tree = YAML::Clone(base);
  for (const auto& [p, v] : settings) {
    if (!p->config_key()) continue;
    std::string error;
    apply(tree, p->key, YAML::Load(p->yaml[v]), error);
    if (!error.empty()) throw ConfigError(origin + ": key '" + p->key + "': " + error);
  }
  YAML::Emitter e;
  e << tree;
  return e.c_str();
}

models::ArchConfig config_for(const YAML::Node& base, const std::vector<std::pair<const Parameter*, size_t>>& settings,
                              const std::string& origin) {
  return models::load_config_text(config_text_for(base, settings, origin), origin);
}

// A host program: {program: FILE, name:}, `ptxfu run`'s YAML (its config:
// is the sweep's to set). Its modules and entries are found on each base
// before anything runs; what its launches' arguments are is each point's result.
ProgramSource host_program(const Reader& r, const YAML::Node& n, const std::string& key, const std::string& spec_path,
                           const std::vector<Base>& bases) {
  r.only_keys(n, key, {"program", "name"});
  const std::string file = resolve(spec_path, r.string(n["program"], key + ".program"));
  ProgramSource src;
  try {
    src.host = load_host_program(file);
  } catch (const ConfigError& e) {
    r.fail(n["program"], key + ".program", e.what());
  }
  for (const Base& b : bases) {
    try {
      HostProgramRun(*src.host, Device::from_config_text(b.text, b.origin)).setup();
    } catch (const ProgramFault& f) {
      r.fail(n["program"], key + ".program", bases.size() > 1 ? "on base '" + b.name + "': " + f.message : f.message);
    }
  }
  src.id = n["name"] ? r.string(n["name"], key + ".name") : stem_of(file);
  src.identity = src.host->identity;
  return src;
}

// A launch dimension as written: 4, "4,2", or [4, 2].
std::string dim_text(const Reader& r, const YAML::Node& n, const std::string& key) {
  if (!n.IsSequence()) return r.string(n, key);
  std::string text;
  for (size_t i = 0; i < n.size(); ++i) text += (i ? "," : "") + r.string(n[i], fmt::format("{}[{}]", key, i));
  return text;
}

// A kernel launch's args: (each checked against its parameter, buf:FILE
// relative to the spec) into `launch`; returns what of them decides the
// result, for the point's identity.
std::string kernel_args(const Reader& r, const YAML::Node& n, const std::string& key, const std::string& spec_path,
                        const kernel::Function& fn, kernel::Launch& launch) {
  std::string identity;
  const YAML::Node args = n["args"];
  if (args && !args.IsSequence())
    r.fail(args, key + ".args", "expected a list of argument specs (u32:1024, buf:random:4096:1, ...)");
  const size_t given = args ? args.size() : 0;
  if (given != fn.params.size()) {
    std::string list;
    for (const kernel::Param& p : fn.params) list += fmt::format("{}.{} {}", list.empty() ? "" : ", ", p.type, p.name);
    r.fail(args ? args : n, key + ".args",
           fmt::format("'{}' takes {} parameter{} ({}); {} argument{} given", fn.name, fn.params.size(),
                       fn.params.size() == 1 ? "" : "s", list, given, given == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < given; ++i) {
    const std::string at = fmt::format("{}.args[{}]", key, i);
    std::string spec = r.string(args[i], at);
    // buf:FILE is relative to the sweep spec, as every file it names.
    const bool buffer_file =
        spec.rfind("buf:", 0) == 0 && spec.rfind("buf:zeros:", 0) != 0 && spec.rfind("buf:random:", 0) != 0;
    if (buffer_file) spec = "buf:" + resolve(spec_path, spec.substr(4));
    try {
      launch.args.push_back(parse_arg(spec, static_cast<unsigned>(i), fn.params[i]));
    } catch (const kernel::KernelError& e) {
      std::string why = e.what();
      if (why.rfind("--arg ", 0) == 0 && why.find(' ', 6) != std::string::npos)
        why = why.substr(why.find(' ', 6) + 1);  // the position says which
      r.fail(args[i], at, why);
    }
    const kernel::Arg& a = launch.args.back();
    // Known by value: u32:1024 and u32:0x400 are one point, a file by its bytes.
    if (a.kind != kernel::Arg::Kind::buffer)
      identity += fmt::format("arg {}-byte {:#x}\n", a.bytes, a.value);
    else
      identity += "arg " + (buffer_file ? "file " + hash_hex(std::string(a.data.begin(), a.data.end())) : spec) + "\n";
  }
  return identity;
}

// A kernel launch: {kernel: FILE, entry:, name:, grid:, block:, args: [...],
// shared_bytes:, cluster:, registers_per_thread:, max_cycles:}, checked as `ptxfu sim`
// checks its options, each error at the key that causes it.
ProgramSource kernel_program(const Reader& r, const YAML::Node& n, const std::string& key,
                             const std::string& spec_path) {
  r.only_keys(n, key,
              {"kernel", "entry", "name", "grid", "block", "args", "shared_bytes", "cluster", "registers_per_thread",
               "max_cycles"});
  const std::string file = r.string(n["kernel"], key + ".kernel");
  const std::string resolved = resolve(spec_path, file);
  bool ok = false;
  std::string text = read_file(resolved, ok, models::kMaxProgramBytes);
  if (!ok) r.fail(n["kernel"], key + ".kernel", fmt::format("cannot open '{}'", resolved));
  const std::string entry = n["entry"] ? r.string(n["entry"], key + ".entry") : "";
  auto kp = std::make_shared<KernelProgram>();
  try {
    kernel::LoadOptions load;
    load.entry = entry;
    kp->kernel = std::make_shared<const kernel::Kernel>(kernel::load_kernel(text, resolved, load));
  } catch (const kernel::KernelError& e) {
    // A missing or ambiguous entry is the entry's fault; anything else the file's.
    const bool about_entry = std::string_view(e.what()).find(".entry") != std::string_view::npos;
    if (about_entry) r.fail(n["entry"] ? n["entry"] : n, key + ".entry", e.what());
    r.fail(n["kernel"], key + ".kernel", e.what());
  }
  const kernel::Function& fn = kp->kernel->entry();
  kernel::Launch& launch = kp->launch;
  std::string identity = fmt::format("kernel {} entry {}\n", hash_hex(text), fn.name);
  for (const char* dim : {"grid", "block"}) {
    const YAML::Node d = n[dim];
    if (!d) continue;
    try {
      (dim[0] == 'g' ? launch.grid : launch.block) = parse_dim3(dim_text(r, d, key + "." + dim), dim);
    } catch (const kernel::KernelError& e) {
      r.fail(d, key + "." + dim, e.what());
    }
  }
  identity += fmt::format("grid {},{},{} block {},{},{}\n", launch.grid.x, launch.grid.y, launch.grid.z, launch.block.x,
                          launch.block.y, launch.block.z);
  identity += kernel_args(r, n, key, spec_path, fn, launch);
  if (const YAML::Node c = n["cluster"]) {  // CTAs per cluster, as `ptxfu sim --cluster`
    try {
      launch.cluster = parse_dim3(dim_text(r, c, key + ".cluster"), "cluster");
      kernel::cluster_shape(*kp->kernel, launch);  // a shape that does not fit is the key's error
    } catch (const kernel::KernelError& e) {
      r.fail(c, key + ".cluster", e.what());
    }
    identity += fmt::format("cluster {},{},{}\n", launch.cluster.x, launch.cluster.y, launch.cluster.z);
  }
  if (const YAML::Node b = n["shared_bytes"])
    launch.shared_bytes = static_cast<uint32_t>(r.integer(b, key + ".shared_bytes", 0, 0xffffffffLL));
  if (const YAML::Node g = n["registers_per_thread"])
    kp->registers_per_thread = static_cast<unsigned>(r.integer(g, key + ".registers_per_thread", 1, 255));
  if (const YAML::Node m = n["max_cycles"])
    kp->max_cycles = static_cast<uint64_t>(r.integer(m, key + ".max_cycles", 1, 1LL << 62));
  identity += fmt::format("shared {} registers {} max_cycles {}\n", launch.shared_bytes, kp->registers_per_thread,
                          kp->max_cycles);
  // The arguments against the parameters' types, and the launch's shape.
  try {
    kernel::make_memory(*kp->kernel, launch);
  } catch (const kernel::KernelError& e) {
    r.fail(n, key, e.what());
  }
  ProgramSource src;
  src.id = n["name"] ? r.string(n["name"], key + ".name") : std::string(fn.name);
  src.identity = std::move(identity);
  src.text = std::move(text);
  src.kernel = std::move(kp);
  return src;
}

// Loads a spec section by section, in the order the checks depend on: bases,
// mode, parameters (each value checked against each base), programs, metrics
// and plots, the points, then every point whole.
class SpecLoader {
 public:
  SpecLoader(const YAML::Node& root, const std::string& path) : r_{path}, root_(root), path_(path) {}

  Spec load() {
    if (!root_ || root_.IsNull()) throw ConfigError(path_ + ": empty sweep spec");
    r_.only_keys(root_, "",
                 {"name", "description", "base", "mode", "parameters", "programs", "metrics", "plot", "sample"});
    spec_.path = path_;
    spec_.name = root_["name"] ? r_.string(root_["name"], "name") : stem_of(path_);
    if (spec_.name.empty() || spec_.name.find_first_of("/ \t\n'\"") != std::string::npos)
      r_.fail(root_["name"], "name", "expected a name without spaces, quotes or slashes");
    load_bases();
    load_mode();
    load_parameters();
    load_programs();
    check_kernel_warps();
    load_metrics();
    load_plots();
    spec_.points = sample(enumerate_points());
    check_points();
    return std::move(spec_);
  }

 private:
  // The base config: an embedded name or a file next to the spec; or a list
  // of them, which makes `base` the first parameter of the sweep.
  void load_bases() {
    const YAML::Node base_node = root_["base"];
    if (!base_node)
      r_.fail(root_, "base", "missing (an embedded config such as sm_90, a config file, or a list of them)");
    if (base_node.IsSequence()) {
      if (base_node.size() == 0)
        r_.fail(base_node, "base", "expected at least one config (an embedded name such as sm_90, or a file)");
      for (size_t i = 0; i < base_node.size(); ++i) load_base(base_node[i], fmt::format("base[{}]", i));
      spec_.base = flow(base_node);
      Parameter p;
      p.key = "base";
      for (const Base& b : spec_.bases) {
        p.values.push_back(b.name);
        p.yaml.push_back(flow(YAML::Node(b.name)));
      }
      spec_.parameters.push_back(std::move(p));
    } else {
      load_base(base_node, "base");
      spec_.base = spec_.bases[0].name;
    }
    product_ = spec_.parameters.empty() ? 1 : spec_.parameters[0].values.size();
  }

  void load_base(const YAML::Node& node, const std::string& key) {
    Base b;
    b.name = r_.string(node, key);
    try {
      models::ConfigSource source = models::resolve_config(b.name, directory_of(path_));
      b.text = std::move(source.text);
      b.origin = std::move(source.origin);
    } catch (const ConfigError& e) {
      r_.fail(node, key, e.what());
    }
    // A point is known by its base's text: two entries with the same text
    // would be one point twice.
    for (size_t j = 0; j < spec_.bases.size(); ++j) {
      if (spec_.bases[j].name == b.name) r_.fail(node, key, fmt::format("'{}' given twice", b.name));
      if (spec_.bases[j].text == b.text)
        r_.fail(node, key, fmt::format("'{}' is the same config as base[{}] ('{}')", b.name, j, spec_.bases[j].name));
    }
    try {
      base_configs_.push_back(models::load_config_text(b.text, b.origin));
    } catch (const ConfigError& e) {
      r_.fail(node, key, e.what());
    }
    base_trees_.push_back(YAML::Load(b.text));
    spec_.bases.push_back(std::move(b));
  }

  // " on base 'sm_80'" when the sweep has several bases, for messages.
  std::string on_base(size_t b) const {
    return spec_.bases.size() > 1 ? fmt::format(" on base '{}'", spec_.bases[b].name) : std::string();
  }

  void load_mode() {
    if (const YAML::Node m = root_["mode"]) {
      spec_.mode = r_.string(m, "mode");
      if (spec_.mode != "lt" && spec_.mode != "at")
        r_.fail(
            m, "mode",
            "expected lt (loosely timed) or at (approximately timed); numerics for a numerics sweep (docs/sweep.md)");
    }
  }

  // Parameters, in the order written; each value checked on its own against
  // the base, so an error points at the value that causes it.
  void load_parameters() {
    params_ = root_["parameters"];
    if (!params_) r_.fail(root_, "parameters", "missing (a mapping of config key path to values)");
    if (!params_.IsMap() || params_.size() == 0)
      r_.fail(params_, "parameters", "expected a mapping of config key path to values");
    for (const auto& kv : params_) {
      Parameter p;
      p.key = r_.string(kv.first, "parameters");
      const std::string key = "parameters." + p.key;
      if (p.base_parameter())
        r_.fail(kv.first, key,
                "the base config is swept by giving base: a list (base: [sm_80, sm_90]), not as a parameter");
      for (const auto& q : spec_.parameters)
        if (q.key == p.key) r_.fail(kv.first, key, "given twice");
      for (const char* c : kReservedColumns)
        if (p.key == c) r_.fail(kv.first, key, "a result column of that name exists; it cannot be a parameter");
      const std::vector<Located> locs = parameter_values(kv.second, key, p);
      for (size_t i = 0; i < p.values.size(); ++i)
        for (size_t b = 0; b < spec_.bases.size(); ++b) check_value(p, i, locs[i], b);
      product_ *= p.values.size();
      if (product_ > kMaxPoints)
        r_.fail(kv.first, key, fmt::format("the sweep would have more than {} points", kMaxPoints));
      spec_.parameters.push_back(std::move(p));
    }
  }

  // A parameter's values, each with where it was written: a value, a list,
  // a range or a seeded random sample.
  std::vector<Located> parameter_values(const YAML::Node& v, const std::string& key, Parameter& p) const {
    std::vector<Located> locs;
    auto add = [&](const YAML::Node& value, const std::string& at) {
      const std::string y = flow(value);
      if (std::find(p.yaml.begin(), p.yaml.end(), y) != p.yaml.end())
        r_.fail(value, at, fmt::format("value {} given twice", y));
      p.values.push_back(value.IsScalar() ? value.Scalar() : y);
      p.yaml.push_back(y);
      locs.push_back({value, at});
    };
    if (v.IsSequence()) {
      if (v.size() == 0) r_.fail(v, key, "expected at least one value");
      for (size_t i = 0; i < v.size(); ++i) add(v[i], fmt::format("{}[{}]", key, i));
    } else if (v.IsMap() && v["sample"]) {
      sample_values(v, key, p, locs);
    } else if (v.IsMap()) {
      range_values(v, key, p, locs);
    } else if (v.IsScalar()) {
      add(v, key);
    } else {
      r_.fail(
          v, key,
          "expected a value, a list of values, a range {from, to, step|times} or a sample {sample, from, to, seed}");
    }
    return locs;
  }

  void sample_values(const YAML::Node& v, const std::string& key, Parameter& p, std::vector<Located>& locs) const {
    r_.only_keys(v, key, {"sample", "from", "to", "seed"});
    const long long count = r_.integer(v["sample"], key + ".sample", 1, 100000);
    if (!v["from"] || !v["to"]) r_.fail(v, key, "a random sample needs from: and to:");
    const long long lo = r_.integer(v["from"], key + ".from", 0, 1000000000);
    const long long hi = r_.integer(v["to"], key + ".to", lo, 1000000000);
    if (!v["seed"])
      r_.fail(v, key + ".seed", "missing (random samples are seeded, so a sweep can be resumed and repeated)");
    uint64_t state = static_cast<uint64_t>(r_.integer(v["seed"], key + ".seed", 0, 1LL << 62));
    if (count > hi - lo + 1)
      r_.fail(v["sample"], key + ".sample",
              fmt::format("{} distinct values asked for, {}..{} has {}", count, lo, hi, hi - lo + 1));
    std::set<long long> picked;
    while (static_cast<long long>(picked.size()) < count)
      picked.insert(lo + static_cast<long long>(below(state, static_cast<uint64_t>(hi - lo + 1))));
    for (long long x : picked) {
      YAML::Node n(std::to_string(x));
      p.values.push_back(std::to_string(x));
      p.yaml.push_back(flow(n));
      locs.push_back({v["sample"], key});
    }
  }

  void range_values(const YAML::Node& v, const std::string& key, Parameter& p, std::vector<Located>& locs) const {
    r_.only_keys(v, key, {"from", "to", "step", "times"});
    if (!v["from"] || !v["to"]) r_.fail(v, key, "a range needs from: and to: (and step: or times:)");
    if (v["step"] && v["times"])
      r_.fail(v["times"], key + ".times", "give step: (arithmetic) or times: (geometric), not both");
    const long long lo = r_.integer(v["from"], key + ".from", 0, 1000000000);
    const long long hi = r_.integer(v["to"], key + ".to", lo, 1000000000);
    const long long step = v["step"] ? r_.integer(v["step"], key + ".step", 1, 1000000000) : 1;
    const long long times = v["times"] ? r_.integer(v["times"], key + ".times", 2, 1000) : 0;
    if (times && lo == 0) r_.fail(v["from"], key + ".from", "a geometric range (times:) must start above 0");
    for (long long x = lo; x <= hi; x = times ? x * times : x + step) {
      if (p.values.size() >= 100000) r_.fail(v, key, "more than 100000 values");
      p.values.push_back(std::to_string(x));
      p.yaml.push_back(std::to_string(x));
      locs.push_back({v, key});
    }
  }

  // Value `i` of `p` alone on base `b`.
  void check_value(const Parameter& p, size_t i, const Located& at, size_t b) const {
    if (p.key == "warps") {
      const YAML::Node n = YAML::Load(p.yaml[i]);
      const long long w = r_.integer(n.IsScalar() ? n : at.node, at.key, 1, 100000000);
      if (!params_["max_warps"] && w > base_configs_[b].max_warps)
        r_.fail(at.node, at.key,
                fmt::format("{} warps: {} allows 1..{} warps per SM (max_warps)", w, base_configs_[b].name,
                            base_configs_[b].max_warps));
    } else if (p.key == "mode") {
      if (p.values[i] != "lt" && p.values[i] != "at") r_.fail(at.node, at.key, "expected lt or at");
    } else {
      try {
        config_for(base_trees_[b], {{&p, i}}, "<" + p.key + ">");
      } catch (const ConfigError& e) {
        r_.fail(
            at.node, at.key,
            fmt::format("{} = {}{}: {}", p.key, p.values[i], on_base(b), strip_origin(e.what(), "<" + p.key + ">")));
      }
    }
  }

  // A straight-line program entry as written: a .ptx file or a built-in
  // microbenchmark, by name or as a map.
  struct ProgramEntry {
    std::string bench, kind, file, name;
    unsigned length = 0;
  };

  void load_programs() {
    programs_ = root_["programs"];
    if (!programs_) r_.fail(root_, "programs", "missing (a list of .ptx files or microbenchmarks such as ffma.chain)");
    if (!programs_.IsSequence() || programs_.size() == 0) r_.fail(programs_, "programs", "expected a non-empty list");
    for (size_t i = 0; i < programs_.size(); ++i) {
      const YAML::Node n = programs_[i];
      const std::string key = fmt::format("programs[{}]", i);
      if (n.IsMap() && (n["kernel"] || n["program"])) {
        spec_.programs.push_back(n["kernel"] ? kernel_program(r_, n, key, path_)
                                             : host_program(r_, n, key, path_, spec_.bases));
        if (spec_.programs.back().host)
          spec_.launches = std::max(spec_.launches, spec_.programs.back().host->launches.size());
        for (size_t j = 0; j + 1 < spec_.programs.size(); ++j)
          if (spec_.programs[j].id == spec_.programs.back().id)
            r_.fail(n, key,
                    fmt::format("program '{}' given twice (name: tells two launches of one entry apart)",
                                spec_.programs.back().id));
        continue;
      }
      ProgramSource src = straight_line_source(n, key, program_entry(n, key));
      for (const auto& q : spec_.programs)
        if (q.id == src.id) r_.fail(n, key, fmt::format("program '{}' given twice", src.id));
      check_loads(n, key, src);
      spec_.programs.push_back(std::move(src));
    }
  }

  ProgramEntry program_entry(const YAML::Node& n, const std::string& key) const {
    ProgramEntry e;
    if (n.IsScalar()) {
      const std::string& s = n.Scalar();
      if (s.size() > 4 && s.compare(s.size() - 4, 4, ".ptx") == 0) {
        e.file = s;
      } else {
        const size_t dot = s.find('.');
        if (dot == std::string::npos)
          r_.fail(n, key, "expected a .ptx file or BENCH.chain / BENCH.stream (e.g. ffma.chain)");
        e.bench = s.substr(0, dot);
        e.kind = s.substr(dot + 1);
      }
    } else if (n.IsMap()) {
      r_.only_keys(n, key, {"file", "name", "bench", "kind", "length"});
      if (n["name"]) e.name = r_.string(n["name"], key + ".name");
      if (n["file"]) {
        if (n["bench"] || n["kind"] || n["length"]) r_.fail(n, key, "give file: or bench:/kind:/length:, not both");
        e.file = r_.string(n["file"], key + ".file");
      } else {
        if (!n["bench"]) r_.fail(n, key, "expected file: or bench:");
        e.bench = r_.string(n["bench"], key + ".bench");
        e.kind = n["kind"] ? r_.string(n["kind"], key + ".kind") : "chain";
        if (n["length"]) e.length = static_cast<unsigned>(r_.integer(n["length"], key + ".length", 1, 100000));
      }
    } else {
      r_.fail(n, key,
              "expected a .ptx file, BENCH.chain / BENCH.stream, or {file:} / {bench:, kind:, length:} / {kernel:, "
              "entry:, grid:, block:, args:}");
    }
    return e;
  }

  ProgramSource straight_line_source(const YAML::Node& n, const std::string& key, const ProgramEntry& e) const {
    ProgramSource src;
    if (!e.file.empty()) {
      const std::string resolved = resolve(path_, e.file);
      bool ok = false;
      src.text = read_file(resolved, ok, models::kMaxProgramBytes);
      if (!ok) r_.fail(n, key, fmt::format("cannot open '{}'", resolved));
      if (kernel::defines_functions(src.text))
        r_.fail(
            n, key,
            fmt::format(
                "'{}' holds kernels (.entry): name it as {{kernel: {}, entry: NAME, grid: X, block: X, args: [...]}}",
                e.file, e.file));
      src.id = e.name.empty() ? stem_of(e.file) : e.name;
    } else {
      std::string error;
      const unsigned len = e.length ? e.length : (e.kind == "chain" ? kDefaultChain : kDefaultRounds);
      src.text = builtin_program(e.bench, e.kind, len, error);
      if (!error.empty()) r_.fail(n, key, error);
      src.id = !e.name.empty() ? e.name
               : e.length      ? fmt::format("{}.{}.{}", e.bench, e.kind, e.length)
                               : e.bench + "." + e.kind;
    }
    src.identity = src.text;
    return src;
  }

  // The program must load on some base. Where one base accepts it and
  // another's feature mask does not, those points fail with the checker's
  // message: a result about that base, as for a point's feature mask.
  void check_loads(const YAML::Node& n, const std::string& key, const ProgramSource& src) const {
    std::string first_error;
    for (size_t b = 0; b < spec_.bases.size(); ++b) {
      try {
        kernel::load_straight_line(src.text, src.id, base_configs_[b].caps);
        return;
      } catch (const kernel::KernelError& e) {
        if (first_error.empty())
          first_error = spec_.bases.size() > 1
                            ? fmt::format("no base accepts it; on '{}': {}", spec_.bases[b].name, e.what())
                            : e.what();
      }
    }
    r_.fail(n, key, first_error);
  }

  // A kernel's warps are its launch's (block:); `warps` sizes straight-line programs only.
  void check_kernel_warps() {
    for (const auto& src : spec_.programs) (src.launches_kernels() ? a_kernel_ : a_program_) = &src;
    if (a_kernel_ && params_["warps"])
      r_.fail(
          params_["warps"], "parameters.warps",
          fmt::format("warps sizes straight-line programs; kernel '{}' runs the warps of its block:", a_kernel_->id));
  }

  // Metrics: names or globs over all_metrics(), those every program records.
  void load_metrics() {
    std::vector<std::string> asked = {"cycles", "warp_instructions", "ipc", "pipes.*.utilisation", "stalls.*"};
    if (!a_program_) asked.insert(asked.begin() + 3, "ctas");
    std::vector<YAML::Node> asked_nodes(asked.size(), root_);
    if (const YAML::Node m = root_["metrics"]) {
      if (!m.IsSequence() || m.size() == 0) r_.fail(m, "metrics", "expected a non-empty list of metric names");
      asked.clear();
      asked_nodes.clear();
      for (size_t i = 0; i < m.size(); ++i) {
        asked.push_back(r_.string(m[i], fmt::format("metrics[{}]", i)));
        asked_nodes.push_back(m[i]);
      }
    }
    for (size_t i = 0; i < asked.size(); ++i) add_metrics(asked[i], asked_nodes[i], fmt::format("metrics[{}]", i));
  }

  bool recorded(const std::string& metric) const {
    return (!a_kernel_ || records(metric, true)) && (!a_program_ || records(metric, false));
  }

  // The metrics a name or glob matches.
  void add_metrics(const std::string& asked, const YAML::Node& node, const std::string& key) {
    bool any = false;
    std::string unrecorded;  // a match some program does not record
    for (const auto& name : all_metrics()) {
      if (fnmatch(asked.c_str(), name.c_str(), 0) != 0) continue;
      if (!recorded(name)) {
        if (unrecorded.empty()) unrecorded = name;
        continue;
      }
      any = true;
      if (std::find(spec_.metrics.begin(), spec_.metrics.end(), name) == spec_.metrics.end())
        spec_.metrics.push_back(name);
    }
    if (!any && !unrecorded.empty()) {
      const bool for_kernels = records(unrecorded, true);
      r_.fail(
          node, key,
          fmt::format("'{}' is recorded for {} only, and '{}' is a {}", unrecorded,
                      for_kernels ? "kernels" : "straight-line programs", (for_kernels ? a_program_ : a_kernel_)->id,
                      for_kernels ? "straight-line program" : "kernel"));
    }
    if (!any) {
      std::string list;
      for (const auto& name : all_metrics()) list += std::string(list.empty() ? "" : ", ") + name;
      r_.fail(node, key, fmt::format("unknown metric '{}' (known: {})", asked, list));
    }
  }

  void load_plots() {
    const YAML::Node pl = root_["plot"];
    if (!pl) {
      const bool ipc = std::find(spec_.metrics.begin(), spec_.metrics.end(), "ipc") != spec_.metrics.end();
      spec_.plots.push_back(ipc ? "ipc" : spec_.metrics[0]);
      return;
    }
    std::vector<YAML::Node> items;
    if (pl.IsSequence())
      for (size_t i = 0; i < pl.size(); ++i) items.push_back(pl[i]);
    else
      items.push_back(pl);
    for (const auto& n : items) {
      const std::string m = r_.string(n, "plot");
      if (std::find(spec_.metrics.begin(), spec_.metrics.end(), m) == spec_.metrics.end())
        r_.fail(n, "plot", fmt::format("'{}' is not one of the recorded metrics", m));
      spec_.plots.push_back(m);
    }
  }

  // The full product: programs outermost, then parameters in the order
  // written, the last varying fastest.
  std::vector<Point> enumerate_points() {
    product_ *= spec_.programs.size();
    if (product_ > kMaxPoints)
      r_.fail(programs_, "programs", fmt::format("the sweep would have more than {} points", kMaxPoints));
    std::vector<Point> all;
    for (size_t i = 0; i < product_; ++i) {
      Point pt;
      pt.index = i;
      size_t rest = i;
      pt.choice.assign(spec_.parameters.size(), 0);
      for (size_t k = spec_.parameters.size(); k-- > 0;) {
        pt.choice[k] = rest % spec_.parameters[k].values.size();
        rest /= spec_.parameters[k].values.size();
      }
      pt.program = rest;
      pt.key = point_key(pt);
      all.push_back(std::move(pt));
    }
    return all;
  }

  // The key hashes what decides the result: the base config's text, the
  // program's text and the parameter values (sorted by key path). The base
  // is known by its text, not its name, so a spec with one base keeps the
  // keys it had before bases could be swept. Sets pt.base.
  std::string point_key(Point& pt) const {
    std::map<std::string, std::string> settings;
    for (size_t k = 0; k < spec_.parameters.size(); ++k) {
      if (spec_.parameters[k].base_parameter())
        pt.base = pt.choice[k];
      else
        settings[spec_.parameters[k].key] = spec_.parameters[k].yaml[pt.choice[k]];
    }
    if (!settings.count("mode")) settings["mode"] = spec_.mode;
    if (!settings.count("warps")) settings["warps"] = "1";
    std::string identity = "ptxfu-sweep-point-1\nbase " + hash_hex(spec_.bases[pt.base].text) + "\nprogram " +
                           spec_.programs[pt.program].id + " " + hash_hex(spec_.programs[pt.program].identity) + "\n";
    for (const auto& [k, v] : settings) identity += k + "=" + v + "\n";
    return hash_hex(identity);
  }

  // `sample:`: a seeded subset of the points, in their order.
  std::vector<Point> sample(std::vector<Point> all) {
    const YAML::Node s = root_["sample"];
    if (!s) return all;
    r_.only_keys(s, "sample", {"count", "seed"});
    if (!s["count"] || !s["seed"]) r_.fail(s, "sample", "expected {count: N, seed: S}");
    const size_t count =
        static_cast<size_t>(r_.integer(s["count"], "sample.count", 1, static_cast<long long>(kMaxPoints)));
    uint64_t state = static_cast<uint64_t>(r_.integer(s["seed"], "sample.seed", 0, 1LL << 62));
    if (count >= all.size()) return all;
    std::vector<size_t> order(all.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (size_t i = 0; i < count; ++i) std::swap(order[i], order[i + below(state, order.size() - i)]);
    order.resize(count);
    std::sort(order.begin(), order.end());
    std::vector<Point> kept;
    kept.reserve(order.size());
    for (size_t i : order) kept.push_back(all[i]);
    return kept;
  }

  // Every point, whole: combinations the single values did not show. Points
  // that differ only in warps, mode or program share a config, built once.
  // (Whether a program is legal for a point's feature mask is the point's
  // result, not a spec error: build_point reports it when the point runs.)
  // A kernel's launch is checked against each config once (its residency).
  void check_points() {
    std::map<std::string, std::unique_ptr<models::ArchConfig>> configs;
    std::set<std::pair<std::string, size_t>> launches_checked;  // config signature, program
    for (const Point& pt : spec_.points) {
      try {
        check_point(pt, configs, launches_checked);
      } catch (const ConfigError& e) {
        r_.fail(params_, "parameters",
                fmt::format("point {} ({}): {}", pt.index, describe(spec_, pt),
                            strip_origin(e.what(), spec_.bases[pt.base].origin)));
      }
    }
  }

  void check_point(const Point& pt, std::map<std::string, std::unique_ptr<models::ArchConfig>>& configs,
                   std::set<std::pair<std::string, size_t>>& launches_checked) const {
    std::string signature = std::to_string(pt.base) + "\n";
    std::vector<std::pair<const Parameter*, size_t>> settings;
    models::SimJob job;
    for (size_t k = 0; k < spec_.parameters.size(); ++k) {
      const Parameter& p = spec_.parameters[k];
      if (p.key == "warps") job.warps = static_cast<unsigned>(std::stoul(p.values[pt.choice[k]]));
      if (!p.config_key()) continue;
      settings.push_back({&p, pt.choice[k]});
      signature += p.yaml[pt.choice[k]] + "\n";
    }
    auto& config = configs[signature];
    if (!config)
      config =
          std::make_unique<models::ArchConfig>(config_for(base_trees_[pt.base], settings, spec_.bases[pt.base].origin));
    job.config = config.get();
    const ProgramSource& program = spec_.programs[pt.program];
    if (program.host) return;  // each launch is checked as it starts, as `ptxfu run` checks it
    if (!program.kernel) {
      models::validate_warps(*job.config, job.warps, job.threads);
    } else if (launches_checked.insert({signature, pt.program}).second) {
      job.kernel = program.kernel->kernel.get();
      job.launch = program.kernel->launch;
      job.registers_per_thread = program.kernel->registers_per_thread;
      job.max_cycles = program.kernel->max_cycles;
      models::validate(job);
    }
  }

  const Reader r_;
  YAML::Node root_;  // not const: a missing key then reads as an undefined node, not an invalid one
  const std::string path_;
  Spec spec_;
  std::vector<models::ArchConfig> base_configs_;
  std::vector<YAML::Node> base_trees_;
  YAML::Node params_, programs_;
  size_t product_ = 1;
  const ProgramSource* a_kernel_ = nullptr;
  const ProgramSource* a_program_ = nullptr;
};

}  // namespace

std::string hash_hex(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

const std::vector<std::string>& all_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = {"cycles", "warp_instructions", "ipc", "ctas"};
    for (const auto& row : models::kUnits)
      for (const char* m : {"busy_cycles", "utilisation", "warp_instructions"})
        v.push_back(fmt::format("pipes.{}.{}", row.name, m));
    for (auto s : models::kWarpStallNames) v.push_back(fmt::format("stalls.{}", s));
    return v;
  }();
  return names;
}

bool records(const std::string& metric, bool kernel) { return kernel || metric != "ctas"; }

std::vector<std::string> metric_values(const models::SimResult& r, const std::vector<std::string>& metrics) {
  std::vector<std::string> out;
  for (const std::string& m : metrics) {
    if (m == "cycles")
      out.push_back(fmt::format("{}", r.cycles));
    else if (m == "warp_instructions")
      out.push_back(fmt::format("{}", r.warp_instructions));
    else if (m == "ipc")
      out.push_back(fmt::format("{}", r.ipc));
    else if (m == "ctas")
      out.push_back(fmt::format("{}", r.ctas));
    for (size_t u = 0; u < r.units.size(); ++u) {
      const std::string p = fmt::format("pipes.{}.", models::name(static_cast<models::Unit>(u)));
      if (m == p + "busy_cycles") out.push_back(fmt::format("{}", r.units[u].busy_cycles));
      if (m == p + "utilisation") out.push_back(fmt::format("{}", r.units[u].utilisation));
      if (m == p + "warp_instructions") out.push_back(fmt::format("{}", r.units[u].warp_instructions));
    }
    for (size_t s = 0; s < r.stalls.size(); ++s)
      if (m == fmt::format("stalls.{}", models::kWarpStallNames[s])) out.push_back(fmt::format("{}", r.stalls[s]));
  }
  return out;
}

std::string builtin_program(const std::string& bench, const std::string& kind, unsigned length, std::string& error) {
  const models::MicroBench* b = nullptr;
  std::string names;
  for (const auto& m : models::micro_benches()) {
    if (m.name == bench) b = &m;
    names += std::string(names.empty() ? "" : ", ") + std::string(m.name);
  }
  if (!b) {
    error = fmt::format("unknown microbenchmark '{}' (expected one of: {})", bench, names);
    return "";
  }
  if (kind != "chain" && kind != "stream") {
    error = fmt::format("unknown kind '{}' (expected chain or stream)", kind);
    return "";
  }
  return kind == "chain" ? models::chain_program(*b, length) : models::stream_program(*b, length);
}

Spec load_spec(const std::string& path) {
  bool ok = false;
  const std::string text = read_file(path, ok);
  if (!ok) throw ConfigError(path + ": cannot open sweep spec");
  return load_spec_text(text, path);
}

Spec load_spec_text(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return SpecLoader(root, path).load();
}

PointJob build_point(const Spec& spec, const Point& point) {
  PointJob pj;
  std::vector<std::pair<const Parameter*, size_t>> settings;
  unsigned warps = 1;
  std::string mode = spec.mode;
  for (size_t k = 0; k < spec.parameters.size(); ++k) {
    const Parameter& p = spec.parameters[k];
    settings.push_back({&p, point.choice[k]});
    if (p.key == "warps") warps = static_cast<unsigned>(std::stoul(p.values[point.choice[k]]));
    if (p.key == "mode") mode = p.values[point.choice[k]];
  }
  const Base& base = spec.bases[point.base];
  pj.config_text = config_text_for(YAML::Load(base.text), settings, base.origin);
  pj.config = std::make_unique<models::ArchConfig>(models::load_config_text(pj.config_text, base.origin));
  pj.job.config = pj.config.get();
  pj.job.style = mode == "at" ? models::TimingStyle::approximately_timed : models::TimingStyle::loosely_timed;
  if (const HostProgram* h = spec.programs[point.program].host.get()) {
    pj.host = h;
    return pj;
  }
  if (const KernelProgram* k = spec.programs[point.program].kernel.get()) {
    pj.job.kernel = k->kernel.get();
    pj.job.launch = k->launch;
    pj.job.registers_per_thread = k->registers_per_thread;
    pj.job.max_cycles = k->max_cycles;
    models::validate(pj.job);
    return pj;
  }
  pj.job.warps = warps;
  try {
    pj.program = std::make_unique<kernel::Kernel>(kernel::load_straight_line(
        spec.programs[point.program].text, spec.programs[point.program].id, pj.config->caps));
    pj.job.kernel = pj.program.get();
  } catch (const kernel::KernelError& e) {
    pj.error = e.what();
  }
  if (pj.job.kernel) models::validate(pj.job);
  return pj;
}

std::string describe(const Spec& spec, const Point& point) {
  std::string s = spec.programs[point.program].id;
  for (size_t k = 0; k < spec.parameters.size(); ++k)
    s += " " + spec.parameters[k].key + "=" + spec.parameters[k].values[point.choice[k]];
  return s;
}

std::vector<std::string> columns(const Spec& spec) {
  std::vector<std::string> c = {"key", "program"};
  for (const auto& p : spec.parameters) c.push_back(p.key);
  c.push_back("status");
  for (const auto& m : spec.metrics) c.push_back(m);
  for (size_t i = 0; i < spec.launches; ++i)
    for (const auto& m : spec.metrics) c.push_back(fmt::format("launches[{}].{}", i, m));
  c.push_back("error");
  return c;
}

}  // namespace ptxfu::sweep
