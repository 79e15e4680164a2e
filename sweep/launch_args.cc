#include "sweep/launch_args.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>
#include <fstream>

#include "models/text_file.h"
#include "util/splitmix64.h"

namespace ptxfu::sweep {
namespace {

using kernel::Arg;
using kernel::KernelError;

// One --arg buffer: 256 MiB (a single modelled SM runs far less data in
// reasonable time; a sweep spec parses its buffers when it loads).
constexpr size_t kMaxBufferBytes = size_t{256} << 20;

bool parse_u64(std::string_view s, uint64_t& v) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2), base = 16;
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool parse_i64(std::string_view s, int64_t& v) {
  const bool neg = !s.empty() && s[0] == '-';
  uint64_t u = 0;
  if (!parse_u64(neg ? s.substr(1) : s, u)) return false;
  if (neg ? u > uint64_t{1} << 63 : u > uint64_t{INT64_MAX}) return false;
  v = neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  return true;
}

// buf:zeros:BYTES, buf:random:BYTES:SEED or buf:FILE (`value` is what
// follows buf:); `bad` makes the error naming the argument.
template <typename Bad>
Arg buffer_arg(std::string_view value, const Bad& bad) {
  if (value.substr(0, 6) == "zeros:" || value.substr(0, 7) == "random:") {
    const bool random = value[0] == 'r';
    std::string_view rest = value.substr(random ? 7 : 6);
    uint64_t seed = 0;
    if (random) {
      const size_t c = rest.find(':');
      if (c == std::string_view::npos || !parse_u64(rest.substr(c + 1), seed))
        throw bad("expected buf:random:BYTES:SEED");
      rest = rest.substr(0, c);
    }
    uint64_t bytes = 0;
    if (!parse_u64(rest, bytes) || bytes == 0 || bytes > kMaxBufferBytes)
      throw bad(fmt::format("expected a size of 1 to {} bytes", kMaxBufferBytes));
    std::vector<uint8_t> data(bytes);
    for (size_t i = 0; random && i < data.size(); i += 8) {
      const uint64_t r = util::splitmix64(seed);
      for (size_t b = 0; b < 8 && i + b < data.size(); ++b) data[i + b] = static_cast<uint8_t>(r >> (8 * b));
    }
    return Arg::buffer(std::move(data));
  }
  std::string text;
  switch (models::read_text_file(std::string(value), kMaxBufferBytes, text)) {
    case models::ReadStatus::cannot_open: throw bad("cannot open the file");
    case models::ReadStatus::too_large: throw bad(fmt::format("the file is larger than {} bytes", kMaxBufferBytes));
    case models::ReadStatus::ok: break;
  }
  if (text.empty()) throw bad("the file is empty");
  return Arg::buffer(std::vector<uint8_t>(text.begin(), text.end()));
}

// A buffer spec with an optional trailing +OFFSET (bytes): the parameter
// gets the address that many bytes into the buffer, as `ptxfu run`'s NAME+K
// (whose K counts elements of the buffer's type; these buffers have none).
template <typename Bad>
Arg buffer_with_offset(std::string_view value, const Bad& bad) {
  const size_t plus = value.rfind('+');
  uint64_t offset = 0;
  if (plus == std::string_view::npos || !parse_u64(value.substr(plus + 1), offset)) return buffer_arg(value, bad);
  Arg a = buffer_arg(value.substr(0, plus), bad);
  if (offset > a.data.size())
    throw bad(fmt::format("offset {} is past the end of the {}-byte buffer", offset, a.data.size()));
  a.offset = offset;
  return a;
}

// tex:FILE:KEY=VALUE,... or tex:zeros:KEY=VALUE,... (`value` is what follows
// tex:): a texture or surface object, its texels from FILE (row-major,
// little-endian) or zeros.
template <typename Bad>
Arg texture_arg(std::string_view value, const Bad& bad) {
  const size_t colon = value.rfind(':');
  if (colon == std::string_view::npos)
    throw bad("expected tex:FILE:format=F,width=W[,height=H][,address=A][,filter=F][,normalized=0|1]");
  kernel::TextureDesc t;
  bool has_format = false;
  std::string_view keys = value.substr(colon + 1);
  while (!keys.empty()) {
    const size_t comma = keys.find(',');
    const std::string_view kv = keys.substr(0, comma);
    keys = comma == std::string_view::npos ? std::string_view{} : keys.substr(comma + 1);
    const size_t eq = kv.find('=');
    const std::string key(kv.substr(0, eq)), v(eq == std::string_view::npos ? "" : kv.substr(eq + 1));
    uint64_t n = 0;
    if (key == "format" && kernel::parse_texel_format(v, t.format)) {
      has_format = true;
    } else if ((key == "width" || key == "height") && parse_u64(v, n) && n > 0 && n <= 65536) {
      (key == "width" ? t.width : t.height) = static_cast<int>(n);
      if (key == "height") t.dims = 2;
    } else if (key == "normalized" && (v == "0" || v == "1")) {
      t.normalized = v == "1";
    } else if (!(key == "address" && kernel::parse_address_mode(v, t.address)) &&
               !(key == "filter" && kernel::parse_filter_mode(v, t.filter))) {
      throw bad(
          fmt::format("bad '{}': format=f32|f16|unorm8|unorm16|u8|u16|u32|s32, width and height 1..65536, "
                      "address=clamp|wrap|mirror|border, filter=point|linear, normalized=0|1",
                      kv));
    }
  }
  if (!has_format || t.width == 0) throw bad("a texture needs format= and width=");
  const bool filtered = t.format == kernel::TexelFormat::f32 || t.format == kernel::TexelFormat::f16 ||
                        t.format == kernel::TexelFormat::unorm8 || t.format == kernel::TexelFormat::unorm16;
  if (t.filter == kernel::FilterMode::linear && !filtered)
    throw bad("linear filtering needs a float or unorm format (CUDA reads integer formats as element type)");
  const uint64_t bytes = uint64_t(t.width) * t.height * kernel::texel_bytes(t.format);
  const std::string file(value.substr(0, colon));
  if (file == "zeros") {
    t.texels.assign(bytes, 0);
  } else {
    const Arg data = buffer_arg(file, bad);
    if (data.data.size() != bytes)
      throw bad(fmt::format("the file has {} bytes; {}x{} texels of this format are {} bytes", data.data.size(),
                            t.width, t.height, bytes));
    t.texels = data.data;
  }
  return Arg::texture_object(std::move(t));
}

// "AxBxC" (innermost first) into up to five numbers of lo..hi; their count.
template <typename T, typename Bad>
unsigned parse_extents(std::string_view text, T* out, uint64_t lo, uint64_t hi, std::string_view key, const Bad& bad) {
  unsigned n = 0;
  while (true) {
    const size_t x = text.find('x');
    uint64_t v = 0;
    if (n == kernel::kMaxTensorRank || !parse_u64(text.substr(0, x), v) || v < lo || v > hi)
      throw bad(fmt::format("{}= takes 1 to 5 numbers of {} to {} joined by 'x', innermost first", key, lo, hi));
    out[n++] = static_cast<T>(v);
    if (x == std::string_view::npos) return n;
    text.remove_prefix(x + 1);
  }
}

// tmap:BUFFER:type=T,dims=...,box=...[,strides=...][,estrides=...][,swizzle=S][,oob=zero|nan][,offset=B]
// (`value` is what follows tmap:): a tile-mode tensor map over a buffer of
// its own (FILE, zeros:BYTES or random:BYTES:SEED, as buf: takes) or, argN,
// the buffer of --arg N.
template <typename Bad>
Arg tensor_map_arg(std::string_view value, const Bad& bad) {
  const size_t colon = value.rfind(':');
  if (colon == std::string_view::npos) throw bad("expected tmap:BUFFER|argN:type=T,dims=..,box=..[,...]");
  const std::string_view buffer_spec = value.substr(0, colon);
  value = value.substr(colon + 1);
  kernel::TensorMap m;
  int buffer = -1;
  uint64_t arg = 0;
  if (buffer_spec.substr(0, 3) == "arg" && parse_u64(buffer_spec.substr(3), arg) && arg >= 1 && arg <= 4096)
    buffer = static_cast<int>(arg - 1);
  uint64_t offset = 0;
  unsigned dims = 0, boxes = 0, strides = 0, estrides = 0;
  const kernel::TensorMapType* type = nullptr;
  while (!value.empty()) {
    const size_t comma = value.find(',');
    const std::string_view kv = value.substr(0, comma);
    value = comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
    const size_t eq = kv.find('=');
    const std::string_view key = kv.substr(0, eq), v = eq == std::string_view::npos ? "" : kv.substr(eq + 1);
    if (key == "type" && (type = kernel::tensor_map_type(v))) {
      m.type = type->cuda_value;
    } else if (key == "dims") {
      dims = parse_extents(v, m.dims, 1, uint64_t{1} << 32, key, bad);
    } else if (key == "box") {
      boxes = parse_extents(v, m.box, 1, 256, key, bad);
    } else if (key == "strides") {
      strides = parse_extents(v, m.strides, 16, (uint64_t{1} << 40) - 1, key, bad);
    } else if (key == "estrides") {
      estrides = parse_extents(v, m.element_strides, 1, 8, key, bad);
    } else if (key == "swizzle" && (v == "none" || v == "32B" || v == "64B" || v == "128B")) {
      m.swizzle = v == "none" ? 0 : v == "32B" ? 1 : v == "64B" ? 2 : 3;
    } else if (key == "oob" && (v == "zero" || v == "nan")) {
      m.oob_nan = v == "nan";
    } else if (!(key == "offset" && parse_u64(v, offset))) {
      throw bad(
          fmt::format("bad '{}': type=u8|u16|u32|s32|u64|s64|f16|f32|f64|bf16|"
                      "f32_ftz|tf32|tf32_ftz, dims=, box=, strides= (bytes, dims 1 on), estrides=, "
                      "swizzle=none|32B|64B|128B, oob=zero|nan, offset=BYTES",
                      kv));
    }
  }
  if (!type || dims == 0 || boxes != dims)
    throw bad("a tensor map needs type=, dims= and as many box= extents as dims");
  if ((estrides && estrides != dims) || (strides && strides != dims - 1))
    throw bad("estrides= takes one per dim, strides= one per dim after the first");
  m.rank = static_cast<uint8_t>(dims);
  for (unsigned d = 1; d < dims && !strides; ++d)  // packed
    m.strides[d - 1] = (d == 1 ? uint64_t{m.dims[0]} * type->bytes : m.strides[d - 2] * m.dims[d - 1]);
  Arg a = buffer >= 0 ? Arg::tensor_map(m, buffer) : Arg::tensor_map(m, buffer_arg(buffer_spec, bad).data);
  a.offset = offset;
  return a;
}

}  // namespace

