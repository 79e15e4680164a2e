// Lowering of the warp-wide matrix instructions (kernel/tensor.h): the
// fragment layouts of the PTX ISA, the instruction's TensorOp, and the
// statement's operands (the loader's member Lowerer::tensor).
#include <stdexcept>

#include <fmt/format.h>

#include "kernel/kernel.h"
#include "kernel/lower.h"

namespace ptxfu::kernel {
namespace tensor {
using Words = std::vector<std::string_view>;  // as tensor.h declares the lowering functions
namespace {

// The quad-pair layouts of mma.m8n8k4 with .f16 (PTX ISA, "Matrix Fragments
// for mma.m8n8k4 with .f16 floating point type"): lanes 16-31 hold the upper
// half of A's rows, of B's columns and of C's rows.
Coord quad_pair_coord(const FragmentLayout& l, Mat which, unsigned lane, unsigned i) {
  const int hi = lane >= 16 ? 4 : 0, q = static_cast<int>(lane % 4), e = static_cast<int>(i);
  switch (which) {
    case Mat::a: return l.a_col ? Coord{e % 4 + hi, q} : Coord{q + hi, e};
    case Mat::b: return l.b_row ? Coord{q, e + hi} : Coord{e, q + hi};
    case Mat::c:
      if (!l.c_f32) return {q + hi, e};
      return {(q & 1) + (e & 2) + hi, (e & 4) + (q & 2) + (e & 1)};
  }
  return {0, 0};
}

}  // namespace

// Every other shape (PTX ISA, "Matrix Fragments for mma.m16n8k16" and its
// siblings) follows one pattern: a thread's group (lane / 4) picks A's row
// and B's column, its place in the group (lane % 4) a run of `per`
// consecutive k; further elements step 8 rows down, then 4 runs along k.
Coord fragment_coord(const FragmentLayout& l, Mat which, unsigned lane, unsigned i) {
  if (l.quad_pairs) return quad_pair_coord(l, which, lane, i);
  const int g = static_cast<int>(lane >> 2), t = static_cast<int>(lane & 3), e = static_cast<int>(i), per = l.per;
  switch (which) {
    case Mat::a: return {g + 8 * ((e / per) & 1), t * per + e % per + (e / (2 * per)) * 4 * per};
    case Mat::b: return {t * per + e % per + (e / per) * 4 * per, g};
    case Mat::c: return {g + 8 * (e / 2), t * 2 + e % 2};
  }
  return {0, 0};
}

int fragment_elements(const FragmentLayout& l, Mat which) {
  if (l.quad_pairs) return which == Mat::c ? 8 : 4;
  switch (which) {
    case Mat::a: return l.m * l.k / 32;
    case Mat::b: return l.k * l.n / 32;
    case Mat::c: return l.m * l.n / 32;
  }
  return 0;
}

namespace {

struct ShapeRow {
  int m, n, k;
  mma::Elem a;
};
// The mma.sync shapes and A/B types the PTX ISA has fragments for (the
// single-bit and sparse forms aside).
constexpr ShapeRow kShapes[] = {
    {8, 8, 4, mma::Elem::f16},    {8, 8, 4, mma::Elem::f64},    {8, 8, 16, mma::Elem::s8},
    {8, 8, 16, mma::Elem::u8},    {8, 8, 32, mma::Elem::s4},    {8, 8, 32, mma::Elem::u4},
    {16, 8, 4, mma::Elem::tf32},  {16, 8, 4, mma::Elem::f64},   {16, 8, 8, mma::Elem::f16},
    {16, 8, 8, mma::Elem::bf16},  {16, 8, 8, mma::Elem::tf32},  {16, 8, 8, mma::Elem::f64},
    {16, 8, 16, mma::Elem::f16},  {16, 8, 16, mma::Elem::bf16}, {16, 8, 16, mma::Elem::f64},
    {16, 8, 16, mma::Elem::s8},   {16, 8, 16, mma::Elem::u8},   {16, 8, 16, mma::Elem::e4m3},
    {16, 8, 16, mma::Elem::e5m2}, {16, 8, 32, mma::Elem::s8},   {16, 8, 32, mma::Elem::u8},
    {16, 8, 32, mma::Elem::e4m3}, {16, 8, 32, mma::Elem::e5m2}, {16, 8, 32, mma::Elem::s4},
    {16, 8, 32, mma::Elem::u4},   {16, 8, 64, mma::Elem::s4},   {16, 8, 64, mma::Elem::u4},
    {16, 8, 64, mma::Elem::e2m1},  // .kind::mxf4* with block scaling: the s4 layout, eight e2m1 a register
};

// The wmma.mma shapes and A/B types.
constexpr ShapeRow kWmmaShapes[] = {
    {16, 16, 16, mma::Elem::f16},  {32, 8, 16, mma::Elem::f16},  {8, 32, 16, mma::Elem::f16},
    {16, 16, 16, mma::Elem::bf16}, {32, 8, 16, mma::Elem::bf16}, {8, 32, 16, mma::Elem::bf16},
    {16, 16, 16, mma::Elem::s8},   {32, 8, 16, mma::Elem::s8},   {8, 32, 16, mma::Elem::s8},
    {16, 16, 16, mma::Elem::u8},   {32, 8, 16, mma::Elem::u8},   {8, 32, 16, mma::Elem::u8},
    {16, 16, 8, mma::Elem::tf32},  {8, 8, 4, mma::Elem::f64},
};

int elem_bits(mma::Elem e) {
  switch (e) {
    case mma::Elem::f16:
    case mma::Elem::bf16: return 16;
    case mma::Elem::tf32:
    case mma::Elem::f32:
    case mma::Elem::s32: return 32;
    case mma::Elem::f64: return 64;
    case mma::Elem::s4:
    case mma::Elem::u4:
    case mma::Elem::e2m1: return 4;
    default: return 8;
  }
}

// index[lane * elements + i]: where (lane, i) of `which` lies in the
// engine's flat arrays (see TensorOp).
std::vector<uint16_t> flat_index(const FragmentLayout& l, Mat which, int m, int n, int k) {
  const int e = fragment_elements(l, which);
  std::vector<uint16_t> index(size_t{32} * e);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (int i = 0; i < e; ++i) {
      const Coord c = fragment_coord(l, which, lane, static_cast<unsigned>(i));
      const int product = l.quad_pairs ? static_cast<int>(quad_pair(lane)) : 0;
      int at = 0;
      switch (which) {
        case Mat::a: at = product * m * k + c.row * k + c.col; break;
        case Mat::b: at = product * n * k + c.col * k + c.row; break;
        case Mat::c: at = product * m * n + c.row * n + c.col; break;
      }
      index[lane * e + i] = static_cast<uint16_t>(at);
    }
  return index;
}

// wmma: elements a lane holds of a rows x cols matrix of `e` (PTX ISA,
// wmma.load: .f16 A and B are eight .f16x2 registers whatever the shape).
int wmma_elements(int rows, int cols, mma::Elem e, bool multiplicand) {
  if (multiplicand && e == mma::Elem::f16) return 16;
  return rows * cols / 32;
}

// wmma's order: element i of lane l is element (l E + i) mod (rows cols),
// row-major, into the engine's arrays (B by columns).
std::vector<uint16_t> wmma_index(int rows, int cols, int elements, bool by_columns) {
  std::vector<uint16_t> index(size_t{32} * elements);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < elements; ++i) {
      const int q = (lane * elements + i) % (rows * cols), r = q / cols, c = q % cols;
      index[size_t(lane) * elements + i] = static_cast<uint16_t>(by_columns ? c * rows + r : q);
    }
  return index;
}

[[noreturn]] void fail(std::string_view mnemonic, const std::string& why) {
  throw std::invalid_argument(fmt::format("'{}': {}", mnemonic, why));
}

bool has(const std::vector<std::string_view>& words, std::string_view w) {
  for (std::string_view x : words)
    if (x == w) return true;
  return false;
}

}  // namespace

namespace {

TensorOp lower_wmma_mma(TensorOp op, std::string_view mnemonic) {
  const mma::Instruction& in = op.inst;
  bool known = false;
  for (const ShapeRow& s : kWmmaShapes)
    known |= s.m == in.shape.m && s.n == in.shape.n && s.k == in.shape.k && s.a == in.a;
  if (!known)
    fail(mnemonic, fmt::format("no wmma.mma m{}n{}k{} with .{} operands in the kernel executor", in.shape.m, in.shape.n,
                               in.shape.k, mma::elem_name(in.a)));
  const int m = in.shape.m, n = in.shape.n, k = in.shape.k;
  op.wmma = true;
  op.layout.m = m, op.layout.n = n, op.layout.k = k;
  op.a_bits = elem_bits(in.a);
  op.layout.per = op.a_bits >= 32 ? 1 : 32 / op.a_bits;
  op.c_bits = elem_bits(in.c), op.d_bits = elem_bits(in.d);
  op.na = wmma_elements(m, k, in.a, true), op.nb = wmma_elements(k, n, in.a, true), op.nc = m * n / 32;
  op.a_index = wmma_index(m, k, op.na, false);
  op.b_index = wmma_index(k, n, op.nb, true);
  op.c_index = op.d_index = wmma_index(m, n, op.nc, false);
  return op;
}

}  // namespace

// wmma.load.{a,b,c}.sync.aligned.LAYOUT.SHAPE{.SPACE}.TYPE and
// wmma.store.d.sync.aligned.LAYOUT.SHAPE{.SPACE}.TYPE.
TensorOp lower_wmma_memory(const std::vector<std::string_view>& words, std::string_view mnemonic) {
  if (!has(words, "sync") || !has(words, "aligned")) fail(mnemonic, "needs .sync.aligned");
  if (words.size() < 3) fail(mnemonic, "expected wmma.load.{a,b,c} or wmma.store.d");
  const std::string_view which = words[2];
  const bool store = words[1] == "store";
  if (store ? which != "d" : (which != "a" && which != "b" && which != "c"))
    fail(mnemonic, "expected wmma.load.{a,b,c} or wmma.store.d");
  TensorOp op;
  op.wmma = true;
  op.row_major = !has(words, "col");
  if (!op.row_major == has(words, "row")) fail(mnemonic, "expected one layout, .row or .col");
  mma::Shape shape{};
  bool have_shape = false;
  for (std::string_view w : words)
    if (w.size() > 1 && w[0] == 'm' && w.find('n') != std::string_view::npos && w.find('k') != std::string_view::npos) {
      int v[3] = {0, 0, 0}, at = -1;
      for (char ch : w)
        if (ch == 'm' || ch == 'n' || ch == 'k')
          ++at;
        else if (ch >= '0' && ch <= '9' && at >= 0 && at < 3)
          v[at] = v[at] * 10 + (ch - '0');
      shape = {v[0], v[1], v[2]}, have_shape = true;
    }
  mma::Elem e;
  if (!have_shape || !mma::parse_elem(words.back(), &e)) fail(mnemonic, "expected a shape and a type");
  bool known = false;
  for (const ShapeRow& s : kWmmaShapes) known |= s.m == shape.m && s.n == shape.n && s.k == shape.k;
  if (!known) fail(mnemonic, "this wmma shape is not supported by the kernel executor");
  const bool multiplicand = which == "a" || which == "b";
  op.rows = which == "b" ? shape.k : shape.m;
  op.cols = which == "a" ? shape.k : shape.n;
  op.elem_bits = elem_bits(e);
  if (op.elem_bits < 8) fail(mnemonic, "sub-byte wmma types are not supported by the kernel executor");
  op.elements = wmma_elements(op.rows, op.cols, e, multiplicand);
  op.per = op.elem_bits >= 32 ? 1 : 32 / op.elem_bits;
  op.regs = op.elements / op.per;
  op.reg_bits = op.elem_bits == 64 ? 64 : 32;
  return op;
}

TensorOp lower_mma(const std::vector<std::string_view>& words, std::string_view mnemonic, std::string_view target) {
  if (!has(words, "sync") || !has(words, "aligned")) fail(mnemonic, "mma needs .sync.aligned");
  TensorOp op;
  op.inst = mma::parse_instruction(mnemonic, target);  // std::invalid_argument, saying why, if it is no instruction
  const mma::Instruction& in = op.inst;
  if (in.family == mma::Family::wmma) return lower_wmma_mma(op, mnemonic);
  bool known = false;
  for (const ShapeRow& s : kShapes) known |= s.m == in.shape.m && s.n == in.shape.n && s.k == in.shape.k && s.a == in.a;
  if (!known)
    fail(mnemonic, fmt::format("no mma.sync m{}n{}k{} with .{} operands", in.shape.m, in.shape.n, in.shape.k,
                               mma::elem_name(in.a)));
  std::vector<std::string_view> layouts;
  for (std::string_view w : words)
    if (w == "row" || w == "col") layouts.push_back(w);
  if (layouts.size() != 2) fail(mnemonic, "expected the layouts of A and B (.row.col)");
  FragmentLayout& l = op.layout;
  l.m = in.shape.m, l.n = in.shape.n, l.k = in.shape.k;
  op.a_bits = elem_bits(in.a);
  l.per = op.a_bits >= 32 ? 1 : 32 / op.a_bits;
  l.quad_pairs = in.shape.m == 8 && in.shape.k == 4 && in.a == mma::Elem::f16;
  if (l.quad_pairs) {
    l.a_col = layouts[0] == "col";
    l.b_row = layouts[1] == "row";
  } else if (layouts[0] != "row" || layouts[1] != "col") {
    fail(mnemonic, "this shape takes .row.col only");
  }
  op.products = l.quad_pairs ? 4 : 1;
  const int m = l.quad_pairs ? 8 : l.m, n = l.quad_pairs ? 8 : l.n, k = l.quad_pairs ? 4 : l.k;
  op.c_bits = elem_bits(in.c);
  op.d_bits = elem_bits(in.d);
  op.a_index = flat_index(l, Mat::a, m, n, k);
  op.b_index = flat_index(l, Mat::b, m, n, k);
  l.c_f32 = in.c == mma::Elem::f32;
  op.c_index = flat_index(l, Mat::c, m, n, k);
  l.c_f32 = in.d == mma::Elem::f32;  // D's layout (quad pairs: it may differ from C's)
  op.d_index = flat_index(l, Mat::c, m, n, k);
  op.na = fragment_elements(l, Mat::a), op.nb = fragment_elements(l, Mat::b), op.nc = fragment_elements(l, Mat::c);
  return op;
}

ScaleSlot scale_slot_a(unsigned row, unsigned v, unsigned byte_id, unsigned thread_id) {
  return {4 * (row % 8) + 2 * thread_id + row / 8, byte_id + v};
}
ScaleSlot scale_slot_b(unsigned col, unsigned v, unsigned byte_id, unsigned thread_id) {
  return {4 * col + thread_id, byte_id + v};
}

// The accumulators of wgmma: warp w of the warpgroup holds rows 16w to
// 16w + 15 of D (PTX ISA, "Register fragments and shared memory matrix
// layouts" of wgmma); within its rows, columns 8j to 8j + 7 hold elements 4j
// to 4j + 3 of each lane as mma.m16n8's C holds elements 0 to 3.
// Indices into the warp's 16 x N rows.
std::vector<uint16_t> wgmma_d_index(const FragmentLayout& l, int n) {
  const int e = n / 2;
  std::vector<uint16_t> index(size_t{32} * e);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (int i = 0; i < e; ++i) {
      const Coord c = fragment_coord(l, Mat::c, lane, static_cast<unsigned>(i % 4));
      index[lane * e + i] = static_cast<uint16_t>(c.row * n + c.col + 8 * (i / 4));
    }
  return index;
}

TensorOp lower_wgmma(const std::vector<std::string_view>& words, std::string_view mnemonic, std::string_view target) {
  if (!has(words, "sync") || !has(words, "aligned")) fail(mnemonic, "wgmma.mma_async needs .sync.aligned");
  TensorOp op;
  op.inst = mma::parse_instruction(mnemonic, target);  // std::invalid_argument, saying why, if it is no instruction
  const mma::Instruction& in = op.inst;
  if (in.shape.m != 64 || in.shape.n % 8 != 0 || in.shape.n > 256 || in.shape.k * elem_bits(in.a) != 256)
    fail(mnemonic, fmt::format("no wgmma.mma_async m{}n{}k{} with .{} operands in the kernel executor", in.shape.m,
                               in.shape.n, in.shape.k, mma::elem_name(in.a)));
  FragmentLayout& l = op.layout;
  l.m = 16, l.n = in.shape.n, l.k = in.shape.k;  // one warp's share
  op.a_bits = elem_bits(in.a);
  l.per = op.a_bits >= 32 ? 1 : 32 / op.a_bits;
  op.c_bits = op.d_bits = elem_bits(in.d);
  FragmentLayout a = l;
  a.n = 8;  // A's fragment is mma.m16n8kK's whatever N
  op.a_index = flat_index(a, Mat::a, 16, 8, l.k);
  op.c_index = op.d_index = wgmma_d_index(l, l.n);
  op.na = fragment_elements(a, Mat::a), op.nb = 0, op.nc = l.n / 2;
  return op;
}

FragmentRegs fragment_regs(const TensorOp& op) {
  const int reg_ab = op.a_bits == 64 ? 64 : 32;
  const auto regs = [](int elements, int bits) { return bits >= 32 ? elements : elements * bits / 32; };
  FragmentRegs r{};
  r.a = regs(op.na, op.a_bits);
  r.b = regs(op.nb, op.a_bits);
  r.c = regs(op.nc, op.c_bits);
  r.d = regs(op.nc, op.d_bits);
  r.a_bits = r.b_bits = reg_ab;
  r.c_bits = op.c_bits == 64 ? 64 : 32;
  r.d_bits = op.d_bits == 64 ? 64 : 32;
  return r;
}

// ldmatrix/stmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}{.shared}.b16 and
// movmatrix.sync.aligned.m8n8.trans.b16.
TensorOp lower_ldmatrix(const std::vector<std::string_view>& words, std::string_view mnemonic) {
  if (!has(words, "sync") || !has(words, "aligned")) fail(mnemonic, "needs .sync.aligned");
  if (!has(words, "m8n8") || words.back() != "b16")
    fail(mnemonic, "only the .m8n8 shape with .b16 elements is supported by the kernel executor");
  TensorOp op;
  op.trans = has(words, "trans");
  op.matrices = has(words, "x4") ? 4 : has(words, "x2") ? 2 : has(words, "x1") ? 1 : 0;
  if (op.matrices == 0) fail(mnemonic, "expected .x1, .x2 or .x4");
  return op;
}

TensorOp lower_movmatrix(const std::vector<std::string_view>& words, std::string_view mnemonic) {
  if (!has(words, "sync") || !has(words, "aligned") || !has(words, "m8n8") || !has(words, "trans") ||
      words.back() != "b16")
    fail(mnemonic, "expected movmatrix.sync.aligned.m8n8.trans.b16");
  TensorOp op;
  op.trans = true;
  return op;
}

}  // namespace tensor

