// The implementation under test, seen cycle by cycle through its valid/ready
// ports. The verilated RTL is one implementation (verilated_unit.h); any other
// model with the same handshake (a C++ twin, a SystemC pipe) can be checked
// by the same Checker.
#pragma once
#include <cstdint>
#include <string>

#include "cosim/rtl_form.h"

namespace ptxfu::cosim {

// One request beat: RTL port values (lane l at bits 16l+15:16l) and a tag.
struct Beat {
  Control ctrl;
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;
  uint32_t tag = 0;
};

struct Response {
  uint32_t result = 0;
  uint32_t tag = 0;
};

class Unit {
 public:
  virtual ~Unit() = default;
  virtual std::string name() const = 0;
  virtual UnitKind kind() const = 0;
  virtual unsigned latency() const = 0;  // configured register stages
  virtual unsigned tag_bits() const = 0;
  virtual void reset() = 0;  // a few cycles with rst_ni low
  // One clock cycle: offers `in` (nullptr: in_valid_i low) with out_ready_i =
  // `out_ready`. Returns whether the beat was accepted (in_valid & in_ready);
  // `out_valid` tells whether `out` left the unit in this cycle.
  virtual bool cycle(const Beat* in, bool out_ready, Response& out, bool& out_valid) = 0;
  virtual uint64_t cycles() const = 0;  // clock cycles since construction
  // Waveforms and coverage; implementations without them ignore the calls.
  virtual bool open_trace(const std::string& /*path*/) { return false; }
  virtual void close_trace() {}
  virtual bool write_coverage(const std::string& /*path*/) { return false; }
};

}  // namespace ptxfu::cosim