kernel::VariableFill parse_variable_fill(std::string_view spec, const kernel::Kernel& k) {
  const size_t eq = spec.find('=');
  auto bad = [&](const std::string& why) { return KernelError(fmt::format("--const '{}': {}", spec, why)); };
  if (eq == std::string_view::npos || eq == 0) throw bad("expected NAME=FILE or NAME=random:SEED");
  kernel::VariableFill f;
  f.name = std::string(spec.substr(0, eq));
  const std::string_view value = spec.substr(eq + 1);
  if (value.substr(0, 7) == "random:") {
    uint64_t seed = 0;
    if (!parse_u64(value.substr(7), seed)) throw bad("expected NAME=random:SEED with SEED an integer");
    size_t bytes = 0;  // an unknown name is make_memory's error, with the names there are
    for (const auto* list : {&k.constants, &k.globals})
      for (const kernel::GlobalVariable& v : *list)
        if (v.name == f.name) bytes = v.init.size();
    f.bytes.resize(bytes);
    for (size_t i = 0; i < f.bytes.size(); i += 8) {
      const uint64_t r = util::splitmix64(seed);
      for (size_t b = 0; b < 8 && i + b < f.bytes.size(); ++b) f.bytes[i + b] = static_cast<uint8_t>(r >> (8 * b));
    }
    return f;
  }
  std::string text;
  switch (models::read_text_file(std::string(value), kMaxBufferBytes, text)) {
    case models::ReadStatus::cannot_open: throw bad("cannot open the file");
    case models::ReadStatus::too_large: throw bad(fmt::format("the file is larger than {} bytes", kMaxBufferBytes));
    case models::ReadStatus::ok: break;
  }
  f.bytes.assign(text.begin(), text.end());
  return f;
}

