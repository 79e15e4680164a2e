// Every H100 texture sample of tb/data/hw/h100/texture.tar.xz (written by
// tb/hw/texture_probe.cu) through the texture model: bit-exact agreement.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "kernel/texture.h"

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

}  // namespace
}  // namespace ptxfu::kernel
