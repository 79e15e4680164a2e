// The host program loader and runner (sweep/program.h), shared by `ptxfu
// run` and sweeps.
#include "sweep/program.h"

#include <cstring>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "models/text_file.h"
#include "models/yaml_reader.h"
#include "sweep/launch_args.h"
#include "sweep/spec.h"
#include "util/splitmix64.h"

namespace ptxfu::sweep {
namespace {

using models::YamlReader;

constexpr size_t kMaxBufferBytes = size_t{256} << 20;  // as `sim --arg buf:`

constexpr ElementType kElementTypes[] = {
    {"u8", 1, false},  {"s8", 1, false},  {"u16", 2, false}, {"s16", 2, false}, {"u32", 4, false},
    {"s32", 4, false}, {"u64", 8, false}, {"s64", 8, false}, {"f32", 4, true},  {"f64", 8, true},
};

const ElementType* element_type(std::string_view name) {
  for (const ElementType& t : kElementTypes)
    if (t.name == name) return &t;
  return nullptr;
}

std::string element_type_names() {
  std::string list;
  for (const ElementType& t : kElementTypes) list += (list.empty() ? "" : ", ") + std::string(t.name);
  return list;
}

// Little-endian bytes of `v` in an element of `t` (integers wrap to its width).
void put_element(std::vector<uint8_t>& out, size_t i, const ElementType& t, int64_t v) {
  uint64_t bits = static_cast<uint64_t>(v);
  if (t.floating && t.bytes == 4) {
    const float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bits = u;
  } else if (t.floating) {
    const double d = static_cast<double>(v);
    std::memcpy(&bits, &d, 8);
  }
  for (unsigned b = 0; b < t.bytes; ++b) out[i * t.bytes + b] = static_cast<uint8_t>(bits >> (8 * b));
}

bool parse_int(const std::string& s, int64_t& v) {
  size_t used = 0;
  try {
    v = std::stoll(s, &used, 0);
  } catch (...) {
    return false;
  }
  return !s.empty() && used == s.size();
}

class ProgramReader {
 public:
  explicit ProgramReader(const std::string& path) : path_(path), r_{path_} {}