kernel::Dim3 parse_dim3(std::string_view text, std::string_view option) {
  uint32_t v[3] = {1, 1, 1};
  size_t n = 0;
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    uint64_t x = 0;
    if (n == 3 || !parse_u64(part, x) || x == 0 || x > 0xffffffffu)
      throw KernelError(fmt::format("{} '{}': expected X[,Y[,Z]] of positive integers", option, text));
    v[n++] = static_cast<uint32_t>(x);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return {v[0], v[1], v[2]};
}

Arg parse_arg(std::string_view spec, unsigned index, const kernel::Param& p) {
  auto bad = [&](const std::string& why) {
    return KernelError(
        fmt::format("--arg {} '{}' for parameter {} ('.{} {}'): {}", index + 1, spec, index, p.type, p.name, why));
  };
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) throw bad("expected TYPE:VALUE (u32:1024, f32:0.5, buf:FILE, ...)");
  const std::string_view type = spec.substr(0, colon), value = spec.substr(colon + 1);
  if (type == "buf") return buffer_with_offset(value, bad);
  if (type == "tex") return texture_arg(value, bad);
  if (type == "tmap") return tensor_map_arg(value, bad);
  struct ScalarType {
    std::string_view name;
    unsigned bytes;
    bool is_signed, floating;
  };
  static constexpr ScalarType kTypes[] = {
      {"u8", 1, false, false},  {"s8", 1, true, false},  {"u16", 2, false, false}, {"s16", 2, true, false},
      {"u32", 4, false, false}, {"s32", 4, true, false}, {"u64", 8, false, false}, {"s64", 8, true, false},
      {"f32", 4, false, true},  {"f64", 8, false, true},
  };
  const ScalarType* t = nullptr;
  for (const ScalarType& k : kTypes)
    if (k.name == type) t = &k;
  if (!t) throw bad(fmt::format("unknown type '{}' (u8..u64, s8..s64, f32, f64, buf, tex or tmap)", type));
  const uint64_t mask = t->bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * t->bytes)) - 1;
  Arg a;
  a.bytes = t->bytes;
  a.kind = t->floating ? Arg::Kind::floating : Arg::Kind::integer;
  uint64_t bits = 0;
  if (value.size() > 2 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {  // raw bits, any type
    if (!parse_u64(value, bits) || (bits & ~mask) != 0) throw bad(fmt::format("bits wider than {} bytes", t->bytes));
  } else if (t->floating) {
    const std::string v(value);
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size()) throw bad("expected a number or 0x bits");
    if (t->bytes == 4) {
      if (std::isfinite(d) && std::fabs(d) > 3.4028234663852886e38)
        throw bad("out of the f32 range");  // strtod then a narrowing cast would be undefined
      bits = Arg::f32(static_cast<float>(d)).value;
    } else {
      bits = Arg::f64(d).value;
    }
  } else if (t->is_signed) {
    int64_t v = 0;
    const int64_t lo = t->bytes == 8 ? INT64_MIN : -(int64_t{1} << (8 * t->bytes - 1));
    const int64_t hi = t->bytes == 8 ? INT64_MAX : (int64_t{1} << (8 * t->bytes - 1)) - 1;
    if (!parse_i64(value, v) || v < lo || v > hi) throw bad(fmt::format("expected an integer {}..{}", lo, hi));
    bits = static_cast<uint64_t>(v) & mask;
  } else {
    if (!parse_u64(value, bits) || (bits & ~mask) != 0) throw bad(fmt::format("expected an integer 0..{}", mask));
  }
  a.value = bits;
  return a;
}

}  // namespace ptxfu::sweep