namespace loading {

// A fragment {r0, r1, ...} of `count` registers of `bits` each.
Operand Lowerer::fragment(Inst& in, const isa::Token& tok, int count, unsigned bits, bool is_dest) {
  tok_ = &tok;
  std::string_view text = tok.text;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (text.size() < 2 || text.front() != '{' || text.back() != '}')
    fail(tok, fmt::format("expected a fragment of {} registers {{...}}", count));
  std::vector<std::string_view> parts;
  std::string_view body = text.substr(1, text.size() - 2);
  for (size_t at = 0; at <= body.size();) {
    size_t comma = body.find(',', at);
    if (comma == std::string_view::npos) comma = body.size();
    std::string_view p = body.substr(at, comma - at);
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.back()))) p.remove_suffix(1);
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.front()))) p.remove_prefix(1);
    parts.push_back(p);
    at = comma + 1;
  }
  if (static_cast<int>(parts.size()) != count)
    fail(tok, fmt::format("this fragment has {} registers; '{}' needs {}", parts.size(), in.mnemonic, count));
  Operand o;
  o.kind = Operand::Kind::vector;
  o.reg = static_cast<uint32_t>(k_.elements.size());
  o.count = static_cast<uint32_t>(count);
  o.bits = 64;
  for (std::string_view p : parts) {
    const auto s = lookup(p);
    if (!s || s->kind != Symbol::Kind::reg)
      fail(tok, s ? fmt::format("'{}' is not a register", p) : fmt::format("Unknown symbol '{}'", p));
    if (s->bits != bits)
      fail(tok, fmt::format("'{}' is a {}-bit register; a fragment register of '{}' is {}-bit", p, unsigned{s->bits},
                            in.mnemonic, bits));
    k_.elements.push_back(is_dest ? dest(in, p, bits) : source(in, p, bits, false));
  }
  return o;
}

