// `--rtl-tensor`: the reference RTL of the tensor core's block FMA
// (rtl_ref/ptxfu_block_fma.sv, one verilated C++ model per block parameter
// set, cosim/block_models.h) in the loop of the kernel model. Every block
// the engine computes for an SM's mma.sync and wmma.mma (mma/block_fma.h's
// BlockObserver: W products and the c it chains from, the operands as the
// engine read them) is also sent to the model built with that numerics
// row's block parameters, and the RTL's result is compared bit for bit
// with the engine's. The registers get the engine's results: the model is
// functional-first, as with --rtl-half, so a disagreement is counted and
// reported, never propagated, and each block is checked on the engine's
// own inputs. c added apart from the blocks (fp8 on sm_90/sm_100 mma.sync)
// stays the core's IEEE addition: there is no block for it.
//
// The RTL runs on a clock of its own, a beat a cycle, as the engine
// produces the blocks (at issue, where kernel::step executes the mma):
// its pipeline is checked for results in order with their tags, and the
// tensor unit keeps the configured timing (the block pipeline's depth is
// no measure of an mma's latency).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cosim/block_models.h"
#include "kernel/kernel.h"
#include "mma/block_fma.h"
#include "models/rtl_cosim_stats.h"

namespace ptxfu::models {

// The block FMA model each mma of `k` needs on an SM of architecture `sm`
// (the copy built with PTXFU_BREAK_ALIGNMENT when `broken`, the tests'
// self check). Throws ConfigError, naming the instruction and its row, when
// a row has no blocks (f64, integers) or this build has no model for it.
void check_rtl_tensor(const kernel::Kernel& k, int sm, bool broken);

class RtlTensorCheck final : public mma::BlockObserver {
 public:
  RtlTensorCheck(const kernel::Kernel& k, int sm, bool broken);
  ~RtlTensorCheck();
  RtlTensorCheck(const RtlTensorCheck&) = delete;
  RtlTensorCheck& operator=(const RtlTensorCheck&) = delete;

  // The warp-instruction whose blocks come next (for the reports).
  void at(uint32_t pc, uint32_t warp, const kernel::Dim3& ctaid);
  void block(const mma::NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
             uint64_t d) override;
  // Drains the pipes (results still in flight are compared) and returns
  // what was seen.
  RtlTensorStats finish();

 private:
  struct Where {
    uint32_t pc = 0, warp = 0;
    kernel::Dim3 ctaid;
  };
  // A block in the pipe, waiting for its result.
  struct Pending {
    uint64_t a[64], b[64];  // zero-padded to the model's width
    uint64_t c = 0, expected = 0;
    uint32_t tag = 0;
    Where where;
  };
  // One model in use, for the blocks of one numerics row.
  struct Stream {
    const mma::NumericsRow* row = nullptr;
    const cosim::BlockModel* model = nullptr;
    std::unique_ptr<cosim::BlockUnit> unit;
    std::vector<Pending> ring;  // in flight, oldest at `head`
    std::size_t head = 0, count = 0;
    uint32_t next_tag = 0;
  };

  Stream& stream_for(const mma::NumericsRow& row);
  // One cycle of the stream's model, offering `beat` (nullptr: none);
  // compares the result that comes out. Returns whether the beat went in.
  bool cycle(Stream& s, const cosim::BlockBeat* beat);
  // The oldest block in flight against the RTL's result, or against none.
  void compare(Stream& s, uint64_t got, uint32_t tag);
  void compare_lost(Stream& s, const Pending& p);
  // A `# context` line (`got`: what the RTL gave) and the block as a line
  // `ptxfu cosim --op mma.block --replay` reads.
  std::string report(const Stream& s, const Pending& p, const std::string& got) const;

  const kernel::Kernel& kernel_;
  int sm_;
  bool broken_;
  Where where_;
  bool new_instruction_ = false;  // no block of where_'s instruction seen yet
  std::vector<std::unique_ptr<Stream>> streams_;
  Stream* last_ = nullptr;
  RtlTensorStats stats_;
};

}  // namespace ptxfu::models
