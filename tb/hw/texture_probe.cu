// Samples a GPU's texture unit: what `tex.1d/2d.v4.f32.f32` returns for
// small textures of four formats (f32, f16, 8- and 16-bit unsigned
// normalised), point and linear filtering, and the address modes (clamp,
// wrap, mirror, border), at an even sweep of fractional coordinates and at
// seeded random ones. Linear filtering on NVIDIA GPUs weights the texels
// with fixed-point fractions (the CUDA programming guide's "9-bit fixed point
// format with 8 bits of fractional value"), which these outputs pin down.
//
//   texture_probe OUTFILE   writes '#' lines (the GPU, then every texture's
//                           texel values as hex bit patterns) and lines
//                           "DIM FORMAT FILTER ADDRESS NORMALISED X Y OUT"
//                           (X, Y, OUT: binary32 bit patterns; OUT the .x
//                           channel; Y 0 for 1D)
//
// Exit status: 0 written, 1 error, 77 no CUDA device. The file is written
// under a temporary name and renamed when complete.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "probe_file.h"

namespace {

constexpr int kWidth = 16, kHeight = 8, kCoords = 2048;

enum Format { kF32, kF16, kUnorm8, kUnorm16, kFormats };
const char* const kFormatNames[kFormats] = {"f32", "f16", "unorm8", "unorm16"};

struct Mode {
  cudaTextureFilterMode filter;
  cudaTextureAddressMode address;
  bool normalised;
  const char* filter_name;
  const char* address_name;
};
const Mode kModes[] = {
    {cudaFilterModeLinear, cudaAddressModeClamp, false, "linear", "clamp"},
    {cudaFilterModeLinear, cudaAddressModeClamp, true, "linear", "clamp"},
    {cudaFilterModeLinear, cudaAddressModeWrap, true, "linear", "wrap"},
    {cudaFilterModeLinear, cudaAddressModeMirror, true, "linear", "mirror"},
    {cudaFilterModeLinear, cudaAddressModeBorder, false, "linear", "border"},
    {cudaFilterModePoint, cudaAddressModeClamp, false, "point", "clamp"},
    {cudaFilterModePoint, cudaAddressModeWrap, true, "point", "wrap"},
};

__global__ void fetch_1d(cudaTextureObject_t t, const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, x[i]);
}
__global__ void fetch_2d(cudaTextureObject_t t, const float* x, const float* y, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, x[i], y[i]);
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint64_t state = 0x7e57;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 32);
}

// Texel bit patterns of a texture of n texels: the first row alternates the
// extremes (0 and the largest value, so a weight shows directly), the rest
// are seeded random (f32 and f16 in [-4, 4]).
std::vector<uint32_t> texels(Format f, int n) {
  std::vector<uint32_t> v(n);
  for (int i = 0; i < n; ++i) {
    const bool extreme = i < kWidth;
    const float r = extreme ? (i % 2 ? 1.0f : 0.0f) : (static_cast<float>(next() % 65536) / 8192.0f - 4.0f);
    switch (f) {
      case kF32: v[i] = bits(r); break;
      case kF16: v[i] = __half_as_ushort(__float2half_rn(r)); break;
      case kUnorm8: v[i] = extreme ? (i % 2 ? 255 : 0) : next() % 256; break;
      default: v[i] = extreme ? (i % 2 ? 65535 : 0) : next() % 65536; break;
    }
  }
  return v;
}

cudaChannelFormatDesc channel(Format f) {
  switch (f) {
    case kF32: return cudaCreateChannelDesc<float>();
    case kF16: return cudaCreateChannelDescHalf();
    case kUnorm8: return cudaCreateChannelDesc<unsigned char>();
    default: return cudaCreateChannelDesc<unsigned short>();
  }
}

std::vector<unsigned char> packed(Format f, const std::vector<uint32_t>& v) {
  const size_t size = f == kF32 ? 4 : f == kUnorm8 ? 1 : 2;
  std::vector<unsigned char> p(v.size() * size);
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(&p[i * size], &v[i], size);  // little-endian low bytes
  return p;
}

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "texture_probe: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