// wmma.load d, [p]{, stride} / wmma.store [p], r{, stride}.
void Lowerer::wmma_memory(Inst& in, const isa::Statement& st, const Words& words, const tensor::TensorOp& t) {
  const bool store = words[1] == "store";
  in.kind = store ? Kind::wmma_store : Kind::wmma_load;
  expect_operands(st, 2, 3);
  in.space = Space::generic;
  for (std::string_view w : words) {
    if (w == "global") in.space = Space::global;
    if (w == "shared" || w == "shared::cta") in.space = Space::shared;
    if (w == "local" || w == "const" || w == "param")
      fail(st.mnemonic, fmt::format("'{}': wmma works on .global, .shared or generic addresses", st.mnemonic.text));
  }
  in.access_bytes = static_cast<uint8_t>(t.elem_bits / 8);
  const isa::Token& a = st.operands[store ? 0 : 1];
  tok_ = &a;
  in.addr = address(in, a.text, in.space);
  const Operand frag = fragment(in, st.operands[store ? 1 : 0], t.regs, static_cast<unsigned>(t.reg_bits), !store);
  if (store) {
    in.src[0] = frag;
    in.num_src = 1;
  } else {
    in.dst[0] = frag;
    in.num_dst = 1;
  }
  if (st.num_operands == 3) {
    tok_ = &st.operands[2];
    in.src[in.num_src++] = source(in, st.operands[2].text, 32, false);
  }
}

