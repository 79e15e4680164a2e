// Tensor maps: their layout (kernel/tensormap.h) and the tile-mode box
// copies cp.async.bulk.tensor makes with them.
#include "kernel/tensormap.h"

#include <cstring>

#include <fmt/format.h>

#include "kernel/kernel.h"

namespace ptxfu::kernel {
namespace {

template <typename T>
void put(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <typename T>
T get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The canonical NaN of a float type of `bytes` (tf32 and f32 alike: 32 bits).
uint64_t nan_bits(const TensorMapType& t) {
  switch (t.bytes) {
    case 2: return 0x7fff;  // f16 and bf16 alike
    case 4: return 0x7fffffff;
    default: return 0x7fffffffffffffff;
  }
}

// Elements a box spans in dimension d: ceil(box / element stride).
uint32_t traversed(const TensorMap& m, unsigned d) {
  return (m.box[d] + m.element_strides[d] - 1) / m.element_strides[d];
}

// Calls f(element index in the box, global byte offset or -1 when outside
// the tensor) for every element of the box at `coords`.
template <typename F>
void each_element(const TensorMap& m, const int32_t* coords, F&& f) {
  const unsigned size = tensor_map_type(m.type)->bytes;
  uint32_t n[kMaxTensorRank] = {1, 1, 1, 1, 1}, i[kMaxTensorRank] = {};
  uint64_t total = 1;
  for (unsigned d = 0; d < m.rank; ++d) total *= n[d] = traversed(m, d);
  for (uint64_t e = 0; e < total; ++e) {
    int64_t offset = 0;
    bool inside = true;
    for (unsigned d = 0; d < m.rank; ++d) {
      const int64_t c = int64_t{coords[d]} + int64_t{i[d]} * m.element_strides[d];
      if (c < 0 || c >= int64_t{m.dims[d]}) inside = false;
      offset += c * static_cast<int64_t>(d == 0 ? size : m.strides[d - 1]);
    }
    f(e * size, inside ? offset : int64_t{-1});
    for (unsigned d = 0; d < m.rank && ++i[d] == n[d]; ++d) i[d] = 0;
  }
}

}  // namespace

const TensorMapType* tensor_map_type(uint8_t cuda_value) {
  for (const TensorMapType& t : kTensorMapTypes)
    if (t.cuda_value == cuda_value) return &t;
  return nullptr;
}

const TensorMapType* tensor_map_type(std::string_view name) {
  for (const TensorMapType& t : kTensorMapTypes)
    if (t.name == name) return &t;
  return nullptr;
}

std::array<uint8_t, kTensorMapBytes> encode(const TensorMap& m) {
  std::array<uint8_t, kTensorMapBytes> b{};
  put(&b[0], m.address);
  b[8] = m.type, b[9] = m.rank, b[10] = m.interleave, b[11] = m.swizzle, b[12] = m.oob_nan;
  for (unsigned d = 0; d < kMaxTensorRank; ++d) {
    put(&b[16 + 4 * d], m.dims[d]);
    put(&b[72 + 4 * d], m.box[d]);
    put(&b[92 + 4 * d], m.element_strides[d]);
    if (d > 0) put(&b[40 + 8 * (d - 1)], m.strides[d - 1]);
  }
  put(&b[112], kTensorMapMagic);
  return b;
}

std::string decode(const uint8_t* b, TensorMap& m) {
  if (get<uint32_t>(b + 112) != kTensorMapMagic)
    return "it is not a tensor map ptxfu encoded (no \"PTXT\" at byte 112; see --arg tmap:)";
  m.address = get<uint64_t>(b);
  m.type = b[8], m.rank = b[9], m.interleave = b[10], m.swizzle = b[11], m.oob_nan = b[12];
  for (unsigned d = 0; d < kMaxTensorRank; ++d) {
    m.dims[d] = get<uint32_t>(b + 16 + 4 * d);
    m.box[d] = get<uint32_t>(b + 72 + 4 * d);
    m.element_strides[d] = get<uint32_t>(b + 92 + 4 * d);
    if (d > 0) m.strides[d - 1] = get<uint64_t>(b + 40 + 8 * (d - 1));
  }
  return validate(m);
}

std::string validate(const TensorMap& m) {
  const TensorMapType* t = tensor_map_type(m.type);
  if (!t) return fmt::format("data type {} is not a CUtensorMapDataType of 0 to 12", m.type);
  if (m.rank < 1 || m.rank > kMaxTensorRank) return fmt::format("rank {} is outside 1 to 5", m.rank);
  if (m.interleave != 0) return "only interleave none is modelled";
  if (m.swizzle > 3) return fmt::format("swizzle {} is not 0 (none), 1 (32B), 2 (64B) or 3 (128B)", m.swizzle);
  if (m.oob_nan > 1 || (m.oob_nan && !t->floating)) return "an out-of-bounds NaN fill needs a floating-point type";
  if (m.address % 16 != 0) return fmt::format("global address 0x{:x} is not 16-byte aligned", m.address);
  for (unsigned d = 0; d < m.rank; ++d) {
    if (m.dims[d] == 0) return fmt::format("global dim {} is 0", d);
    if (d > 0 && (m.strides[d - 1] % 16 != 0 || m.strides[d - 1] >= uint64_t{1} << 40))
      return fmt::format("global stride {} ({} bytes) is not a multiple of 16 below 2^40", d, m.strides[d - 1]);
    if (m.box[d] == 0 || m.box[d] > 256) return fmt::format("box dim {} is {}, not 1 to 256", d, m.box[d]);
    if (m.element_strides[d] == 0 || m.element_strides[d] > 8)
      return fmt::format("element stride {} is {}, not 1 to 8", d, m.element_strides[d]);
  }
  const uint64_t inner = uint64_t{m.box[0]} * t->bytes;
  if (inner % 16 != 0) return fmt::format("the box's inner dimension is {} bytes, not a multiple of 16", inner);
  if (m.swizzle != 0 && inner > (16u << m.swizzle))
    return fmt::format("the box's inner dimension is {} bytes, more than the {}-byte swizzle span", inner,
                       16u << m.swizzle);
  return {};
}

uint64_t box_bytes(const TensorMap& m) {
  uint64_t n = tensor_map_type(m.type)->bytes;
  for (unsigned d = 0; d < m.rank; ++d) n *= traversed(m, d);
  return n;
}

std::string tensor_load(const TensorMap& m, const int32_t* coords, Memory& mem, std::vector<uint8_t>& box) {
  const TensorMapType& t = *tensor_map_type(m.type);
  box.assign(box_bytes(m), 0);
  const uint64_t fill = m.oob_nan ? nan_bits(t) : 0;
  std::string error;
  each_element(m, coords, [&](uint64_t at, int64_t offset) {
    if (offset < 0) {
      std::memcpy(box.data() + at, &fill, t.bytes);
      return;
    }
    const uint64_t a = m.address + static_cast<uint64_t>(offset);
    if (Buffer* b = mem.find(a, t.bytes))
      std::memcpy(box.data() + at, b->bytes.data() + (a - b->base), t.bytes);
    else if (error.empty())
      error = fmt::format("element at global address 0x{:x} is in no allocation", a);
  });
  return error;
}

std::string tensor_store(const TensorMap& m, const int32_t* coords, const uint8_t* box, Memory& mem) {
  const unsigned size = tensor_map_type(m.type)->bytes;
  std::string error;
  each_element(m, coords, [&](uint64_t at, int64_t offset) {
    if (offset < 0) return;
    const uint64_t a = m.address + static_cast<uint64_t>(offset);
    if (Buffer* b = mem.find(a, size))
      std::memcpy(b->bytes.data() + (a - b->base), box + at, size);
    else if (error.empty())
      error = fmt::format("element at global address 0x{:x} is in no allocation", a);
  });
  return error;
}

}  // namespace ptxfu::kernel
