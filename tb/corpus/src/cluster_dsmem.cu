// Thread-block clusters with distributed shared memory (sm_90): CTAs of a
// cluster read and update each other's shared memory through
// cooperative_groups::this_cluster(). Below sm_90 the kernels trap (there
// are no clusters to compile for).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if __CUDA_ARCH__ >= 900
// Each CTA owns bins [rank * per_cta, (rank + 1) * per_cta) of the histogram
// in its shared memory; every thread adds its keys into whichever CTA owns
// the bin (an atomic on a peer's shared memory), then rank r writes its bins.
extern "C" __global__ void cluster_histogram(unsigned* bins, const unsigned* keys, unsigned n, unsigned num_bins) {
  extern __shared__ unsigned smem[];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned ranks = cluster.num_blocks();
  const unsigned per_cta = (num_bins + ranks - 1) / ranks;
  for (unsigned i = threadIdx.x; i < per_cta; i += blockDim.x) smem[i] = 0;
  cluster.sync();  // every CTA's bins are zero before anyone adds to them
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned bin = keys[i] % num_bins;
    unsigned* owner = cluster.map_shared_rank(smem, bin / per_cta);
    atomicAdd(owner + bin % per_cta, 1u);
  }
  cluster.sync();  // every add landed before the owners read their bins
  const unsigned first = cluster.block_rank() * per_cta;
  for (unsigned i = threadIdx.x; i < per_cta && first + i < num_bins; i += blockDim.x)
    atomicAdd(&bins[first + i], smem[i]);
}

// Every thread stores x[gid] in its CTA's shared memory; after a cluster
// barrier it reads the value at the same index in the next CTA of the
// cluster (rank + 1, wrapping): out[gid] = x[gid] * scale + next[tid]. It
// also writes where it is in the cluster.
extern "C" __global__ void cluster_neighbour(float* out, unsigned* where, const float* x, float scale) {
  __shared__ float tile[256];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned gid = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = x[gid];
  cluster.sync();
  const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  const float* peer = cluster.map_shared_rank(tile, next);
  out[gid] = x[gid] * scale + peer[threadIdx.x];
  if (threadIdx.x == 0) {
    const dim3 cid = cluster.block_index();
    const unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
    where[4 * b + 0] = cluster.block_rank();
    where[4 * b + 1] = cluster.num_blocks();
    where[4 * b + 2] = cid.x + 16 * cid.y;
    where[4 * b + 3] = cluster.dim_blocks().x + 16 * cluster.dim_blocks().y;
  }
  cluster.sync();  // no CTA leaves while its neighbour still reads its tile
}

// A fixed cluster shape, which nvcc writes as .reqnctapercluster.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_rank_sum(unsigned* out) {
  __shared__ unsigned mine;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) mine = cluster.block_rank() * 10 + 1;
  cluster.sync();
  if (threadIdx.x < cluster.num_blocks()) {
    const unsigned v = *cluster.map_shared_rank(&mine, threadIdx.x);
    atomicAdd(&out[blockIdx.x], v);
  }
  cluster.sync();
}
#else
extern "C" __global__ void cluster_histogram(unsigned*, const unsigned*, unsigned, unsigned) { __trap(); }
extern "C" __global__ void cluster_neighbour(float*, unsigned*, const float*, float) { __trap(); }
extern "C" __global__ void cluster_rank_sum(unsigned*) { __trap(); }
#endif
