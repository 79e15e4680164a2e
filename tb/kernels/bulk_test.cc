// The bulk copies (cp.async.bulk, cp.async.bulk.tensor with tensor maps):
// hand-written kernels in bulk.ptx whose answers a host reference written
// here computes (the box gather, the zero or NaN fill, the swizzle), the
// corpus kernels bulk_copy and tma_pipeline against host references, and
// the errors. Functional here; the same tests on the SM model in the
// .model executable.
#include <cmath>
#include <tuple>

#include "kernel_test_util.h"
#ifdef PTXFU_KERNELS_ON_MODEL
#include "model_run.h"
#include "models/config.h"
#endif

namespace ptxfu::kernel::testing {
namespace {

// A packed row-major tensor map of u32 elements over a buffer of its own.
TensorMap map_u32(std::initializer_list<uint32_t> dims, std::initializer_list<uint32_t> box) {
  TensorMap m;
  m.type = 2;  // CU_TENSOR_MAP_DATA_TYPE_UINT32
  m.rank = static_cast<uint8_t>(dims.size());
  unsigned d = 0;
  for (uint32_t v : dims) m.dims[d++] = v;
  d = 0;
  for (uint32_t v : box) m.box[d++] = v;
  uint64_t stride = 4;
  for (d = 1; d < m.rank; ++d) m.strides[d - 1] = stride *= m.dims[d - 1];
  return m;
}

// Where byte `o` of a box lands under a swizzle of `span` bytes (0: none),
// written from the pattern's description: in each 128-byte row of shared
// memory, the 16-byte chunk index is XORed with the row number modulo the
// span's chunk count.
uint32_t swizzle_reference(uint32_t o, uint32_t span) {
  if (span == 0) return o;
  const uint32_t row = o / 128, chunk = (o % 128) / 16;
  return row * 128 + ((chunk ^ (row % (span / 16))) * 16) + o % 16;
}

// The box of a u32 tensor (values `t`, dims innermost first) at `c`, as
// shared memory holds it: elements in box order, outside ones `fill`.
std::vector<uint32_t> box_reference(const TensorMap& m, const std::vector<uint32_t>& t, const int32_t* c,
                                    uint32_t fill) {
  std::vector<uint32_t> plain;
  const uint32_t n0 = (m.box[0] + m.element_strides[0] - 1) / m.element_strides[0];
  const uint32_t n1 = m.rank > 1 ? (m.box[1] + m.element_strides[1] - 1) / m.element_strides[1] : 1;
  const uint32_t n2 = m.rank > 2 ? (m.box[2] + m.element_strides[2] - 1) / m.element_strides[2] : 1;
  for (uint32_t k = 0; k < n2; ++k)
    for (uint32_t j = 0; j < n1; ++j)
      for (uint32_t i = 0; i < n0; ++i) {
        const int64_t x = c[0] + int64_t{i} * m.element_strides[0];
        const int64_t y = m.rank > 1 ? c[1] + int64_t{j} * m.element_strides[1] : 0;
        const int64_t z = m.rank > 2 ? c[2] + int64_t{k} * m.element_strides[2] : 0;
        const bool in = x >= 0 && x < m.dims[0] && y >= 0 && y < m.dims[1] && z >= 0 && z < m.dims[2];
        plain.push_back(in ? t[(z * m.dims[1] + y) * m.dims[0] + x] : fill);
      }
  const uint32_t span = m.swizzle ? 16u << m.swizzle : 0;
  std::vector<uint32_t> smem(plain.size());
  for (uint32_t e = 0; e < plain.size(); ++e) smem[swizzle_reference(e * 4, span) / 4] = plain[e];
  return smem;
}

std::vector<uint32_t> random_words(size_t n, uint64_t seed) {
  SplitMix64 rng{seed};
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = static_cast<uint32_t>(rng.next()) | 1;  // never 0: a zero fill shows
  return v;
}

TEST(Bulk, TensorLoadsGatherTheBoxFillOutsideAndSwizzle) {
  const Kernel k = load_handwritten("bulk.ptx", "load3d");
  struct Case {
    std::initializer_list<uint32_t> dims, box;
    int32_t c[3];
    uint8_t swizzle;
    uint32_t estride0;
    bool nan;
  };
  const Case cases[] = {
      {{40, 7, 3}, {8, 4, 2}, {4, 2, 1}, 0, 1, false},     // inside
      {{40, 7, 3}, {8, 4, 2}, {36, -2, 2}, 0, 1, false},   // past every edge: zeros
      {{40, 7, 3}, {8, 4, 2}, {-5, 5, -1}, 0, 1, true},    // NaN fill (the type says float)
      {{64, 16, 2}, {32, 16, 1}, {0, 0, 1}, 3, 1, false},  // 128B swizzle: 128-byte rows, 8 chunks
      {{64, 16, 2}, {16, 8, 2}, {16, 3, 0}, 2, 1, false},  // 64B swizzle
      {{64, 16, 2}, {8, 8, 2}, {8, 1, 0}, 1, 1, false},    // 32B swizzle
      {{40, 7, 3}, {16, 3, 1}, {3, 1, 0}, 0, 3, false},    // element stride 3: ceil(16 / 3) = 6 of the row
  };
  for (const Case& tc : cases) {
    TensorMap m = map_u32(tc.dims, tc.box);
    m.swizzle = tc.swizzle;
    m.element_strides[0] = tc.estride0;
    if (tc.nan) m.type = 7, m.oob_nan = 1;  // f32
    const std::vector<uint32_t> t = random_words(size_t{m.dims[0]} * m.dims[1] * m.dims[2], tc.c[0] + 100);
    const std::vector<uint32_t> want = box_reference(m, t, tc.c, tc.nan ? 0x7fffffff : 0);
    const uint32_t bytes = static_cast<uint32_t>(want.size() * 4);
    if (tc.estride0 == 3) {
      ASSERT_EQ(want.size(), 6u * 3) << "the host reference's own count";
    }
    Launch l;
    l.block = {32};
    l.args = {Arg::tensor_map(m, bytes_of(t)),
              Arg::zeros(bytes),
              Arg::s32(tc.c[0]),
              Arg::s32(tc.c[1]),
              Arg::s32(tc.c[2]),
              Arg::u32(bytes),
              Arg::u32(bytes / 4)};
    const auto got = values_of<uint32_t>(run_ok(k, l).memory, 1);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << "word " << i << " coordinates " << tc.c[0] << "," << tc.c[1] << "," << tc.c[2]
                                 << " swizzle " << int{tc.swizzle};
  }
}

TEST(Bulk, TensorStoresWriteOnlyInsideTheTensor) {
  const Kernel k = load_handwritten("bulk.ptx", "store2d");
  for (const auto& [c0, c1, swizzle] : {std::tuple{8, 2, 0}, {-8, -2, 0}, {24, 5, 0}, {0, 0, 3}}) {
    TensorMap m = map_u32({40, 9}, {swizzle ? 32u : 16u, 4});
    m.swizzle = static_cast<uint8_t>(swizzle);
    const uint32_t words = m.box[0] * m.box[1];
    const std::vector<uint32_t> smem = random_words(words, 7 + c0);
    std::vector<uint32_t> want(40 * 9, 0);
    for (uint32_t j = 0; j < m.box[1]; ++j)
      for (uint32_t i = 0; i < m.box[0]; ++i) {
        const int x = c0 + static_cast<int>(i), y = c1 + static_cast<int>(j);
        const uint32_t at = swizzle_reference((j * m.box[0] + i) * 4, swizzle ? 128 : 0) / 4;
        if (x >= 0 && x < 40 && y >= 0 && y < 9) want[y * 40 + x] = smem[at];
      }
    Launch l;
    l.block = {32};
    l.args = {Arg::tensor_map(m, std::vector<uint8_t>(40 * 9 * 4)), Arg::buffer(bytes_of(smem)), Arg::s32(c0),
              Arg::s32(c1), Arg::u32(words)};
    const auto got = values_of<uint32_t>(run_ok(k, l).memory, 0);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << "element " << i << " box at " << c0 << "," << c1;
  }
}

#ifndef PTXFU_KERNELS_ON_MODEL
TEST(Bulk, BadMapsAndAddressesAreFaultsNamingTheMapAndCoordinates) {
  const Kernel k = load_handwritten("bulk.ptx", "load1d");
  const TensorMap m = map_u32({64}, {32});
  struct Case {
    Arg map;
    uint32_t offset;
    std::vector<std::string> parts;
  };
  const Case cases[] = {
      {Arg::tensor_map(m, std::vector<uint8_t>(256)),
       64,
       {"bulk.ptx:112:3: error: Invalid __shared__ write of size 128 bytes at 0x40 by thread (0,0,0) in block (0,0,0)",
        "a bulk copy's shared address must be a multiple of 128"}},
      {Arg::tensor_map(m, std::vector<uint8_t>(256)), 256, {"address is out of bounds: the CTA has"}},
      // a 64-element box over a map whose 64 elements have only 32 behind them
      {Arg::tensor_map(map_u32({64}, {64}), std::vector<uint8_t>(128)),
       0,
       {"bulk.ptx:112:3: error: 'cp.async.bulk.tensor.1d", "lane 0: the tensor map at 0x",
        ", coordinates {0}: element at global address 0x", " is in no allocation"}},
      {Arg::buffer(std::vector<uint8_t>(128)),  // 128 zero bytes: not a map
       0,
       {"bulk.ptx:112:3: error: 'cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes' in "
        "warp 0 of block (0,0,0): lane 0: the tensor map at 0x",
        ": it is not a tensor map ptxfu encoded"}},
  };
  for (const Case& tc : cases) {
    Launch l;
    l.args = {tc.map, Arg::u32(tc.offset), Arg::u32(128)};
    const RunResult r = run_functional(k, l);
    ASSERT_FALSE(r.ok) << tc.parts[0];
    for (const std::string& part : tc.parts) EXPECT_TRUE(Contains(r.error, part)) << r.error;
  }
}

TEST(Bulk, ATransactionCountTheCopiesNeverMeetHangsNamingTheBarrier) {
  const Kernel k = load_handwritten("bulk.ptx", "load1d");
  Launch l;
  l.args = {Arg::tensor_map(map_u32({64}, {32}), std::vector<uint8_t>(256)), Arg::u32(0), Arg::u32(129)};
  const RunResult r = run_functional(k, l, {20000});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "never completes (phase 0: 0 of 1 arrivals pending, tx-count 1)")) << r.error;
}

