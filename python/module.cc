// ptxfu._ptxfu: the extension behind the `ptxfu` Python package
// (python/ptxfu/__init__.py). It binds the C++ API (ptxfu/ptxfu.hpp) and
// runs its loops over whole NumPy arrays with the GIL released; `sim` and
// `bench` run the command line's own code in this process, one simulation
// at a time.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <ptxfu/ptxfu.hpp>

#include "cli/model_cmds.h"
#include "models/config.h"
#include "sweep/results.h"

namespace py = pybind11;

void ptxfu_register_host(py::module_& m);  // host_bindings.cc: ptxfu.Device and the rest of the host API

namespace {

ptxfu::Target make_target(const std::optional<std::string>& target, const std::optional<std::string>& ptx_version,
                          const std::vector<std::string>& add_features,
                          const std::vector<std::string>& remove_features) {
  ptxfu::Target t;
  if (target) t.name = *target;
  if (ptx_version) t.ptx_version = *ptx_version;
  t.add_features = add_features;
  t.remove_features = remove_features;
  return t;
}

// ---- eval over broadcast arrays

// One operand as NumPy lays it out: the data, its item size (1, 2, 4 or 8
// bytes, unsigned) and its byte strides over the output's shape.
struct Strided {
  const char* data;
  size_t itemsize;
  std::vector<ptrdiff_t> strides;
};

// Reads `n` items `stride` bytes apart, zero-extended.
template <typename T>
void gather_as(const char* p, ptrdiff_t stride, size_t n, uint64_t* out) {
  if (stride == sizeof(T)) {  // contiguous: a loop the compiler vectorises
    const T* q = reinterpret_cast<const T*>(p);
    for (size_t i = 0; i < n; ++i) out[i] = q[i];
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = *reinterpret_cast<const T*>(p + static_cast<ptrdiff_t>(i) * stride);
  }
}

void gather(const char* p, size_t itemsize, ptrdiff_t stride, size_t n, uint64_t* out) {
  switch (itemsize) {
    case 1: return gather_as<uint8_t>(p, stride, n, out);
    case 2: return gather_as<uint16_t>(p, stride, n, out);
    case 4: return gather_as<uint32_t>(p, stride, n, out);
    default: return gather_as<uint64_t>(p, stride, n, out);
  }
}

// Narrows `n` results into a contiguous output of `itemsize` bytes.
void scatter(const uint64_t* in, size_t n, size_t itemsize, char* out) {
  switch (itemsize) {
    case 1:
      for (size_t i = 0; i < n; ++i) reinterpret_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(in[i]);
      break;
    case 2:
      for (size_t i = 0; i < n; ++i) reinterpret_cast<uint16_t*>(out)[i] = static_cast<uint16_t>(in[i]);
      break;
    case 4:
      for (size_t i = 0; i < n; ++i) reinterpret_cast<uint32_t*>(out)[i] = static_cast<uint32_t>(in[i]);
      break;
    default: std::memcpy(out, in, n * sizeof(uint64_t)); break;
  }
}

// Merges dimensions that every operand walks contiguously (and drops those
// of length 1), so that the inner loop is as long as it can be.
void coalesce(std::vector<ptrdiff_t>& shape, std::vector<Strided>& ops) {
  std::vector<ptrdiff_t> s;
  std::vector<std::vector<ptrdiff_t>> st(ops.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !s.empty();
    for (size_t k = 0; merge && k < ops.size(); ++k) merge = st[k].back() == ops[k].strides[d] * shape[d];
    if (merge) {
      s.back() *= shape[d];
      for (size_t k = 0; k < ops.size(); ++k) st[k].back() = ops[k].strides[d];
    } else {
      s.push_back(shape[d]);
      for (size_t k = 0; k < ops.size(); ++k) st[k].push_back(ops[k].strides[d]);
    }
  }
  if (s.empty()) {  // a single element
    s.push_back(1);
    for (auto& v : st) v.push_back(0);
  }
  shape = s;
  for (size_t k = 0; k < ops.size(); ++k) ops[k].strides = st[k];
}

// Evaluates `form` over operands already broadcast to one shape (operand
// arrays, then the carry flags if the form reads them). Returns the value
// array and, where the form has them, the second destination and the carry.
py::tuple eval_arrays(const ptxfu::Form& form, const std::vector<py::array>& arrays, const py::dtype& value_dtype,
                      std::optional<py::array> out) {
  const unsigned ns = form.num_sources();
  const size_t expect = ns + (form.reads_carry() ? 1 : 0);
  if (arrays.size() != expect)
    throw ptxfu::Error("internal: eval_arrays got " + std::to_string(arrays.size()) + " arrays, not " +
                       std::to_string(expect));
  std::vector<ptrdiff_t> shape;
  if (!arrays.empty()) shape.assign(arrays[0].shape(), arrays[0].shape() + arrays[0].ndim());
  std::vector<Strided> ops;
  for (const py::array& a : arrays) {
    if (static_cast<size_t>(a.ndim()) != shape.size() || !std::equal(shape.begin(), shape.end(), a.shape()))
      throw ptxfu::Error("internal: operands are not broadcast to one shape");
    ops.push_back({static_cast<const char*>(a.data()), static_cast<size_t>(a.itemsize()),
                   std::vector<ptrdiff_t>(a.strides(), a.strides() + a.ndim())});
  }
  py::array value;
  if (out) {  // the caller's array, as a ufunc's out=
    const py::array& o = *out;
    if (!o.dtype().is(value_dtype) && !o.dtype().equal(value_dtype))
      throw ptxfu::Error("out= must be a " + py::repr(value_dtype).cast<std::string>() + " array, not " +
                         py::repr(o.dtype()).cast<std::string>());
    if (static_cast<size_t>(o.ndim()) != shape.size() || !std::equal(shape.begin(), shape.end(), o.shape()))
      throw ptxfu::Error("out= has the wrong shape for the broadcast operands");
    if (!(o.flags() & py::array::c_style) || !o.writeable())
      throw ptxfu::Error("out= must be a writeable C-contiguous array");
    value = o;
  } else {
    value = py::array(value_dtype, shape);
  }
  const bool second = form.num_dests() == 2, carry = form.writes_carry();
  py::array second_out = second ? py::array(py::dtype::of<bool>(), shape) : py::array();
  py::array carry_out = carry ? py::array(py::dtype::of<bool>(), shape) : py::array();
  size_t total = 1;
  for (ptrdiff_t d : shape) total *= static_cast<size_t>(d);
  if (total > 0) {
    char* vout = static_cast<char*>(value.mutable_data());
    char* sout = second ? static_cast<char*>(second_out.mutable_data()) : nullptr;
    char* cout = carry ? static_cast<char*>(carry_out.mutable_data()) : nullptr;
    const size_t vsize = static_cast<size_t>(value.itemsize());
    py::gil_scoped_release release;
    std::vector<ptrdiff_t> dims = shape;
    coalesce(dims, ops);
    const size_t nd = dims.size();
    constexpr size_t kChunk = 2048;  // stays in the L1/L2 cache
    if (ns > 8) throw ptxfu::Error("too many operands");
    std::vector<uint64_t> buf(kChunk * (ns + 4));
    uint64_t* src_buf[8];
    for (unsigned k = 0; k < ns; ++k) src_buf[k] = buf.data() + k * kChunk;
    uint64_t* carry_buf = buf.data() + ns * kChunk;
    uint64_t* val_buf = carry_buf + kChunk;
    uint64_t* sec_buf = val_buf + kChunk;
    std::vector<uint8_t> cin(kChunk), cfl(kChunk);
    const ptrdiff_t unit[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    std::vector<ptrdiff_t> index(nd, 0);  // the odometer over the outer dimensions
    size_t done = 0;
    while (done < total) {
      std::vector<const char*> base(ops.size());
      for (size_t k = 0; k < ops.size(); ++k) {
        const char* p = ops[k].data;
        for (size_t d = 0; d + 1 < nd; ++d) p += index[d] * ops[k].strides[d];
        base[k] = p;
      }
      const size_t inner = static_cast<size_t>(dims[nd - 1]);
      for (size_t j = 0; j < inner; j += kChunk) {
        const size_t m = std::min(kChunk, inner - j);
        const ptrdiff_t off = static_cast<ptrdiff_t>(j);
        for (unsigned k = 0; k < ns; ++k)
          gather(base[k] + off * ops[k].strides[nd - 1], ops[k].itemsize, ops[k].strides[nd - 1], m, src_buf[k]);
        const uint8_t* carry_in = nullptr;
        if (form.reads_carry()) {
          gather(base[ns] + off * ops[ns].strides[nd - 1], ops[ns].itemsize, ops[ns].strides[nd - 1], m, carry_buf);
          for (size_t i = 0; i < m; ++i) cin[i] = static_cast<uint8_t>(carry_buf[i] != 0);
          carry_in = cin.data();
        }
        form.eval_many(m, src_buf, unit, carry_in, 1, val_buf, second ? sec_buf : nullptr,
                       carry ? cfl.data() : nullptr);
        scatter(val_buf, m, vsize, vout + (done + j) * vsize);
        if (second)
          for (size_t i = 0; i < m; ++i) sout[done + j + i] = static_cast<char>(sec_buf[i] & 1);
        if (carry) std::memcpy(cout + done + j, cfl.data(), m);
      }
      done += inner;
      for (size_t d = nd - 1; d-- > 0;) {  // next outer index
        if (++index[d] < dims[d]) break;
        index[d] = 0;
      }
    }
  }
  py::list results;
  results.append(value);
  if (second) results.append(second_out);
  if (carry) results.append(carry_out);
  return py::tuple(results);
}

// ---- mma over batches of matrices

// A matrix operand broadcast to (batch..., rows, cols): its data, item size
// and byte strides (0 along broadcast dimensions).
struct MatrixArg {
  const char* data;
  size_t itemsize;
  std::vector<ptrdiff_t> strides;
  ptrdiff_t rows, cols;
};

MatrixArg matrix_arg(const py::array& a) {
  const auto nd = static_cast<size_t>(a.ndim());
  return {static_cast<const char*>(a.data()), static_cast<size_t>(a.itemsize()),
          std::vector<ptrdiff_t>(a.strides(), a.strides() + nd), a.shape(a.ndim() - 2), a.shape(a.ndim() - 1)};
}

// Copies batch item `offset` (bytes) of `m` into a row-major uint64 matrix.
void gather_matrix(const MatrixArg& m, ptrdiff_t offset, uint64_t* out) {
  const size_t nd = m.strides.size();
  const ptrdiff_t rs = m.strides[nd - 2], cs = m.strides[nd - 1];
  for (ptrdiff_t i = 0; i < m.rows; ++i)
    gather(m.data + offset + i * rs, m.itemsize, cs, static_cast<size_t>(m.cols), out + i * m.cols);
}

// D = A B + C for every batch item of operands already broadcast to one
// batch shape (uint8/16/32/64 bit patterns): one instruction (the shapes
// are its own) or a chain over K. The loop runs with the GIL released.
py::array mma_arrays(const ptxfu::MmaInstruction& inst, const py::array& a, const py::array& b, const py::array& c,
                     const py::dtype& d_dtype) {
  if (a.ndim() < 2 || b.ndim() != a.ndim() || c.ndim() != a.ndim() ||
      !std::equal(a.shape(), a.shape() + a.ndim() - 2, b.shape()) ||
      !std::equal(a.shape(), a.shape() + a.ndim() - 2, c.shape()))
    throw ptxfu::Error("internal: A, B and C are not broadcast to one batch shape");
  const MatrixArg ma = matrix_arg(a), mb = matrix_arg(b), mc = matrix_arg(c);
  inst.check_shapes(static_cast<int>(ma.rows), static_cast<int>(ma.cols), static_cast<int>(mb.rows),
                    static_cast<int>(mb.cols), static_cast<int>(mc.rows), static_cast<int>(mc.cols), true);
  const size_t batch_dims = static_cast<size_t>(a.ndim()) - 2;
  std::vector<ptrdiff_t> shape(a.shape(), a.shape() + batch_dims);
  shape.push_back(ma.rows);
  shape.push_back(mb.cols);
  py::array d(d_dtype, shape);
  size_t count = 1;
  for (size_t i = 0; i < batch_dims; ++i) count *= static_cast<size_t>(shape[i]);
  const int m = static_cast<int>(ma.rows), n = static_cast<int>(mb.cols), k = static_cast<int>(ma.cols);
  const size_t dn = static_cast<size_t>(m) * n, dsize = static_cast<size_t>(d.itemsize());
  char* dout = static_cast<char*>(d.mutable_data());
  if (count == 0 || dn == 0) return d;
  py::gil_scoped_release release;
  std::vector<uint64_t> av(static_cast<size_t>(m) * k), bv(static_cast<size_t>(k) * n), cv(dn), dv(dn);
  std::vector<ptrdiff_t> index(batch_dims, 0);  // the odometer over the batch
  for (size_t item = 0; item < count; ++item) {
    ptrdiff_t oa = 0, ob = 0, oc = 0;
    for (size_t i = 0; i < batch_dims; ++i)
      oa += index[i] * ma.strides[i], ob += index[i] * mb.strides[i], oc += index[i] * mc.strides[i];
    gather_matrix(ma, oa, av.data());
    gather_matrix(mb, ob, bv.data());
    gather_matrix(mc, oc, cv.data());
    inst.matmul(m, n, k, av.data(), bv.data(), cv.data(), dv.data());
    scatter(dv.data(), dn, dsize, dout + item * dn * dsize);
    for (size_t i = batch_dims; i-- > 0;) {
      if (++index[i] < shape[i]) break;
      index[i] = 0;
    }
  }
  return d;
}

// ---- formats

ptxfu::Rounding rounding_of(const std::string& name) {
  if (name == "rn") return ptxfu::Rounding::rn;
  if (name == "rz") return ptxfu::Rounding::rz;
  if (name == "rm") return ptxfu::Rounding::rm;
  if (name == "rp") return ptxfu::Rounding::rp;
  throw ptxfu::Error("rounding must be 'rn', 'rz', 'rm' or 'rp', not '" + name + "'");
}

// ---- sim and bench: the command line's own code, in this process

struct Captured {
  int status = 0;
  std::string out, err;
};

// Runs `fn` with its output captured. Every simulation of the process goes
// through SystemC's one current context, so they run one at a time: the GIL
// is released for other Python threads, and a lock keeps a second
// simulation waiting for the first.
Captured run_captured(const std::function<int(std::ostream&, std::ostream&)>& fn, const char* what) {
  static std::mutex one_at_a_time;
  Captured c;
  std::ostringstream out, err;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(one_at_a_time);
    try {
      c.status = fn(out, err);
    } catch (const std::exception& e) {
      err << what << ": " << e.what() << "\n";
      c.status = 1;
    }
  }
  c.out = out.str();
  c.err = err.str();
  return c;
}

py::tuple captured_tuple(const Captured& c) { return py::make_tuple(c.status, py::bytes(c.out), py::bytes(c.err)); }

}  // namespace

