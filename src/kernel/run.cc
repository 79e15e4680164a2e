// Launch plumbing: arguments to the parameter buffer and global buffers,
// CTAs and their warps, and the functional driver.
#include <algorithm>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

#include "kernel/kernel.h"
#include "util/bits.h"

namespace ptxfu::kernel {

std::string_view name(Space s) {
  switch (s) {
    case Space::generic: return "generic";
    case Space::global: return "global";
    case Space::shared: return "shared";
    case Space::local: return "local";
    case Space::param: return "param";
    case Space::const_: return "const";
  }
  return "";
}

Arg Arg::f32(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return {Kind::floating, 4, u, {}, 0, {}, {}, -1};
}

Arg Arg::f64(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return {Kind::floating, 8, u, {}, 0, {}, {}, -1};
}

const Buffer* Memory::arg_buffer(unsigned arg) const {
  for (const Buffer& b : buffers)
    if (b.arg == static_cast<int>(arg)) return &b;
  return nullptr;
}

Buffer* Memory::find(uint64_t addr, uint64_t n, const Buffer** nearest) {
  // the last buffer whose base is <= addr
  auto it =
      std::upper_bound(buffers.begin(), buffers.end(), addr, [](uint64_t a, const Buffer& b) { return a < b.base; });
  if (it == buffers.begin()) {
    if (nearest) *nearest = nullptr;
    return nullptr;
  }
  Buffer& b = *std::prev(it);
  if (nearest) *nearest = &b;
  if (addr - b.base <= b.bytes.size() && n <= b.bytes.size() - (addr - b.base)) return &b;
  return nullptr;
}

namespace {

constexpr uint64_t kGuard = uint64_t{1} << 20;  // unmapped bytes after every buffer
uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Launch::variables into the constant bank and the module's .global buffers.
void fill_variables(const Kernel& k, const Launch& launch, Memory& m) {
  for (const VariableFill& f : launch.variables) {
    auto fill = [&](const GlobalVariable& v, uint8_t* to) {
      if (f.bytes.size() != v.init.size())
        throw KernelError(
            fmt::format("{}: variable '{}' holds {} bytes; {} given", k.file, f.name, v.init.size(), f.bytes.size()));
      std::copy(f.bytes.begin(), f.bytes.end(), to);
    };
    const auto named = [&](const GlobalVariable& v) { return v.name == f.name; };
    if (auto c = std::find_if(k.constants.begin(), k.constants.end(), named); c != k.constants.end()) {
      fill(*c, m.constant.data() + (c->address - kConstBase));
    } else if (auto g = std::find_if(k.globals.begin(), k.globals.end(), named); g != k.globals.end()) {
      fill(*g, m.find(g->address, g->init.size())->bytes.data());
    } else {
      std::string names;
      for (const auto* list : {&k.constants, &k.globals})
        for (const GlobalVariable& v : *list)
          if (v.name.substr(0, 1) != "$") names += (names.empty() ? "" : ", ") + std::string(v.name);
      throw KernelError(fmt::format("{}: no .const or .global variable named '{}' (the module has {})", k.file, f.name,
                                    names.empty() ? "none" : names));
    }
  }
}

}  // namespace

namespace {

// A parameter that tex, suld or sust reads as an object handle needs an
// object (a descriptor) for its argument.
void require_objects(const Kernel& k, const Launch& launch) {
  const std::vector<Param>& params = k.entry().params;
  for (const auto& [offset, inst] : k.object_params) {
    size_t param = 0;
    while (param < params.size() && params[param].offset != offset) ++param;
    if (param == params.size() || launch.args[param].kind == Arg::Kind::texture) continue;
    const Param& p = params[param];
    const Inst& in = k.insts[inst];
    throw KernelError(
        fmt::format("{}: parameter {} ('{}') is a {} object handle ('{}' at {}) and its argument has no "
                    "descriptor: give it one (ptxfu sim: --arg tex:FILE:format=...,width=...)",
                    k.file, param, p.name, in.kind == Kind::tex ? "texture" : "surface", in.mnemonic, k.where(in)));
  }
}

// The tensor-map arguments: each map gets its buffer's address, then goes
// into its 128-byte parameter, or into a 128-byte global buffer whose
// address its 64-bit parameter receives.
void place_tensor_maps(const Kernel& k, const Launch& launch, Memory& m, uint64_t cursor) {
  const Function& e = k.entry();
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const Arg& a = launch.args[i];
    if (a.kind != Arg::Kind::tensor_map) continue;
    const Param& p = e.params[i];
    auto bad = [&](const std::string& why) {
      return KernelError(fmt::format("{}: argument {} for parameter {} ('.{} {}', {} bytes): tensor map: {}", k.file, i,
                                     i, p.type, p.name, p.bytes, why));
    };
    const Buffer* b = m.arg_buffer(a.map_buffer >= 0 ? static_cast<unsigned>(a.map_buffer) : static_cast<unsigned>(i));
    if (!b) throw bad(fmt::format("argument {} is not a buffer", a.map_buffer));
    if (a.offset > b->bytes.size()) throw bad(fmt::format("offset {} is past the end of the buffer", a.offset));
    TensorMap map = a.map;
    map.address = b->base + a.offset;
    if (const std::string why = validate(map); !why.empty()) throw bad(why);
    const auto bytes = encode(map);
    if (p.bytes == kTensorMapBytes && !p.floating) {
      std::memcpy(m.params.data() + p.offset, bytes.data(), bytes.size());
    } else if (p.bytes == 8 && !p.floating) {
      for (unsigned byte = 0; byte < 8; ++byte) m.params[p.offset + byte] = static_cast<uint8_t>(cursor >> (8 * byte));
      m.buffers.push_back(
          {cursor, std::vector<uint8_t>(bytes.begin(), bytes.end()), -1, fmt::format("{} (its tensor map)", p.name)});
      cursor = align_up(cursor + bytes.size() + kGuard, kGuard);
    } else {
      throw bad("needs a 128-byte parameter (a __grid_constant__ CUtensorMap) or a 64-bit pointer");
    }
  }
}

}  // namespace