// mma with block scaling: d, a, b, c, scale-a-data, {byte-id-a,
// thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}; the selectors
// immediates in the ranges of the ISA's Table 37.
void Lowerer::scaled_mma(Inst& in, const isa::Statement& st, tensor::TensorOp& t) {
  in.kind = Kind::mma;
  expect_operands(st, 8, 8);
  const tensor::FragmentRegs r = tensor::fragment_regs(t);
  in.dst[0] = fragment(in, st.operands[0], r.d, r.d_bits, true);
  in.src[0] = fragment(in, st.operands[1], r.a, r.a_bits, false);
  in.src[1] = fragment(in, st.operands[2], r.b, r.b_bits, false);
  in.src[2] = fragment(in, st.operands[3], r.c, r.c_bits, false);
  tok_ = &st.operands[4];
  in.src[3] = source(in, st.operands[4].text, 32, false);
  tok_ = &st.operands[6];
  in.src[4] = source(in, st.operands[6].text, 32, false);
  in.num_dst = 1, in.num_src = 5;
  const unsigned v = static_cast<unsigned>(t.inst.scale_vec);
  uint8_t* sel[2][2] = {{&t.byte_a, &t.thread_a}, {&t.byte_b, &t.thread_b}};
  for (unsigned s = 0; s < 2; ++s) {
    const isa::Token& tok = st.operands[5 + 2 * s];
    std::string_view e[2];
    uint64_t x[2] = {0, 0};
    if (st.forms[5 + 2 * s] != isa::OperandForm::vector || isa::vector_elements(tok.text, e, 2) != 2 ||
        !isa::literal_bits(e[0], 16, false, x[0]) || !isa::literal_bits(e[1], 16, false, x[1]))
      fail(tok,
           "expected the selector {byte-id, thread-id} as two immediates (the kernel executor takes no registers "
           "there)");
    const bool byte_ok = v == 1 ? x[0] <= 3 : v == 2 ? (x[0] == 0 || x[0] == 2) : x[0] == 0;
    if (!byte_ok || x[1] > (s == 0 ? 1u : 3u))
      fail(tok, fmt::format("selector {{{}, {}}} is outside the ISA's valid values for .scale_vec::{}X (Table 37)",
                            e[0], e[1], v));
    *sel[s][0] = static_cast<uint8_t>(x[0]), *sel[s][1] = static_cast<uint8_t>(x[1]);
  }
}