// What the executor does not model is refused at load, naming the line (a
// wrong coordinate count already by the checker, in ptxas's words).
TEST(Bulk, FormsNotModelledAreRefusedAtLoad) {
  const std::string head =
      ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 m)\n{\n"
      "  .reg .b64 %rd<4>;\n  .reg .b32 %r<4>;\n  .reg .b16 %h<2>;\n  .shared .align 128 .b8 s[256];\n"
      "  .shared .align 8 .b64 bar;\n";
  const std::pair<std::string, std::string> cases[] = {
      {"  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [s], [%rd1, "
       "{%r1, %r2, "
       "%r3}], [bar];\n",
       "k.ptx:11:3: error: Argument 2 of instruction 'cp.async.bulk.tensor': Argument vector size "
       "mismatch"},  // the checker's
      {"  "
       "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::"
       "cluster [s], "
       "[%rd1, {%r1}], [bar], %h1;\n",
       "qualifier '.multicast::cluster' is not supported by the kernel executor"},
      {"  cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [s], [s], 16, [bar];\n",
       "the kernel executor runs bulk copies global to shared"},
      {"  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [s], 16;\n",
       "is not supported by the kernel executor"},
  };
  for (const auto& [body, message] : cases) {
    try {
      load_kernel(head + body + "  ret;\n}\n", "k.ptx");
      ADD_FAILURE() << "loaded: " << body;
    } catch (const KernelError& e) {
      EXPECT_TRUE(Contains(e.what(), message)) << e.what();
    }
  }
}