Memory make_memory(const Kernel& k, const Launch& launch) {
  const Function& e = k.entry();
  auto param_list = [&] {
    std::string s;
    for (const Param& p : e.params) s += fmt::format("{}.{} {}", s.empty() ? "" : ", ", p.type, p.name);
    return s;
  };
  if (launch.args.size() != e.params.size())
    throw KernelError(fmt::format("{}: '{}' takes {} parameters ({}); {} arguments given", k.file, e.name,
                                  e.params.size(), param_list(), launch.args.size()));
  const Dim3& g = launch.grid;
  const Dim3& b = launch.block;
  // A straight-line program's one CTA is every warp of the SM (the model checks it against max_warps).
  const uint64_t max_block = k.straight_line ? uint64_t{1} << 16 : 1024;
  if (g.count() == 0 || b.count() == 0 || b.count() > max_block || g.y > 65535 || g.z > 65535)
    throw KernelError(
        fmt::format("{}: grid ({},{},{}) and block ({},{},{}): a block has 1 to 1024 threads, a grid at "
                    "least one block",
                    k.file, g.x, g.y, g.z, b.x, b.y, b.z));
  Memory m;
  m.constant = k.constant;
  m.params.assign(k.param_bytes, 0);
  uint64_t end = kGlobalBase;
  for (const GlobalVariable& v : k.globals) {
    m.buffers.push_back({v.address, v.init, -1, std::string(v.name)});
    end = std::max(end, v.address + v.init.size());
  }
  uint64_t cursor = align_up(end + kGuard, kGuard);
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const Arg& a = launch.args[i];
    const Param& p = e.params[i];
    auto bad = [&](const std::string& why) {
      return KernelError(fmt::format("{}: argument {} for parameter {} ('.{} {}', {} bytes): {}", k.file, i, i, p.type,
                                     p.name, p.bytes, why));
    };
    uint64_t value = a.value;
    if (a.kind == Arg::Kind::texture) {
      if (p.bytes != 8 || p.floating)
        throw bad("a texture or surface object's handle needs a 64-bit integer parameter");
      value = kObjectHandleBase + m.textures.size();
      m.textures.push_back(*a.texture);
      m.texture_args.push_back(static_cast<int>(i));
    } else if (a.kind == Arg::Kind::buffer) {
      if (p.bytes != 8 || p.floating) throw bad("a buffer's address needs a 64-bit integer parameter");
      if (a.offset > a.data.size())
        throw bad(fmt::format("offset {} is past the end of the {}-byte buffer", a.offset, a.data.size()));
      value = cursor + a.offset;
      m.buffers.push_back({cursor, a.data, static_cast<int>(i), std::string(p.name)});
      cursor = align_up(cursor + a.data.size() + kGuard, kGuard);
    } else if (a.kind == Arg::Kind::tensor_map) {
      if (a.map_buffer < 0) {  // its own buffer; the map itself once every buffer has its address
        m.buffers.push_back({cursor, a.data, static_cast<int>(i), std::string(p.name)});
        cursor = align_up(cursor + a.data.size() + kGuard, kGuard);
      }
      continue;
    } else {
      if (a.bytes != p.bytes) throw bad(fmt::format("the argument is a {}-byte scalar", a.bytes));
      if (a.kind == Arg::Kind::integer && p.floating) throw bad("an integer does not fit a floating-point parameter");
    }
    for (unsigned byte = 0; byte < p.bytes && byte < 8; ++byte)
      m.params[p.offset + byte] = static_cast<uint8_t>(value >> (8 * byte));
  }
  place_tensor_maps(k, launch, m, cursor);
  std::sort(m.buffers.begin(), m.buffers.end(), [](const Buffer& x, const Buffer& y) { return x.base < y.base; });
  fill_variables(k, launch, m);
  require_objects(k, launch);
  return m;
}

