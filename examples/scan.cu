// A three-kernel prefix sum (inclusive scan) of unsigned integers, as a CUDA
// host program runs it: scan each block, scan the block sums, add them back.
// Integers wrap exactly, so any order of additions gives the same bits.
// Compiled by
//   nvcc -ptx -arch=sm_80 scan.cu -o scan.ptx
// and driven from Python by examples/scan.py (ptxfu's host API).

constexpr unsigned kBlock = 256;

// Inclusive scan of one block's elements in shared memory (Hillis-Steele);
// the block's total goes to sums[blockIdx.x].
extern "C" __global__ void scan_blocks(const unsigned* in, unsigned* out, unsigned* sums, unsigned n) {
  __shared__ unsigned s[kBlock];
  const unsigned i = blockIdx.x * kBlock + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned d = 1; d < kBlock; d *= 2) {
    const unsigned v = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
    __syncthreads();
  }
  if (i < n) out[i] = s[threadIdx.x];
  if (threadIdx.x == kBlock - 1) sums[blockIdx.x] = s[kBlock - 1];
}

// Inclusive scan of up to 1024 block sums in place, by one block.
extern "C" __global__ void scan_sums(unsigned* sums, unsigned count) {
  __shared__ unsigned s[1024];
  const unsigned t = threadIdx.x;
  s[t] = t < count ? sums[t] : 0;
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    const unsigned v = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t < count) sums[t] = s[t];
}

// out[i] += the sum of every earlier block: offsets[blockIdx.x], where the
// host passes the scanned sums one element back (offsets[0] is 0).
extern "C" __global__ void add_offsets(unsigned* out, const unsigned* offsets, unsigned n) {
  const unsigned i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) out[i] += offsets[blockIdx.x];
}
