// The checker of tensor_probe's numerics files, before any GPU data exists:
// files written here in the probe's format, with D from host references
// written here (int64 integer sums, popcounts, exact small-integer float
// sums), must agree everywhere; one flipped bit of D must show as exactly one
// mismatch; malformed files must fail with file:line:column.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <ptxfu/ptxfu.hpp>
#include "probe_check.h"
#include "probe_host.h"

namespace ptxfu::probe_check {
namespace {

struct Synth {
  std::string id, instruction, a_type, c_type;
  int m, n, k, a_bits, c_bits;
};

struct Mats {
  std::vector<uint64_t> a, b, c, d;
  int meta = -1;
};

std::string hex_line(char tag, const std::vector<uint64_t>& v, int bits) {
  std::string s(1, tag);
  char buf[24];
  for (uint64_t x : v) {
    std::snprintf(buf, sizeof buf, " %0*llx", (bits + 3) / 4, static_cast<unsigned long long>(x));
    s += buf;
  }
  return s + "\n";
}

std::string file_text(const Synth& s, const std::vector<Mats>& tiles) {
  std::string t = "# synthetic\nform " + s.id + " " + s.instruction + " m=" + std::to_string(s.m) +
                  " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) + " a=" + s.a_type + " c=" + s.c_type +
                  " d=" + s.c_type + " tiles=" + std::to_string(tiles.size()) + "\n";
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    t += "tile " + std::to_string(i) + " synthetic";
    if (tiles[i].meta >= 0) t += " meta=" + std::string(1, "0123456789abcdef"[tiles[i].meta]);
    t += "\n" + hex_line('A', tiles[i].a, s.a_bits) + hex_line('B', tiles[i].b, s.a_bits) +
         hex_line('C', tiles[i].c, s.c_bits) + hex_line('D', tiles[i].d, s.c_bits);
  }
  return t + "end " + std::to_string(tiles.size()) + "\n";
}

int64_t sext(uint64_t v, int bits) { return int64_t(v << (64 - bits)) >> (64 - bits); }

// Integer tiles: random elements, C anywhere in s32 (often near its ends),
// D = C + sum a*b in int64, wrapped or clamped.
std::vector<Mats> int_tiles(const Synth& s, bool is_signed, bool sat, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Mats> tiles(count);
  for (Mats& t : tiles) {
    for (int i = 0; i < s.m * s.k; ++i) t.a.push_back(rng() & ((1ULL << s.a_bits) - 1));
    for (int i = 0; i < s.k * s.n; ++i) t.b.push_back(rng() & ((1ULL << s.a_bits) - 1));
    for (int i = 0; i < s.m * s.n; ++i) {
      const uint64_t edge = rng() % 3 == 0 ? 0x7fffff00ULL + rng() % 256 : rng();
      t.c.push_back(edge & 0xffffffff);
    }
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) {
        int64_t sum = sext(t.c[i * s.n + j], 32);
        for (int k = 0; k < s.k; ++k) {
          const uint64_t x = t.a[i * s.k + k], y = t.b[k * s.n + j];
          sum += is_signed ? sext(x, s.a_bits) * sext(y, s.a_bits) : int64_t(x) * int64_t(y);
        }
        if (sat) sum = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, sum));
        t.d.push_back(uint64_t(sum) & 0xffffffff);
      }
    }
  }
  return tiles;
}

// b1 tiles: D = C + popcount(row op column), wrapping.
std::vector<Mats> b1_tiles(const Synth& s, bool xor_op, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Mats> tiles(count);
  for (Mats& t : tiles) {
    for (int i = 0; i < s.m * s.k; ++i) t.a.push_back(rng() & 1);
    for (int i = 0; i < s.k * s.n; ++i) t.b.push_back(rng() & 1);
    for (int i = 0; i < s.m * s.n; ++i) t.c.push_back((0x7fffff80ULL + rng() % 256) & 0xffffffff);
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) {
        uint32_t sum = uint32_t(t.c[i * s.n + j]);
        for (int k = 0; k < s.k; ++k)
          sum += uint32_t(xor_op ? t.a[i * s.k + k] ^ t.b[k * s.n + j] : t.a[i * s.k + k] & t.b[k * s.n + j]);
        t.d.push_back(sum);
      }
    }
  }
  return tiles;
}

