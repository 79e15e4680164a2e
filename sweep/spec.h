// A design-space sweep, as written in configs/sweeps/*.yaml: a base config,
// the parameters to vary (addressed by their config key path), the programs
// and the metrics to record. Loading validates every point before anything
// runs; errors read "FILE:LINE:COL: key 'a.b': message", as the config
// loader's do.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/config.h"
#include "models/simulator.h"

namespace ptxfu::sweep {

// One parameter and the values it takes, in the order the spec gives them.
// `base` (when the spec gives `base:` a list) is the first parameter; its
// values are the configs' names as written, in the order of Spec::bases.
struct Parameter {
  std::string key;                  // config key path (units.fma.latency, forms[0].lanes), or warps / mode / base
  std::vector<std::string> values;  // canonical text: the CSV cell
  std::vector<std::string> yaml;    // the value as YAML (flow style), applied to the base config
  bool run_parameter() const { return key == "warps" || key == "mode"; }
  bool base_parameter() const { return key == "base"; }
  bool config_key() const { return !run_parameter() && !base_parameter(); }
};

// A base config: each parameter override applies on top of it.
struct Base {
  std::string name;    // as written in the spec: sm_90, or a path relative to the spec
  std::string text;    // the config's YAML
  std::string origin;  // embedded:sm_90 or the resolved path
};

// A kernel launch a program entry names: {kernel: FILE, entry:, grid:,
// block:, args:, shared_bytes:}, what `ptxfu sim FILE --entry ...` runs.
struct KernelProgram {
  std::shared_ptr<const kernel::Kernel> kernel;
  kernel::Launch launch;              // the arguments parsed (buffers filled)
  unsigned registers_per_thread = 0;  // 0: estimated from the kernel
  uint64_t max_cycles = models::SimJob{}.max_cycles;
};

struct HostProgram;  // sweep/program.h

// A program every point runs: a .ptx file, a built-in microbenchmark, a
// kernel launch or a host program (`ptxfu run`'s YAML: several launches).
struct ProgramSource {
  std::string id;        // column value: "ffma.chain", the file's stem, the kernel's entry or `name:`
  std::string text;      // PTX
  std::string identity;  // what of it decides the result (hashed into each point's key)
  std::shared_ptr<const KernelProgram> kernel;  // set: a kernel launch, not a straight-line program
  std::shared_ptr<const HostProgram> host;      // set: a host program
  bool launches_kernels() const { return kernel || host; }
};

// One point: a program and one value per parameter.
struct Point {
  size_t index = 0;            // position in the spec's full product (before sampling), stable for one spec
  std::string key;             // stable identity: a hash of what decides the result
  size_t program = 0;          // into Spec::programs
  size_t base = 0;             // into Spec::bases
  std::vector<size_t> choice;  // per parameter, an index into its values
};

struct Spec {
  std::string path;         // as given
  std::string name;         // `name:` or the file's stem
  std::string base;         // `base:` as written: sm_90, a path, or a list in flow style ([sm_80, sm_90])
  std::vector<Base> bases;  // one; or one per value of the `base` parameter, when `base:` is a list
  std::string mode = "lt";  // default timing style when `mode` is not a parameter
  std::vector<Parameter> parameters;
  std::vector<ProgramSource> programs;
  std::vector<std::string> metrics;  // expanded, in output order
  std::vector<std::string> plots;    // metrics to chart
  std::vector<Point> points;         // after `sample:`
  // The most launches of a host program: each metric is then recorded per
  // launch as well (launches[I].METRIC), the plain name being the total.
  size_t launches = 0;
};

// Everything one simulation needs, built in the driver before it forks.
struct PointJob {
  std::unique_ptr<models::ArchConfig> config;
  std::unique_ptr<kernel::Kernel> program;  // a straight-line program's, loaded for the point's config
  models::SimJob job;                       // a kernel's: its kernel points into the Spec
  std::string error;  // non-empty: the point cannot run (e.g. its program is illegal for its feature mask)
  // A host program's point: the program (in the Spec) and its device's config as YAML.
  const HostProgram* host = nullptr;
  std::string config_text;
};

// Every metric a sweep can record, in canonical order: cycles,
// warp_instructions, ipc, ctas, pipes.UNIT.{busy_cycles,utilisation,warp_instructions},
// stalls.REASON. Each is named as `ptxfu sim --json` names it. Straight-line
// programs record all but ctas (they run as one CTA).
const std::vector<std::string>& all_metrics();
bool records(const std::string& metric, bool kernel);

// The metric values of one simulation, formatted (integers exactly, reals in
// shortest round-trip form).
std::vector<std::string> metric_values(const models::SimResult& r, const std::vector<std::string>& metrics);

// Loads and validates a spec: every point's config is built and checked.
// Throws models::ConfigError.
// A spec's paths: the directory of `path` (with its '/', or "" for none), the
// file name without its extension, and `p` as the spec at `spec_path` means it
// (absolute as given, else relative to the spec's directory).
std::string directory_of(const std::string& path);
std::string stem_of(const std::string& path);
std::string resolve(const std::string& spec_path, const std::string& p);

Spec load_spec(const std::string& path);
Spec load_spec_text(const std::string& text, const std::string& path);

// Builds the config, program and job of one point. Throws ConfigError only for
// what load_spec already rejects.
PointJob build_point(const Spec& spec, const Point& point);

// "base=sm_80 units.fma.latency=4 warps=8" for messages.
std::string describe(const Spec& spec, const Point& point);

// The CSV/JSON column names, in order: key, program, one per parameter
// (base first when it is swept), status, the metrics, each metric per
// launch (launches[0].cycles, ...) when a program is a host program, error.
std::vector<std::string> columns(const Spec& spec);

// Built-in microbenchmark programs: BENCH.chain (one dependent chain of
// `length` instructions per warp) or BENCH.stream (8 independent accumulators,
// `length` rounds); BENCH is a name from models::micro_benches().
std::string builtin_program(const std::string& bench, const std::string& kind, unsigned length, std::string& error);

// 64-bit FNV-1a, as 16 hex digits.
std::string hash_hex(const std::string& text);

}  // namespace ptxfu::sweep
