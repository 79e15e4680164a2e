// The executor's address windows and clusters: cvta, mapa, the cluster's
// special registers and CTAs (.shared::cluster), barrier.cluster.
#include <fmt/format.h>

#include "kernel/exec.h"

namespace ptxfu::kernel::detail {

uint64_t Exec::cluster_sreg(const Operand& o) const {
  const Cluster* c = cta_.cluster.get();
  const Dim3 shape = c ? c->shape : Dim3{};
  const Dim3& g = cta_.launch->grid;
  const Dim3& id = cta_.ctaid;
  auto comp = [&](const Dim3& d) { return o.component == 0 ? d.x : o.component == 1 ? d.y : d.z; };
  switch (o.sreg) {
    case SReg::clusterid: return comp({id.x / shape.x, id.y / shape.y, id.z / shape.z});
    case SReg::nclusterid: return comp({g.x / shape.x, g.y / shape.y, g.z / shape.z});
    case SReg::cluster_ctaid: return comp({id.x % shape.x, id.y % shape.y, id.z % shape.z});
    case SReg::cluster_nctaid: return comp(shape);
    case SReg::cluster_ctarank: return cta_.cluster_rank;
    case SReg::cluster_nctarank: return shape.count();
    case SReg::is_explicit_cluster: return c && c->is_explicit;
    default: return 0;
  }
}

Cta& Exec::peer(unsigned lane, Space space, bool is_write, uint64_t addr, unsigned bytes, uint64_t rank) const {
  const Cluster* c = cta_.cluster.get();
  const uint64_t n = c ? c->ctas.size() : 1;
  if (rank >= n)
    fault(lane, space, is_write, addr, bytes,
          fmt::format("the .shared::cluster address names CTA rank {}; the cluster has {} CTAs", rank, n));
  Cta* p = c ? c->ctas[rank] : &cta_;
  if (!p)
    fault(lane, space, is_write, addr, bytes,
          fmt::format("CTA rank {} of the cluster has exited; its shared memory is gone", rank));
  return *p;
}

void Exec::mapa(const Inst& in, uint32_t exec) {
  const Cluster* c = cta_.cluster.get();
  const uint64_t n = c ? c->ctas.size() : 1;
  const uint64_t window = in.space == Space::generic ? kSharedWindow : 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    const uint64_t a = read(in.src[0], lane), rank = read(in.src[1], lane);
    const Dim3& id = cta_.ctaid;
    if (rank >= n)
      throw Fault{
          fmt::format("{}: error: mapa to CTA rank {} by thread ({},{},{}) in block ({},{},{}): the cluster "
                      "has {} CTAs (ranks 0 to {})",
                      k_.where(in), rank, tid(lane, 0), tid(lane, 1), tid(lane, 2), id.x, id.y, id.z, n, n - 1)};
    if (a < window || a - window >= kWindowSize)
      throw Fault{
          fmt::format("{}: error: mapa of 0x{:x} by thread ({},{},{}) in block ({},{},{}): not a shared "
                      "memory address",
                      k_.where(in), a, tid(lane, 0), tid(lane, 1), tid(lane, 2), id.x, id.y, id.z)};
    write(in.dst[0], lane, window + (rank + 1) * kClusterRankStride + (a - window) % kClusterRankStride);
  }
}

void Exec::cluster_barrier(const Inst& in, uint32_t exec) {
  if (!in.bar_wait) {
    if (w_.cluster_arrived & exec)
      throw Fault{
          fmt::format("{}: error: barrier.cluster.arrive by warp {} of block ({},{},{}) again before its "
                      "barrier.cluster.wait",
                      k_.where(in), w_.index, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z)};
    w_.cluster_arrived |= exec;
    cta_.cluster->settle();
    return;
  }
  if (w_.cluster_arrived & exec) w_.barrier = kClusterBarrier;
}

void Exec::cvta(const Inst& in, uint32_t exec) {
  const uint64_t window = in.space == Space::shared  ? kSharedWindow
                          : in.space == Space::local ? kLocalWindow
                          : in.space == Space::param ? kParamWindow
                                                     : 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (exec >> lane & 1) {
      const uint64_t a = read(in.src[0], lane);
      write(in.dst[0], lane, in.uni ? a - window : a + window);
    }
}

}  // namespace ptxfu::kernel::detail
