// The host API (ptxfu/host.hpp) for Python: the objects python/ptxfu/host.py
// wraps into ptxfu.Device, DeviceArray, Module, Kernel and LaunchResult.
// Copies run with the GIL released; launches keep it (a launch lends the
// device's memory to the model, which another thread must not touch then).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <ptxfu/host.hpp>

namespace py = pybind11;

namespace {

ptxfu::Dim3 dim3_of(const std::vector<uint32_t>& v, const char* what) {
  if (v.empty() || v.size() > 3)
    throw ptxfu::Error(std::string(what) + ": expected 1 to 3 dimensions, as (x,), (x, y) or (x, y, z)");
  return {v[0], v.size() > 1 ? v[1] : 1, v.size() > 2 ? v[2] : 1};
}

// The bytes of a C-contiguous buffer-protocol object.
py::buffer_info contiguous(const py::buffer& b, bool writable) {
  py::buffer_info info = b.request(writable);
  if (!PyBuffer_IsContiguous(info.view(), 'C')) throw ptxfu::Error("the array is not C-contiguous");
  return info;
}

size_t bytes_of(const py::buffer_info& i) { return static_cast<size_t>(i.size) * static_cast<size_t>(i.itemsize); }

py::object dim3_tuple(const std::optional<ptxfu::Dim3>& d) {
  if (!d) return py::none();
  return py::make_tuple(d->x, d->y, d->z);
}

void bind_results(py::module_& m) {
  py::class_<ptxfu::UnitUse>(m, "_UnitUse")
      .def_readonly("name", &ptxfu::UnitUse::name)
      .def_readonly("busy_cycles", &ptxfu::UnitUse::busy_cycles)
      .def_readonly("utilisation", &ptxfu::UnitUse::utilisation)
      .def_readonly("warp_instructions", &ptxfu::UnitUse::warp_instructions);
  py::class_<ptxfu::LaunchResult>(m, "_LaunchResult")
      .def_readonly("kernel", &ptxfu::LaunchResult::kernel)
      .def_readonly("start_cycle", &ptxfu::LaunchResult::start_cycle)
      .def_readonly("end_cycle", &ptxfu::LaunchResult::end_cycle)
      .def_readonly("cycles", &ptxfu::LaunchResult::cycles)
      .def_readonly("warp_instructions", &ptxfu::LaunchResult::warp_instructions)
      .def_readonly("ctas", &ptxfu::LaunchResult::ctas)
      .def_readonly("ipc", &ptxfu::LaunchResult::ipc)
      .def_readonly("units", &ptxfu::LaunchResult::units)
      .def_readonly("stalls", &ptxfu::LaunchResult::stalls)
      .def_readonly("host_seconds", &ptxfu::LaunchResult::host_seconds)
      .def_readonly("printf", &ptxfu::LaunchResult::printf)
      .def_readonly("ok", &ptxfu::LaunchResult::ok)
      .def_readonly("error", &ptxfu::LaunchResult::error)
      .def_property_readonly("residency",
                             [](const ptxfu::LaunchResult& r) {
                               py::dict d;
                               d["ctas"] = r.residency.ctas;
                               d["limit"] = r.residency.limit;
                               d["warps_per_cta"] = r.residency.warps_per_cta;
                               d["registers_per_thread"] = r.residency.registers_per_thread;
                               d["shared_per_cta"] = r.residency.shared_per_cta;
                               return d;
                             })
      .def(
          "_profile_rows",
          [](const ptxfu::LaunchResult& r) {
            py::list rows;
            for (const ptxfu::LineUse& l : r.profile)
              rows.append(py::make_tuple(l.line, l.instruction, l.unit, l.warp_instructions, l.active_lanes, l.stalls));
            return rows;
          })
      .def("to_json", &ptxfu::LaunchResult::to_json);
  py::class_<ptxfu::TimelineEntry>(m, "_TimelineEntry")
      .def_readonly("kernel", &ptxfu::TimelineEntry::kernel)
      .def_readonly("start_cycle", &ptxfu::TimelineEntry::start_cycle)
      .def_readonly("end_cycle", &ptxfu::TimelineEntry::end_cycle)
      .def_readonly("ok", &ptxfu::TimelineEntry::ok);
}

void bind_memory(py::module_& m) {
  py::class_<ptxfu::DeviceBuffer>(m, "_DeviceBuffer")
      .def_property_readonly("address", &ptxfu::DeviceBuffer::address)
      .def_property_readonly("bytes", &ptxfu::DeviceBuffer::bytes)
      .def_property_readonly("offset", &ptxfu::DeviceBuffer::offset)
      .def_property_readonly("valid", &ptxfu::DeviceBuffer::valid)
      .def("slice", &ptxfu::DeviceBuffer::slice, py::arg("offset"), py::arg("bytes"));
  py::class_<ptxfu::Scalar>(m, "_Scalar")
      .def(py::init([](const std::string& type, uint64_t bits) {
        static const char* const kNames[] = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16", "f32", "f64"};
        for (size_t i = 0; i < std::size(kNames); ++i)
          if (type == kNames[i]) return ptxfu::Scalar{static_cast<ptxfu::Scalar::Type>(i), bits};
        throw ptxfu::Error("unknown scalar type '" + type + "'");
      }))
      .def_property_readonly("type", &ptxfu::Scalar::type_name)
      .def_readonly("bits", &ptxfu::Scalar::bits);
}

void bind_device(py::module_& m) {
  py::class_<ptxfu::Device>(m, "_Device")
      .def(py::init<std::string>(), py::arg("config"))
      .def_property_readonly("config_name", &ptxfu::Device::config_name)
      .def("malloc", &ptxfu::Device::malloc)
      .def("free", &ptxfu::Device::free)
      .def("memset", &ptxfu::Device::memset)
      .def("copy", &ptxfu::Device::copy)
      .def("allocated_bytes", &ptxfu::Device::allocated_bytes)
      .def("malloc_copy",
           [](ptxfu::Device& d, const py::buffer& src) {
             const py::buffer_info i = contiguous(src, false);
             py::gil_scoped_release release;
             return d.malloc_copy(i.ptr, bytes_of(i));
           })
      .def("copy_to_device",
           [](ptxfu::Device& d, const ptxfu::DeviceBuffer& dst, const py::buffer& src) {
             const py::buffer_info i = contiguous(src, false);
             py::gil_scoped_release release;
             d.copy_to_device(dst, i.ptr, bytes_of(i));
           })
      .def("copy_to_host",
           [](const ptxfu::Device& d, const py::buffer& dst, const ptxfu::DeviceBuffer& src) {
             const py::buffer_info i = contiguous(dst, true);
             py::gil_scoped_release release;
             d.copy_to_host(i.ptr, src, bytes_of(i));
           })
      .def("load_module", &ptxfu::Device::load_module)
      .def("load_module_text", &ptxfu::Device::load_module_text)
      .def("timeline", &ptxfu::Device::timeline)
      .def_property_readonly("cycle", &ptxfu::Device::cycle);
  py::class_<ptxfu::Module>(m, "_Module")
      .def("get_function", &ptxfu::Module::get_function)
      .def("entries", &ptxfu::Module::entries)
      .def("set_global",
           [](ptxfu::Module& mod, const std::string& name, const py::buffer& data) {
             const py::buffer_info i = contiguous(data, false);
             mod.set_global(name, i.ptr, bytes_of(i));
           })
      .def("get_global",
           [](const ptxfu::Module& mod, const std::string& name) {
             const std::vector<uint8_t> v = mod.get_global(name);
             return py::bytes(reinterpret_cast<const char*>(v.data()), v.size());
           })
      .def("global_bytes", &ptxfu::Module::global_bytes);
  py::class_<ptxfu::Kernel>(m, "_Kernel")
      .def_property_readonly("name", &ptxfu::Kernel::name)
      .def("parameters", &ptxfu::Kernel::parameters)
      .def("launch", [](const ptxfu::Kernel& k, const std::vector<uint32_t>& grid, const std::vector<uint32_t>& block,
                        const py::list& args, uint32_t shared_bytes, const std::vector<uint32_t>& cluster) {
        std::vector<ptxfu::KernelArg> a;
        a.reserve(args.size());
        for (const py::handle& h : args) {
          if (py::isinstance<ptxfu::DeviceBuffer>(h))
            a.emplace_back(h.cast<const ptxfu::DeviceBuffer&>());
          else
            a.emplace_back(h.cast<const ptxfu::Scalar&>());
        }
        // An empty cluster: the kernel's .reqnctapercluster, or none.
        const ptxfu::Dim3 c = cluster.empty() ? ptxfu::Dim3(0, 0, 0) : dim3_of(cluster, "cluster");
        return k.launch(dim3_of(grid, "grid"), dim3_of(block, "block"), a, shared_bytes, c);
      });
}

}  // namespace

// Called from module.cc's PYBIND11_MODULE, after its own error translator:
// a KernelFault becomes `fault_type` (ptxfu.KernelFault, set by host.py).
void ptxfu_register_host(py::module_& m) {
  bind_results(m);
  bind_memory(m);
  bind_device(m);
  static py::object fault_type = py::reinterpret_borrow<py::object>(PyExc_RuntimeError);
  m.def("_set_kernel_fault_type", [](py::object t) { fault_type = std::move(t); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ptxfu::KernelFault& f) {
      py::object err = fault_type(f.what());
      err.attr("thread") = dim3_tuple(f.thread);
      err.attr("block") = dim3_tuple(f.block);
      err.attr("line") = f.line;
      err.attr("result") = py::cast(f.result());
      PyErr_SetObject(fault_type.ptr(), err.ptr());
    }
  });
}
