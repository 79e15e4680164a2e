#include "tensor_vectors.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "fp/ops.h"
#include "mma/block_fma.h"

namespace ptxfu::mma::test {
namespace {

const char* out_name(Elem e) { return e == Elem::f16 ? "fp16" : "fp32"; }

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (!l.empty()) lines.push_back(l);
  }
  return lines;
}

// A file of hex words, `per_line` a line.
std::vector<uint32_t> read_hex(const std::string& path, int* per_line) {
  std::vector<uint32_t> out;
  for (const std::string& l : read_lines(path)) {
    std::istringstream words(l);
    int n = 0;
    for (std::string w; words >> w; ++n) out.push_back(static_cast<uint32_t>(std::stoul(w, nullptr, 16)));
    if (*per_line == 0) *per_line = n;
    if (n != *per_line) throw std::runtime_error(path + ": lines of different lengths");
  }
  return out;
}

// A file of 32 binary digits a line.
std::vector<uint32_t> read_binary(const std::string& path) {
  std::vector<uint32_t> out;
  for (const std::string& l : read_lines(path)) {
    if (l.size() != 32) throw std::runtime_error(path + ": a line is not 32 binary digits: " + l);
    out.push_back(static_cast<uint32_t>(std::stoul(l, nullptr, 2)));
  }
  return out;
}

// An input given as binary32 bits, in the input row (exact: the files hold
// representable values; tf32 drops the 13 low zero bits).
uint64_t to_input(Elem in, uint32_t bits) {
  if (in == Elem::tf32) return bits >> 13;
  return fp::convert(fp::kF32, *format_of(in), bits, fp::Policy{fp::Rounding::rz});
}

}  // namespace

const std::vector<SetSpec>& all_sets() {
  using E = Elem;
  constexpr Family W = Family::wmma, M = Family::mma_sync, G = Family::wgmma;
  static const std::vector<SetSpec> sets = {
      {"V100", 70, "fp16", E::f16, E::f32, W, false},   {"V100", 70, "fp16", E::f16, E::f16, W, false},
      {"A100", 80, "fp16", E::f16, E::f32, W, false},   {"A100", 80, "fp16", E::f16, E::f16, W, false},
      {"A100", 80, "bf16", E::bf16, E::f32, W, false},  {"A100", 80, "tf32", E::tf32, E::f32, W, false},
      {"Ada", 89, "fp16", E::f16, E::f32, W, false},    {"Ada", 89, "fp16", E::f16, E::f16, W, false},
      {"Ada", 89, "bf16", E::bf16, E::f32, W, false},   {"Ada", 89, "tf32", E::tf32, E::f32, W, false},
      {"Ada", 89, "E4M3", E::e4m3, E::f32, M, false},   {"Ada", 89, "E4M3", E::e4m3, E::f16, M, false},
      {"Ada", 89, "E5M2", E::e5m2, E::f32, M, false},   {"Ada", 89, "E5M2", E::e5m2, E::f16, M, false},
      {"H100", 90, "fp16", E::f16, E::f32, W, false},   {"H100", 90, "fp16", E::f16, E::f16, W, false},
      {"H100", 90, "bf16", E::bf16, E::f32, W, false},  {"H100", 90, "tf32", E::tf32, E::f32, W, false},
      {"H100", 90, "E4M3", E::e4m3, E::f32, G, true},   {"H100", 90, "E4M3", E::e4m3, E::f16, M, false},
      {"H100", 90, "E5M2", E::e5m2, E::f32, G, true},   {"H100", 90, "E5M2", E::e5m2, E::f16, M, false},
      {"B200", 100, "fp16", E::f16, E::f32, W, false},  {"B200", 100, "fp16", E::f16, E::f16, W, false},
      {"B200", 100, "bf16", E::bf16, E::f32, W, false}, {"B200", 100, "tf32", E::tf32, E::f32, W, false},
      {"B200", 100, "E4M3", E::e4m3, E::f32, M, false}, {"B200", 100, "E4M3", E::e4m3, E::f16, M, false},
      {"B200", 100, "E5M2", E::e5m2, E::f32, M, false}, {"B200", 100, "E5M2", E::e5m2, E::f16, M, false},
  };
  return sets;
}

std::string set_name(const SetSpec& s) { return fmt::format("{}_{}_{}", s.gpu, s.folder, out_name(s.out)); }

VectorSet load_set(const std::string& root, const SetSpec& spec) {
  VectorSet set;
  set.spec = spec;
  const std::string dir = fmt::format("{}/{}/{}/", root, spec.gpu, spec.folder);
  int k = 0;
  set.a = read_hex(dir + fmt::format("a_{}_{}.txt", spec.gpu, spec.folder), &k);
  set.b = read_hex(dir + fmt::format("b_{}_{}.txt", spec.gpu, spec.folder), &k);
  set.k = k;
  set.c = read_binary(dir + fmt::format("c_{}_fp32.txt", spec.gpu));
  set.d = read_binary(dir + fmt::format("d_{}_{}.txt", spec.gpu, out_name(spec.out)));
  const std::size_t n = set.d.size();
  if (k == 0 || set.a.size() != n * k || set.b.size() != n * k || set.c.size() != n)
    throw std::runtime_error(dir + ": the a, b, c and d files have different line counts");
  return set;
}

Line engine_inputs(const VectorSet& set, std::size_t i) {
  Line line;
  for (int j = 0; j < set.k; ++j) {
    line.a.push_back(to_input(set.spec.in, set.a[i * set.k + j]));
    line.b.push_back(to_input(set.spec.in, set.b[i * set.k + j]));
  }
  const uint32_t c = set.spec.c_zero ? 0 : set.c[i];
  line.c = set.spec.out == Elem::f16 ? fp::convert(fp::kF32, fp::kF16, c, fp::Policy{fp::Rounding::rn}) : c;
  return line;
}

uint32_t replay(const NumericsRow& row, const VectorSet& set, std::size_t i) {
  const Line line = engine_inputs(set, i);
  const uint64_t d = block_fma(row, line.a.size(), line.a.data(), line.b.data(), line.c);
  if (set.spec.out == Elem::f16) return static_cast<uint32_t>(fp::convert(fp::kF16, fp::kF32, d));
  return static_cast<uint32_t>(d);
}

std::string describe(const VectorSet& set, std::size_t i, uint32_t got) {
  std::string s = fmt::format("{} line {}: a =", set_name(set.spec), i + 1);
  for (int j = 0; j < set.k; ++j) s += fmt::format(" {:08x}", set.a[i * set.k + j]);
  s += " b =";
  for (int j = 0; j < set.k; ++j) s += fmt::format(" {:08x}", set.b[i * set.k + j]);
  return s + fmt::format(" c = {:08x}{} d: hardware {:08x}, engine {:08x}", set.c[i],
                         set.spec.c_zero ? " (GPU used 0)" : "", set.d[i], got);
}

}  // namespace ptxfu::mma::test
