// Bitonic sort of 2^m unsigned integers by chained launches: one launch per
// (k, j) step of the sorting network, every thread comparing element i with
// element i ^ j and swapping them into the order block k asks for.
// Compiled by
//   nvcc -ptx -arch=sm_80 bitonic.cu -o bitonic.ptx
// and driven from Python by examples/bitonic.py.

extern "C" __global__ void bitonic_step(unsigned* a, unsigned j, unsigned k) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned partner = i ^ j;
  if (partner <= i) return;
  const unsigned x = a[i], y = a[partner];
  const bool ascending = (i & k) == 0;
  if (ascending ? x > y : x < y) {
    a[i] = y;
    a[partner] = x;
  }
}
