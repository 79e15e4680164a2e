// The co-simulation checker: issues vectors of one form to a Unit, predicts
// each result with a golden model and compares, lane by lane, the value, the
// tag and the cycle of arrival (exactly issue + latency when nothing stalls).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "models/rtl_form.h"
#include "cosim/unit.h"

namespace ptxfu::cosim {

// PTX source operands in order (x2 forms: 32-bit packs; scalar: 16 bits).
struct Vector {
  uint32_t src[3] = {0, 0, 0};
};

// The golden model: the destination bits of `instr` on `src` (each source
// zero-extended to 64 bits), as `ptxfu eval` would print them.
using Golden = std::function<uint64_t(const isa::Instr& instr, const uint64_t* src)>;

// The `ptxfu eval` line of vector v of `form` ("fma.rn.f16x2 0x... 0x... 0x...").
std::string eval_line(const Form& form, const Vector& v);

struct Mismatch {
  Vector vector;
  uint32_t expected = 0;
  uint32_t got = 0;
  uint64_t issued = 0;     // cycle of issue
  uint64_t arrived = 0;    // cycle of arrival
  std::string what;        // "value", "tag", "latency", "missing"
};

class Checker {
 public:
  Checker(Unit& unit, Golden golden, const Form& form, uint64_t seed, double stall_rate = 0.0);

  // Issues one vector (waiting while the unit is not ready) and advances the
  // clock; false if any mismatch has been seen so far.
  bool step(const Vector& v);
  // Drains the pipeline; false if any mismatch has been seen.
  bool finish();
  // What went wrong: the first mismatches in `ptxfu eval` syntax, then counts.
  std::string errors(unsigned max_reported = 5) const;

  uint64_t vectors() const { return issued_; }
  uint64_t checked() const { return checked_; }
  uint64_t mismatches() const { return mismatch_count_; }
  const std::vector<Mismatch>& first_mismatches() const { return first_; }
  // The PTX `eval` line of a vector of this form.
  std::string eval_line(const Vector& v) const { return cosim::eval_line(form_, v); }

 private:
  struct Pending {
    Vector vector;
    uint32_t expected;
    uint32_t tag;
    uint64_t issued;
  };
  Beat beat_of(const Vector& v);
  void tick(const Beat* in, bool& accepted);
  void retire(const Response& r);
  void record(const Pending& p, uint32_t got, const std::string& what);

  Unit& unit_;
  Golden golden_;
  Form form_;
  std::mt19937_64 rng_;
  double stall_rate_;
  uint32_t lane_mask_;
  uint32_t tag_mask_;
  std::deque<Pending> pending_;
  uint64_t issued_ = 0;
  uint64_t checked_ = 0;
  uint64_t mismatch_count_ = 0;
  uint64_t stalled_ = 0;   // cycles with a bubble or backpressure (latency then >=)
  std::vector<Mismatch> first_;
  static constexpr size_t kKeep = 64;
};

}  // namespace ptxfu::cosim
