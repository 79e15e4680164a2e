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
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cosim/rtl_form.h"

namespace ptxfu::cosim {

inline constexpr unsigned kMaxThreads = 32;

// One thread of a beat: what it computes and what must come back.
struct ExpectedThread {
  uint32_t src[3] = {};   // PTX source operands
  uint32_t expected = 0;  // golden destination
};

// One beat as issued: what it carries and what must come back. The threads
// themselves go beside it to issue(), and the scoreboard keeps only the
// `threads` it has.
struct Expected {
  const Form* form = nullptr;  // the instruction (beats of several forms may be in flight)
  uint32_t tag = 0;
  uint64_t issued = 0;    // the cycle the unit accepted it
  unsigned latency = 0;   // cycles from acceptance to the result
  bool at_least = false;  // the driver stalled: the latency is a lower bound
  unsigned threads = 1;   // threads in the beat (1..kMaxThreads)
  uint32_t active = 1;    // threads to compare (bit t: thread t)
  std::string where;      // context for reports ("warp 3 pc 7"); may be empty
};

struct Mismatch {
  std::string line;    // the thread's instruction as a `ptxfu eval` line
  unsigned lanes = 2;  // of its form
  uint32_t expected = 0;
  uint32_t got = 0;
  uint64_t issued = 0;   // cycle of issue
  uint64_t arrived = 0;  // cycle of arrival (or of giving up)
  std::string where;     // the beat's context and thread, when there is one
  std::string what;      // "value (lane 1)", "tag 3 instead of 2", "latency 6 cycles, configured 5", ...
};

// The `ptxfu eval` line of `form` on the PTX source operands `src`
// ("fma.rn.f16x2 0x... 0x... 0x...").
std::string eval_line(const Form& form, const uint32_t* src);

// A first-in first-out queue that reuses its slots: once it has grown to the
// pipeline's depth, a beat costs no allocation, construction or destruction.
// Element 0 is the oldest. A popped element stays readable until the next
// push_back.
template <class T>
class Fifo {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return slot_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return slot_[(head_ + i) & mask_]; }
  // A slot at the back, holding whatever it held last.
  T& push_back() {
    if (size_ == slot_.size()) grow();
    return (*this)[size_++];
  }
  void pop_back(size_t n = 1) { size_ -= n; }
  void pop_front(size_t n = 1) {
    head_ = (head_ + n) & mask_;
    size_ -= n;
  }

 private:
  void grow() {  // the capacity stays a power of two
    std::vector<T> bigger(slot_.empty() ? 8 : 2 * slot_.size());
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    slot_ = std::move(bigger);
    mask_ = slot_.size() - 1;
    head_ = 0;
  }

  std::vector<T> slot_;
  size_t mask_ = 0;  // slot_.size() - 1
  size_t head_ = 0;
  size_t size_ = 0;
};

class Scoreboard {
 public:
  explicit Scoreboard(unsigned tag_bits);

  // A beat was offered, with its threads thread[0 .. beat.threads); withdraw()
  // takes the newest back when the unit did not accept it.
  void issue(const Expected& beat, const ExpectedThread* thread);
  void withdraw();

  // A result beat left the unit in cycle `arrived` with `got[t]` for each
  // thread t. Returns the beat it answered (nullptr: none was waiting); it
  // stays valid until the next call. Its threads are not kept.
  const Expected* arrive(uint32_t tag, uint64_t arrived, const uint32_t* got);

  // The oldest beat still waiting (nullptr: none).
  const Expected* oldest() const { return pending_.empty() ? nullptr : &pending_[0]; }
  // Gives the oldest beat up as missing in cycle `now` and returns it (valid
  // until the next call).
  const Expected* give_up(uint64_t now, const std::string& why);
  size_t pending() const { return pending_.size(); }

  uint64_t beats_checked() const { return beats_checked_; }
  uint64_t threads_checked() const { return threads_checked_; }
  uint64_t beats_missing() const { return beats_missing_; }          // given up
  uint64_t beats_failed() const { return beats_failed_; }            // beats with any mismatch
  uint64_t value_mismatches() const { return value_mismatches_; }    // threads with a wrong value
  uint64_t timing_mismatches() const { return timing_mismatches_; }  // beats late, early, missing, out of order
  const std::vector<Mismatch>& first_mismatches() const { return first_; }

  // One mismatch as text: its `ptxfu eval` line, then a `#` comment with the
  // expected and the received result, what differed and the cycles.
  static std::string report(const Mismatch& m);
  static constexpr size_t kKeep = 64;            // mismatches kept in full (first_mismatches)
  uint64_t records() const { return records_; }  // mismatches recorded, kept or not
  // The first `max_reported` mismatches, then a count of the rest.
  std::string errors(unsigned max_reported = 5) const { return errors(first_, records_, max_reported); }
  // The same for mismatches gathered from several scoreboards (`records` in all).
  static std::string errors(const std::vector<Mismatch>& first, uint64_t records, unsigned max_reported);

 private:
  // `thread` is the beat's thread number t, `th` its values (nullptr: none).
  void record(const Expected& e, const ExpectedThread* th, unsigned thread, uint32_t got, uint64_t arrived,
              std::string what);
  // Drops the oldest beat and its threads; returns it (valid until the next issue).
  const Expected* pop_oldest();

  uint32_t tag_mask_;
  Fifo<Expected> pending_;
  // The threads of the pending beats, oldest beat first, `threads` of each:
  // a beat of one thread costs 16 bytes here, not a warp's worth.
  Fifo<ExpectedThread> pending_threads_;
  uint64_t beats_checked_ = 0;
  uint64_t threads_checked_ = 0;
  uint64_t beats_missing_ = 0;
  uint64_t beats_failed_ = 0;
  uint64_t value_mismatches_ = 0;
  uint64_t timing_mismatches_ = 0;
  uint64_t records_ = 0;  // mismatches recorded (kept or not)
  std::vector<Mismatch> first_;
};

}  // namespace ptxfu::cosim
