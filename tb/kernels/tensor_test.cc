// The warp-wide matrix instructions of the kernel executor (mma.sync,
// ldmatrix, stmatrix, movmatrix) and the warpgroup's wgmma.mma_async (at the
// end). Oracles written apart from src/kernel:
// the fragment layouts as the PTX ISA states them shape by shape ("Matrix
// Fragments for mma.m16n8k16" and its siblings), piecewise as there, and,
// for the arithmetic, the engine's matrix semantics (mma::matmul on whole
// matrices, no fragments) or host integer arithmetic.
#include <functional>
#include <set>

#include <fmt/format.h>

#include "kernel/tensor.h"
#include "kernel_test_util.h"
#include "mma/matrix.h"

namespace ptxfu::kernel::testing {
namespace {

using tensor::Coord;
using tensor::Mat;

// ---- the PTX ISA's formulas, shape by shape (g = %laneid >> 2, t = %laneid % 4)

using SpecFn = std::function<Coord(unsigned lane, unsigned i)>;
struct SpecLayout {
  SpecFn a, b, c;
};

SpecLayout spec_m16n8k16_f16() {
  return {[](unsigned l, unsigned i) {
            const int g = l >> 2, t = l % 4;
            const int row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
            const int col = i < 4 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8;
            return Coord{row, col};
          },
          [](unsigned l, unsigned i) {
            const int g = l >> 2, t = l % 4;
            return Coord{i < 2 ? t * 2 + int(i & 1) : t * 2 + int(i & 1) + 8, g};
          },
          [](unsigned l, unsigned i) {
            const int g = l >> 2, t = l % 4;
            return Coord{i < 2 ? g : g + 8, t * 2 + int(i & 1)};
          }};
}

SpecLayout spec_m16n8k8_f16() {
  SpecLayout s = spec_m16n8k16_f16();
  s.a = [](unsigned l, unsigned i) {
    const int g = l >> 2, t = l % 4;
    return Coord{i < 2 ? g : g + 8, t * 2 + int(i & 1)};
  };
  s.b = [](unsigned l, unsigned i) { return Coord{int(l % 4) * 2 + int(i), int(l >> 2)}; };
  return s;
}

SpecLayout spec_m16n8k4_tf32() {
  SpecLayout s = spec_m16n8k16_f16();
  s.a = [](unsigned l, unsigned i) { return Coord{i == 0 ? int(l >> 2) : int(l >> 2) + 8, int(l % 4)}; };
  s.b = [](unsigned l, unsigned) { return Coord{int(l % 4), int(l >> 2)}; };
  return s;
}

SpecLayout spec_m16n8k8_tf32() {
  SpecLayout s = spec_m16n8k16_f16();
  s.a = [](unsigned l, unsigned i) {
    const int g = l >> 2, t = l % 4;
    return Coord{(i == 0 || i == 2) ? g : g + 8, i < 2 ? t : t + 4};
  };
  s.b = [](unsigned l, unsigned i) { return Coord{i == 0 ? int(l % 4) : int(l % 4) + 4, int(l >> 2)}; };
  return s;
}

SpecLayout spec_m16n8k32_8bit() {
  SpecLayout s = spec_m16n8k16_f16();
  s.a = [](unsigned l, unsigned i) {
    const int g = l >> 2, t = l % 4;
    const int row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
    const int col = i < 8 ? t * 4 + int(i & 3) : t * 4 + int(i & 3) + 16;
    return Coord{row, col};
  };
  s.b = [](unsigned l, unsigned i) {
    const int g = l >> 2, t = l % 4;
    return Coord{i < 4 ? t * 4 + int(i & 3) : t * 4 + int(i & 3) + 16, g};
  };
  return s;
}

SpecLayout spec_m8n8k4_f64() {
  return {[](unsigned l, unsigned) {
            return Coord{int(l >> 2), int(l % 4)};
          },
          [](unsigned l, unsigned) {
            return Coord{int(l % 4), int(l >> 2)};
          },
          [](unsigned l, unsigned i) {
            return Coord{int(l >> 2), int(l % 4) * 2 + int(i)};
          }};
}

// m8n8k4 .f16: the quad pairs' own 8x8x4 products, .row.col, f32 accumulators.
SpecLayout spec_m8n8k4_f16_row_col_f32() {
  return {[](unsigned l, unsigned i) {
            return Coord{l < 16 ? int(l % 4) : int(l % 4) + 4, int(i)};
          },
          [](unsigned l, unsigned i) {
            return Coord{int(i), l < 16 ? int(l % 4) : int(l % 4) + 4};
          },
          [](unsigned l, unsigned i) {
            const int x = int(l & 1) + int(i & 2);
            return Coord{l < 16 ? x : x + 4, int(i & 4) + int(l & 2) + int(i & 1)};
          }};
}

struct Form {
  std::string name;
  std::string target;
  SpecLayout spec;
  int m, n, k;
  int na, nb, nc;  // elements per lane
  int a_bits, c_bits, d_bits;
  bool quad_pairs = false;
};

std::vector<Form> forms() {
  return {
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80", spec_m16n8k16_f16(), 16, 8, 16, 8, 4, 4, 16, 32,
       32},
      {"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "sm_80", spec_m16n8k16_f16(), 16, 8, 16, 8, 4, 4, 16, 16,
       16},
      {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_80", spec_m16n8k16_f16(), 16, 8, 16, 8, 4, 4, 16, 32,
       32},
      {"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "sm_75", spec_m16n8k8_f16(), 16, 8, 8, 4, 2, 4, 16, 32, 32},
      {"mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", "sm_80", spec_m16n8k8_f16(), 16, 8, 8, 4, 2, 4, 16, 16, 16},
      {"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", "sm_80", spec_m16n8k8_f16(), 16, 8, 8, 4, 2, 4, 16, 32,
       32},
      {"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", "sm_80", spec_m16n8k4_tf32(), 16, 8, 4, 2, 1, 4, 32, 32,
       32},
      {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "sm_90", spec_m16n8k8_tf32(), 16, 8, 8, 4, 2, 4, 32, 32,
       32},
      {"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "sm_80", spec_m8n8k4_f64(), 8, 8, 4, 1, 1, 2, 64, 64, 64},
      {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "sm_80", spec_m16n8k32_8bit(), 16, 8, 32, 16, 8, 4, 8, 32,
       32},
      {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32", "sm_80", spec_m16n8k32_8bit(), 16, 8, 32, 16, 8, 4,
       8, 32, 32},
      {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "sm_89", spec_m16n8k32_8bit(), 16, 8, 32, 16, 8, 4, 8, 32,
       32},
      {"mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", "sm_90", spec_m16n8k32_8bit(), 16, 8, 32, 16, 8, 4, 8, 32,
       32},
      {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "sm_70", spec_m8n8k4_f16_row_col_f32(), 8, 8, 4, 4, 4, 8, 16,
       32, 32, true},
  };
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> w;
  size_t at = 0;
  for (size_t dot; (dot = s.find('.', at)) != std::string::npos; at = dot + 1) w.push_back(s.substr(at, dot - at));
  w.push_back(s.substr(at));
  return w;
}

tensor::TensorOp lowered(const Form& f) {
  const std::vector<std::string> words = split_words(f.name);
  const std::vector<std::string_view> views(words.begin(), words.end());
  return tensor::lower_mma(views, f.name, f.target);
}

TEST(TensorFragments, EveryLaneAndElementIsWhereThePtxIsaPutsIt) {
  for (const Form& f : forms()) {
    const tensor::TensorOp op = lowered(f);
    const auto check = [&](Mat which, int elements, const SpecFn& spec, const char* what) {
      ASSERT_EQ(tensor::fragment_elements(op.layout, which), elements) << f.name << " " << what;
      for (unsigned lane = 0; lane < 32; ++lane)
        for (int i = 0; i < elements; ++i) {
          const Coord want = spec(lane, static_cast<unsigned>(i));
          const Coord got = tensor::fragment_coord(op.layout, which, lane, static_cast<unsigned>(i));
          ASSERT_EQ(got.row, want.row) << f.name << " " << what << " lane " << lane << " element " << i;
          ASSERT_EQ(got.col, want.col) << f.name << " " << what << " lane " << lane << " element " << i;
        }
    };
    check(Mat::a, f.na, f.spec.a, "A");
    check(Mat::b, f.nb, f.spec.b, "B");
    check(Mat::c, f.nc, f.spec.c, "C");
  }
}

TEST(TensorFragments, EachProductsElementsAreHeldOnce) {
  for (const Form& f : forms()) {
    const tensor::TensorOp op = lowered(f);
    for (const auto& [index, size] : {std::pair{&op.a_index, f.m * f.k}, std::pair{&op.b_index, f.n * f.k},
                                      std::pair{&op.c_index, f.m * f.n}, std::pair{&op.d_index, f.m * f.n}}) {
      const std::set<uint16_t> distinct(index->begin(), index->end());
      EXPECT_EQ(distinct.size(), index->size()) << f.name;
      EXPECT_EQ(static_cast<int>(index->size()), size * (f.quad_pairs ? 4 : 1)) << f.name;
    }
  }
}

// ---- running mma.sync in a kernel

// A kernel that loads each fragment register j of lane l from buffer word
// j * 32 + l (8 bytes a word), runs the instruction and stores D the same way.
std::string mma_kernel(const Form& f) {
  const int ab_reg = f.a_bits == 64 ? 64 : 32, c_reg = f.c_bits == 64 ? 64 : 32, d_reg = f.d_bits == 64 ? 64 : 32;
  const auto regs = [](int elements, int bits) { return bits >= 32 ? elements : elements * bits / 32; };
  const int ra = regs(f.na, f.a_bits), rb = regs(f.nb, f.a_bits), rc = regs(f.nc, f.c_bits), rd = regs(f.nc, f.d_bits);
  std::string s = ".version 8.7\n.target " + f.target + "\n.address_size 64\n" +
                  ".visible .entry run_mma(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n" +
                  "  .reg .b32 %r<2>;\n  .reg .b64 %rd<12>;\n" + fmt::format("  .reg .b{} %a<{}>;\n", ab_reg, ra) +
                  fmt::format("  .reg .b{} %b<{}>;\n", ab_reg, rb) + fmt::format("  .reg .b{} %c<{}>;\n", c_reg, rc) +
                  fmt::format("  .reg .b{} %d<{}>;\n", d_reg, rd) +
                  "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd1, %r1, 8;\n";
  const char* params[] = {"pa", "pb", "pc", "pd"};
  for (int p = 0; p < 4; ++p)
    s += fmt::format("  ld.param.u64 %rd{0}, [{1}];\n  add.u64 %rd{0}, %rd{0}, %rd1;\n", p + 2, params[p]);
  const auto loads = [&](const char* name, int n, int bits, int base) {
    std::string list;
    for (int j = 0; j < n; ++j) {
      s += fmt::format("  ld.b{} %{}{}, [%rd{}+{}];\n", bits, name, j, base, j * 256);
      list += fmt::format("{}%{}{}", j ? ", " : "", name, j);
    }
    return "{" + list + "}";
  };
  const std::string a = loads("a", ra, ab_reg, 2), b = loads("b", rb, ab_reg, 3), c = loads("c", rc, c_reg, 4);
  std::string d;
  for (int j = 0; j < rd; ++j) d += fmt::format("{}%d{}", j ? ", " : "", j);
  s += fmt::format("  {} {{{}}}, {}, {}, {};\n", f.name, d, a, b, c);
  for (int j = 0; j < rd; ++j) s += fmt::format("  st.b{} [%rd5+{}], %d{};\n", d_reg, j * 256, j);
  return s + "  ret;\n}\n";
}

// Elements into per-lane register words with the spec's layout: word
// j * 32 + lane holds elements j * per ... of lane's fragment.
std::vector<uint64_t> pack(const SpecFn& spec, int elements, int bits, int cols, const std::vector<uint64_t>& m,
                           bool quad_pairs, int matrix_size, bool by_columns = false) {
  const int per = bits >= 32 ? 1 : 32 / bits;
  std::vector<uint64_t> words(size_t(elements / per) * 32);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (int i = 0; i < elements; ++i) {
      const Coord c = spec(lane, unsigned(i));
      const size_t base = quad_pairs ? size_t((lane >> 2) & 3) * matrix_size : 0;
      const uint64_t v = m[base + (by_columns ? size_t(c.col) * cols + c.row : size_t(c.row) * cols + c.col)];
      const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
      words[size_t(i / per) * 32 + lane] |= (v & mask) << ((i % per) * bits);
    }
  return words;
}

uint64_t random_element(SplitMix64& r, int bits, bool tf32) {
  uint64_t v = r.next();
  if (bits == 16) v &= 0xbfff;  // exponents below the top: finite values
  if (bits == 32 && tf32) v &= 0xbfffffff;
  if (bits == 32 && !tf32) v &= 0xbfffffff;
  if (bits == 64) v &= 0xbfffffffffffffffull;
  if (bits == 8) v &= 0xff;
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

TEST(TensorMma, EveryFormComputesWhatTheEngineComputesOnWholeMatrices) {
  SplitMix64 rng{23};
  for (const Form& f : forms()) {
    const mma::Instruction inst = mma::parse_instruction(f.name, f.target);
    const int products = f.quad_pairs ? 4 : 1;
    const bool tf32 = f.name.find("tf32") != std::string::npos;
    std::vector<uint64_t> a(size_t(products) * f.m * f.k), b_cols(size_t(products) * f.n * f.k),
        c(size_t(products) * f.m * f.n);
    for (auto& x : a) x = random_element(rng, f.a_bits, tf32);
    for (auto& x : b_cols) x = random_element(rng, f.a_bits, tf32);
    for (auto& x : c) x = random_element(rng, f.c_bits, false);
    const auto wa = pack(f.spec.a, f.na, f.a_bits, f.k, a, f.quad_pairs, f.m * f.k);
    const auto wb = pack(f.spec.b, f.nb, f.a_bits, f.k, b_cols, f.quad_pairs, f.n * f.k, true);
    const auto wc = pack(f.spec.c, f.nc, f.c_bits, f.n, c, f.quad_pairs, f.m * f.n);
    const Kernel k = load_kernel(mma_kernel(f), "mma.ptx");
    Launch l;
    l.block = {32};
    l.args = {Arg::buffer(bytes_of(wa)), Arg::buffer(bytes_of(wb)), Arg::buffer(bytes_of(wc)), Arg::zeros(8 * 32 * 8)};
    const RunResult r = run_ok(k, l);
    ASSERT_TRUE(r.ok) << f.name << ": " << r.error;
    const auto words = values_of<uint64_t>(r.memory, 3);
    std::vector<uint64_t> want(c.size());
    for (int p = 0; p < products; ++p)
      mma::matmul_cols(inst, f.m, f.n, f.k, a.data() + p * f.m * f.k, b_cols.data() + p * f.n * f.k,
                       c.data() + p * f.m * f.n, want.data() + p * f.m * f.n);
    const auto wd = pack(f.spec.c, f.nc, f.d_bits, f.n, want, f.quad_pairs, f.m * f.n);
    for (size_t w = 0; w < wd.size(); ++w)
      ASSERT_EQ(words[w], wd[w]) << f.name << " register " << w / 32 << " lane " << w % 32;
  }
}

// Small integers make every form exact: D = A B + C in host arithmetic.
TEST(TensorMma, F16ToF32OfSmallIntegersIsTheHostProduct) {
  const Form f = forms()[0];
  std::vector<uint64_t> a(16 * 16), b_cols(8 * 16), c(16 * 8);
  std::vector<int> ai(a.size()), bi(b_cols.size()), ci(c.size());
  for (size_t i = 0; i < a.size(); ++i) ai[i] = int(i * 7 % 13), a[i] = fp16_of_integer(uint32_t(ai[i]));
  for (size_t i = 0; i < b_cols.size(); ++i) bi[i] = int(i * 5 % 11), b_cols[i] = fp16_of_integer(uint32_t(bi[i]));
  for (size_t i = 0; i < c.size(); ++i) ci[i] = int(i % 17), c[i] = bits_of(float(ci[i]));
  const Kernel k = load_kernel(mma_kernel(f), "mma.ptx");
  Launch l;
  l.block = {32};
  l.args = {Arg::buffer(bytes_of(pack(f.spec.a, 8, 16, 16, a, false, 0))),
            Arg::buffer(bytes_of(pack(f.spec.b, 4, 16, 16, b_cols, false, 0, true))),
            Arg::buffer(bytes_of(pack(f.spec.c, 4, 32, 8, c, false, 0))), Arg::zeros(4 * 32 * 8)};
  const RunResult r = run_ok(k, l);
  ASSERT_TRUE(r.ok) << r.error;
  const auto words = values_of<uint64_t>(r.memory, 3);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      const Coord at = f.spec.c(lane, i);
      int sum = ci[size_t(at.row) * 8 + at.col];
      for (int kk = 0; kk < 16; ++kk) sum += ai[size_t(at.row) * 16 + kk] * bi[size_t(at.col) * 16 + kk];
      EXPECT_EQ(float_of(uint32_t(words[i * 32 + lane])), float(sum)) << "lane " << lane << " element " << i;
    }
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- ldmatrix, stmatrix, movmatrix

// Lane l supplies the address of row l % 8 of matrix l / 8: shared bytes
// l * 16 (+ `off`). The 8x8 b16 matrices come from `in` (row-major, one
// after another); the destination registers go to out[j * 32 + lane].
std::string ldmatrix_kernel(int x, bool trans, const std::string& extra = "") {
  std::string regs, stores;
  for (int j = 0; j < x; ++j) {
    regs += fmt::format("{}%r{}", j ? ", " : "", 10 + j);
    stores += fmt::format("  st.global.u32 [%rd6+{}], %r{};\n", j * 128, 10 + j);
  }
  return ".version 8.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry ld(.param .u64 pin, .param .u64 pout, .param .u32 poff)\n{\n"
         "  .shared .align 16 .b8 smem[1024];\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
         "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
         "  ld.param.u32 %r9, [poff];\n  mul.wide.u32 %rd3, %r1, 16;\n  add.u64 %rd4, %rd1, %rd3;\n"
         "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n  mov.u32 %r6, smem;\n  shl.b32 %r7, %r1, 4;\n"
         "  add.u32 %r8, %r6, %r7;\n  st.shared.v4.u32 [%r8], {%r2, %r3, %r4, %r5};\n  bar.sync 0;\n"
         "  add.u32 %r8, %r8, %r9;\n" +
         fmt::format("  ldmatrix.sync.aligned.m8n8.x{}{}.shared.b16 {{{}}}, [%r8];\n", x, trans ? ".trans" : "", regs) +
         extra + "  mul.wide.u32 %rd5, %r1, 4;\n  add.u64 %rd6, %rd2, %rd5;\n" + stores + "  ret;\n}\n";
}

std::vector<uint16_t> matrices_in() {
  std::vector<uint16_t> m(4 * 64);
  SplitMix64 r{7};
  for (auto& v : m) v = static_cast<uint16_t>(r.next());
  return m;
}

// PTX ISA (ldmatrix): each thread receives, of each 8x8 matrix, row
// %laneid >> 2 and columns (%laneid % 4) * 2 + i, i = 0, 1, low to high;
// with .trans, of the transposed matrix.
uint32_t fragment_word(const std::vector<uint16_t>& m, int matrix, unsigned lane, bool trans) {
  const auto at = [&](int row, int col) { return uint32_t{m[size_t(matrix) * 64 + row * 8 + col]}; };
  const int row = int(lane >> 2), col = int(lane % 4) * 2;
  if (trans) return at(col, row) | at(col + 1, row) << 16;
  return at(row, col) | at(row, col + 1) << 16;
}

TEST(TensorLdmatrix, EveryCountWithAndWithoutTransGivesThePtxIsaFragments) {
  const std::vector<uint16_t> in = matrices_in();
  for (int x : {1, 2, 4})
    for (bool trans : {false, true}) {
      const Kernel k = load_kernel(ldmatrix_kernel(x, trans), "ld.ptx");
      Launch l;
      l.block = {32};
      l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(4 * 128), Arg::u32(0)};
      const RunResult r = run_ok(k, l);
      ASSERT_TRUE(r.ok) << r.error;
      const auto out = values_of<uint32_t>(r.memory, 1);
      for (int j = 0; j < x; ++j)
        for (unsigned lane = 0; lane < 32; ++lane)
          ASSERT_EQ(out[size_t(j) * 32 + lane], fragment_word(in, j, lane, trans))
              << "x" << x << (trans ? " trans" : "") << " matrix " << j << " lane " << lane;
    }
}

TEST(TensorMovmatrix, TransposesTheFragmentAcrossTheWarp) {
  const std::vector<uint16_t> in = matrices_in();
  const Kernel k =
      load_kernel(ldmatrix_kernel(1, false, "  movmatrix.sync.aligned.m8n8.trans.b16 %r10, %r10;\n"), "mov.ptx");
  Launch l;
  l.block = {32};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(128), Arg::u32(0)};
  const RunResult r = run_ok(k, l);
  ASSERT_TRUE(r.ok) << r.error;
  const auto out = values_of<uint32_t>(r.memory, 1);
  for (unsigned lane = 0; lane < 32; ++lane) ASSERT_EQ(out[lane], fragment_word(in, 0, lane, true)) << lane;
}

// stmatrix writes the rows ldmatrix read: rows stored at 512 + l * 16 and
// read back with ld.shared (lane l: row l % 8 of matrix l / 8).
TEST(TensorStmatrix, StoresTheRowsLdmatrixLoads) {
  const std::vector<uint16_t> in = matrices_in();
  for (bool trans : {false, true}) {
    const std::string t = trans ? ".trans" : "";
    const std::string extra = "  add.u32 %r14, %r8, 512;\n  stmatrix.sync.aligned.m8n8.x4" + t +
                              ".shared.b16 [%r14], {%r10, %r11, %r12, %r13};\n  bar.sync 0;\n"
                              "  ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r14];\n";
    const Kernel k = load_kernel(ldmatrix_kernel(4, trans, extra), "st.ptx");
    Launch l;
    l.block = {32};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(4 * 128), Arg::u32(0)};
    const RunResult r = run_ok(k, l);
    ASSERT_TRUE(r.ok) << r.error;
    const auto out = values_of<uint32_t>(r.memory, 1);
    // out[j * 32 + lane] is word j of row `lane`: the input's.
    for (unsigned lane = 0; lane < 32; ++lane)
      for (int j = 0; j < 4; ++j)
        ASSERT_EQ(out[size_t(j) * 32 + lane], uint32_t{in[lane * 8 + j * 2]} | uint32_t{in[lane * 8 + j * 2 + 1]} << 16)
            << (trans ? "trans " : "") << "row " << lane << " word " << j;
  }
}

// ---- bad use: compute-sanitizer's words, with the PTX line

TEST(TensorErrors, UnalignedLdmatrixAddressIsAMisalignedSharedRead) {
  const Kernel k = load_kernel(ldmatrix_kernel(4, false), "ld.ptx");
  Launch l;
  l.block = {32};
  l.args = {Arg::buffer(bytes_of(matrices_in())), Arg::zeros(4 * 128), Arg::u32(8)};
  const RunResult r = run_functional(k, l);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "ld.ptx:22:3: error: Invalid __shared__ read of size 16 bytes at 0x8 by thread (0,0,0) "
                       "in block (0,0,0), warp 0, lane 0 ('ldmatrix.sync.aligned.m8n8.x4.shared.b16'): "
                       "address is misaligned"));
}