TEST(Bulk, TensorMapsAreValidatedAtLaunch) {
  const Kernel k = load_handwritten("bulk.ptx", "load1d");
  TensorMap m = map_u32({64}, {3});  // 12 bytes: not a multiple of 16
  Launch l;
  l.args = {Arg::tensor_map(m, std::vector<uint8_t>(256)), Arg::u32(0), Arg::u32(12)};
  EXPECT_TRUE(Contains(run_functional(k, l).error, "the box's inner dimension is 12 bytes, not a multiple of 16"));
  m = map_u32({64}, {4});  // 16 bytes: a swizzle needs whole 128-byte rows in shared memory
  m.swizzle = 1;
  l.args[0] = Arg::tensor_map(m, std::vector<uint8_t>(256));
  EXPECT_TRUE(Contains(run_functional(k, l).error, "a swizzled box of 16 bytes is not whole 128-byte rows"));
  m = map_u32({64}, {64});
  m.swizzle = 1;
  l.args[0] = Arg::tensor_map(m, std::vector<uint8_t>(256));
  EXPECT_TRUE(Contains(run_functional(k, l).error, "more than the 32-byte swizzle span"));
}
#endif

#ifdef PTXFU_KERNELS_ON_MODEL
// A bulk copy lands async.bulk_latency cycles after its global access, and
// the wait on its mbarrier ends then: the kernel's cycles move by as much.
TEST(Bulk, ALoadLandsTheConfigsBulkLatencyAfterItsAccess) {
  const Kernel k = load_handwritten("bulk.ptx", "load1d");
  std::string yaml;
  for (const auto& e : models::embedded_configs())
    if (e.name == "sm_90") yaml = std::string(e.text);
  const std::string key = "bulk_latency: 100";
  ASSERT_NE(yaml.find(key), std::string::npos);
  auto run = [&](unsigned latency) {
    std::string y = yaml;
    y.replace(y.find(key), key.size(), "bulk_latency: " + std::to_string(latency));
    Launch l;
    l.args = {Arg::tensor_map(map_u32({64}, {32}), std::vector<uint8_t>(256)), Arg::u32(0), Arg::u32(128)};
    return run_on_model(k, l, false, 0, y);
  };
  const ModelRun a = run(100), b = run(600);
  ASSERT_TRUE(a.result.ok && b.result.ok) << a.result.error << b.result.error;
  EXPECT_EQ(b.cycles - a.cycles, 500u);
}
#endif

