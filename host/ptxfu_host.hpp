// ptxfu's host API: a CUDA host program's objects over the SystemC model, in
// the shapes of the driver API and CuPy. Installed as <ptxfu/host.hpp>; link
// ptxfu::host (CMake). Apart from <ptxfu/ptxfu.hpp> (libptxfu.so, the exact
// core without SystemC) because it brings the models and SystemC with it.
//
//   ptxfu::Device dev("sm_80");                          // a config name or a YAML path
//   ptxfu::Module mod = dev.load_module("scan.ptx");
//   ptxfu::DeviceBuffer x = dev.malloc(n * 4);
//   dev.copy_to_device(x, host.data(), n * 4);
//   ptxfu::LaunchResult r = mod.get_function("scan")
//       .launch({n / 256}, {256}, {x, x.slice(4096), ptxfu::Scalar::u32(n)});
//   dev.copy_to_host(host.data(), x, n * 4);
//
// Device memory persists across the launches of one Device; launches run one
// after another, as on one stream (Device::timeline). Bad use of the API
// throws ptxfu::Error naming the thing; a kernel that faults throws
// ptxfu::KernelFault with compute-sanitizer's kind of message.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptxfu/ptxfu.hpp"

namespace ptxfu {

namespace host_detail {
struct DeviceState;
struct ModuleState;
struct Allocation;
}  // namespace host_detail

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  Dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
};

// A pointer into device memory: an allocation and a byte range of it. Copies
// and slices share the allocation, which is freed when the last of them
// goes (or by Device::free, after which every one of them is refused).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  uint64_t address() const;  // the device address a kernel receives
  size_t bytes() const { return bytes_; }
  size_t offset() const { return offset_; }  // into its allocation
  // [offset, offset + bytes) of this buffer; bytes npos: to its end. Throws when out of range.
  DeviceBuffer slice(size_t offset, size_t bytes = npos) const;
  bool valid() const;  // its device exists and it was not freed
  static constexpr size_t npos = static_cast<size_t>(-1);

 private:
  friend class Device;
  friend struct host_detail::DeviceState;
  std::shared_ptr<host_detail::Allocation> alloc_;
  size_t offset_ = 0, bytes_ = 0;
};

// A kernel parameter's scalar: its PTX type and its bits. A launch checks
// the type against the parameter's as `ptxfu sim --arg` does (same width; no
// integer for a floating-point parameter).
struct Scalar {
  enum class Type : uint8_t { u8, s8, u16, s16, u32, s32, u64, s64, f16, f32, f64 };
  Type type = Type::u32;
  uint64_t bits = 0;

  static Scalar u8(uint8_t v) { return {Type::u8, v}; }
  static Scalar s8(int8_t v) { return {Type::s8, static_cast<uint8_t>(v)}; }
  static Scalar u16(uint16_t v) { return {Type::u16, v}; }
  static Scalar s16(int16_t v) { return {Type::s16, static_cast<uint16_t>(v)}; }
  static Scalar u32(uint32_t v) { return {Type::u32, v}; }
  static Scalar s32(int32_t v) { return {Type::s32, static_cast<uint32_t>(v)}; }
  static Scalar u64(uint64_t v) { return {Type::u64, v}; }
  static Scalar s64(int64_t v) { return {Type::s64, static_cast<uint64_t>(v)}; }
  static Scalar f16_bits(uint16_t v) { return {Type::f16, v}; }
  static Scalar f32(float v);
  static Scalar f64(double v);
  unsigned bytes() const;
  bool floating() const { return type == Type::f16 || type == Type::f32 || type == Type::f64; }
  std::string type_name() const;
};

// One kernel argument: a device pointer or a scalar.
class KernelArg {
 public:
  KernelArg(const DeviceBuffer& b) : buffer_(b), is_buffer_(true) {}
  KernelArg(const Scalar& s) : scalar_(s) {}
  bool is_buffer() const { return is_buffer_; }
  const DeviceBuffer& buffer() const { return buffer_; }
  const Scalar& scalar() const { return scalar_; }

 private:
  DeviceBuffer buffer_;
  Scalar scalar_;
  bool is_buffer_ = false;
};

struct UnitUse {
  std::string name;          // "fma", "alu", "fp64", "mufu", "conv", "lsu", "branch", "warp"
  uint64_t busy_cycles = 0;  // summed over sub-partitions
  double utilisation = 0;    // busy / (cycles * sub-partitions)
  uint64_t warp_instructions = 0;
};

// One kernel instruction's profile (the per-instruction rows of `sim --json`'s profile).
struct LineUse {
  unsigned line = 0;  // in the module's text
  std::string instruction;
  std::string unit;
  uint64_t warp_instructions = 0, active_lanes = 0;
  std::map<std::string, uint64_t> stalls;  // warp-cycles waiting to issue it, by reason
};