TEST(TensorErrors, MmaInDivergentCodeIsADivergentWarp) {
  const std::string mma =
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r1}, {%r1}, "
      "{%f1, %f1, %f1, %f1};";
  const std::string text =
      ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry div()\n{\n"
      "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .f32 %f<5>;\n  mov.u32 %r1, %tid.x;\n"
      "  setp.lt.u32 %p1, %r1, 16;\n  mov.f32 %f1, 0f00000000;\n  @%p1 " +
      mma + "\n  ret;\n}\n";
  const Kernel k = load_kernel(text, "div.ptx");
  Launch l;
  l.block = {32};
  const RunResult r = run_functional(k, l);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "div.ptx:12:8: error: Barrier error detected. Divergent thread(s) in warp: "
                       "'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32' is .aligned"));
  EXPECT_TRUE(Contains(r.error, "lanes 0x0000ffff do and lanes 0xffff0000 do not"));
}

TEST(TensorErrors, AFragmentRegisterOfTheWrongWidthIsRefusedAtLoad) {
  const std::string text =
      ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry bad()\n{\n"
      "  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n  .reg .f32 %f<5>;\n"
      "  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %rd1}, {%r1}, "
      "{%f1, %f1, %f1, %f1};\n  ret;\n}\n";
  try {
    load_kernel(text, "bad.ptx");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    // The statement check refuses it first, with ptxas 13.0's words for this
    // text ("line 9; error   : Incompatible elements of vector expression").
    EXPECT_TRUE(Contains(e.what(), "bad.ptx:9:")) << e.what();
    EXPECT_TRUE(Contains(e.what(), "Incompatible elements of vector expression")) << e.what();
  }
}

}  // namespace
}  // namespace ptxfu::kernel::testing

