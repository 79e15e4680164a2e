// The executor's calls (call, ret, a callee's frame and its .param
// arguments and return values) and CUDA's vprintf (kernel/printf.h): the
// rarer control instructions; branches and reconvergence stay inline in
// exec.h.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernel/exec.h"
#include "kernel/printf.h"

namespace ptxfu::kernel::detail {

void Exec::pop_frame(uint32_t lanes) {
  const Frame callee = w_.frames.back();
  const Frame& caller = w_.frames[callee.caller];
  const Inst& call = k_.insts[callee.call_pc];
  const Function& fc = k_.functions[callee.function];
  const uint32_t caller_area = k_.functions[caller.function].param_bytes;
  for (uint32_t r = 0; r < call.num_rets && r < fc.returns.size(); ++r) {
    const CallParam& dst = k_.call_params[call.first_arg + call.num_args + r];
    const Param& src = fc.returns[r];
    const uint32_t n = std::min(dst.bytes, src.bytes);
    for (unsigned lane = 0; lane < 32; ++lane)
      if (lanes >> lane & 1)
        std::memcpy(w_.params.data() + caller.param_base + size_t{lane} * caller_area + dst.offset,
                    w_.params.data() + callee.param_base + size_t{lane} * fc.param_bytes + src.offset, n);
  }
  w_.frames.pop_back();
  w_.regs.resize(size_t{callee.reg_base} * 32);
  w_.params.resize(callee.param_base);
}

uint8_t* Exec::call_param(const Inst& in, uint32_t index, unsigned lane) {
  const CallParam& p = k_.call_params[in.first_arg + index];
  return w_.params.data() + frame_.param_base + size_t{lane} * k_.functions[frame_.function].param_bytes + p.offset;
}

void Exec::vprintf(const Inst& in, uint32_t exec) {
  const Dim3& g = cta_.launch->grid;
  const uint64_t cta = cta_.ctaid.x + uint64_t{g.x} * (cta_.ctaid.y + uint64_t{g.y} * cta_.ctaid.z);
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    uint64_t format = 0, args = 0;
    std::memcpy(&format, call_param(in, 0, lane), std::min(8u, k_.call_params[in.first_arg].bytes));
    std::memcpy(&args, call_param(in, 1, lane), std::min(8u, k_.call_params[in.first_arg + 1].bytes));
    const DeviceRead read = [&](uint64_t a, unsigned n) {
      uint64_t v = 0;
      std::memcpy(&v, memory(lane, Space::generic, a, n, false), n);
      return v;
    };
    int32_t result = -1;
    std::string shown;  // the format, as far as it was read
    try {
      if (format != 0) {
        shown = read_device_string(format, kMaxPrintfString, read, "the format");
        unsigned used = 0;
        std::string text = format_vprintf(shown, args, read, &used);
        mem_.printf_bytes += text.size();
        if (mem_.printf_bytes > kMaxPrintfOutput)
          throw PrintfError(fmt::format("the launch's printf output exceeds {} MiB", kMaxPrintfOutput >> 20));
        mem_.printf.push_back({cta, w_.index, lane, std::move(text)});
        result = static_cast<int32_t>(used);
      }
    } catch (const PrintfError& e) {
      std::string quoted;
      for (char c : shown.substr(0, 200)) quoted += c == '\n' ? "\\n" : std::string(1, c);
      throw Fault{fmt::format("{}: error: printf format \"{}\": {}, by thread ({},{},{}) in block ({},{},{})",
                              k_.where(in), quoted, e.what(), tid(lane, 0), tid(lane, 1), tid(lane, 2), cta_.ctaid.x,
                              cta_.ctaid.y, cta_.ctaid.z)};
    }
    if (in.num_rets == 1) {
      const uint32_t n = std::min(4u, k_.call_params[in.first_arg + 2].bytes);
      std::memcpy(call_param(in, 2, lane), &result, n);
    }
  }
  result_->space = in.space;
}

void Exec::call(const Inst& in, uint32_t exec, uint32_t pc) {
  w_.stack.back().pc = pc + 1;
  if (exec == 0) return;
  if (in.builtin == Builtin::vprintf) return vprintf(in, exec);
  // Lanes grouped by callee, in the order of their lowest lane.
  std::vector<std::pair<uint32_t, uint32_t>> groups;  // (function, lanes)
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    uint32_t f = in.target;
    if (f == kNoPc) {
      const uint64_t a = read(in.src[0], lane);
      if (a < kCodeBase || (a - kCodeBase) % 16 != 0 || (a - kCodeBase) / 16 >= k_.functions.size())
        throw Fault{
            fmt::format("{}: error: indirect call to 0x{:x}, which is not a function of the kernel, by warp {}, "
                        "lane {} of block ({},{},{})",
                        k_.where(in), a, w_.index, lane, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z)};
      f = static_cast<uint32_t>((a - kCodeBase) / 16);
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == f; });
    if (it == groups.end())
      groups.push_back({f, 1u << lane});
    else
      it->second |= 1u << lane;
  }
  const Frame caller = frame_;
  const size_t caller_index = w_.frames.size() - 1;
  const uint32_t caller_area = k_.functions[caller.function].param_bytes;
  // Push in reverse so that the group of the lowest lane runs first.
  for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
    const Function& fn = k_.functions[g->first];
    if (fn.is_entry || fn.params.size() != in.num_args || fn.returns.size() != in.num_rets)
      throw Fault{fmt::format("{}: error: call to '{}' passes {} arguments and {} return values; it takes {} and {}",
                              k_.where(in), fn.name, in.num_args, in.num_rets, fn.params.size(), fn.returns.size())};
    if (w_.frames.size() > 1024) throw Fault{fmt::format("{}: error: calls nested more than 1024 deep", k_.where(in))};
    Frame f;
    f.function = g->first;
    f.reg_base = static_cast<uint32_t>(w_.regs.size() / 32);
    f.param_base = static_cast<uint32_t>(w_.params.size());
    f.call_pc = pc;
    f.caller = static_cast<uint32_t>(caller_index);
    w_.regs.resize(w_.regs.size() + size_t{fn.num_regs} * 32, 0);
    w_.params.resize(w_.params.size() + size_t{fn.param_bytes} * 32, 0);
    for (uint32_t a = 0; a < in.num_args; ++a) {
      const CallParam& src = k_.call_params[in.first_arg + a];
      const Param& dst = fn.params[a];
      const uint32_t n = std::min(src.bytes, dst.bytes);
      for (unsigned lane = 0; lane < 32; ++lane)
        if (g->second >> lane & 1)
          std::memcpy(w_.params.data() + f.param_base + size_t{lane} * fn.param_bytes + dst.offset,
                      w_.params.data() + caller.param_base + size_t{lane} * caller_area + src.offset, n);
    }
    w_.frames.push_back(f);
    w_.stack.push_back({fn.begin, kNoPc, g->second, true});
  }
}

void Exec::ret(const Inst& in, uint32_t exec, uint32_t pc) {
  const Function& fn = k_.functions[in.function];
  SimtEntry& top = w_.stack.back();
  if (fn.is_entry) {
    top.pc = pc + 1;
    exit_lanes(exec);
    return;
  }
  if (top.call && exec == top.mask) {
    const uint32_t lanes = top.mask;
    pop_frame(lanes);
    w_.stack.pop_back();
    return;
  }
  branch(exec, fn.end, pc + 1, in.ipdom);
}

}  // namespace ptxfu::kernel::detail
