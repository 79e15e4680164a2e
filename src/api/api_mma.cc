// The C++ API's matrix instructions (ptxfu::MmaInstruction) over the
// tensor-core engine (mma/matrix.h): the same parse, rows and engine that
// `ptxfu mma`, the C API and the Python module use.
#include <fmt/format.h>

#include <stdexcept>

#include "mma/matrix.h"
#include "ptxfu/ptxfu.hpp"

namespace ptxfu {
namespace {

// The bits an element of type `e` holds in its register or array slot.
unsigned element_bits(mma::Elem e) {
  switch (e) {
    case mma::Elem::f16:
    case mma::Elem::bf16: return 16;
    case mma::Elem::tf32:
    case mma::Elem::f32:
    case mma::Elem::s32: return 32;
    case mma::Elem::f64: return 64;
    case mma::Elem::e4m3:
    case mma::Elem::e5m2:
    case mma::Elem::s8:
    case mma::Elem::u8: return 8;
    case mma::Elem::e3m2:
    case mma::Elem::e2m3: return 6;
    case mma::Elem::e2m1:
    case mma::Elem::s4:
    case mma::Elem::u4: return 4;
  }
  return 64;
}

// Throws unless every element of an r x c matrix fits its type's bits.
void check_widths(char which, mma::Elem e, int rows, int cols, const uint64_t* x) {
  const unsigned bits = element_bits(e);
  if (bits >= 64) return;
  const std::size_t n = std::size_t(rows) * cols;
  uint64_t any = 0;
  for (std::size_t i = 0; i < n; ++i) any |= x[i];
  if ((any >> bits) == 0) return;  // the common case: one pass, no branch per element
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] >> bits)
      throw Error(fmt::format("{} element ({}, {}) 0x{:x} does not fit in {} bits ({})", which, i / cols, i % cols,
                              x[i], bits, mma::elem_name(e)));
  }
}

[[noreturn]] void shape_error(char which, int rows, int cols, const std::string& needs) {
  throw Error(fmt::format("{} is ({}, {}); {}", which, rows, cols, needs));
}

}  // namespace

struct MmaInstruction::Impl {
  mma::Instruction inst;
  std::string shape;
};

MmaInstruction::MmaInstruction(std::string_view name, std::string_view target) {
  auto impl = std::make_shared<Impl>();
  try {
    impl->inst = mma::parse_instruction(name, target);
  } catch (const std::invalid_argument& e) {
    throw Error(e.what());
  }
  const mma::Shape s = impl->inst.shape;
  impl->shape = fmt::format("m{}n{}k{}", s.m, s.n, s.k);
  impl_ = std::move(impl);
}

int MmaInstruction::m() const { return impl_->inst.shape.m; }
int MmaInstruction::n() const { return impl_->inst.shape.n; }
int MmaInstruction::k() const { return impl_->inst.shape.k; }
std::string MmaInstruction::shape() const { return impl_->shape; }
std::string_view MmaInstruction::a_type() const { return mma::elem_name(impl_->inst.a); }
std::string_view MmaInstruction::b_type() const { return mma::elem_name(impl_->inst.b); }
std::string_view MmaInstruction::c_type() const { return mma::elem_name(impl_->inst.c); }
std::string_view MmaInstruction::d_type() const { return mma::elem_name(impl_->inst.d); }
unsigned MmaInstruction::a_bits() const { return element_bits(impl_->inst.a); }
unsigned MmaInstruction::b_bits() const { return element_bits(impl_->inst.b); }
unsigned MmaInstruction::c_bits() const { return element_bits(impl_->inst.c); }
unsigned MmaInstruction::d_bits() const { return element_bits(impl_->inst.d); }

void MmaInstruction::check_shapes(int a_rows, int a_cols, int b_rows, int b_cols, int c_rows, int c_cols,
                                  bool chain) const {
  const std::string& sh = impl_->shape;
  if (!chain) {
    const int m = this->m(), n = this->n(), k = this->k();
    if (a_rows != m || a_cols != k) shape_error('A', a_rows, a_cols, fmt::format("{} needs ({}, {})", sh, m, k));
    if (b_rows != k || b_cols != n) shape_error('B', b_rows, b_cols, fmt::format("{} needs ({}, {})", sh, k, n));
    if (c_rows != m || c_cols != n) shape_error('C', c_rows, c_cols, fmt::format("{} needs ({}, {})", sh, m, n));
    return;
  }
  if (a_rows <= 0 || a_cols <= 0 || a_cols % k() != 0)
    shape_error('A', a_rows, a_cols, fmt::format("a chain of {} needs a K that is a positive multiple of {}", sh, k()));
  if (b_rows != a_cols || b_cols <= 0)
    shape_error('B', b_rows, b_cols, fmt::format("A is ({}, {}): B needs {} rows", a_rows, a_cols, a_cols));
  if (c_rows != a_rows || c_cols != b_cols)
    shape_error('C', c_rows, c_cols, fmt::format("A B is ({}, {}): C needs the same", a_rows, b_cols));
}

void MmaInstruction::matmul(int m, int n, int k, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                            uint64_t* d) const {
  const mma::Instruction& inst = impl_->inst;
  check_shapes(m, k, k, n, m, n, true);  // a few compares: no tile read out of bounds
  check_widths('A', inst.a, m, k, a);
  check_widths('B', inst.b, k, n, b);
  check_widths('C', inst.c, m, n, c);
  // B by columns, as the engine reads it; one scratch a thread, reused.
  thread_local std::vector<uint64_t> cols;
  cols.resize(std::size_t(k) * n);
  for (int t = 0; t < k; ++t) {
    for (int j = 0; j < n; ++j) cols[std::size_t(j) * k + t] = b[std::size_t(t) * n + j];
  }
  try {
    mma::matmul_cols(inst, m, n, k, a, cols.data(), c, d);
  } catch (const std::invalid_argument& e) {
    throw Error(e.what());
  }
}

std::vector<uint64_t> MmaInstruction::matmul(int m, int n, int k, const std::vector<uint64_t>& a,
                                             const std::vector<uint64_t>& b, const std::vector<uint64_t>& c) const {
  const auto size = [](char which, std::size_t got, long want) {
    if (got != std::size_t(want)) throw Error(fmt::format("{} has {} elements, expected {}", which, got, want));
  };
  check_shapes(m, k, k, n, m, n, true);  // before the sizes: they are products of these
  size('A', a.size(), long(m) * k);
  size('B', b.size(), long(k) * n);
  size('C', c.size(), long(m) * n);
  std::vector<uint64_t> d(c.size());
  matmul(m, n, k, a.data(), b.data(), c.data(), d.data());
  return d;
}

std::vector<uint64_t> MmaInstruction::mma(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                          const std::vector<uint64_t>& c) const {
  return matmul(m(), n(), k(), a, b, c);
}

std::vector<uint64_t> multiply_accumulate(std::string_view instruction, std::string_view target,
                                          const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                          const std::vector<uint64_t>& c) {
  return MmaInstruction(instruction, target).mma(a, b, c);
}

}  // namespace ptxfu