  HostProgram read() {
    std::string text;
    switch (models::read_text_file(path_, models::kMaxConfigBytes, text)) {
      case models::ReadStatus::cannot_open:
        throw models::ConfigError(fmt::format("{}: cannot open the program", path_));
      case models::ReadStatus::too_large:
        throw models::ConfigError(fmt::format("{}: larger than {} bytes", path_, models::kMaxConfigBytes));
      case models::ReadStatus::ok: break;
    }
    try {
      root_ = YAML::Load(text);
    } catch (const YAML::Exception& e) {
      throw models::ConfigError(fmt::format("{}:{}:{}: {}", path_, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
    p_.path = path_;
    r_.only_keys(root_, "", {"config", "kernel", "buffers", "constants", "launches", "outputs"});
    if (root_["config"]) p_.config = config_name(r_.string(root_["config"], "config"));
    if (root_["kernel"]) default_kernel_ = resolve(r_.string(root_["kernel"], "kernel"));
    read_buffers();
    read_constants();
    const YAML::Node launches = r_.required(root_, "launches", "");
    if (!launches.IsSequence() || launches.size() == 0) r_.fail(launches, "launches", "expected a list of launches");
    for (size_t i = 0; i < launches.size(); ++i) p_.launches.push_back(read_launch(launches[i], i));
    read_outputs();
    p_.identity = identity(text);
    return std::move(p_);
  }

 private:
  // The program's text, and the bytes of every file it reads (a kernel file
  // that cannot be read is reported when the program runs).
  std::string identity(const std::string& text) const {
    std::string id = "program " + hash_hex(text) + "\n";
    std::set<std::string> kernels;
    for (const ProgramLaunch& l : p_.launches) kernels.insert(l.kernel_path);
    for (const ProgramConstant& c : p_.constants) kernels.insert(c.kernel_path);
    for (const std::string& k : kernels) {
      std::string ptx;
      const bool read = models::read_text_file(k, models::kMaxProgramBytes, ptx) == models::ReadStatus::ok;
      id += k + " " + (read ? hash_hex(ptx) : "unreadable") + "\n";
    }
    for (const ProgramData& d : p_.buffers)
      id += d.name + " " + hash_hex(std::string(d.bytes.begin(), d.bytes.end())) + "\n";
    for (const ProgramConstant& c : p_.constants)
      id += c.data.name + " " + hash_hex(std::string(c.data.bytes.begin(), c.data.bytes.end())) + "\n";
    return id;
  }

  // A path in the program is relative to the program's directory.
  std::string resolve(const std::string& p) const {
    if (p.empty() || p[0] == '/') return p;
    return (std::filesystem::path(path_).parent_path() / p).string();
  }

  std::string config_name(const std::string& c) const {
    const bool file = c.size() > 5 && (c.rfind(".yaml") == c.size() - 5 || c.rfind(".yml") == c.size() - 4);
    return file ? resolve(c) : c;
  }

  void read_buffers() {
    const YAML::Node buffers = root_["buffers"];
    if (!buffers) return;
    if (!buffers.IsMap()) r_.fail(buffers, "buffers", "expected a mapping of buffer names to {type, count, init}");
    for (const auto& kv : buffers) {
      const std::string name = r_.string(kv.first, "buffers");
      const std::string key = "buffers." + name;
      if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                              std::string::npos)
        r_.fail(kv.first, key, "a buffer's name is letters, digits and _ (it names the file --out-dir writes)");
      r_.only_keys(kv.second, key, {"type", "count", "init"});
      p_.buffers.push_back(read_data(kv.second, key, name));
    }
  }

  // {type, count, init} (and for constants: kernel, name).
  ProgramData read_data(const YAML::Node& n, const std::string& key, const std::string& name) {
    ProgramData d;
    d.name = name;
    d.node = n;
    const std::string type = r_.string(r_.required(n, "type", key), key + ".type");
    d.type = element_type(type);
    if (!d.type) r_.fail(n["type"], key + ".type", fmt::format("unknown type '{}' ({})", type, element_type_names()));
    const std::string init = n["init"] ? r_.string(n["init"], key + ".init") : "zeros";
    const long long max_count = static_cast<long long>(kMaxBufferBytes / d.type->bytes);
    long long count = n["count"] ? r_.integer(n["count"], key + ".count", 1, max_count) : 0;
    if (init.rfind("file:", 0) == 0) {
      d.bytes = read_file_data(n["init"], key + ".init", resolve(init.substr(5)));
      if (d.bytes.size() % d.type->bytes != 0 ||
          (count && d.bytes.size() != static_cast<size_t>(count) * d.type->bytes))
        r_.fail(n["init"], key + ".init",
                fmt::format("the file has {} bytes, not {} {} element{}", d.bytes.size(),
                            count ? std::to_string(count) : "a whole number of", type, count == 1 ? "" : "s"));
      return d;
    }
    if (!count) r_.fail(n, key + ".count", "missing (only a file: buffer takes its size from the file)");
    d.bytes.assign(static_cast<size_t>(count) * d.type->bytes, 0);
    fill(d, n["init"], key + ".init", init);
    return d;
  }

  std::vector<uint8_t> read_file_data(const YAML::Node& n, const std::string& key, const std::string& file) const {
    std::string text;
    switch (models::read_text_file(file, kMaxBufferBytes, text)) {
      case models::ReadStatus::cannot_open: r_.fail(n, key, fmt::format("cannot open '{}'", file));
      case models::ReadStatus::too_large: r_.fail(n, key, fmt::format("'{}' is over {} bytes", file, kMaxBufferBytes));
      case models::ReadStatus::ok: break;
    }
    if (text.empty()) r_.fail(n, key, fmt::format("'{}' is empty", file));
    return std::vector<uint8_t>(text.begin(), text.end());
  }

  // zeros, random:SEED (SplitMix64 bytes, as `sim --arg buf:random`), arange[:START[:STEP]].
  void fill(ProgramData& d, const YAML::Node& n, const std::string& key, const std::string& init) const {
    if (init == "zeros") return;
    uint64_t seed = 0;
    if (init.rfind("random:", 0) == 0) {
      int64_t s = 0;
      if (!parse_int(init.substr(7), s) || s < 0) r_.fail(n, key, "expected random:SEED, a non-negative integer");
      seed = static_cast<uint64_t>(s);
      for (size_t i = 0; i < d.bytes.size(); i += 8) {
        const uint64_t x = util::splitmix64(seed);
        for (size_t b = 0; b < 8 && i + b < d.bytes.size(); ++b) d.bytes[i + b] = static_cast<uint8_t>(x >> (8 * b));
      }
      return;
    }
    if (init == "arange" || init.rfind("arange:", 0) == 0) {
      int64_t start = 0, step = 1;
      const std::string rest = init.size() > 7 ? init.substr(7) : "";
      const size_t colon = rest.find(':');
      if (!rest.empty() && (!parse_int(rest.substr(0, colon), start) ||
                            (colon != std::string::npos && !parse_int(rest.substr(colon + 1), step))))
        r_.fail(n, key, "expected arange, arange:START or arange:START:STEP (integers)");
      const size_t count = d.bytes.size() / d.type->bytes;
      for (size_t i = 0; i < count; ++i)
        put_element(d.bytes, i, *d.type,
                    static_cast<int64_t>(static_cast<uint64_t>(start) + i * static_cast<uint64_t>(step)));
      return;
    }
    r_.fail(n, key, fmt::format("unknown init '{}' (zeros, random:SEED, arange[:START[:STEP]] or file:PATH)", init));
  }

  void read_constants() {
    const YAML::Node constants = root_["constants"];
    if (!constants) return;
    if (!constants.IsSequence())
      r_.fail(constants, "constants", "expected a list of {kernel, name, type, count, init}");
    for (size_t i = 0; i < constants.size(); ++i) {
      const std::string key = fmt::format("constants[{}]", i);
      const YAML::Node n = constants[i];
      r_.only_keys(n, key, {"kernel", "name", "type", "count", "init"});
      ProgramConstant c{read_data(n, key, r_.string(r_.required(n, "name", key), key + ".name")), kernel_of(n, key)};
      p_.constants.push_back(std::move(c));
    }
  }

  std::string kernel_of(const YAML::Node& n, const std::string& key) const {
    if (n["kernel"]) return resolve(r_.string(n["kernel"], key + ".kernel"));
    if (default_kernel_.empty()) r_.fail(n, key + ".kernel", "missing (and the program has no top-level kernel:)");
    return default_kernel_;
  }

  // A launch dimension as written: 4, "4,2", or [4, 2].
  Dim3 dim(const YAML::Node& n, const std::string& key) const {
    if (!n) return {};
    std::string text;
    if (!n.IsSequence()) text = r_.string(n, key);
    for (size_t i = 0; n.IsSequence() && i < n.size(); ++i)
      text += (i ? "," : "") + r_.string(n[i], fmt::format("{}[{}]", key, i));
    try {
      const kernel::Dim3 d = sweep::parse_dim3(text, key);
      return {d.x, d.y, d.z};
    } catch (const kernel::KernelError& e) {
      r_.fail(n, key, e.what());
    }
  }

  ProgramLaunch read_launch(const YAML::Node& n, size_t i) {
    ProgramLaunch l;
    l.node = n;
    l.key = fmt::format("launches[{}]", i);
    r_.only_keys(n, l.key, {"kernel", "entry", "grid", "block", "args", "shared_bytes", "cluster"});
    l.kernel_path = kernel_of(n, l.key);
    if (n["entry"]) l.entry = r_.string(n["entry"], l.key + ".entry");
    l.grid = dim(n["grid"], l.key + ".grid");
    l.block = dim(n["block"], l.key + ".block");
    if (n["shared_bytes"])
      l.shared_bytes = static_cast<uint32_t>(r_.integer(n["shared_bytes"], l.key + ".shared_bytes", 0, 1 << 30));
    if (n["cluster"]) l.cluster = dim(n["cluster"], l.key + ".cluster");
    const YAML::Node args = n["args"];
    if (args && !args.IsSequence())
      r_.fail(args, l.key + ".args", "expected a list (buffer names, NAME+K, scalars such as u32:1024)");
    for (size_t a = 0; args && a < args.size(); ++a)
      l.args.push_back(read_arg(args[a], fmt::format("{}.args[{}]", l.key, a)));
    return l;
  }

  // NAME, NAME+K (the address of element K) or TYPE:VALUE as `sim --arg` reads a scalar.
  ProgramArg read_arg(const YAML::Node& n, const std::string& key) const {
    ProgramArg a;
    a.node = n;
    const std::string text = r_.string(n, key);
    const size_t colon = text.find(':');
    if (colon != std::string::npos) {
      a.scalar = scalar(n, key, text, colon);
      return a;
    }
    const size_t plus = text.find('+');
    const std::string name = text.substr(0, plus);
    for (size_t b = 0; b < p_.buffers.size(); ++b)
      if (p_.buffers[b].name == name) a.buffer = static_cast<int>(b);
    if (a.buffer < 0) {
      std::string list;
      for (const ProgramData& d : p_.buffers) list += (list.empty() ? "" : ", ") + d.name;
      r_.fail(n, key, fmt::format("no buffer named '{}' is defined (buffers: {})", name, list.empty() ? "none" : list));
    }
    const ProgramData& d = p_.buffers[static_cast<size_t>(a.buffer)];
    if (plus != std::string::npos) {
      int64_t k = 0;
      const size_t count = d.bytes.size() / d.type->bytes;
      if (!parse_int(text.substr(plus + 1), k) || k < 0 || static_cast<uint64_t>(k) >= count)
        r_.fail(n, key,
                fmt::format("'{}': expected NAME+K with K an element index 0..{} of '{}'", text, count - 1, name));
      a.offset_bytes = static_cast<size_t>(k) * d.type->bytes;
    }
    return a;
  }

  Scalar scalar(const YAML::Node& n, const std::string& key, const std::string& text, size_t colon) const {
    const std::string type = text.substr(0, colon);
    if (type == "buf")
      r_.fail(n, key, "a buffer argument names a buffer of buffers: (buf:... is `sim --arg`'s spelling)");
    kernel::Param p;
    p.type = type;
    kernel::Arg arg;
    try {
      arg = sweep::parse_arg(text, 0, p);
    } catch (const kernel::KernelError& e) {
      const std::string why = e.what();
      const size_t at = why.find("'): ");
      r_.fail(n, key, fmt::format("'{}': {}", text, at == std::string::npos ? why : why.substr(at + 4)));
    }
    using T = Scalar::Type;
    static const std::map<std::string, T> kTypes = {{"u8", T::u8},   {"s8", T::s8},   {"u16", T::u16}, {"s16", T::s16},
                                                    {"u32", T::u32}, {"s32", T::s32}, {"u64", T::u64}, {"s64", T::s64},
                                                    {"f32", T::f32}, {"f64", T::f64}};
    return Scalar{kTypes.at(type), arg.value};
  }

  void read_outputs() {
    const YAML::Node outputs = root_["outputs"];
    if (!outputs) {
      for (size_t b = 0; b < p_.buffers.size(); ++b) p_.outputs.push_back(b);
      return;
    }
    const std::vector<std::string> names = r_.strings(outputs, "outputs");
    for (size_t i = 0; i < names.size(); ++i) {
      size_t b = 0;
      while (b < p_.buffers.size() && p_.buffers[b].name != names[i]) ++b;
      if (b == p_.buffers.size())
        r_.fail(outputs[i], fmt::format("outputs[{}]", i), fmt::format("no buffer named '{}' is defined", names[i]));
      p_.outputs.push_back(b);
    }
  }

  std::string path_;
  YamlReader r_;
  YAML::Node root_;
  std::string default_kernel_;
  HostProgram p_;
};

}  // namespace

std::shared_ptr<const HostProgram> load_host_program(const std::string& path) {
  return std::make_shared<const HostProgram>(ProgramReader(path).read());
}

std::vector<LaunchResult> HostProgramRun::run() {
  setup();
  std::vector<LaunchResult> results;
  for (size_t i = 0; i < p_.launches.size(); ++i) results.push_back(launch(p_.launches[i], kernels_[i]));
  return results;
}

void HostProgramRun::setup() {
  if (!kernels_.empty()) return;
  for (const ProgramData& d : p_.buffers) buffers_.push_back(dev_.malloc_copy(d.bytes.data(), d.bytes.size()));
  for (size_t i = 0; i < p_.constants.size(); ++i) {
    const ProgramConstant& c = p_.constants[i];
    const std::string key = fmt::format("constants[{}]", i);
    Module& m = module(c.data.node, key, c.kernel_path);
    guarded(c.data.node, key, [&] { m.set_global(c.data.name, c.data.bytes.data(), c.data.bytes.size()); });
  }
  for (const ProgramLaunch& l : p_.launches) kernels_.push_back(kernel(l));  // every entry found before anything runs
}

std::vector<uint8_t> HostProgramRun::contents(size_t b) const {
  std::vector<uint8_t> v(buffers_[b].bytes());
  dev_.copy_to_host(v.data(), buffers_[b], v.size());
  return v;
}

template <typename F>
void HostProgramRun::guarded(const YAML::Node& n, const std::string& key, const F& f) {
  try {
    f();
  } catch (const KernelFault&) {
    throw;
  } catch (const Error& e) {
    try {
      YamlReader{p_.path}.fail(n, key, e.what());
    } catch (const models::ConfigError& located) {
      throw ProgramFault{located.what(), 2};
    }
  }
}

Module& HostProgramRun::module(const YAML::Node& n, const std::string& key, const std::string& path) {
  auto it = modules_.find(path);
  if (it == modules_.end())
    guarded(n, key + ".kernel", [&] { it = modules_.emplace(path, dev_.load_module(path)).first; });
  return it->second;
}

Kernel HostProgramRun::kernel(const ProgramLaunch& l) {
  Module& m = module(l.node, l.key, l.kernel_path);
  std::string entry = l.entry;
  const std::vector<std::string> entries = m.entries();
  if (entry.empty() && entries.size() != 1)
    guarded(l.node, l.key + ".entry", [&] {
      throw Error(fmt::format("missing: '{}' has {} entries, so entry: picks one", l.kernel_path, entries.size()));
    });
  if (entry.empty()) entry = entries.front();
  Kernel k;
  guarded(l.node[l.entry.empty() ? "kernel" : "entry"], l.key + ".entry", [&] { k = m.get_function(entry); });
  return k;
}

LaunchResult HostProgramRun::launch(const ProgramLaunch& l, const Kernel& k) {
  std::vector<KernelArg> args;
  for (const ProgramArg& a : l.args)
    args.push_back(a.buffer < 0 ? KernelArg(a.scalar) : KernelArg(buffers_[a.buffer].slice(a.offset_bytes)));
  LaunchResult result;
  try {
    guarded(l.node, l.key, [&] { result = k.launch(l.grid, l.block, args, l.shared_bytes, l.cluster); });
  } catch (const KernelFault& e) {
    const YAML::Mark m = l.node.Mark();
    throw ProgramFault{
        fmt::format("{}:{}:{}: {} ('{}'): {}", p_.path, m.line + 1, m.column + 1, l.key, k.name(), e.what()), 1};
  }
  return result;
}

LaunchResult total_of(const std::vector<LaunchResult>& results) {
  LaunchResult t;
  t.kernel = "total";
  for (const LaunchResult& r : results) {
    t.cycles += r.cycles;
    t.warp_instructions += r.warp_instructions;
    t.ctas += r.ctas;
    t.host_seconds += r.host_seconds;
    t.end_cycle = r.end_cycle;
    if (t.units.empty())
      for (const UnitUse& u : r.units) t.units.push_back({u.name});
    for (size_t u = 0; u < r.units.size() && u < t.units.size(); ++u) {
      t.units[u].busy_cycles += r.units[u].busy_cycles;
      t.units[u].warp_instructions += r.units[u].warp_instructions;
      t.units[u].utilisation += r.units[u].utilisation * static_cast<double>(r.cycles);  // weighted by time
    }
    for (const auto& [reason, cycles] : r.stalls) t.stalls[reason] += cycles;
  }
  if (!results.empty()) t.start_cycle = results.front().start_cycle;
  for (UnitUse& u : t.units) u.utilisation = t.cycles ? u.utilisation / static_cast<double>(t.cycles) : 0;
  t.ipc = t.cycles ? static_cast<double>(t.warp_instructions) / static_cast<double>(t.cycles) : 0;
  return t;
}
models::SimResult sim_result_of(const LaunchResult& r) {
  models::SimResult s;
  s.cycles = r.cycles;
  s.warp_instructions = r.warp_instructions;
  s.ipc = r.ipc;
  s.ctas = r.ctas;
  for (size_t u = 0; u < r.units.size() && u < s.units.size(); ++u)  // both in models::kUnits' order
    s.units[u] = {r.units[u].busy_cycles, r.units[u].utilisation, r.units[u].warp_instructions};
  for (size_t i = 0; i < s.stalls.size(); ++i) {
    const auto it = r.stalls.find(std::string(models::kWarpStallNames[i]));
    s.stalls[i] = it == r.stalls.end() ? 0 : it->second;
  }
  s.host_seconds = r.host_seconds;
  s.ok = r.ok;
  s.error = r.error;
  return s;
}

}  // namespace ptxfu::sweep
