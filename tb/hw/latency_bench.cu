// Times the forms of calib_forms.h on the GPU, the way `ptxfu bench --form`
// times them on the model, and writes the figures as a CSV in the fields of
// `ptxfu bench --json` (calib_csv.h) plus a block for configs/references.yaml.
//
//   latency_bench [--out FILE.csv] [--device N]
//
// For every form (scripts/calibrate.sh compiles this for the local GPU):
// - latency: one warp runs a chain of dependent steps, unrolled, inside a loop
//   of `reps` rounds, between two clock64() reads. The loop, the clock reads
//   and the operand loads cost the same at two chain lengths, so
//   (cycles(2N) - cycles(N)) / (N * reps) is the step alone: the difference of
//   two lengths, as in the microbenchmark papers and in `ptxfu bench`.
// - throughput: one block of as many threads as an SM holds in one block
//   (1024) runs eight independent chains per thread; the span from the first
//   warp's start to the last warp's end, again as a difference of two lengths,
//   gives thread-instructions (steps) per clock per SM.
// - a producer->consumer pair's chain gives a round trip; its latency comes
//   from producer_to_consumer (calib_csv.h) with the two forms' own latencies.
//   A pair has no throughput (its producer's row has it).
// Each figure is the fastest of several launches (after one warm-up launch).
// The SM clock is measured against %globaltimer during a 50 ms spin.
//
// Output: FILE.csv (default calibration.csv; written under a temporary name
// and renamed when complete), the reference block on stdout, a log of every
// figure on stderr. Exit status: 0 done, 1 error, 2 usage, 77 no CUDA device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "calib_csv.h"
#include "calib_forms.h"

namespace {

using ptxfu::hw::calib::kChainSteps;
using ptxfu::hw::calib::kStreamRounds;
using ptxfu::hw::calib::kStreams;
constexpr int kInvariants = 4;  // loop-invariant operands, rotating
constexpr int kChainReps = 32;  // loop rounds around the chain
constexpr int kStreamReps = 8;
constexpr int kTrials = 5;
constexpr int kMaxThreads = 1024;

#ifdef __CUDA_ARCH__
constexpr int kArch = __CUDA_ARCH__ / 10;
#else
constexpr int kArch = 0;
#endif

enum FormId : int {
#define PTXFU_CALIB_ENUM(id, form, consumer, min_sm, sass, ctype, constraint, ptx) id,
  PTXFU_CALIB_FORMS(PTXFU_CALIB_ENUM)
#undef PTXFU_CALIB_ENUM
};

// Per row: the chain register's type and one step, as inline PTX. The asm is
// volatile, so NVVM keeps every step in order, and each step reads and writes
// the chain register, so ptxas must keep the dependences. ptxas still
// optimises the PTX (it fuses two dependent adds into one IADD3, for one):
// calib_sass_test checks the cubins for what it made of each step.
template <int F>
struct Form;
#define PTXFU_CALIB_FORM(id, form, consumer, min_sm, sass, ctype, constraint, ptx)           \
  template <>                                                                                \
  struct Form<id> {                                                                          \
    using T = ctype;                                                                         \
    static constexpr bool kPair = sizeof(consumer) > 1;                                      \
    __device__ static void step(T& x, T a, T b, T c) {                                       \
      if constexpr (kArch >= min_sm)                                                         \
        asm volatile(ptx : "+" constraint(x) : constraint(a), constraint(b), constraint(c)); \
    }                                                                                        \
  };
PTXFU_CALIB_FORMS(PTXFU_CALIB_FORM)
#undef PTXFU_CALIB_FORM

// in: kInvariants invariants, then the chains' start values.
template <int F, int kSteps>
__global__ void __launch_bounds__(32)
    chain_kernel(const typename Form<F>::T* in, typename Form<F>::T* out, long long* cycles, int reps) {
  using T = typename Form<F>::T;
  T inv[kInvariants];
  for (int k = 0; k < kInvariants; ++k) inv[k] = in[k];
  T x = in[kInvariants];
  __syncwarp();
  const long long t0 = clock64();
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int i = 0; i < kSteps; ++i)
      Form<F>::step(x, inv[i % kInvariants], inv[(i + 1) % kInvariants], inv[(i + 2) % kInvariants]);
  }
  const long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0) cycles[0] = t1 - t0;
}

// starts[w], ends[w]: warp w's clock before and after its streams.
template <int F, int kRounds>
__global__ void __launch_bounds__(kMaxThreads) stream_kernel(const typename Form<F>::T* in, typename Form<F>::T* out,
                                                             long long* starts, long long* ends, int reps) {
  using T = typename Form<F>::T;
  T inv[kInvariants];
  for (int k = 0; k < kInvariants; ++k) inv[k] = in[k];
  T x[kStreams];
  for (int k = 0; k < kStreams; ++k) x[k] = in[kInvariants + k];
  __syncthreads();
  const long long t0 = clock64();
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int i = 0; i < kRounds; ++i)
#pragma unroll
      for (int k = 0; k < kStreams; ++k)
        Form<F>::step(x[k], inv[(i + k) % kInvariants], inv[(i + k + 1) % kInvariants], inv[(i + k + 2) % kInvariants]);
  }
  const long long t1 = clock64();
  for (int k = 0; k < kStreams; ++k) out[threadIdx.x * kStreams + k] = x[k];
  if (threadIdx.x % 32 == 0) {
    starts[threadIdx.x / 32] = t0;
    ends[threadIdx.x / 32] = t1;
  }
}

