// Every H100 texture sample of tb/data/hw/h100/texture.tar.xz (written by
// tb/hw/texture_probe.cu) through the texture model: bit-exact agreement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "kernel/texture.h"
#include "kernel_test_util.h"

namespace ptxfu::kernel {
namespace {

// The texel values of a '# texture 2d f16 16x8: 0 3c00 ...' line.
TextureDesc texture_of(const std::string& line) {
  std::istringstream in(line.substr(line.find("texture") + 7));
  std::string dims, format, size;
  in >> dims >> format >> size;
  TextureDesc t;
  t.dims = dims == "2d" ? 2 : 1;
  EXPECT_TRUE(parse_texel_format(format, t.format)) << format;
  std::sscanf(size.c_str(), "%dx%d", &t.width, &t.height);
  const int bytes = texel_bytes(t.format);
  for (std::string hex; in >> hex;) {
    const uint32_t v = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
    for (int b = 0; b < bytes; ++b) t.texels.push_back(static_cast<uint8_t>(v >> (8 * b)));
  }
  return t;
}

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(Texture, AgreesWithEveryH100Sample) {
  std::ifstream file(PTXFU_TEXTURE_DIR "/texture.txt");
  ASSERT_TRUE(file) << "no " PTXFU_TEXTURE_DIR "/texture.txt";
  TextureDesc t;
  std::map<std::string, std::pair<int, int>> groups;  // "2d f16 linear wrap 1" -> (agree, total)
  int samples = 0, agree = 0;
  for (std::string line; std::getline(file, line);) {
    if (line.rfind("# texture", 0) == 0) t = texture_of(line);
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string dims, format, filter, address;
    int normalized;
    uint32_t x, y, out;
    in >> dims >> format >> filter >> address >> normalized >> std::hex >> x >> y >> out;
    ASSERT_TRUE(parse_filter_mode(filter, t.filter) && parse_address_mode(address, t.address)) << line;
    t.normalized = normalized != 0;
    const uint32_t got = sample_f32(t, as_float(x), as_float(y));
    auto& g = groups[dims + " " + format + " " + filter + " " + address + " " + std::to_string(normalized)];
    ++samples, ++g.second;
    if (got == out)
      ++agree, ++g.first;
    else if (g.second - g.first <= 2)
      ADD_FAILURE() << line << ": model 0x" << std::hex << got;
  }
  for (const auto& [name, g] : groups) EXPECT_EQ(g.first, g.second) << name;
  std::printf("texture: %d of %d H100 samples agree bit for bit (%zu groups)\n", agree, samples, groups.size());
  EXPECT_EQ(samples, 114688);
  EXPECT_EQ(agree, samples);
}

// ---- texture_objects.cu on the kernel executor, against host references
// written here (point reads, which need no filtering arithmetic).

// The corpus file needs the module parser's [handle, {coordinates}] operands
// (main has them; a branch cut before them says "expected ']'"): skip there.
std::optional<Kernel> texture_corpus(const char* entry) {
  try {
    return testing::load_corpus("texture_objects", "sm_80", entry);
  } catch (const KernelError& e) {
    if (std::string(e.what()).find("expected ']' to close the operand") == std::string::npos) throw;
    return std::nullopt;
  }
}
#define SKIP_WITHOUT_INDEXED_OPERANDS(k) \
  if (!k) GTEST_SKIP() << "this tree's parser does not read [handle, {coordinates}] operands"

TextureDesc grid_texture(TexelFormat f, int width, int height, const std::vector<uint8_t>& texels) {
  TextureDesc t;
  t.format = f, t.width = width, t.height = height, t.dims = height > 1 ? 2 : 1, t.texels = texels;
  return t;
}

TEST(TextureCorpus, Sample2dPointWrapNormalisedMatchesHost) {
  const auto k = texture_corpus("_Z9sample_2dyPKfS0_Pfi");
  SKIP_WITHOUT_INDEXED_OPERANDS(k);
  const int w = 8, h = 4, n = 200;
  std::vector<float> texels(w * h), x(n), y(n);
  for (int i = 0; i < w * h; ++i) texels[i] = static_cast<float>(i * 3 - 40) / 8;
  testing::SplitMix64 rng{5};
  for (int i = 0; i < n; ++i)  // normalised, over [-1.5, 2.5) of the size
    x[i] = static_cast<float>(rng.next() % 4096) / 1024.0f - 1.5f,
    y[i] = static_cast<float>(rng.next() % 4096) / 1024.0f - 1.5f;
  TextureDesc t = grid_texture(TexelFormat::f32, w, h, testing::bytes_of(texels));
  t.address = AddressMode::wrap, t.normalized = true;
  Launch l;
  l.grid = {2};
  l.block = {128};
  l.args = {Arg::texture_object(t), Arg::buffer(testing::bytes_of(x)), Arg::buffer(testing::bytes_of(y)),
            Arg::zeros(n * 4), Arg::u32(n)};
  const RunResult r = testing::run_ok(*k, l);
  const auto out = testing::values_of<float>(r.memory, 3);
  for (int i = 0; i < n; ++i) {
    const int tx = static_cast<int>(std::floor(x[i] * w)), ty = static_cast<int>(std::floor(y[i] * h));
    const float want = texels[((ty % h + h) % h) * w + (tx % w + w) % w];
    ASSERT_EQ(out[i], want) << "i=" << i << " x=" << x[i] << " y=" << y[i];
  }
}

TEST(TextureCorpus, Fetch1dUnorm8ClampMatchesHost) {
  const auto k = texture_corpus("_Z8fetch_1dyPfi");
  SKIP_WITHOUT_INDEXED_OPERANDS(k);
  const int w = 50, n = 64;  // n > w: the last reads clamp to the last texel
  std::vector<uint8_t> texels(w);
  for (int i = 0; i < w; ++i) texels[i] = static_cast<uint8_t>(i * 37 + 11);
  Launch l;
  l.grid = {1};
  l.block = {n};
  l.args = {Arg::texture_object(grid_texture(TexelFormat::unorm8, w, 1, texels)), Arg::zeros(n * 4), Arg::u32(n)};
  const RunResult r = testing::run_ok(*k, l);
  const auto out = testing::values_of<float>(r.memory, 1);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<float>(texels[std::min(i, w - 1)]) / 255.0f) << i;
}

TEST(TextureCorpus, TransposeSurfaceMatchesHost) {
  const auto k = texture_corpus("_Z17transpose_surfaceyyii");
  SKIP_WITHOUT_INDEXED_OPERANDS(k);
  const int w = 12, h = 7;
  std::vector<float> in(w * h);
  for (int i = 0; i < w * h; ++i) in[i] = static_cast<float>(i) * 0.25f - 3;
  Launch l;
  l.grid = {2, 1};
  l.block = {8, 8};
  l.args = {Arg::texture_object(grid_texture(TexelFormat::f32, w, h, testing::bytes_of(in))),
            Arg::texture_object(grid_texture(TexelFormat::f32, h, w, std::vector<uint8_t>(w * h * 4))), Arg::u32(w),
            Arg::u32(h)};
  const RunResult r = testing::run_ok(*k, l);
  ASSERT_EQ(r.memory.textures.size(), 2u);
  const auto out = testing::values_of_bytes<float>(r.memory.textures[1].texels);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ASSERT_EQ(out[x * h + y], 2 * in[y * w + x]) << x << "," << y;
}

TEST(TextureCorpus, AHandleParameterWithoutADescriptorIsRefusedNamingIt) {
  const auto k = texture_corpus("_Z8fetch_1dyPfi");
  SKIP_WITHOUT_INDEXED_OPERANDS(k);
  Launch l;
  l.args = {Arg::u64(0), Arg::zeros(4), Arg::u32(1)};
  const RunResult r = run_functional(*k, l);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("parameter 0 ('_Z8fetch_1dyPfi_param_0') is a texture object handle"), std::string::npos)
      << r.error;
}

TEST(TextureCorpus, SurfaceTrapOutOfRangeIsAFault) {
  const auto k = texture_corpus("_Z17transpose_surfaceyyii");
  SKIP_WITHOUT_INDEXED_OPERANDS(k);
  Launch l;
  l.grid = {1, 1};
  l.block = {4, 4};
  // The destination is too small for the transpose: the write traps.
  l.args = {Arg::texture_object(grid_texture(TexelFormat::f32, 4, 4, std::vector<uint8_t>(64))),
            Arg::texture_object(grid_texture(TexelFormat::f32, 2, 2, std::vector<uint8_t>(16))), Arg::u32(4),
            Arg::u32(4)};
  const RunResult r = run_functional(*k, l);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("outside the 8-byte by 2-row surface"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ptxfu::kernel
