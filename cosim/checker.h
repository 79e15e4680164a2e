// The co-simulation driver: issues vectors of one form to a Unit, one thread
// per beat, with random bubbles and backpressure if asked, predicts each
// result with a golden model and leaves the comparison (value lane by lane,
// tag, cycle of arrival) to the one Scoreboard (cosim/scoreboard.h).
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cosim/rtl_form.h"
#include "cosim/scoreboard.h"
#include "cosim/unit.h"
#include "util/splitmix64.h"

namespace ptxfu::cosim {

// PTX source operands in order (x2 forms: 32-bit packs; scalar: 16 bits).
struct Vector {
  uint32_t src[3] = {0, 0, 0};
};

// The golden model: the destination bits of `instr` on `src` (each source
// zero-extended to 64 bits), as `ptxfu eval` would print them.
using Golden = std::function<uint64_t(const isa::Instr& instr, const uint64_t* src)>;

// The `ptxfu eval` line of vector v of `form` ("fma.rn.f16x2 0x... 0x... 0x...").
inline std::string eval_line(const Form& form, const Vector& v) { return eval_line(form, v.src); }

class Checker {
 public:
  Checker(Unit& unit, Golden golden, const Form& form, uint64_t seed, double stall_rate = 0.0);

  // Issues one vector (waiting while the unit is not ready) and advances the
  // clock; false if any mismatch has been seen so far.
  bool step(const Vector& v);
  // The same with the golden result already known (a batched golden model).
  bool step(const Vector& v, uint32_t expected);
  // Drains the pipeline; false if any mismatch has been seen.
  bool finish();
  // What went wrong: the first mismatches in `ptxfu eval` syntax, then counts.
  std::string errors(unsigned max_reported = 5) const { return board_.errors(max_reported); }

  uint64_t vectors() const { return issued_; }
  uint64_t checked() const { return board_.beats_checked(); }
  uint64_t mismatches() const { return board_.beats_failed(); }
  const Scoreboard& scoreboard() const { return board_; }
  const std::vector<Mismatch>& first_mismatches() const { return board_.first_mismatches(); }
  // The PTX `eval` line of a vector of this form.
  std::string eval_line(const Vector& v) const { return cosim::eval_line(form_, v); }

 private:
  Beat beat_of(const Vector& v);
  void tick(const Beat* in, bool& accepted);

  Unit& unit_;
  Golden golden_;
  Form form_;
  Scoreboard board_;
  util::SplitMix64 rng_;  // filler bits and stalls (drawn per vector: a cheap generator)
  double stall_rate_;
  uint32_t lane_mask_;
  uint64_t issued_ = 0;
};

}  // namespace ptxfu::cosim
