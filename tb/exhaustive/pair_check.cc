#include "exhaustive/pair_check.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "exec/execute.h"
#include "exhaustive/half_oracle.h"
#include "isa/decode.h"
#include "isa/target_options.h"

namespace ptxfu::exhaustive {
namespace {

using isa::Mod;
using isa::Op;

struct Plan {
  HalfFormat format;
  HalfOp op;
  HalfRounding rounding;
};

std::optional<Plan> plan_for(const isa::Instr& in, std::string& error) {
  Plan p{};
  if (in.type == isa::Type::f16)
    p.format = kHalfF16;
  else if (in.type == isa::Type::bf16)
    p.format = kHalfBF16;
  else
    return error = "the exhaustive check covers scalar .f16 and .bf16 forms", std::nullopt;
  const bool nan = in.has(Mod::nan);
  switch (in.op) {
    case Op::add: p.op = HalfOp::add; break;
    case Op::sub: p.op = HalfOp::sub; break;
    case Op::mul: p.op = HalfOp::mul; break;
    case Op::min: p.op = nan ? HalfOp::min_nan : HalfOp::min; break;
    case Op::max: p.op = nan ? HalfOp::max_nan : HalfOp::max; break;
    default: return error = "the exhaustive check covers add, sub, mul, min and max", std::nullopt;
  }
  const isa::ModSet allowed = isa::kRoundingMods | isa::bit(Mod::nan);
  if (in.mods & ~allowed)
    return error = "the exhaustive check covers no .ftz, .sat, .relu, .xorsign or .abs", std::nullopt;
  p.rounding = in.has(Mod::rz)   ? HalfRounding::rz
               : in.has(Mod::rm) ? HalfRounding::rm
               : in.has(Mod::rp) ? HalfRounding::rp
                                 : HalfRounding::rn;
  return p;
}

}  // namespace

std::optional<PairCheckResult> check_pairs(const PairCheckOptions& o, std::ostream& report, std::string& error) {
  if (o.shard_count == 0 || o.shard_index >= o.shard_count) return error = "--shard K/N needs 0 <= K < N", std::nullopt;
  const auto caps = isa::resolve_capabilities(isa::TargetOptions{}, std::nullopt, std::nullopt, true, error);
  if (!caps) return std::nullopt;
  isa::Instr in;
  isa::Diagnostic d;
  if (!isa::check_form(o.form, 2, *caps, 1, in, d))
    return error = fmt::format("'{}': {}", o.form, d.message), std::nullopt;
  const auto plan = plan_for(in, error);
  if (!plan) return std::nullopt;

  // This shard's first operands; each thread takes every n-th of them.
  const uint32_t begin = static_cast<uint32_t>(uint64_t{65536} * o.shard_index / o.shard_count);
  const uint32_t end = static_cast<uint32_t>(uint64_t{65536} * (o.shard_index + 1) / o.shard_count);
  const unsigned threads = std::max(1u, o.threads ? o.threads : std::thread::hardware_concurrency());
  std::vector<uint64_t> mismatches(threads, 0);
  std::mutex report_lock;
  unsigned reported = 0;
  const auto start = std::chrono::steady_clock::now();
  auto work = [&](unsigned t) {
    // Every second operand at once for each first one, through the executor's
    // array path (exec::execute_float_many: the core's array forms, SIMD
    // kernels included, as eval, the C API and Python use them).
    std::vector<uint64_t> second(65536), result(65536);
    for (uint32_t b = 0; b < 65536; ++b) second[b] = b;
    for (uint32_t a = begin + t; a < end; a += threads) {
      {
        const uint64_t first = a;
        const uint64_t* src[2] = {&first, second.data()};
        const ptrdiff_t strides[2] = {0, 1};
        exec::execute_float_many(in, 65536, src, strides, result.data());
      }
      for (uint32_t b0 = 0; b0 < 65536; b0 += 32) {
        const uint64_t* got = result.data() + b0;
        for (uint32_t l = 0; l < 32; ++l) {
          const uint32_t b = b0 + l;
          const uint16_t want = half_reference(plan->format, plan->op, plan->rounding, static_cast<uint16_t>(a),
                                               static_cast<uint16_t>(b));
          if (got[l] == want) continue;
          ++mismatches[t];
          std::lock_guard<std::mutex> lock(report_lock);
          if (reported < o.max_reported) {
            ++reported;
            report << fmt::format("{} 0x{:04x} 0x{:04x}\n# expected 0x{:04x} got 0x{:04x}\n", o.form, a, b, want,
                                  got[l]);
          }
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& th : pool) th.join();

  PairCheckResult r;
  r.pairs = uint64_t{end - begin} * 65536;
  for (uint64_t m : mismatches) r.mismatches += m;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ptxfu::exhaustive
