// The host API's launches: arguments checked against the kernel's
// parameters, device memory and module variables lent to the model for the
// run, the result and the device's timeline.
#include <cstring>

#include <fmt/format.h>

#include "host/host_state.h"
#include "models/simulator.h"

namespace ptxfu {
namespace host_detail {

LaunchResult to_launch_result(const kernel::Kernel& k, const models::SimResult& r);

namespace {

// A launch's arguments as the model takes them: a device pointer is its
// address in a 64-bit integer parameter (the rule make_memory applies to
// `ptxfu sim`'s buffers); scalars keep their kind and width for
// make_memory's check.
std::vector<kernel::Arg> model_args(DeviceState& d, const kernel::Kernel& k, const std::vector<KernelArg>& args) {
  std::vector<kernel::Arg> out;
  const auto& params = k.entry().params;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    if (a.is_buffer()) {
      const std::string what = fmt::format("{}: argument {}", k.entry().name, i);
      d.check_owned(a.buffer(), what.c_str());
      if (i < params.size() && (params[i].bytes != 8 || params[i].floating))
        throw Error(fmt::format("{} for parameter '.{} {}': a device pointer needs a 64-bit integer parameter", what,
                                params[i].type, params[i].name));
      out.push_back(kernel::Arg::u64(a.buffer().address()));
    } else {
      const Scalar& s = a.scalar();
      kernel::Arg m;
      m.kind = s.floating() ? kernel::Arg::Kind::floating : kernel::Arg::Kind::integer;
      m.bytes = s.bytes();
      m.value = s.bits;
      out.push_back(m);
    }
  }
  return out;
}

}  // namespace
}  // namespace host_detail

using host_detail::DeviceState;
using host_detail::ModuleState;

const std::string& Kernel::name() const { return module_->entry_names[index_]; }

std::vector<std::string> Kernel::parameters() const {
  std::vector<std::string> v;
  for (const kernel::Param& p : module_->kernel(index_).entry().params)
    v.push_back(fmt::format("{} {}", p.type, p.name));
  return v;
}

std::vector<Scalar::Type> Kernel::parameter_types() const {
  using T = Scalar::Type;
  std::vector<T> v;
  for (const kernel::Param& p : module_->kernel(index_).entry().params) {
    switch (p.bytes) {
      case 1: v.push_back(T::u8); break;
      case 2: v.push_back(p.floating ? T::f16 : T::u16); break;
      case 4: v.push_back(p.floating ? T::f32 : T::u32); break;
      case 8: v.push_back(p.floating ? T::f64 : T::u64); break;
      default:
        throw Error(fmt::format("{}: parameter '.{} {}' of {} bytes: a launch passes scalars of 1, 2, 4 or 8 bytes",
                                name(), p.type, p.name, p.bytes));
    }
  }
  return v;
}

LaunchResult Kernel::launch(Dim3 grid, Dim3 block, const std::vector<KernelArg>& args, uint32_t shared_bytes,
                            Dim3 cluster) const {
  ModuleState& m = *module_;
  DeviceState& d = *m.device;
  const kernel::Kernel& k = m.kernel(index_);
  models::SimJob job;
  job.config = &d.config;
  job.style = d.style;
  job.kernel = &k;
  job.launch.grid = {grid.x, grid.y, grid.z};
  job.launch.block = {block.x, block.y, block.z};
  job.launch.shared_bytes = shared_bytes;
  job.launch.cluster = {cluster.x, cluster.y, cluster.z};
  job.launch.args = host_detail::model_args(d, k, args);
  job.lent_buffers = {&d.memory, &m.globals};
  models::SimResult sim;
  try {
    sim = std::move(models::simulate({job}).front());
  } catch (const kernel::KernelError& e) {
    throw Error(e.what());
  } catch (const models::ConfigError& e) {
    throw Error(e.what());
  }
  LaunchResult r = host_detail::to_launch_result(k, sim);
  r.kernel = name();
  r.start_cycle = d.cycle;
  r.end_cycle = d.cycle + r.cycles;
  d.cycle = r.end_cycle;
  d.timeline.push_back({r.kernel, r.start_cycle, r.end_cycle, r.ok});
  if (!r.ok) throw KernelFault(r);
  return r;
}

}  // namespace ptxfu
