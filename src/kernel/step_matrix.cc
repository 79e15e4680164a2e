// The executor's warp-wide matrix instructions: mma, wmma, ldmatrix,
// stmatrix, movmatrix and wgmma; their arithmetic and fragment layouts are
// kernel/tensor.h's (tensor_step.cc, tensor_wgmma.cc).
#include <cstring>

#include <fmt/format.h>

#include "kernel/exec.h"

namespace ptxfu::kernel::detail {

void Exec::matrix_lanes(const Inst& in, uint32_t exec) {
  if (exec != ~0u)
    throw Fault{
        fmt::format("{}: error: Barrier error detected. Divergent thread(s) in warp: '{}' is .aligned, so "
                    "every thread of the warp executes it; in warp {} of block ({},{},{}) lanes 0x{:08x} "
                    "do and lanes 0x{:08x} do not",
                    k_.where(in), in.mnemonic, w_.index, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z, exec, ~exec)};
}

void Exec::matrix(const Inst& in, uint32_t exec) {
  if (exec == 0) return;
  matrix_lanes(in, exec);
  uint64_t* regs = &reg(0, 0);
  if (in.kind == Kind::mma) {
    const std::string e = tensor::execute_mma(k_, in, cta_.arch_sm, regs, cta_.block_observer);
    if (!e.empty()) throw Fault{fmt::format("{}: error: {}", k_.where(in), e)};
    return;
  }
  if (in.kind == Kind::movmatrix) return tensor::execute_movmatrix(k_, in, regs);
  if (in.kind == Kind::wmma_load || in.kind == Kind::wmma_store) {
    const bool store = in.kind == Kind::wmma_store;
    lane_addresses(exec);
    uint64_t base[32], stride[32] = {};
    std::memcpy(base, result_->addresses, sizeof base);
    if (in.num_src > (store ? 1 : 0)) read_lanes(in.src[store ? 1 : 0], exec, stride);
    tensor::execute_wmma_memory(
        k_, in, base, stride,
        [&](unsigned lane, uint64_t a, unsigned n, bool w) { return memory(lane, in.space, a, n, w); }, regs);
    return;
  }
  const bool store = in.kind == Kind::stmatrix;
  lane_addresses(exec);
  uint8_t* rows[32];  // row r's address comes from lane r
  const unsigned n = 8 * k_.tensor_ops[in.tensor_op].matrices;
  for (unsigned lane = 0; lane < n; ++lane) rows[lane] = access(lane, 16, store);
  if (store)
    tensor::execute_stmatrix(k_, in, rows, regs);
  else
    tensor::execute_ldmatrix(k_, in, rows, regs);
}

void Exec::wgmma(const Inst& in, uint32_t exec) {
  if (exec == 0) return;
  matrix_lanes(in, exec);
  const uint32_t first = w_.index / 4 * 4;
  if (in.kind == Kind::wgmma) ++w_.wgmmas;
  // A warp that exited before executing as many wgmmas as this one left
  // it alone (warps may run ahead of each other here; on the GPU the
  // warpgroup's wgmma waits for all four).
  for (uint32_t i = first; i < first + 4; ++i)
    if (i >= cta_.warps.size() || (cta_.warps[i].done() && cta_.warps[i].wgmmas < w_.wgmmas))
      throw Fault{fmt::format(
          "{}: error: Barrier error detected. Divergent thread(s) in warpgroup: '{}' is executed by a whole "
          "warpgroup, warps {} to {} of the block, but in block ({},{},{}) warp {} {}",
          k_.where(in), in.mnemonic, first, first + 3, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z, i,
          i >= cta_.warps.size() ? fmt::format("does not exist (the block has {} warps)", cta_.warps.size())
                                 : fmt::format("has exited after {} of them", cta_.warps[i].wgmmas))};
  if (in.kind == Kind::wgmma_sync) return;
  const bool scale_d = read(in.src[2], 0) != 0;
  const std::string e = tensor::execute_wgmma(k_, in, cta_.arch_sm, w_.index % 4, scale_d, cta_.shared.data(),
                                              cta_.shared.size(), &reg(0, 0));
  if (!e.empty())
    throw Fault{fmt::format("{}: error: {} (warp {} of block ({},{},{}))", k_.where(in), e, w_.index, cta_.ctaid.x,
                            cta_.ctaid.y, cta_.ctaid.z)};
}

}  // namespace ptxfu::kernel::detail
