#include "cosim/cosim.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "cosim/checker.h"
#include "cosim/rtl_form.h"
#include "cosim/golden.h"
#include "cosim/rtl_units.h"
#include "cosim/vectors.h"

namespace ptxfu::cosim {

bool parse_shard(const std::string& text, CosimOptions& o) {
  unsigned k = 0, n = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%u/%u%c", &k, &n, &tail) != 2 || n == 0 || k >= n) return false;
  o.shard_index = k;
  o.shard_count = n;
  return true;
}

std::string available_stages(const std::string& unit) {
  const UnitKind kind = unit == "hmnmx2" ? UnitKind::hmnmx2 : UnitKind::hfma2;
  std::string s;
  for (int st : rtl_stages(kind)) s += (s.empty() ? "" : " ") + std::to_string(st);
  return s;
}

namespace {

void summary(std::ostream& out, uint64_t vectors, uint64_t mismatches, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(vectors) / seconds : 0.0;
  out << "vectors=" << vectors << " mismatches=" << mismatches
      << " vectors_per_s=" << static_cast<uint64_t>(std::llround(rate)) << "\n";
}

int bad(std::ostream& out, const std::string& why) {
  out << "error: " << why << "\n";
  return 2;
}

}  // namespace

int run_cosim(const CosimOptions& o, std::ostream& out) {
  Form form;
  std::string err;
  if (o.op.empty()) return bad(out, "--op is required, e.g. --op fma.rn.f16x2");
  if (!make_form(o.op, form, err)) return bad(out, err);
  if (!o.unit.empty() && o.unit != name(form.unit))
    return bad(out, "'" + o.op + "' runs on unit " + name(form.unit) + ", not " + o.unit);
  if (o.shard_count == 0 || o.shard_index >= o.shard_count)
    return bad(out, "--shard K/N needs 0 <= K < N");
  if (o.exhaustive && !VectorSource::exhaustive_possible(form))
    return bad(out, "--exhaustive needs a one- or two-operand form ('" + o.op +
                        "' has 2^48 input combinations per lane)");
  Golden golden;
  if (o.golden == "ref") golden = reference_golden();
  else if (o.golden == "core") golden = core_golden();
  else return bad(out, "--golden must be core or ref");
  if (!golden) return bad(out, "this build has no floating-point core executor; use --golden ref");

  std::unique_ptr<Unit> unit = make_rtl_unit(form.unit, o.stages, o.broken, err);
  if (!unit) return bad(out, err);
  if (!o.trace_file.empty() && !unit->open_trace(o.trace_file))
    return bad(out, "cannot write the waveform '" + o.trace_file + "' (tracing not compiled in?)");
  unit->reset();

  Checker checker(*unit, golden, form, o.seed + o.shard_index, o.stall_rate);
  const auto start = std::chrono::steady_clock::now();
  if (o.exhaustive) {
    const uint64_t size = VectorSource::exhaustive_size(form);
    const uint64_t begin = static_cast<uint64_t>((static_cast<unsigned __int128>(size) * o.shard_index) / o.shard_count);
    const uint64_t end = static_cast<uint64_t>((static_cast<unsigned __int128>(size) * (o.shard_index + 1)) / o.shard_count);
    for (uint64_t i = begin; i < end; ++i) checker.step(VectorSource::exhaustive(form, i));
  } else {
    // This shard's part of the structured set first, then random vectors.
    VectorSource source(form, o.seed + o.shard_index);
    const auto& fixed = source.structured();
    uint64_t done = 0;
    for (size_t i = o.shard_index; i < fixed.size() && done < o.vectors; i += o.shard_count, ++done)
      checker.step(fixed[i]);
    for (; done < o.vectors; ++done) checker.step(source.random());
  }
  checker.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  unit->close_trace();

  const bool pass = checker.mismatches() == 0;
  if (!pass) {
    out << "# " << o.op << " on " << unit->name() << " (golden: " << o.golden
        << "): first failing vectors, replayable with `ptxfu eval`\n";
    out << checker.errors(o.max_reported);
  }
  if (pass && !o.coverage_file.empty() && !unit->write_coverage(o.coverage_file))
    out << "# no coverage written: this build has no coverage instrumentation\n";
  summary(out, checker.vectors(), checker.mismatches(), seconds);
  return pass ? 0 : 1;
}

}  // namespace ptxfu::cosim