PYBIND11_MODULE(_ptxfu, m) {
  m.doc() = "ptxfu's extension module; use the ptxfu package.";
  m.attr("__version__") = ptxfu::version();

  static py::object error_type = py::reinterpret_borrow<py::object>(PyExc_ValueError);
  m.def("_set_error_type", [](py::object t) { error_type = std::move(t); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ptxfu::Error& e) {
      py::object err = error_type(e.what());
      err.attr("column") = e.column();
      PyErr_SetObject(error_type.ptr(), err.ptr());
    }
  });

  py::class_<ptxfu::Form>(m, "Form")
      .def(py::init([](const std::string& mnemonic, unsigned num_sources, const std::optional<std::string>& target,
                       const std::optional<std::string>& ptx_version, const std::vector<std::string>& add_features,
                       const std::vector<std::string>& remove_features) {
             return ptxfu::Form(mnemonic, num_sources, make_target(target, ptx_version, add_features, remove_features));
           }),
           py::arg("mnemonic"), py::arg("num_sources"), py::arg("target") = py::none(),
           py::arg("ptx_version") = py::none(), py::arg("add_features") = std::vector<std::string>{},
           py::arg("remove_features") = std::vector<std::string>{})
      .def_property_readonly("spelling", &ptxfu::Form::spelling)
      .def_property_readonly("num_sources", &ptxfu::Form::num_sources)
      .def_property_readonly("source_bits",
                             [](const ptxfu::Form& f) {
                               std::vector<unsigned> v;
                               for (unsigned k = 0; k < f.num_sources(); ++k) v.push_back(f.source_bits(k));
                               return v;
                             })
      .def_property_readonly("dest_bits", &ptxfu::Form::dest_bits)
      .def_property_readonly("num_dests", &ptxfu::Form::num_dests)
      .def_property_readonly("reads_carry", &ptxfu::Form::reads_carry)
      .def_property_readonly("writes_carry", &ptxfu::Form::writes_carry)
      .def("_eval_arrays", &eval_arrays, py::arg("arrays"), py::arg("value_dtype"), py::arg("out") = py::none());

  py::class_<ptxfu::MmaInstruction>(m, "_Mma")
      .def(py::init<std::string, std::string>(), py::arg("name"), py::arg("target"))
      .def_property_readonly("m", &ptxfu::MmaInstruction::m)
      .def_property_readonly("n", &ptxfu::MmaInstruction::n)
      .def_property_readonly("k", &ptxfu::MmaInstruction::k)
      .def_property_readonly("shape", &ptxfu::MmaInstruction::shape)
      .def_property_readonly("types",
                             [](const ptxfu::MmaInstruction& i) {
                               return py::make_tuple(std::string(i.a_type()), std::string(i.b_type()),
                                                     std::string(i.c_type()), std::string(i.d_type()));
                             })
      .def("_check_shapes", &ptxfu::MmaInstruction::check_shapes)
      .def("_run", &mma_arrays);

  py::class_<ptxfu::Format>(m, "_Format")
      .def_property_readonly("name", [](const ptxfu::Format& f) { return std::string(f.name()); })
      .def_property_readonly("exponent_bits", &ptxfu::Format::exponent_bits)
      .def_property_readonly("fraction_bits", &ptxfu::Format::fraction_bits)
      .def_property_readonly("width", &ptxfu::Format::width)
      .def_property_readonly("container_bits", &ptxfu::Format::container_bits)
      .def_property_readonly("has_sign", &ptxfu::Format::has_sign)
      .def_property_readonly("has_infinity", &ptxfu::Format::has_infinity)
      .def_property_readonly("has_nan", &ptxfu::Format::has_nan)
      .def_property_readonly("has_subnormals", &ptxfu::Format::has_subnormals)
      .def_property_readonly("max_bits", &ptxfu::Format::max_bits)
      .def_property_readonly("min_normal_bits", &ptxfu::Format::min_normal_bits)
      .def_property_readonly("min_subnormal_bits", &ptxfu::Format::min_subnormal_bits)
      .def_property_readonly("nan_bits", &ptxfu::Format::nan_bits)
      .def_property_readonly("max", &ptxfu::Format::max)
      .def_property_readonly("min_normal", &ptxfu::Format::min_normal)
      .def_property_readonly("min_subnormal", &ptxfu::Format::min_subnormal)
      .def("_decode",
           [](const ptxfu::Format& f, py::array_t<uint64_t, py::array::c_style | py::array::forcecast> bits) {
             py::array_t<double> out(bits.request().shape);
             const uint64_t* in = bits.data();
             double* o = out.mutable_data();
             const size_t n = static_cast<size_t>(bits.size());
             py::gil_scoped_release release;
             f.decode_many(n, in, o);
             return out;
           })
      .def("_encode", [](const ptxfu::Format& f, py::array_t<double, py::array::c_style | py::array::forcecast> values,
                         const std::string& rounding, bool satfinite) {
        const ptxfu::Rounding r = rounding_of(rounding);
        py::array_t<uint64_t> out(values.request().shape);
        const double* in = values.data();
        uint64_t* o = out.mutable_data();
        const size_t n = static_cast<size_t>(values.size());
        py::gil_scoped_release release;
        f.encode_many(n, in, o, r, satfinite);
        return out;
      });
  m.def("_formats", [] {
    py::list l;
    for (const ptxfu::Format& f : ptxfu::formats()) l.append(py::cast(f, py::return_value_policy::reference));
    return l;
  });

  m.def(
      "_check",
      [](const std::string& text, const std::optional<std::string>& target,
         const std::optional<std::string>& ptx_version, const std::vector<std::string>& add_features,
         const std::vector<std::string>& remove_features) {
        ptxfu::CheckResult r;
        {
          py::gil_scoped_release release;
          r = ptxfu::check(text, make_target(target, ptx_version, add_features, remove_features));
        }
        py::list verdicts;
        for (const auto& v : r.verdicts) verdicts.append(py::make_tuple(v.line, v.column, v.ok, v.message));
        return py::make_tuple(r.module, verdicts);
      },
      py::arg("text"), py::arg("target"), py::arg("ptx_version"), py::arg("add_features"), py::arg("remove_features"));

  m.def(
      "_sim",
      [](const std::string& program, const std::optional<std::string>& config, unsigned warps, const std::string& mode,
         bool rtl_half, const std::string& trace, const std::string& kanata) {
        return captured_tuple(run_captured(
            [&](std::ostream& out, std::ostream& err) {
              ptxfu::cli::SimCmdOptions o;
              o.config_path = config;
              o.program_path = program;
              o.warps = warps;
              o.style = mode;
              o.rtl_half = rtl_half;
              o.vcd_path = trace;
              o.kanata_path = kanata;
              o.json = true;
              return ptxfu::cli::run_sim(o, out, err);
            },
            "ptxfu sim"));
      },
      py::arg("program"), py::arg("config"), py::arg("warps"), py::arg("mode"), py::arg("rtl_half"), py::arg("trace"),
      py::arg("kanata"));

  m.def(
      "_bench",
      [](const std::optional<std::string>& config, bool all) {
        return captured_tuple(run_captured(
            [&](std::ostream& out, std::ostream& err) {
              ptxfu::cli::BenchCmdOptions o;
              o.config_path = config;
              o.all = all;
              o.json = true;
              return ptxfu::cli::run_bench(o, out, err);
            },
            "ptxfu bench"));
      },
      py::arg("config"), py::arg("all"));

  m.def("_embedded_configs", [] {
    std::vector<std::string> names;
    for (const auto& e : ptxfu::models::embedded_configs()) names.emplace_back(e.name);
    return names;
  });

  m.def("_read_sweep", [](const std::string& dir) {
    namespace sw = ptxfu::sweep;
    try {
      const sw::Manifest manifest = sw::read_manifest(dir);
      const sw::Table table = sw::read_table(dir);
      return py::make_tuple(sw::to_json(manifest).dump(), table.header, table.rows);
    } catch (const sw::StoreError& e) {
      throw ptxfu::Error(e.what());
    }
  });

  ptxfu_register_host(m);
}