// ---- bulk_copy.cu: chunks through shared memory, reversed

class BulkCopyCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(BulkCopyCorpus, ChunksComeBackReversed) {
  const Kernel k = load_corpus("bulk_copy", GetParam(), "_Z9bulk_copyPKjPjj");
  for (const auto& [chunks, grid] : {std::pair{1u, 1u}, {5u, 2u}}) {
    const std::vector<uint32_t> in = random_words(chunks * 256, chunks);
    Launch l;
    l.grid = {grid};
    l.block = {64};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(chunks * 1024), Arg::u32(chunks)};
    const auto out = values_of<uint32_t>(run_ok(k, l).memory, 1);
    for (uint32_t c = 0; c < chunks; ++c)
      for (uint32_t i = 0; i < 256; ++i)
        ASSERT_EQ(out[c * 256 + i], in[c * 256 + 255 - i]) << "chunk " << c << " word " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, BulkCopyCorpus, ::testing::Values("sm_90", "sm_100", "sm_120"));

// ---- tma_pipeline.cu: tiles through a three-stage ring, squared plus one

class TmaPipelineCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(TmaPipelineCorpus, TilesMatchTheHostAndTheEdgesAreZeroFilled) {
  const Kernel k = load_corpus("tma_pipeline", GetParam(), "_Z12tma_pipeline14CUtensorMap_stS_Pfii");
  for (const auto& [rows, cols, grid] : {std::tuple{16u, 32u, 1u}, {40u, 72u, 2u}, {100u, 52u, 3u}}) {
    SplitMix64 rng{rows * 7 + cols};
    std::vector<float> a(rows * cols);
    for (auto& v : a) v = rng.uniform(-3, 3);
    TensorMap m;
    m.type = 7;  // f32
    m.rank = 2;
    m.dims[0] = cols, m.dims[1] = rows;
    m.strides[0] = cols * 4;
    m.box[0] = 32, m.box[1] = 16;
    const uint32_t tile_cols = (cols + 31) / 32, tiles = tile_cols * ((rows + 15) / 16);
    Launch l;
    l.grid = {grid};
    l.block = {128};
    l.args = {Arg::tensor_map(m, bytes_of(a)), Arg::tensor_map(m, std::vector<uint8_t>(a.size() * 4)),
              Arg::zeros(tiles * 16 * 4), Arg::s32(static_cast<int32_t>(rows)), Arg::s32(static_cast<int32_t>(cols))};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<float>(r.memory, 1);
    const auto sums = values_of<float>(r.memory, 2);
    for (uint32_t i = 0; i < a.size(); ++i) ASSERT_EQ(bits_of(out[i]), bits_of(std::fma(a[i], a[i], 1.0f))) << i;
    for (uint32_t t = 0; t < tiles; ++t)
      for (uint32_t row = 0; row < 16; ++row) {
        float s = 0;
        for (uint32_t c = 0; c < 32; ++c) {
          const uint32_t y = t / tile_cols * 16 + row, x = t % tile_cols * 32 + c;
          s += y < rows && x < cols ? a[y * cols + x] : 0.0f;
        }
        ASSERT_EQ(bits_of(sums[t * 16 + row]), bits_of(s))
            << "tile " << t << " row " << row << " of " << rows << "x" << cols;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, TmaPipelineCorpus, ::testing::Values("sm_90", "sm_100", "sm_120"));

}  // namespace
}  // namespace ptxfu::kernel::testing
