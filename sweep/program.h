// A host program written as YAML (docs/run.md): buffers in device memory,
// module variables, a list of launches that share them, the buffers copied
// out. One loader and one runner for `ptxfu run` and for sweep programs
// (`programs: [{program: FILE}]`), on the host API (host/), so device memory
// persists across the launches of one run.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "host/ptxfu_host.hpp"
#include "models/simulator.h"

namespace ptxfu::sweep {

// A buffer's element type: what count: counts and what arange writes.
struct ElementType {
  std::string_view name;
  unsigned bytes;
  bool floating;
};

// A buffer or a module variable: its name, element type and first contents.
struct ProgramData {
  std::string name;
  const ElementType* type = nullptr;
  std::vector<uint8_t> bytes;
  YAML::Node node;
};

struct ProgramArg {
  YAML::Node node;
  int buffer = -1;  // else a scalar
  size_t offset_bytes = 0;
  Scalar scalar;
};

struct ProgramLaunch {
  YAML::Node node;
  std::string key;  // launches[i]
  std::string kernel_path, entry;
  Dim3 grid, block;
  uint32_t shared_bytes = 0;
  Dim3 cluster = Dim3(0, 0, 0);  // CTAs per cluster; x = 0: the kernel's .reqnctapercluster, or none
  std::vector<ProgramArg> args;
};

struct ProgramConstant {
  ProgramData data;
  std::string kernel_path;
};

struct HostProgram {
  std::string path;  // as given; errors name it
  std::string config = "sm_90";
  std::vector<ProgramData> buffers;
  std::vector<ProgramConstant> constants;
  std::vector<ProgramLaunch> launches;
  std::vector<size_t> outputs;  // indices into buffers
  // What decides a run's result: the YAML's text, and each kernel file's
  // and file: buffer's bytes (all read when the program is loaded).
  std::string identity;
};

// Loads and checks a program. Throws models::ConfigError
// ("FILE:LINE:COL: key 'launches[1].args[0]': ...").
std::shared_ptr<const HostProgram> load_host_program(const std::string& path);

// A launch or setup step that the host API refused, at the YAML that asked for it.
struct ProgramFault {
  std::string message;
  int status;  // 1 a kernel faulted, 2 the program is wrong
};

// The program on one device: modules loaded once per file, buffers
// allocated, variables set, then the launches in order. Throws ProgramFault.
class HostProgramRun {
 public:
  HostProgramRun(const HostProgram& p, Device dev) : p_(p), dev_(std::move(dev)) {}

  // Allocates the buffers, loads the modules, sets the variables and finds
  // every launch's entry: what can be wrong before anything runs.
  void setup();
  std::vector<LaunchResult> run();                     // setup(), then the launches in order
  std::vector<uint8_t> contents(size_t buffer) const;  // the bytes of buffer b now

 private:
  template <typename F>
  void guarded(const YAML::Node& n, const std::string& key, const F& f);
  Module& module(const YAML::Node& n, const std::string& key, const std::string& path);
  Kernel kernel(const ProgramLaunch& l);
  LaunchResult launch(const ProgramLaunch& l, const Kernel& k);

  const HostProgram& p_;
  Device dev_;
  std::map<std::string, Module> modules_;
  std::vector<DeviceBuffer> buffers_;
  std::vector<Kernel> kernels_;  // by launch
};

// The launches summed: one after another, so cycles add up (utilisation
// weighted by each launch's cycles).
LaunchResult total_of(const std::vector<LaunchResult>& results);

// A launch's result in the model's form, as the sweep records metrics of it.
models::SimResult sim_result_of(const LaunchResult& r);

}  // namespace ptxfu::sweep