#include <fstream>

#include "../ptxas.h"
#include "../scratch_dir.h"

namespace ptxfu::kernel::testing {
namespace {

// ptxas's verdict on `text` for its .target; empty when it accepts it.
std::string ptxas_errors(const std::string& ptxas, const std::string& text, const std::string& arch) {
  testing_support::ScratchDir dir;
  const std::string path = dir / "k.ptx";
  std::ofstream(path) << text;
  std::FILE* p = ::popen((ptxas + " -arch=" + arch + " " + path + " -o /dev/null 2>&1").c_str(), "r");
  std::vector<std::string> other;
  const auto diagnostics = testing_support::read_ptxas(p, other);
  const int status = ::pclose(p);
  std::string out;
  for (const auto& d : diagnostics) out += d.message + "\n";
  if (status != 0 && out.empty())
    for (const std::string& line : other) out += line + "\n";
  return out;
}

// The kernels these tests write are PTX that NVIDIA's assembler accepts.
TEST(TensorKernels, EveryGeneratedKernelIsLegalPtx) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas";
  for (const Form& f : forms()) {  // CUDA 13's ptxas has no sm_70: it assembles sm_70 code for sm_75
    const std::string arch = f.target == "sm_70" ? "sm_75" : f.target;
    EXPECT_EQ(ptxas_errors(ptxas, mma_kernel(f), arch), "") << f.name;
  }
  for (int x : {1, 2, 4})
    for (bool trans : {false, true})
      EXPECT_EQ(ptxas_errors(ptxas, ldmatrix_kernel(x, trans), "sm_90"), "") << "ldmatrix x" << x << trans;
  EXPECT_EQ(
      ptxas_errors(ptxas, ldmatrix_kernel(1, false, "  movmatrix.sync.aligned.m8n8.trans.b16 %r10, %r10;\n"), "sm_90"),
      "");
  EXPECT_EQ(ptxas_errors(ptxas,
                         ldmatrix_kernel(
                             4, false, "  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r8], {%r10, %r11, %r12, %r13};\n"),
                         "sm_90"),
            "");
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// PTX ISA (ldmatrix): .x1 takes its row addresses from threads 0-7 and .x2
// from threads 0-15; the other threads' addresses are not used, so a
// misaligned one there is no fault.
TEST(TensorLdmatrix, OnlyTheThreadsWhoseRowsTheCountUsesGiveAddresses) {
  const std::vector<uint16_t> in = matrices_in();
  for (int x : {1, 2}) {
    std::string text = ldmatrix_kernel(x, false);
    const std::string add = "  add.u32 %r8, %r8, %r9;\n";
    text.replace(text.find(add), add.size(),
                 "  .reg .pred %p<2>;\n  setp.ge.u32 %p1, %r1, 8;\n  @%p1 add.u32 %r8, %r8, %r9;\n");
    const Kernel k = load_kernel(text, "ld.ptx");
    Launch l;
    l.block = {32};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(4 * 128), Arg::u32(8)};  // lanes 8-31 misaligned
    const RunResult r = run_functional(k, l);
    if (x == 1) {
      ASSERT_TRUE(r.ok) << r.error;
      const auto out = values_of<uint32_t>(r.memory, 1);
      for (unsigned lane = 0; lane < 32; ++lane) ASSERT_EQ(out[lane], fragment_word(in, 0, lane, false)) << lane;
    } else {
      ASSERT_FALSE(r.ok);
      EXPECT_TRUE(Contains(r.error, "by thread (8,0,0) in block (0,0,0), warp 0, lane 8")) << r.error;
    }
  }
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- wgmma.mma_async m64n8k16 f32.f16.f16 on one warpgroup: shared memory
// filled from a global image the test lays out, the descriptors kernel
// arguments, each thread's four accumulators dumped as they lie. Oracles
// written apart from src/kernel: the canonical layouts of the shared-memory
// matrices (core matrices of 8 rows of 16 bytes; the 128-byte swizzle XORs
// the 16-byte chunk with the row within its 1024-byte atom), the
// accumulator fragment as the PTX ISA states it (warp w, rows 16w + g and
// 16w + g + 8, columns 2t and 2t + 1), and small integers whose products
// and sums are exact in f32 (the host's integer arithmetic).

constexpr unsigned kImageBytes = 12288;  // A at 0 (up to 8 KiB), B at 8192

std::string wgmma_kernel(int trans_a, int trans_b, unsigned block_threads = 128) {
  return fmt::format(
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry wg(.param .u64 image, .param .u64 out, .param .u64 da, .param .u64 db)\n{{\n"
      "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<10>;\n  .reg .f32 %f<5>;\n"
      "  .shared .align 1024 .b8 s[{0}];\n"
      "  ld.param.u64 %rd1, [image];\n  ld.param.u64 %rd2, [out];\n"
      "  ld.param.u64 %rd3, [da];\n  ld.param.u64 %rd4, [db];\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
      "$copy:\n"
      "  mad.lo.u32 %r3, %r2, {1}, %r1;\n  shl.b32 %r3, %r3, 2;\n"
      "  cvt.u64.u32 %rd5, %r3;\n  add.u64 %rd6, %rd1, %rd5;\n  ld.global.u32 %r4, [%rd6];\n"
      "  mov.u32 %r5, s;\n  add.u32 %r5, %r5, %r3;\n  st.shared.u32 [%r5], %r4;\n"
      "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, {2};\n  @%p1 bra $copy;\n"
      "  bar.sync 0;\n"
      "  mov.f32 %f1, 0f00000000;\n  mov.f32 %f2, 0f00000000;\n  mov.f32 %f3, 0f00000000;\n"
      "  mov.f32 %f4, 0f00000000;\n  setp.ne.u32 %p1, %r1, 4096;\n"
      "  wgmma.fence.sync.aligned;\n"
      "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f1, %f2, %f3, %f4}}, %rd3, %rd4, %p1, 1, 1, {3}, "
      "{4};\n"
      "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n"
      "  mul.wide.u32 %rd7, %r1, 16;\n  add.u64 %rd8, %rd2, %rd7;\n"
      "  st.global.v4.f32 [%rd8], {{%f1, %f2, %f3, %f4}};\n  ret;\n}}\n",
      kImageBytes, block_threads, kImageBytes / (block_threads * 4), trans_a, trans_b);
}

struct Placement {
  unsigned lbo, sbo;
  bool swizzle;
};

// Byte offset of (mn, k) of a 2-byte matrix at a 1024-byte-aligned base.
unsigned layout_offset(const Placement& p, bool k_major, unsigned mn, unsigned k) {
  const unsigned row = k_major ? mn : k, byte = k_major ? 2 * k : 2 * mn;  // a core-matrix row and the byte along it
  if (!p.swizzle)
    return k_major ? (mn / 8) * p.sbo + (byte / 16) * p.lbo + (mn % 8) * 16 + byte % 16
                   : (byte / 16) * p.sbo + (k / 8) * p.lbo + (k % 8) * 16 + byte % 16;
  const unsigned atom_row = row % 8, chunk = (byte % 128) / 16 ^ atom_row;
  const unsigned atom = k_major ? (mn / 8) * p.sbo : (byte / 128) * p.lbo + (k / 8) * p.sbo;
  return atom + atom_row * 128 + chunk * 16 + byte % 16;
}

uint64_t descriptor(unsigned start, const Placement& p) {
  return uint64_t{start >> 4} | uint64_t{p.lbo >> 4} << 16 | uint64_t{p.sbo >> 4} << 32 |
         (p.swizzle ? uint64_t{1} << 62 : 0);
}

uint16_t f16_of_int(int v) {  // |v| < 2048: exact
  if (v == 0) return 0;
  const unsigned m = static_cast<unsigned>(v < 0 ? -v : v);
  int e = 31 - __builtin_clz(m);
  return static_cast<uint16_t>((v < 0 ? 0x8000 : 0) | (e + 15) << 10 | ((m << (10 - e)) & 0x3ff));
}

TEST(TensorWgmma, EveryDescriptorLayoutAndTransposeGivesTheHostProduct) {
  const Placement none{128, 256, false}, sw{2048, 1024, true};
  for (bool swizzle : {false, true})
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb) {
        const Placement& p = swizzle ? sw : none;
        SplitMix64 r{uint64_t(ta * 2 + tb + (swizzle ? 4 : 0))};
        int a[64][16], b[16][8];
        std::vector<uint8_t> image(kImageBytes);
        for (unsigned m = 0; m < 64; ++m)
          for (unsigned k = 0; k < 16; ++k) {
            a[m][k] = int(r.next() % 15) - 7;
            const uint16_t h = f16_of_int(a[m][k]);
            std::memcpy(&image[layout_offset(p, ta == 0, m, k)], &h, 2);
          }
        for (unsigned k = 0; k < 16; ++k)
          for (unsigned n = 0; n < 8; ++n) {
            b[k][n] = int(r.next() % 15) - 7;
            const uint16_t h = f16_of_int(b[k][n]);
            std::memcpy(&image[8192 + layout_offset(p, tb == 0, n, k)], &h, 2);
          }
        Launch l;
        l.block = {128};
        l.args = {Arg::buffer(image), Arg::zeros(128 * 16), Arg::u64(descriptor(0, p)), Arg::u64(descriptor(8192, p))};
        const RunResult run = run_ok(load_kernel(wgmma_kernel(ta, tb), "wg.ptx"), l);
        ASSERT_TRUE(run.ok) << run.error;
        const auto got = values_of<float>(run.memory, 1);
        for (unsigned tid = 0; tid < 128; ++tid)
          for (unsigned i = 0; i < 4; ++i) {
            const unsigned lane = tid % 32, row = 16 * (tid / 32) + lane / 4 + 8 * (i / 2),
                           col = 2 * (lane % 4) + i % 2;
            int want = 0;
            for (unsigned k = 0; k < 16; ++k) want += a[row][k] * b[k][col];
            ASSERT_EQ(got[tid * 4 + i], float(want)) << (swizzle ? "128B swizzle" : "no swizzle") << " trans-a " << ta
                                                     << " trans-b " << tb << ": D(" << row << ", " << col << ")";
          }
      }
}

// Bad use, in compute-sanitizer's words where it has some, with the PTX line.
RunResult run_wgmma(uint64_t da, uint64_t db, unsigned threads = 128) {
  Launch l;
  l.block = {threads};
  l.args = {Arg::zeros(kImageBytes), Arg::zeros(threads * 16), Arg::u64(da), Arg::u64(db)};
  return run_functional(load_kernel(wgmma_kernel(0, 0, threads), "wg.ptx"), l);
}

TEST(TensorWgmmaErrors, AWarpgroupOfFewerThanFourWarpsIsADivergentWarpgroup) {
  const RunResult r = run_wgmma(descriptor(0, {128, 256, false}), descriptor(8192, {128, 256, false}), 64);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "wg.ptx:35:3: error: Barrier error detected. Divergent thread(s) in warpgroup: "
                       "'wgmma.fence.sync.aligned' is executed by a whole warpgroup, warps 0 to 3 of the "
                       "block, but in block (0,0,0) warp 2 does not exist (the block has 2 warps)"))
      << r.error;
}

TEST(TensorWgmmaErrors, AWarpgroupWhoseWarpsExitedBeforeTheirWgmmaIsADivergentWarpgroup) {
  std::string text = wgmma_kernel(0, 0);
  const std::string bar = "  bar.sync 0;\n";
  text.insert(text.find(bar) + bar.size(), "  setp.ge.u32 %p1, %r1, 64;\n  @%p1 exit;\n");
  Launch l;
  l.block = {128};
  const Placement none{128, 256, false};
  l.args = {Arg::zeros(kImageBytes), Arg::zeros(128 * 16), Arg::u64(descriptor(0, none)),
            Arg::u64(descriptor(8192, none))};
  const RunResult r = run_functional(load_kernel(text, "wg.ptx"), l);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "wg.ptx:38:3: error: Barrier error detected. Divergent thread(s) in warpgroup: "
                       "'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16' is executed by a whole "
                       "warpgroup, warps 0 to 3 of the block, but in block (0,0,0) warp 2 has exited after "
                       "0 of them"))
      << r.error;
}