// An immediate operand of wgmma.mma_async (imm-scale 1 or -1, imm-trans 0 or 1).
int Lowerer::immediate(const isa::Token& tok) {
  tok_ = &tok;
  const std::string_view v = tok.text;
  if (v == "1") return 1;
  if (v == "0") return 0;
  if (v == "-1") return -1;
  fail(tok, fmt::format("expected an immediate 1, 0 or -1, found '{}'", v));
}

// wgmma.mma_async d, a-desc|{a}, b-desc, scale-d{, imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b};
// wgmma.fence; wgmma.commit_group; wgmma.wait_group N.
void Lowerer::wgmma(Inst& in, const isa::Statement& st, const Words& words) {
  tensor::TensorOp t;
  const std::string_view what = words.size() > 1 ? words[1] : "";
  if (what != "mma_async") {
    in.kind = Kind::wgmma_sync;
    using S = tensor::TensorOp::Sync;
    t.sync = what == "fence" ? S::fence : what == "commit_group" ? S::commit : what == "wait_group" ? S::wait : S::none;
    if (t.sync == S::none) fail(st.mnemonic, fmt::format("'{}' is not a wgmma instruction", st.mnemonic.text));
    expect_operands(st, t.sync == S::wait ? 1 : 0, t.sync == S::wait ? 1 : 0);
    if (t.sync == S::wait) {
      tok_ = &st.operands[0];
      uint64_t n = 0;
      if (!isa::literal_bits(st.operands[0].text, 32, false, n)) fail(st.operands[0], "expected the group count N");
      t.wait_n = static_cast<unsigned>(n);
    }
    in.tensor_op = static_cast<uint32_t>(k_.tensor_ops.size());
    k_.tensor_ops.push_back(std::move(t));
    return;
  }
  try {
    t = tensor::lower_wgmma(words, st.mnemonic.text, fmt::format("sm_{}", k_.caps.sm));
  } catch (const std::invalid_argument& e) {
    fail(st.mnemonic, e.what());
  }
  in.kind = Kind::wgmma;
  expect_operands(st, 4, 8);
  const tensor::FragmentRegs r = tensor::fragment_regs(t);
  in.dst[0] = fragment(in, st.operands[0], r.d, 32, true);
  for (uint32_t j = 0; j < in.dst[0].count; ++j) note(in.num_reads, in.reads, k_.elements[in.dst[0].reg + j].reg);
  t.a_desc = st.operands[1].text.find('{') == std::string_view::npos;
  tok_ = &st.operands[1];
  in.src[0] = t.a_desc ? source(in, st.operands[1].text, 64, false) : fragment(in, st.operands[1], r.a, 32, false);
  tok_ = &st.operands[2];
  in.src[1] = source(in, st.operands[2].text, 64, false);
  tok_ = &st.operands[3];
  in.src[2] = source(in, st.operands[3].text, 1, false);
  in.num_dst = 1, in.num_src = 3;
  // The immediates after scale-d: scale-a, scale-b, then trans-a (A a
  // descriptor) and trans-b, where the type takes them (check has counted).
  const unsigned n = st.num_operands;
  if (n > 4) t.neg_a = immediate(st.operands[4]) < 0;
  if (n > 5) t.neg_b = immediate(st.operands[5]) < 0;
  if (n > 6) t.trans_b = immediate(st.operands[n - 1]) == 1;
  if (n > 7) t.trans_a = immediate(st.operands[6]) == 1;
  in.tensor_op = static_cast<uint32_t>(k_.tensor_ops.size());
  k_.tensor_ops.push_back(std::move(t));
}