Dim3 cluster_shape(const Kernel& k, const Launch& launch) {
  const uint32_t* d = k.cluster_dims;
  const bool directive = d[0] != 0;
  Dim3 c = launch.cluster.x ? launch.cluster : directive ? Dim3{d[0], d[1], d[2]} : Dim3{};
  const Dim3& g = launch.grid;
  auto bad = [&](const std::string& why) {
    return KernelError(fmt::format("{}: cluster ({},{},{}) for grid ({},{},{}) of '{}': {}", k.file, c.x, c.y, c.z, g.x,
                                   g.y, g.z, k.entry().name, why));
  };
  if (c.count() == 0) throw bad("a cluster has at least one CTA in each dimension");
  if (directive && (c.x != d[0] || c.y != d[1] || c.z != d[2]))
    throw bad(fmt::format("the kernel requires .reqnctapercluster {}, {}, {}", d[0], d[1], d[2]));
  if (c.count() > kMaxClusterCtas)
    throw bad(fmt::format("a cluster holds at most {} CTAs ({} portably)", kMaxClusterCtas, 8));
  if (g.x % c.x || g.y % c.y || g.z % c.z) throw bad("the grid is not a whole number of clusters");
  if ((c.count() > 1 || k.explicit_cluster) && k.caps.sm < 90)
    throw bad(fmt::format("thread-block clusters need sm_90 or higher; the kernel is loaded for sm_{}", k.caps.sm));
  return c;
}

Dim3 cta_in_launch_order(const Dim3& g, const Dim3& c, uint64_t i) {
  const uint64_t per = c.count(), cluster = i / per, rank = i % per;
  const uint64_t gx = g.x / c.x, gy = g.y / c.y;
  const Dim3 cid{static_cast<uint32_t>(cluster % gx), static_cast<uint32_t>(cluster / gx % gy),
                 static_cast<uint32_t>(cluster / (gx * gy))};
  return {cid.x * c.x + static_cast<uint32_t>(rank % c.x), cid.y * c.y + static_cast<uint32_t>(rank / c.x % c.y),
          cid.z * c.z + static_cast<uint32_t>(rank / (uint64_t{c.x} * c.y))};
}