// Float bit patterns of small integers, written with the host's own float
// and double (f16 by hand: sign, exponent, 10 fraction bits).
uint64_t f16_bits(int v) {
  if (v == 0) return 0;
  const uint64_t sign = v < 0 ? 0x8000 : 0;
  int mag = std::abs(v), e = 0;
  while ((mag >> e) > 1) ++e;
  return sign | uint64_t(e + 15) << 10 | ((uint64_t(mag) << (10 - e)) & 0x3ff);
}
uint64_t f32_bits(double v) {
  const float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t f64_bits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return u;
}

// Small-integer float tiles: every sum exact, so D is known without any
// model of the tensor core. `zero` says which A elements mma.sp leaves out.
std::vector<Mats> exact_float_tiles(const Synth& s, const std::function<uint64_t(int)>& enc_a,
                                    const std::function<uint64_t(int)>& enc_c, int count, uint64_t seed, bool sparse) {
  std::mt19937_64 rng(seed);
  std::vector<Mats> tiles(count);
  const int nibbles[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
  for (int n = 0; n < count; ++n) {
    Mats& t = tiles[n];
    t.meta = sparse ? nibbles[n % 6] : -1;
    std::vector<int> a(s.m * s.k), b(s.k * s.n), c(s.m * s.n);
    for (int i = 0; i < s.m * s.k; ++i) {
      const int pos = i % s.k % 4;
      const bool kept = !sparse || pos == (t.meta & 3) || pos == (t.meta >> 2);
      a[i] = kept ? int(rng() % 7) - 3 : 0;
    }
    for (int& x : b) x = int(rng() % 7) - 3;
    for (int& x : c) x = int(rng() % 129) - 64;
    for (int x : a) t.a.push_back(enc_a(x));
    for (int x : b) t.b.push_back(enc_a(x));
    for (int x : c) t.c.push_back(enc_c(x));
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) {
        int sum = c[i * s.n + j];
        for (int k = 0; k < s.k; ++k) sum += a[i * s.k + k] * b[k * s.n + j];
        t.d.push_back(enc_c(sum));
      }
    }
  }
  return tiles;
}

