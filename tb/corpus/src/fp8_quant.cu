// FP8 quantisation as in low-precision inference: scale f32 values into
// e4m3 or e5m2 range with saturation, and back. Pre-sm_89 targets have no
// fp8 conversion instructions, so nvcc emulates them with integer code.
#include <cuda_fp8.h>

// Per-tensor scale; __nv_fp8_e4m3's constructor rounds to nearest and
// saturates to +-448 (satfinite).
extern "C" __global__ void quantize_e4m3(const float* in, __nv_fp8_e4m3* out, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __nv_fp8_e4m3(in[i] * scale);
}

// Two values per thread through the packed type, then dequantise
// immediately: a round-trip that tests conversion in both directions.
extern "C" __global__ void roundtrip_e4m3x2(const float2* in, float2* out, float scale, float inv_scale, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  float2 v = in[i];
  __nv_fp8x2_e4m3 q(make_float2(v.x * scale, v.y * scale));
  float2 back = float2(q);
  out[i] = make_float2(back.x * inv_scale, back.y * inv_scale);
}

// e5m2 for gradients: wider range, fewer mantissa bits. Uses the C API
// with explicit saturation, and converts back through half.
extern "C" __global__ void quantize_dequantize_e5m2(const float* in, __nv_fp8_storage_t* q, float* out, float scale,
                                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8_storage_t s = __nv_cvt_float_to_fp8(in[i] * scale, __NV_SATFINITE, __NV_E5M2);
  q[i] = s;
  __half_raw h = __nv_cvt_fp8_to_halfraw(s, __NV_E5M2);
  out[i] = __half2float(__half(h)) / scale;
}
