// Per-architecture timing configuration, loaded from YAML with named keys
// and validated on load. Timing lives here and in configs/, never in code.
#pragma once
#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/decode.h"
#include "isa/table.h"
#include "mma/numerics.h"
#include "models/units.h"

namespace ptxfu::models {

// An error in a config or sweep file: "FILE:LINE:COL: key 'a.b': message".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class SchedulerPolicy { lrr, gto };

// Producer and consumer classes of the config's `dependencies:` table: which
// kind of instruction wrote a register, which kind reads it. A unit's timing
// has its unit's class (`fma` ... `warp`), `multi_instruction` has `multi`,
// `half_precision` has `fp16`, and a form override may name another
// (`latency_class`).
enum class DepClass : uint8_t { fma, alu, fp16, fp64, mufu, conv, multi, lsu, branch, warp, tensor, kCount };
inline constexpr size_t kNumDepClasses = static_cast<size_t>(DepClass::kCount);
inline constexpr std::string_view kDepClassNames[] = {"fma",   "alu", "fp16",   "fp64", "mufu",  "conv",
                                                      "multi", "lsu", "branch", "warp", "tensor"};
static_assert(std::size(kDepClassNames) == kNumDepClasses, "one name per DepClass");
constexpr std::string_view name(DepClass c) { return kDepClassNames[static_cast<size_t>(c)]; }
// The class of a unit's own timing: the unit of the same name.
DepClass dep_class_of(Unit u);

// How one warp instruction uses a unit: it occupies the unit for
// (32 / lanes) * interval cycles; a dependent instruction may issue `latency`
// cycles after it.
struct Timing {
  Unit unit = Unit::fma;
  unsigned lanes = 32;
  unsigned interval = 1;
  unsigned latency = 4;
  DepClass dep = DepClass::fma;  // producer/consumer class for `dependencies:`
  unsigned occupancy() const { return (32 / lanes) * interval; }
};

// A form that ptxas makes a sequence of instructions (configs/int_sequences.csv,
// written by tb/hw/int_sequences.py from ptxas's output).
struct Sequence {
  unsigned instructions = 1;               // SASS instructions in all
  std::array<unsigned, kNumUnits> path{};  // per unit: its instructions on the longest dependent path
};

struct FormOverride {
  std::string match;                    // glob over the canonical spelling, e.g. "fma.rn*.f16x2"
  std::optional<isa::Pipe> pipe_class;  // only forms of this class (isa::kPipeNames)
  std::optional<Unit> unit;
  std::optional<unsigned> lanes, interval, latency;
  std::optional<DepClass> dep;  // `latency_class`
  std::optional<Sequence> sequence;
  std::string source;  // where the figures come from (optional)
};

// One entry of `dependencies:`: a consumer of class `consumer` may issue
// `latency` cycles after a producer of class `producer` issued.
struct Dependency {
  DepClass producer = DepClass::fma;
  DepClass consumer = DepClass::fma;
  unsigned latency = 0;
  std::string source;
};

// What decides how many CTAs are resident on one SM at a time (with
// max_warps), from NVIDIA's per-compute-capability limits.
struct SmLimits {
  unsigned max_ctas = 32;                // resident CTAs
  unsigned shared_bytes = 48 * 1024;     // shared memory per SM, shared by the resident CTAs
  unsigned reserved_shared_per_cta = 0;  // what the driver keeps of it per CTA
  unsigned registers = 64 * 1024;        // 32-bit registers per SM
  unsigned register_granularity = 256;   // a warp's registers are allocated in units of this many
};

// The load/store unit's latencies, cycles from issue to a dependent use, by
// state space. Global accesses are a model, not a cache simulator: a fixed
// fraction `global_hit_rate` of them (spread evenly, deterministically) take
// `global`, the others `global_miss`.
struct MemoryTiming {
  unsigned shared = 24;
  unsigned global = 32;
  unsigned global_miss = 32;
  double global_hit_rate = 1.0;
  unsigned local = 32;
  unsigned constant = 8;
  unsigned param = 8;
  unsigned atomic = 32;  // an atomic or reduction, any space
  // Bytes a global or local access moves per transaction (a coalescing
  // unit); a warp's access occupies the LSU once per distinct one.
  unsigned line_bytes = 128;
  unsigned shared_banks = 32;  // 4-byte banks; conflicting lanes serialise
  // Thread-block clusters (sm_90+), parameters without a published figure
  // here yet: a peer CTA's shared memory (.shared::cluster, through the
  // SM-to-SM network) and barrier.cluster.wait (from the last arrival to the
  // release). 0: as `shared`, as the warp unit.
  unsigned dsmem = 0;
  unsigned cluster_barrier = 0;
};

// The asynchronous side (`async:`, optional): the clock %globaltimer counts
// against, and how long a warp whose mbarrier.try_wait found its phase
// incomplete stays suspended (woken earlier when an mbarrier of its CTA
// completes a phase). cp.async copies take the load/store unit's global
// latency (`memory:`) to land.
struct AsyncTiming {
  double clock_mhz = 1000;         // %globaltimer: 1000 / clock_mhz nanoseconds per cycle
  unsigned try_wait_suspend = 64;  // cycles; a try_wait's suspendTimeHint caps it
  // cycles a bulk copy (cp.async.bulk{.tensor}: the TMA unit) takes to land
  // after its global access completes (the load/store unit's global latency)
  unsigned bulk_latency = 0;
  std::string source;
};

// mma.sync on the tensor unit: dense multiply-adds per clock per
// sub-partition for each (A/B type, D type); an instruction of M x N x K
// (times 4 for m8n8k4's quad pairs) occupies the unit M N K / rate cycles
// and its result may be used `latency` cycles after it issued.
struct TensorRate {
  mma::Elem in = mma::Elem::f16, out = mma::Elem::f32;
  double rate = 1;
};
// A latency of its own for one shape and type pair (`tensor.latencies`).
struct TensorLatency {
  int m = 16, n = 8, k = 16;
  mma::Elem in = mma::Elem::f16, out = mma::Elem::f32;
  unsigned latency = 32;
};
struct TensorTiming {
  std::vector<TensorRate> rates;
  unsigned latency = 32;                 // every mma without a `latencies` entry
  std::vector<TensorLatency> latencies;  // SHAPE.IN.OUT: cycles
  std::string source;
};

struct Reference {
  std::string bench;                 // a built-in bench (ffma, ...), a form, or "FORM -> CONSUMER"
  std::optional<double> latency;     // cycles, dependent chain
  std::optional<double> throughput;  // thread-instructions per clock per SM (an mma form: mma per clock per SM)
  std::string source;
};

struct ArchConfig {
  std::string name;         // sm_90
  std::string description;  // "NVIDIA H100 / H200 (Hopper)"
  std::string origin;       // file name, or "embedded:sm_90"
  isa::Capabilities caps;   // target feature mask, after config overrides
  unsigned sub_partitions = 4;
  unsigned issue_width = 1;
  unsigned max_warps = 64;  // per SM
  SchedulerPolicy scheduler = SchedulerPolicy::gto;
  SmLimits sm;
  std::array<Timing, kNumUnits> units{};  // per unit, in kUnits order
  MemoryTiming memory;
  Timing multi_instruction;  // forms of class `multi`: instruction sequences on hardware
  Timing half_precision;     // forms of class `fp16`: the half-precision pipe (HFMA2)
  std::vector<FormOverride> forms;
  TensorTiming tensor;
  AsyncTiming async;
  std::vector<Reference> references;  // the published figures for `name` (configs/references.yaml)
  // `dependencies:` as given, and as a table: 0 where no entry names the pair.
  std::vector<Dependency> dependencies;
  std::array<std::array<unsigned, kNumDepClasses>, kNumDepClasses> dependency_table{};

