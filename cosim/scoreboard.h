// The one checker of the reference RTL against a golden model. Every beat a
// unit accepts is expected back in order, with its tag, within its latency
// (exactly, or at least when the driver stalled), and with the golden
// result in every active thread, lane by lane. Mismatches are kept with the
// thread's instruction as a `ptxfu eval` line, so they can be replayed.
//
// Two drivers feed it: the standalone co-simulation (cosim/checker.h, one
// thread per beat) and the in-model RTL unit (models/rtl_half_unit.h, a warp
// of 32 threads per beat, the RTL's results going on into the warp).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "cosim/rtl_form.h"

namespace ptxfu::cosim {

inline constexpr unsigned kMaxThreads = 32;

// One beat as issued: what it carries and what must come back.
struct Expected {
  const Form* form = nullptr;  // the instruction (beats of several forms may be in flight)
  uint32_t tag = 0;
  uint64_t issued = 0;       // the cycle the unit accepted it
  unsigned latency = 0;      // cycles from acceptance to the result
  bool at_least = false;     // the driver stalled: the latency is a lower bound
  unsigned threads = 1;      // threads in the beat (1..kMaxThreads)
  uint32_t active = 1;       // threads to compare (bit t: thread t)
  std::string where;         // context for reports ("warp 3 pc 7"); may be empty
  uint32_t src[kMaxThreads][3] = {};   // PTX source operands of each thread
  uint32_t expected[kMaxThreads] = {}; // golden destination of each thread
};

struct Mismatch {
  std::string line;       // the thread's instruction as a `ptxfu eval` line
  unsigned lanes = 2;     // of its form
  uint32_t expected = 0;
  uint32_t got = 0;
  uint64_t issued = 0;    // cycle of issue
  uint64_t arrived = 0;   // cycle of arrival (or of giving up)
  std::string where;      // the beat's context and thread, when there is one
  std::string what;       // "value (lane 1)", "tag 3 instead of 2", "latency 6 cycles, configured 5", ...
};

// The `ptxfu eval` line of `form` on the PTX source operands `src`
// ("fma.rn.f16x2 0x... 0x... 0x...").
std::string eval_line(const Form& form, const uint32_t* src);

class Scoreboard {
 public:
  explicit Scoreboard(unsigned tag_bits);

  // A beat was offered; withdraw() takes the newest back when the unit did
  // not accept it.
  void issue(const Expected& beat);
  void withdraw() { pending_.pop_back(); }

  // A result beat left the unit in cycle `arrived` with `got[t]` for each
  // thread t. Returns the beat it answered (nullptr: none was waiting); it
  // stays valid until the next call.
  const Expected* arrive(uint32_t tag, uint64_t arrived, const uint32_t* got);

  // The oldest beat still waiting (nullptr: none).
  const Expected* oldest() const { return pending_.empty() ? nullptr : &pending_.front(); }
  // Gives the oldest beat up as missing in cycle `now` and returns it (valid
  // until the next call).
  const Expected* give_up(uint64_t now, const std::string& why);
  size_t pending() const { return pending_.size(); }

  uint64_t beats_checked() const { return beats_checked_; }
  uint64_t threads_checked() const { return threads_checked_; }
  uint64_t beats_missing() const { return beats_missing_; }        // given up
  uint64_t beats_failed() const { return beats_failed_; }          // beats with any mismatch
  uint64_t value_mismatches() const { return value_mismatches_; }  // threads with a wrong value
  uint64_t timing_mismatches() const { return timing_mismatches_; }  // beats late, early, missing, out of order
  const std::vector<Mismatch>& first_mismatches() const { return first_; }

  // One mismatch as text: its `ptxfu eval` line, then a `#` comment with the
  // expected and the received result, what differed and the cycles.
  static std::string report(const Mismatch& m);
  // The first `max_reported` mismatches, then a count of the rest.
  std::string errors(unsigned max_reported = 5) const;

 private:
  void record(const Expected& e, unsigned thread, uint32_t got, uint64_t arrived, std::string what);

  uint32_t tag_mask_;
  std::deque<Expected> pending_;
  Expected last_;  // the beat arrive()/give_up() returned
  uint64_t beats_checked_ = 0;
  uint64_t threads_checked_ = 0;
  uint64_t beats_missing_ = 0;
  uint64_t beats_failed_ = 0;
  uint64_t value_mismatches_ = 0;
  uint64_t timing_mismatches_ = 0;
  uint64_t records_ = 0;  // mismatches recorded (kept or not)
  std::vector<Mismatch> first_;
  static constexpr size_t kKeep = 64;
};

}  // namespace ptxfu::cosim