void Cluster::settle() {
  uint64_t live = 0, arrived = 0;
  for (const Cta* cta : ctas)
    if (cta)
      for (const Warp& w : cta->warps) {
        const uint32_t alive = w.valid & ~w.exited;
        live += util::popcount32(alive);
        arrived += util::popcount32(w.cluster_arrived & alive);
      }
  if (arrived == 0 || arrived < live) return;
  ++phases;
  for (Cta* cta : ctas)
    if (cta)
      for (Warp& w : cta->warps) {
        w.cluster_arrived = 0;
        if (w.barrier == kClusterBarrier) w.barrier = -1;
      }
}

Cta::~Cta() { leave_cluster(); }

void Cta::leave_cluster() {
  if (!cluster) return;
  cluster->ctas[cluster_rank] = nullptr;
  cluster->settle();  // its threads no longer count
  cluster.reset();
}

void Cta::join(std::shared_ptr<Cluster> c, uint32_t rank) {
  cluster = std::move(c);
  cluster_rank = rank;
  cluster->ctas[rank] = this;
}

Cta::Cta(const Kernel& k, const Launch& l, Dim3 id, uint32_t sm_id) : kernel(&k), launch(&l), ctaid(id), sm(sm_id) {
  restart(id);
}

void Cta::restart(Dim3 id, const std::vector<uint32_t>* zeroed) {
  const Kernel& k = *kernel;
  const Launch& l = *launch;
  ctaid = id;
  std::fill(std::begin(arrived), std::end(arrived), 0u);
  std::fill(std::begin(expected), std::end(expected), 0u);
  shared.assign(size_t{k.dynamic_shared_offset} + l.shared_bytes, 0);
  leave_cluster();                        // the last CTA in this storage
  cluster = std::make_shared<Cluster>();  // a cluster of its own until it joins one
  cluster->id = id;
  cluster->ctas = {this};
  cluster_rank = 0;
  copies.clear();
  arrives.clear();
  bulk.clear();
  async_seq = 0;
  mbarriers.clear();
  mbarrier_completions = 0;
  async_error.clear();
  const uint64_t threads = l.block.count();
  const Function& e = k.entry();
  warps.resize((threads + 31) / 32);
  for (size_t i = 0; i < warps.size(); ++i) {
    Warp& w = warps[i];
    Warp fresh;  // every field at its start; the storage of the last CTA's warp is kept
    fresh.stack = std::move(w.stack), fresh.frames = std::move(w.frames), fresh.regs = std::move(w.regs);
    fresh.params = std::move(w.params), fresh.local = std::move(w.local);
    w = std::move(fresh);
    w.index = static_cast<uint32_t>(i);
    const uint64_t n = std::min<uint64_t>(32, threads - 32 * i);
    w.valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
    w.stack.assign(1, {e.begin, kNoPc, w.valid, false});
    w.frames.assign(1, {0, 0, 0, kNoPc, 0});
    const size_t regs = size_t{e.num_regs} * 32;
    if (zeroed && w.regs.size() >= regs) {
      w.regs.resize(regs);  // a call's frames go
      for (uint32_t r : *zeroed) std::fill_n(w.regs.data() + size_t{r} * 32, 32, 0);
    } else {
      w.regs.assign(regs, 0);
    }
    w.params.assign(size_t{e.param_bytes} * 32, 0);
    w.local.assign(size_t{k.local_bytes} * 32, 0);
  }
}

bool Cta::done() const {
  return std::all_of(warps.begin(), warps.end(), [](const Warp& w) { return w.done(); });
}

void Cta::settle_barriers() {
  const uint32_t live =
      static_cast<uint32_t>(std::count_if(warps.begin(), warps.end(), [](const Warp& w) { return !w.done(); }));
  for (unsigned id = 0; id < kBarriers; ++id) {
    if (arrived[id] == 0) continue;
    const uint32_t need = expected[id] ? std::min(expected[id], live) : live;
    if (arrived[id] < need) continue;
    for (Warp& w : warps)
      if (w.barrier == static_cast<int>(id)) w.barrier = -1;
    arrived[id] = 0;
    expected[id] = 0;
  }
  if (cluster) cluster->settle();
}