const Synth kS8{"s8_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "s8", "s32", 16, 8, 32, 8, 32};
const Synth kS8Sat{
    "s8_sat_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", "s8", "s32", 16, 8, 32, 8, 32};
const Synth kU8{"u8_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", "u8", "s32", 16, 8, 32, 8, 32};
const Synth kS4Sat{
    "s4_sat_m16n8k64", "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32", "s4", "s32", 16, 8, 64, 4, 32};
const Synth kU4{"u4_m16n8k64", "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32", "u4", "s32", 16, 8, 64, 4, 32};
const Synth kB1Xor{
    "b1_xor_m16n8k256", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", "b1", "s32", 16, 8, 256, 1, 32};
const Synth kB1And{
    "b1_and_m16n8k256", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", "b1", "s32", 16, 8, 256, 1, 32};

FormReport check_text(const Synth& s, const std::vector<Mats>& tiles) {
  return check_form(parse_numerics(file_text(s, tiles), s.id + ".txt"));
}

void expect_all(const FormReport& r, std::size_t tiles, std::size_t readings = 1) {
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.readings.size(), readings);
  for (const Agreement& g : r.readings) {
    EXPECT_EQ(g.tiles, tiles);
    EXPECT_TRUE(g.all()) << describe(r);
    EXPECT_EQ(g.elements_matched, g.elements);
  }
}

TEST(TensorProbeCheck, IntegersAgreeWithHostInt64) {
  expect_all(check_text(kS8, int_tiles(kS8, true, false, 40, 1)), 40);
  expect_all(check_text(kS8Sat, int_tiles(kS8Sat, true, true, 40, 2)), 40);
  expect_all(check_text(kU8, int_tiles(kU8, false, false, 40, 3)), 40);
  expect_all(check_text(kS4Sat, int_tiles(kS4Sat, true, true, 40, 4)), 40);
  expect_all(check_text(kU4, int_tiles(kU4, false, false, 40, 5)), 40);
}

TEST(TensorProbeCheck, SaturationIsTested) {
  // The wrapping reference against a .satfinite file must disagree: the
  // tiles do reach the s32 limits.
  const FormReport r = check_text(kS8Sat, int_tiles(kS8Sat, true, false, 40, 2));
  ASSERT_EQ(r.readings.size(), 1u);
  EXPECT_LT(r.readings[0].tiles_matched, 40u);
}

TEST(TensorProbeCheck, SingleBitFormsAgreeWithPopcount) {
  expect_all(check_text(kB1Xor, b1_tiles(kB1Xor, true, 10, 6)), 10);
  expect_all(check_text(kB1And, b1_tiles(kB1And, false, 10, 7)), 10);
}

TEST(TensorProbeCheck, ExactFloatTilesAgree) {
  const Synth f16{
      "f16_f32_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "f16", "f32", 16, 8, 16, 16, 32};
  expect_all(check_text(f16, exact_float_tiles(
                                 f16, f16_bits, [](int v) { return f32_bits(v); }, 20, 8, false)),
             20);
  const Synth f16f16{
      "f16_f16_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "f16", "f16", 16, 8, 16, 16, 16};
  expect_all(check_text(f16f16, exact_float_tiles(f16f16, f16_bits, f16_bits, 20, 9, false)), 20);
  const Synth f64{"f64_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", "f64", "f64", 16, 8, 16, 64, 64};
  auto d64 = [](int v) { return f64_bits(v); };
  expect_all(check_text(f64, exact_float_tiles(f64, d64, d64, 20, 10, false)), 20);
}

TEST(TensorProbeCheck, SparseReadingsBothAgreeOnExactTiles) {
  const Synth sp{"sp_f16_f32_m16n8k32",
                 "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",
                 "f16",
                 "f32",
                 16,
                 8,
                 32,
                 16,
                 32};
  expect_all(check_text(sp, exact_float_tiles(
                                sp, f16_bits, [](int v) { return f32_bits(v); }, 12, 11, true)),
             12, 2);
}

TEST(TensorProbeCheck, OneFlippedBitIsOneMismatch) {
  std::vector<Mats> tiles = int_tiles(kS8, true, false, 40, 1);
  tiles[17].d[5 * 8 + 3] ^= 1u << 12;
  const FormReport r = check_text(kS8, tiles);
  ASSERT_EQ(r.readings.size(), 1u);
  const Agreement& g = r.readings[0];
  EXPECT_EQ(g.tiles_matched, 39u);
  EXPECT_EQ(g.elements_matched, g.elements - 1);
  ASSERT_EQ(g.first.size(), 1u);
  EXPECT_NE(g.first[0].find("tile 17 (synthetic) D[5][3]"), std::string::npos) << g.first[0];
  EXPECT_NE(describe(r).find("39/40 tiles"), std::string::npos) << describe(r);

  std::vector<Mats> bits = b1_tiles(kB1Xor, true, 4, 6);
  bits[2].d[0] ^= 1;
  EXPECT_EQ(check_text(kB1Xor, bits).readings[0].tiles_matched, 3u);
}

TEST(TensorProbeCheck, MalformedFilesSayWhere) {
  const std::string good = file_text(kS8, int_tiles(kS8, true, false, 2, 1));
  auto error_of = [](const std::string& text) {
    try {
      parse_numerics(text, "x.txt");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of(good.substr(0, good.rfind("end"))).find("x.txt:"), std::string::npos);
  EXPECT_NE(error_of(good.substr(0, good.rfind("end"))).find("no 'end'"), std::string::npos);
  std::string bad_hex = good;
  bad_hex[bad_hex.find("\nB ") + 3] = 'g';
  EXPECT_NE(error_of(bad_hex).find("x.txt:5:3: not a hex digit"), std::string::npos) << error_of(bad_hex);
  std::string short_d = good;
  short_d.erase(short_d.find("\ntile 1") - 9, 9);  // the last element of tile 0's D
  EXPECT_NE(error_of(short_d).find("D has 127 elements, expected 128"), std::string::npos) << error_of(short_d);
  EXPECT_NE(error_of("tile 0 x\n").find("x.txt:1:1: expected 'form"), std::string::npos);
}

TEST(TensorProbeCheck, TheEngineTakesEveryDenseProbeForm) {
  for (const probe::FormInfo& f : probe::kForms) {
    if (f.bitop != probe::BitOp::none || f.sparse) continue;  // compared with the ISA's definition / two readings
    try {
      const MmaInstruction inst(f.ptx, "sm_90");
      EXPECT_EQ(inst.m() * 10000 + inst.n() * 1000 + inst.k(), f.m * 10000 + f.n * 1000 + f.k) << f.id;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f.id << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace ptxfu::probe_check