TEST(TensorWgmmaErrors, ASwizzledMatrixOutsideItsAtomsFirstRowIsMisaligned) {
  const Placement sw{16, 1024, true};
  const RunResult r = run_wgmma(descriptor(512, sw), descriptor(8192, sw));
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "wg.ptx:36:3: error: Misaligned Shared Address: the descriptor of A (start 0x200, "
                       "LBO 16, SBO 1024, layout 128B swizzle)"))
      << r.error;
}

TEST(TensorWgmmaErrors, TheSwizzlesTheExecutorDoesNotTakeAreRefusedByName) {
  const RunResult r = run_wgmma(descriptor(0, {128, 256, false}), descriptor(8192, {128, 256, false}) | 2ull << 62);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "the 64-byte swizzle is not supported by the kernel executor")) << r.error;
}

TEST(TensorWgmmaErrors, AMatrixBeyondSharedMemoryIsAnInvalidSharedRead) {
  const RunResult r = run_wgmma(descriptor(0, {128, 256, false}), descriptor(12288 - 64, {128, 256, false}));
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "error: Invalid __shared__ read of size 2 bytes at 0x3040 through the descriptor of B"))
      << r.error;
  EXPECT_TRUE(Contains(r.error, "address is out of bounds: the CTA has 12288 bytes of shared memory")) << r.error;
}