// Spins for `ns` nanoseconds of %globaltimer; out = {SM cycles, nanoseconds}.
__global__ void clock_kernel(long long ns, long long* out) {
  long long g0, g1, c0, c1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  } while (g1 - g0 < ns);
  c1 = clock64();
  out[0] = c1 - c0;
  out[1] = g1 - g0;
}

struct Failure {
  std::string what;
};

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Failure{std::string(what) + ": " + cudaGetErrorString(e)};
}

// Start values: operands near 1 (floats), small odd integers, bit patterns
// of halves near 1 (f16x2); the values do not change the timing.
template <class T>
T start_value(int k);
template <>
float start_value<float>(int k) {
  return 1.0f + 0.0625f * static_cast<float>(k % 5) - 0.125f;
}
template <>
double start_value<double>(int k) {
  return 1.0 + 0.0625 * (k % 5) - 0.125;
}
template <>
unsigned start_value<unsigned>(int k) {
  return 0x3c003c01u + 0x00020002u * static_cast<unsigned>(k);
}

struct Measured {
  double latency = 0;                // cycles per step
  std::optional<double> throughput;  // steps per clock per SM
};

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(size_t n) { check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

template <int F, int kSteps>
long long chain_cycles(const typename Form<F>::T* in, typename Form<F>::T* out, long long* cycles) {
  long long best = -1;
  for (int t = 0; t <= kTrials; ++t) {  // launch 0 warms up
    chain_kernel<F, kSteps><<<1, 32>>>(in, out, cycles, kChainReps);
    check(cudaGetLastError(), "chain kernel launch");
    long long c = 0;
    check(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost), "chain kernel");
    if (t > 0 && (best < 0 || c < best)) best = c;
  }
  return best;
}

template <int F, int kRounds>
long long stream_cycles(const typename Form<F>::T* in, typename Form<F>::T* out, long long* starts, long long* ends,
                        int threads) {
  const int warps = threads / 32;
  std::vector<long long> s(warps), e(warps);
  long long best = -1;
  for (int t = 0; t <= kTrials; ++t) {
    stream_kernel<F, kRounds><<<1, threads>>>(in, out, starts, ends, kStreamReps);
    check(cudaGetLastError(), "stream kernel launch");
    check(cudaMemcpy(s.data(), starts, warps * sizeof(long long), cudaMemcpyDeviceToHost), "stream kernel");
    check(cudaMemcpy(e.data(), ends, warps * sizeof(long long), cudaMemcpyDeviceToHost), "stream kernel");
    const long long span = *std::max_element(e.begin(), e.end()) - *std::min_element(s.begin(), s.end());
    if (t > 0 && (best < 0 || span < best)) best = span;
  }
  return best;
}

