// Operand vectors for one form: a deterministic structured set (every special
// class, each exponent boundary, halfway cases, subnormal and overflowing
// results, cancellations), seeded random vectors and the exhaustive sweep.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "cosim/checker.h"
#include "cosim/rtl_form.h"

namespace ptxfu::cosim {

class VectorSource {
 public:
  VectorSource(const Form& form, uint64_t seed);

  // The structured set (the same for every seed).
  const std::vector<Vector>& structured() const { return structured_; }
  // One random vector (weighted towards interesting cases).
  Vector random();

  // Exhaustive sweep: every lane-operand combination of a one- or
  // two-operand form. size() vectors; vector i covers combinations 2i and
  // 2i+1 (lanes 0 and 1) of an x2 form, combination i of a scalar form.
  static bool exhaustive_possible(const Form& form) { return form.num_src <= 2; }
  static uint64_t exhaustive_size(const Form& form);
  static Vector exhaustive(const Form& form, uint64_t index);

 private:
  uint16_t random_lane_operand(unsigned i, const uint16_t* earlier);
  void build_structured();
  void add(std::vector<uint16_t> lanes_ops);  // lanes_ops[lane * 3 + operand]
  void push_lane_tuple(const uint16_t* ops);  // pairs lane tuples into vectors

  Form form_;
  int exp_bits_;
  int man_bits_;
  std::mt19937_64 rng_;
  std::vector<uint16_t> edges_;        // special and boundary lane values
  std::vector<uint16_t> small_edges_;  // a shorter list for the 3-operand cross product
  std::vector<Vector> structured_;
  bool half_full_ = false;  // a lane-0 tuple waits for its lane-1 partner
  uint16_t waiting_[3] = {0, 0, 0};
};

}  // namespace ptxfu::cosim