void Lowerer::finish_wgmma(uint32_t begin) {
  std::vector<uint32_t> accumulators;
  for (uint32_t pc = begin; pc < k_.insts.size(); ++pc)
    if (k_.insts[pc].kind == Kind::wgmma)
      accumulators.insert(accumulators.end(), k_.insts[pc].writes.begin(), k_.insts[pc].writes.end());
  for (uint32_t pc = begin; pc < k_.insts.size(); ++pc) {
    Inst& in = k_.insts[pc];
    if (in.kind != Kind::wgmma_sync || k_.tensor_ops[in.tensor_op].sync != tensor::TensorOp::Sync::wait) continue;
    for (uint32_t slot : accumulators) note(in.num_reads, in.reads, slot);
  }
}

void Lowerer::tensor(Inst& in, const isa::Statement& st, const Words& words) {
  const std::string_view op = words[0];
  tensor::TensorOp t;
  try {
    if (op == "mma" || (op == "wmma" && words.size() > 1 && words[1] == "mma"))
      t = tensor::lower_mma(words, st.mnemonic.text, fmt::format("sm_{}", k_.caps.sm));
    else if (op == "wmma")
      t = tensor::lower_wmma_memory(words, st.mnemonic.text);
    else if (op == "movmatrix")
      t = tensor::lower_movmatrix(words, st.mnemonic.text);
    else
      t = tensor::lower_ldmatrix(words, st.mnemonic.text);
  } catch (const std::invalid_argument& e) {
    fail(st.mnemonic, e.what());
  }
  in.tensor_op = static_cast<uint32_t>(k_.tensor_ops.size());
  if (op == "wmma" && words[1] != "mma") {
    wmma_memory(in, st, words, t);
  } else if ((op == "mma" || op == "wmma") && t.inst.scale_vec > 0) {
    scaled_mma(in, st, t);
  } else if (op == "mma" || op == "wmma") {
    in.kind = Kind::mma;
    expect_operands(st, 4, 4);
    const tensor::FragmentRegs r = tensor::fragment_regs(t);
    in.dst[0] = fragment(in, st.operands[0], r.d, r.d_bits, true);
    in.src[0] = fragment(in, st.operands[1], r.a, r.a_bits, false);
    in.src[1] = fragment(in, st.operands[2], r.b, r.b_bits, false);
    in.src[2] = fragment(in, st.operands[3], r.c, r.c_bits, false);
    in.num_dst = 1, in.num_src = 3;
  } else if (op == "movmatrix") {
    in.kind = Kind::movmatrix;
    expect_operands(st, 2, 2);
    tok_ = &st.operands[0];
    in.dst[0] = dest(in, st.operands[0].text, 32);
    tok_ = &st.operands[1];
    in.src[0] = source(in, st.operands[1].text, 32, false);
    in.num_dst = in.num_src = 1;
  } else {
    const bool store = op == "stmatrix";
    in.kind = store ? Kind::stmatrix : Kind::ldmatrix;
    expect_operands(st, 2, 2);
    in.space = Space::generic;
    for (std::string_view w : words)
      if (w == "shared" || w == "shared::cta") in.space = Space::shared;
    in.access_bytes = 16;
    const isa::Token& a = st.operands[store ? 0 : 1];
    tok_ = &a;
    in.addr = address(in, a.text, in.space);
    const Operand frag = fragment(in, st.operands[store ? 1 : 0], static_cast<int>(t.matrices), 32, !store);
    (store ? in.src[0] : in.dst[0]) = frag;
    in.num_dst = store ? 0 : 1;
    in.num_src = store ? 1 : 0;
  }
  k_.tensor_ops.push_back(std::move(t));
}

}  // namespace loading
}  // namespace ptxfu::kernel
