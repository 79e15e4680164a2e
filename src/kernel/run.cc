// Launch plumbing: arguments to the parameter buffer and global buffers,
// CTAs and their warps, and the functional driver.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "kernel/kernel.h"

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
  return {Kind::floating, 4, u, {}, {}};
}

Arg Arg::f64(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return {Kind::floating, 8, u, {}, {}};
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
      value = cursor;
      m.buffers.push_back({cursor, a.data, static_cast<int>(i), std::string(p.name)});
      cursor = align_up(cursor + a.data.size() + kGuard, kGuard);
    } else {
      if (a.bytes != p.bytes) throw bad(fmt::format("the argument is a {}-byte scalar", a.bytes));
      if (a.kind == Arg::Kind::integer && p.floating) throw bad("an integer does not fit a floating-point parameter");
    }
    for (unsigned byte = 0; byte < p.bytes && byte < 8; ++byte)
      m.params[p.offset + byte] = static_cast<uint8_t>(value >> (8 * byte));
  }
  std::sort(m.buffers.begin(), m.buffers.end(), [](const Buffer& x, const Buffer& y) { return x.base < y.base; });
  require_objects(k, launch);
  return m;
}

Cta::Cta(const Kernel& k, const Launch& l, Dim3 id, uint32_t sm_id) : kernel(&k), launch(&l), ctaid(id), sm(sm_id) {
  shared.assign(size_t{k.dynamic_shared_offset} + l.shared_bytes, 0);
  const uint64_t threads = l.block.count();
  const Function& e = k.entry();
  warps.resize((threads + 31) / 32);
  for (size_t i = 0; i < warps.size(); ++i) {
    Warp& w = warps[i];
    w.index = static_cast<uint32_t>(i);
    const uint64_t n = std::min<uint64_t>(32, threads - 32 * i);
    w.valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
    w.stack.push_back({e.begin, kNoPc, w.valid, false});
    w.frames.push_back({0, 0, 0, kNoPc, 0});
    w.regs.assign(size_t{e.num_regs} * 32, 0);
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
}

RunResult run_functional(const Kernel& k, const Launch& launch, const RunOptions& options) {
  RunResult r;
  try {
    r.memory = make_memory(k, launch);
  } catch (const KernelError& e) {
    r.ok = false;
    r.error = e.what();
    return r;
  }
  const Dim3& g = launch.grid;
  for (uint32_t z = 0; z < g.z; ++z)
    for (uint32_t y = 0; y < g.y; ++y)
      for (uint32_t x = 0; x < g.x; ++x) {
        Cta cta(k, launch, {x, y, z});
        ++r.ctas;
        while (!cta.done()) {
          bool ran = false;
          for (Warp& w : cta.warps) {
            if (w.done() || w.waiting()) continue;
            ran = true;
            if (r.warp_instructions >= options.max_steps) {
              const Inst& in = k.insts[w.pc()];
              r.ok = false;
              r.error = fmt::format(
                  "{}: error: step limit of {} warp-instructions reached; warp {} of block ({},{},{}) "
                  "was at '{}'",
                  k.where(in), options.max_steps, w.index, x, y, z, in.mnemonic);
              return r;
            }
            const StepResult s = step(w, cta, r.memory, r.warp_instructions);
            ++r.warp_instructions;
            if (s.status == StepResult::Status::error) {
              r.ok = false;
              r.error = s.error;
              return r;
            }
          }
          if (!ran) {
            r.ok = false;
            r.error = fmt::format(
                "{}: error: deadlock in block ({},{},{}): every live warp waits at a barrier that "
                "cannot complete",
                k.file, x, y, z);
            return r;
          }
        }
      }
  return r;
}

}  // namespace ptxfu::kernel