TEST(TensorWgmmaErrors, WgmmaOnATargetWithoutItIsRefusedAtLoadInPtxassWords) {
  std::string text = wgmma_kernel(0, 0);
  text.replace(text.find("sm_90a"), 6, "sm_90");
  try {
    load_kernel(text, "wg.ptx");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(),
                         "wg.ptx:36:3: error: Instruction 'wgmma.mma_async with floating point types' not "
                         "supported on .target 'sm_90'"))
        << e.what();
  }
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- wgmma forms beyond the corpus's: A and B K-major without swizzle in a
// 16 KiB image (A at 0, B at 8192), D dumped register by register, against
// the engine on whole matrices (mma::matmul: no fragments, no descriptors).

struct WgForm {
  std::string name;  // the instruction
  int n, k, elem_bytes;
  std::string d_reg, imms;  // D's register type; the immediates after scale-d
  bool f16_d;
};

std::string wgmma_form_kernel(const WgForm& f) {
  const int regs = f.f16_d ? f.n / 4 : f.n / 2;
  std::string frag, stores;
  for (int j = 0; j < regs; ++j) {
    frag += fmt::format("{}%d{}", j ? ", " : "", j);
    stores += fmt::format("  st.global.{} [%rd8+{}], %d{};\n", f.d_reg == "f32" ? "f32" : "u32", 4 * j, j);
  }
  return fmt::format(
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry wg(.param .u64 image, .param .u64 out, .param .u64 da, .param .u64 db)\n{{\n"
      "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<10>;\n  .reg .{0} %d<{1}>;\n"
      "  .shared .align 1024 .b8 s[16384];\n"
      "  ld.param.u64 %rd1, [image];\n  ld.param.u64 %rd2, [out];\n"
      "  ld.param.u64 %rd3, [da];\n  ld.param.u64 %rd4, [db];\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
      "$copy:\n"
      "  mad.lo.u32 %r3, %r2, 128, %r1;\n  shl.b32 %r3, %r3, 2;\n"
      "  cvt.u64.u32 %rd5, %r3;\n  add.u64 %rd6, %rd1, %rd5;\n  ld.global.u32 %r4, [%rd6];\n"
      "  mov.u32 %r5, s;\n  add.u32 %r5, %r5, %r3;\n  st.shared.u32 [%r5], %r4;\n"
      "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 32;\n  @%p1 bra $copy;\n"
      "  bar.sync 0;\n  setp.eq.u32 %p1, %r1, 4096;\n"
      "  wgmma.fence.sync.aligned;\n"
      "  {2} {{{3}}}, %rd3, %rd4, %p1{4};\n"
      "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n"
      "  mul.wide.u32 %rd7, %r1, {5};\n  add.u64 %rd8, %rd2, %rd7;\n{6}  ret;\n}}\n",
      f.d_reg, regs, f.name, frag, f.imms, 4 * regs, stores);
}

uint64_t random_element(SplitMix64& r, std::string_view type) {
  const uint64_t v = r.next();
  if (type == "f16") return (v & 0x8000) | ((11 + (v >> 16) % 8) << 10) | (v >> 32 & 0x3ff);
  if (type == "bf16") return (v & 0x8000) | ((123 + (v >> 16) % 8) << 7) | (v >> 32 & 0x7f);
  if (type == "e5m2") return (v & 0x80) | ((13 + (v >> 8) % 4) << 2) | (v >> 16 & 3);
  if (type == "e4m3") return (v & 0x80) | ((4 + (v >> 8) % 8) << 3) | (v >> 16 & 7);
  return v & 0xff;  // s8, u8
}

TEST(TensorWgmma, FormsAndWidthsComputeWhatTheEngineComputesOnWholeMatrices) {
  const WgForm forms[] = {
      {"wgmma.mma_async.sync.aligned.m64n24k16.f32.bf16.bf16", 24, 16, 2, "f32", ", 1, 1, 0, 0", false},
      {"wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", 256, 16, 2, "f32", ", 1, 1, 0, 0", false},
      {"wgmma.mma_async.sync.aligned.m64n40k16.f16.f16.f16", 40, 16, 2, "b32", ", 1, -1, 0, 0", true},
      {"wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e5m2", 8, 32, 1, "b32", ", -1, 1", true},
      {"wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3", 16, 32, 1, "f32", ", 1, 1", false},
      {"wgmma.mma_async.sync.aligned.m64n48k32.s32.s8.s8", 48, 32, 1, "b32", "", false},
      {"wgmma.mma_async.sync.aligned.m64n24k32.satfinite.s32.u8.u8", 24, 32, 1, "b32", "", false},
  };
  for (const WgForm& f : forms) {
    const mma::Instruction inst = mma::parse_instruction(f.name, "sm_90a");
    const std::string type(mma::elem_name(inst.a));
    SplitMix64 r{uint64_t(f.n * 7 + f.k)};
    std::vector<uint64_t> a(64 * size_t(f.k)), b(size_t(f.k) * f.n), c(64 * size_t(f.n), 0);
    std::vector<uint8_t> image(16384);
    const Placement p{128, 256, false};
    const bool neg_a = f.imms.rfind(", -1", 0) == 0, neg_b = f.imms.find(", 1, -1") == 0;
    const uint64_t sign = uint64_t{1} << (8 * f.elem_bytes - 1);
    for (unsigned m = 0; m < 64; ++m)
      for (unsigned k = 0; k < unsigned(f.k); ++k) {
        const uint64_t v = random_element(r, type);
        a[m * f.k + k] = neg_a ? v ^ sign : v;  // imm-scale-a -1: A's sign bits flipped
        std::memcpy(&image[(m / 8) * p.sbo + (k * f.elem_bytes / 16) * p.lbo + (m % 8) * 16 + k * f.elem_bytes % 16],
                    &v, size_t(f.elem_bytes));
      }
    for (unsigned n = 0; n < unsigned(f.n); ++n)
      for (unsigned k = 0; k < unsigned(f.k); ++k) {
        const uint64_t v = random_element(r, type);
        b[k * f.n + n] = neg_b ? v ^ sign : v;
        std::memcpy(
            &image[8192 + (n / 8) * p.sbo + (k * f.elem_bytes / 16) * p.lbo + (n % 8) * 16 + k * f.elem_bytes % 16], &v,
            size_t(f.elem_bytes));
      }
    const int regs = f.f16_d ? f.n / 4 : f.n / 2;
    Launch l;
    l.block = {128};
    l.args = {Arg::buffer(image), Arg::zeros(128 * 4 * size_t(regs)), Arg::u64(descriptor(0, p)),
              Arg::u64(descriptor(8192, p))};
    const RunResult run = run_ok(load_kernel(wgmma_form_kernel(f), "wg.ptx"), l);
    ASSERT_TRUE(run.ok) << f.name << ": " << run.error;
    const auto got = values_of<uint32_t>(run.memory, 1);
    const std::vector<uint64_t> want = mma::matmul(inst, 64, f.n, f.k, a, b, c);
    for (unsigned tid = 0; tid < 128; ++tid)
      for (int i = 0; i < f.n / 2; ++i) {
        const unsigned lane = tid % 32;
        const unsigned row = 16 * (tid / 32) + lane / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
        const uint32_t reg = got[tid * regs + (f.f16_d ? i / 2 : i)];
        const uint64_t d = f.f16_d ? reg >> (16 * (i % 2)) & 0xffff : reg;
        ASSERT_EQ(d, want[row * f.n + col]) << f.name << ": D(" << row << ", " << col << ")";
      }
  }
}

// The wgmma kernels these tests write are PTX that NVIDIA's assembler accepts.
TEST(TensorWgmma, EveryGeneratedKernelIsLegalPtx) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas";
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) EXPECT_EQ(ptxas_errors(ptxas, wgmma_kernel(ta, tb), "sm_90a"), "") << ta << tb;
  const WgForm forms[] = {
      {"wgmma.mma_async.sync.aligned.m64n40k16.f16.f16.f16", 40, 16, 2, "b32", ", 1, -1, 0, 0", true},
      {"wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e5m2", 8, 32, 1, "b32", ", -1, 1", true},
      {"wgmma.mma_async.sync.aligned.m64n24k32.satfinite.s32.u8.u8", 24, 32, 1, "b32", "", false},
  };
  for (const WgForm& f : forms) EXPECT_EQ(ptxas_errors(ptxas, wgmma_form_kernel(f), "sm_90a"), "") << f.name;
}

}  // namespace
}  // namespace ptxfu::kernel::testing