namespace {

// The CTAs of one cluster, their warps round-robin, to completion.
bool run_cluster(const Kernel& k, std::vector<std::unique_ptr<Cta>>& ctas, RunResult& r, const RunOptions& options) {
  auto all_done = [&] { return std::all_of(ctas.begin(), ctas.end(), [](const auto& c) { return c->done(); }); };
  auto async_pending = [&] {
    return std::any_of(ctas.begin(), ctas.end(), [](const auto& c) { return c->async_pending(); });
  };
  while (!all_done()) {
    bool ran = false;
    for (auto& cta : ctas) {
      // Copies issued in the last round land now, their arrive-ons fire,
      // and warps whose cp.async wait is over go on.
      ran = (cta->async_pending() && cta->settle_async(kLandsUntimed)) || ran;
      if (!cta->async_error.empty()) {
        r.ok = false;
        r.error = fmt::format("{}: error: {}", k.file, cta->async_error);
        return false;
      }
    }
    for (auto& cta : ctas)
      for (Warp& w : cta->warps) {
        if (w.done() || w.waiting()) continue;
        ran = true;
        const Dim3& id = cta->ctaid;
        if (r.warp_instructions >= options.max_steps) {
          const Inst& in = k.insts[w.pc()];
          r.ok = false;
          r.error = fmt::format(
              "{}: error: step limit of {} warp-instructions reached; warp {} of block ({},{},{}) was at '{}'",
              k.where(in), options.max_steps, w.index, id.x, id.y, id.z, in.mnemonic);
          if (const std::string hang = cta->mbarrier_waits(); !hang.empty()) r.error += ": " + hang;
          return false;
        }
        const StepResult s = step(w, *cta, r.memory, r.warp_instructions);
        ++r.warp_instructions;
        if (s.status == StepResult::Status::error) {
          r.ok = false;
          r.error = s.error;
          return false;
        }
      }
    if (!ran && !async_pending()) {
      const Dim3& id = ctas[0]->ctaid;
      r.ok = false;
      r.error = fmt::format(
          "{}: error: deadlock in block ({},{},{}){}: every live warp waits at a barrier that cannot complete", k.file,
          id.x, id.y, id.z, ctas.size() > 1 ? fmt::format(" and its cluster of {} CTAs", ctas.size()) : "");
      return false;
    }
  }
  return true;
}

}  // namespace

RunResult run_functional(const Kernel& k, const Launch& launch, const RunOptions& options) {
  RunResult r;
  try {
    r.memory = make_memory(k, launch);
  } catch (const KernelError& e) {
    r.ok = false;
    r.error = e.what();
    return r;
  }
  Dim3 shape;
  try {
    shape = cluster_shape(k, launch);
  } catch (const KernelError& e) {
    r.ok = false;
    r.error = e.what();
    return r;
  }
  const uint64_t per = shape.count();
  for (uint64_t first = 0; first < launch.grid.count(); first += per) {
    std::vector<std::unique_ptr<Cta>> ctas;
    auto cluster = std::make_shared<Cluster>();
    cluster->shape = shape;
    cluster->ctas.assign(per, nullptr);
    cluster->is_explicit = per > 1 || k.explicit_cluster;
    for (uint64_t rank = 0; rank < per; ++rank) {
      ctas.push_back(std::make_unique<Cta>(k, launch, cta_in_launch_order(launch.grid, shape, first + rank)));
      ctas.back()->join(cluster, static_cast<uint32_t>(rank));
      ++r.ctas;
    }
    const Dim3& c0 = ctas[0]->ctaid;
    cluster->id = {c0.x / shape.x, c0.y / shape.y, c0.z / shape.z};
    if (!run_cluster(k, ctas, r, options)) return r;
  }
  return r;
}

}  // namespace ptxfu::kernel