// Coordinates in texels: an even sweep from -1.5 texels to 1.5 past the end
// (1024 points), then seeded random ones over the same range (2D: the sweep
// along y = 2.3, the random ones over the whole plane).
void coordinates(int dim, int width, int height, std::vector<float>& x, std::vector<float>& y) {
  for (int i = 0; i < kCoords; ++i) {
    if (i < kCoords / 2) {
      x.push_back(-1.5f + (width + 3.0f) * static_cast<float>(i) / (kCoords / 2));
      y.push_back(dim == 2 ? 2.3f : 0.0f);
    } else {
      x.push_back(-1.5f + (width + 3.0f) * static_cast<float>(next() % 65536) / 65536.0f);
      y.push_back(dim == 2 ? -1.5f + (height + 3.0f) * static_cast<float>(next() % 65536) / 65536.0f : 0.0f);
    }
  }
}

bool probe(std::FILE* out, int dim, Format f, const Mode& m) {
  const int width = kWidth, height = dim == 2 ? kHeight : 1;
  const std::vector<uint32_t> v = texels(f, width * height);
  std::fprintf(out, "# texture %dd %s %dx%d:", dim, kFormatNames[f], width, height);
  for (uint32_t t : v) std::fprintf(out, " %x", t);
  std::fprintf(out, "\n");
  const cudaChannelFormatDesc desc = channel(f);
  const std::vector<unsigned char> bytes = packed(f, v);
  const size_t row = bytes.size() / height;
  cudaArray_t array = nullptr;
  if (!ok(cudaMallocArray(&array, &desc, width, dim == 2 ? height : 0), "cudaMallocArray") ||
      !ok(cudaMemcpy2DToArray(array, 0, 0, bytes.data(), row, row, height, cudaMemcpyHostToDevice), "copy texels"))
    return false;
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = m.address;
  td.filterMode = m.filter;
  td.readMode = f == kUnorm8 || f == kUnorm16 ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = m.normalised;
  td.borderColor[0] = 0.0f;
  cudaTextureObject_t tex = 0;
  if (!ok(cudaCreateTextureObject(&tex, &res, &td, nullptr), "cudaCreateTextureObject")) return false;
  std::vector<float> x, y, r(kCoords);
  coordinates(dim, width, height, x, y);
  if (m.normalised)
    for (int i = 0; i < kCoords; ++i) x[i] /= width, y[i] /= (dim == 2 ? height : 1);
  float *dx = nullptr, *dy = nullptr, *dr = nullptr;
  const size_t n = kCoords * sizeof(float);
  bool good = ok(cudaMalloc(&dx, n), "cudaMalloc") && ok(cudaMalloc(&dy, n), "cudaMalloc") &&
              ok(cudaMalloc(&dr, n), "cudaMalloc") && ok(cudaMemcpy(dx, x.data(), n, cudaMemcpyHostToDevice), "in") &&
              ok(cudaMemcpy(dy, y.data(), n, cudaMemcpyHostToDevice), "in");
  if (good) {
    if (dim == 1)
      fetch_1d<<<kCoords / 256, 256>>>(tex, dx, dr, kCoords);
    else
      fetch_2d<<<kCoords / 256, 256>>>(tex, dx, dy, dr, kCoords);
    good = ok(cudaGetLastError(), "launch") && ok(cudaDeviceSynchronize(), "fetch") &&
           ok(cudaMemcpy(r.data(), dr, n, cudaMemcpyDeviceToHost), "out");
  }
  for (int i = 0; good && i < kCoords; ++i)
    std::fprintf(out, "%dd %s %s %s %d %08x %08x %08x\n", dim, kFormatNames[f], m.filter_name, m.address_name,
                 m.normalised ? 1 : 0, bits(x[i]), bits(y[i]), bits(r[i]));
  cudaDestroyTextureObject(tex);
  cudaFreeArray(array);
  cudaFree(dx), cudaFree(dy), cudaFree(dr);
  return good;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: texture_probe OUTFILE\n");
    return 1;
  }
  ptxfu::hw::ProbeFile file;
  if (const int status = file.open(argv[1], "texture_probe")) return status;
  std::FILE* out = file.get();
  std::fprintf(out, "# DIM FORMAT FILTER ADDRESS NORMALISED X Y OUT (binary32 bits; border colour 0)\n");
  for (int dim : {1, 2})
    for (int f = 0; f < kFormats; ++f)
      for (const Mode& m : kModes) {
        if (!probe(out, dim, static_cast<Format>(f), m)) return 1;
        std::printf("%dd %s %s %s%s\n", dim, kFormatNames[f], m.filter_name, m.address_name,
                    m.normalised ? " normalised" : "");
      }
  return file.finish() ? 0 : 1;
}