// What a launch did, as `ptxfu sim --json` reports it.
struct LaunchResult {
  std::string kernel;
  uint64_t start_cycle = 0, end_cycle = 0;  // on the device's timeline
  uint64_t cycles = 0, warp_instructions = 0, ctas = 0;
  double ipc = 0;
  std::vector<UnitUse> units;              // in the model's unit order
  std::map<std::string, uint64_t> stalls;  // issue-less sub-partition cycles, by reason
  struct {
    unsigned ctas = 0, warps_per_cta = 0, registers_per_thread = 0;
    uint64_t shared_per_cta = 0;
    std::string limit;
  } residency;
  std::vector<LineUse> profile;  // per instruction
  // What the kernel's printf calls printed: by block, then warp, then lane,
  // then call order (as `ptxfu sim` prints it).
  std::string printf;
  double host_seconds = 0;
  bool ok = true;
  std::string error;  // why the kernel stopped, when !ok

  const UnitUse& unit(const std::string& name) const;  // throws ptxfu::Error for an unknown unit
  std::string to_json() const;                         // the fields above as one JSON object
};

// A kernel that faulted (a bad address, a deadlock, the cycle limit): what()
// is the model's message (FILE:LINE:COL: error: Invalid global read ... by
// thread (x,y,z) in block (x,y,z) ...). Thread and block are set when the
// fault belongs to one thread; line when the message names one.
class KernelFault : public Error {
 public:
  KernelFault(const LaunchResult& r);
  const LaunchResult& result() const { return result_; }
  std::optional<Dim3> thread, block;
  unsigned line = 0;

 private:
  LaunchResult result_;
};

class Kernel;

// A loaded PTX module: its .entry functions and its module variables
// (.global and .const, i.e. __device__ and __constant__), which persist
// across launches of its kernels.
class Module {
 public:
  Kernel get_function(const std::string& name) const;  // throws ptxfu::Error naming the entries there are
  std::vector<std::string> entries() const;
  // Writes `bytes` bytes at the start of variable `name` (.global or .const); throws when it does not fit.
  void set_global(const std::string& name, const void* data, size_t bytes);
  std::vector<uint8_t> get_global(const std::string& name) const;
  size_t global_bytes(const std::string& name) const;

 private:
  friend class Device;
  friend class Kernel;
  std::shared_ptr<host_detail::ModuleState> state_;
};

class Kernel {
 public:
  const std::string& name() const;
  // The parameters as PTX declares them: "u64 scan_param_0", ...
  std::vector<std::string> parameters() const;
  // The scalar type each parameter's bits are passed as (u64 for a pointer; b32 as u32, ...).
  std::vector<Scalar::Type> parameter_types() const;
  // Runs one launch to its end. Throws ptxfu::Error for a bad launch (argument count or type, a freed or
  // foreign buffer, grid and block) before anything runs; ptxfu::KernelFault when the kernel faults.
  // `cluster`: CTAs per thread-block cluster (sm_90+); x = 0: the kernel's .reqnctapercluster, or none.
  LaunchResult launch(Dim3 grid, Dim3 block, const std::vector<KernelArg>& args, uint32_t shared_bytes = 0,
                      Dim3 cluster = Dim3(0, 0, 0)) const;

 private:
  friend class Module;
  std::shared_ptr<host_detail::ModuleState> module_;
  size_t index_ = 0;
};

// One timeline entry: a launch, with the cycles it started and ended at.
struct TimelineEntry {
  std::string kernel;
  uint64_t start_cycle = 0, end_cycle = 0;
  bool ok = true;
};

// A modelled GPU (one SM of a config) with its device memory.
class Device {
 public:
  explicit Device(const std::string& config = "sm_80");  // an embedded config's name or a YAML path
  // A config given as its YAML text; `origin` names it in errors.
  static Device from_config_text(const std::string& yaml, const std::string& origin);
  const std::string& config_name() const;
  // Launches loosely timed (the default) or approximately timed (`ptxfu sim --mode at`).
  void set_approximately_timed(bool at);

  DeviceBuffer malloc(size_t bytes);                         // zero-filled
  DeviceBuffer malloc_copy(const void* data, size_t bytes);  // malloc and copy_to_device in one pass over the bytes
  void free(const DeviceBuffer& b);                          // the whole allocation b points into
  void memset(const DeviceBuffer& b, uint8_t value);
  void copy_to_device(const DeviceBuffer& dst, const void* src, size_t bytes);
  void copy_to_host(void* dst, const DeviceBuffer& src, size_t bytes) const;
  void copy(const DeviceBuffer& dst, const DeviceBuffer& src, size_t bytes);  // device to device
  size_t allocated_bytes() const;                                             // live allocations

  Module load_module(const std::string& path);
  Module load_module_text(const std::string& text, const std::string& name = "<module>");

  const std::vector<TimelineEntry>& timeline() const;
  uint64_t cycle() const;  // where the next launch starts

 private:
  friend class Kernel;
  struct Empty {};
  explicit Device(Empty);
  std::shared_ptr<host_detail::DeviceState> state_;
};

}  // namespace ptxfu