  // The cycles after the producer's issue at which a consumer with timing
  // `consumer` may issue when it reads the producer's result: the
  // `dependencies:` entry for the pair of classes, else producer.latency.
  // Never less than producer.latency: a result is not read before its unit
  // delivers it (an entry below it has no effect).
  unsigned dependent_latency(const Timing& producer, const Timing& consumer) const;

  // The timing of a class of the instruction table: its unit's (models/units.h),
  // or for a class without a unit of its own the config key that names one.
  Timing pipe_timing(isa::Pipe pipe) const;
  // The timing of a decoded form: its class's, then the first matching
  // override.
  Timing timing_for(const isa::Instr& instr) const;
  // The timing of a sequence on `unit`, the one rule for `sequence:`: it takes
  // the unit for `instructions` warp-instructions (interval times
  // instructions), and its result comes after the latencies of the path's
  // instructions, each that of its own unit, added up.
  Timing sequence_timing(Unit unit, const Sequence& s) const;
  // An mma.sync of `fmas` multiply-adds with A/B type `in` and D type `out`
  // on the tensor unit (`tensor:`); the unit's own timing where no rate
  // names the pair.
  Timing mma_timing(uint64_t fmas, mma::Elem in, mma::Elem out) const;
  // The same for the shape m x n x k: its `tensor.latencies` entry, where one names it, for the latency.
  Timing mma_timing(int m, int n, int k, uint64_t fmas, mma::Elem in, mma::Elem out) const;
  const Reference* reference(std::string_view bench) const;
};

// ArchConfig::timing_for over the instructions of a program or kernel: each
// distinct form is matched against the overrides once.
class FormTimings {
 public:
  explicit FormTimings(const ArchConfig& config) : config_(config) {}
  Timing operator()(const isa::Instr& instr);

 private:
  const ArchConfig& config_;
  std::unordered_map<std::string, Timing> by_form_;  // by canonical spelling
};

ArchConfig load_config_text(const std::string& text, const std::string& origin);
ArchConfig load_config_file(const std::string& path);

// A config as asked for on the command line or in a sweep spec: the name of
// an embedded config (`sm_80`) means that config; anything else is a file,
// relative to `directory` unless absolute. Every place that takes a config
// (sim, bench, a sweep's base) resolves it here.
struct ConfigSource {
  std::string text;    // the YAML
  std::string origin;  // "embedded:sm_80" or the file's path
};
// Throws ConfigError: "no embedded config 'x' (sm_70, ...) and no file 'x'".
ConfigSource resolve_config(const std::string& name_or_path, const std::string& directory = "");
ArchConfig load_config(const std::string& name_or_path, const std::string& directory = "");

// Published figures per config name (configs/references.yaml), kept apart
// from the parameters they check; load_config_text attaches a config's own.
using References = std::map<std::string, std::vector<Reference>>;
// Throws ConfigError naming origin:line:col or the key.
References load_references_text(const std::string& text, const std::string& origin);
const References& shipped_references();  // configs/references.yaml, compiled in

// The configs compiled into the binary (configs/*.yaml), oldest first.
struct EmbeddedConfig {
  std::string_view name;
  std::string_view text;
};
const std::vector<EmbeddedConfig>& embedded_configs();
ArchConfig default_config();  // sm_90

}  // namespace ptxfu::models