template <int F>
Measured measure(int threads) {
  using T = typename Form<F>::T;
  std::vector<T> host(kInvariants + kStreams);
  for (size_t k = 0; k < host.size(); ++k) host[k] = start_value<T>(static_cast<int>(k));
  DeviceBuffer<T> in(host.size()), out(static_cast<size_t>(kMaxThreads) * kStreams);
  DeviceBuffer<long long> a(kMaxThreads / 32), b(kMaxThreads / 32);
  check(cudaMemcpy(in.p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");

  Measured m;
  const long long c1 = chain_cycles<F, kChainSteps>(in.p, out.p, a.p);
  const long long c2 = chain_cycles<F, 2 * kChainSteps>(in.p, out.p, a.p);
  m.latency = static_cast<double>(c2 - c1) / (static_cast<double>(kChainSteps) * kChainReps);
  if constexpr (!Form<F>::kPair) {
    const long long s1 = stream_cycles<F, kStreamRounds>(in.p, out.p, a.p, b.p, threads);
    const long long s2 = stream_cycles<F, 2 * kStreamRounds>(in.p, out.p, a.p, b.p, threads);
    const double steps = static_cast<double>(threads) * kStreams * kStreamRounds * kStreamReps;
    if (s2 > s1) m.throughput = steps / static_cast<double>(s2 - s1);
  }
  return m;
}

struct Row {
  const char* form;
  const char* consumer;  // "" unless a pair
  int min_sm;
  int sass;
  Measured (*measure)(int threads);
};

const Row kRows[] = {
#define PTXFU_CALIB_ROW(id, form, consumer, min_sm, sass, ctype, constraint, ptx) \
  {form, consumer, min_sm, sass, &measure<id>},
    PTXFU_CALIB_FORMS(PTXFU_CALIB_ROW)
#undef PTXFU_CALIB_ROW
};

double measure_clock_mhz() {
  DeviceBuffer<long long> out(2);
  clock_kernel<<<1, 1>>>(50'000'000, out.p);
  check(cudaGetLastError(), "clock kernel launch");
  long long r[2] = {0, 0};
  check(cudaMemcpy(r, out.p, sizeof r, cudaMemcpyDeviceToHost), "clock kernel");
  if (r[1] <= 0) throw Failure{"clock kernel: %globaltimer did not advance"};
  return static_cast<double>(
      static_cast<long long>(1000.0 * static_cast<double>(r[0]) / static_cast<double>(r[1]) + 0.5));
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::localtime(&now));
  return buf;
}

int usage(const char* why) {
  std::fprintf(stderr, "latency_bench: %s\nusage: latency_bench [--out FILE.csv] [--device N]\n", why);
  return 2;
}

const Row* own_row(const std::string& form) {
  for (const Row& r : kRows)
    if (form == r.form && r.consumer[0] == '\0') return &r;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path = "calibration.csv";
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--out" || arg == "--device") && i + 1 >= argc) return usage((arg + " needs a value").c_str());
    if (arg == "--out") {
      out_path = argv[++i];
    } else if (arg == "--device") {
      char* end = nullptr;
      device = static_cast<int>(std::strtol(argv[++i], &end, 10));
      if (*end != '\0' || device < 0) return usage("--device takes a device number");
    } else {
      return usage(("unknown argument '" + arg + "'").c_str());
    }
  }

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "latency_bench: no CUDA device; nothing written\n");
    return 77;
  }
  try {
    if (device >= devices) throw Failure{"no device " + std::to_string(device)};
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    const int sm = prop.major * 10 + prop.minor;
    const std::string config = "sm_" + std::to_string(sm);
    cudaFuncAttributes attr{};
    const bool has_code = cudaFuncGetAttributes(&attr, clock_kernel) == cudaSuccess;
    if (!has_code || attr.binaryVersion != sm)
      throw Failure{std::string(prop.name) + " is " + config + " but this program " +
                    (has_code ? "was built for sm_" + std::to_string(attr.binaryVersion) : "has no code for it") +
                    ": rebuild it with -arch=" + config + " (scripts/calibrate.sh does)"};
    const int threads = std::min({kMaxThreads, prop.maxThreadsPerBlock, prop.maxThreadsPerMultiProcessor});

    const double clock_mhz = measure_clock_mhz();
    std::fprintf(stderr, "latency_bench: %s (%s), SM clock %.0f MHz, %d threads for throughput\n", prop.name,
                 config.c_str(), clock_mhz, threads);

    std::vector<ptxfu::hw::CalibRow> rows;
    std::vector<Measured> measured(std::size(kRows));
    for (size_t i = 0; i < std::size(kRows); ++i)
      if (kRows[i].min_sm <= sm) measured[i] = kRows[i].measure(threads);
    for (size_t i = 0; i < std::size(kRows); ++i) {
      const Row& r = kRows[i];
      if (r.min_sm > sm) {
        std::fprintf(stderr, "  %-22s needs sm_%d: skipped\n", r.form, r.min_sm);
        continue;
      }
      ptxfu::hw::CalibRow c;
      c.config = config;
      c.form = r.form;
      c.gpu_name = prop.name;
      c.clock_mhz = clock_mhz;
      c.latency = measured[i].latency;
      c.throughput = measured[i].throughput;
      if (r.consumer[0] != '\0') {
        c.consumer = r.consumer;
        const Row* p = own_row(r.form);
        const Row* k = own_row(r.consumer);
        if (!k) throw Failure{std::string("calib_forms.h: the consumer ") + r.consumer + " has no row of its own"};
        const std::optional<double> producer = p ? std::optional<double>(measured[p - kRows].latency) : std::nullopt;
        c.latency = ptxfu::hw::producer_to_consumer(measured[i].latency, producer, measured[k - kRows].latency);
        std::fprintf(stderr, "  %-22s -> %-14s round trip %8.3f  latency %8.3f\n", r.form, r.consumer,
                     measured[i].latency, *c.latency);
      } else {
        std::fprintf(stderr, "  %-22s latency %8.3f  throughput %9.3f  (%d instructions per step)\n", r.form,
                     *c.latency, c.throughput.value_or(0), r.sass);
      }
      rows.push_back(c);
    }

    std::string error;
    if (!ptxfu::hw::write_csv_file(out_path, rows, error)) throw Failure{error};
    std::fprintf(stderr, "latency_bench: wrote %s (%zu rows)\n", out_path.c_str(), rows.size());
    const std::string source = std::string("measured on ") + prop.name + " by tb/hw, " + today();
    std::fputs(ptxfu::hw::reference_block(rows, source).c_str(), stdout);
  } catch (const Failure& f) {
    std::fprintf(stderr, "latency_bench: %s\n", f.what.c_str());
    return 1;
  }
  return 0;
}
