// Tile generation, register packing, host references and the output files of
// tensor_probe (included by probe_host.h).
#pragma once
#include <cstring>
#include <functional>

namespace probe {

// The six valid 2:4 metadata nibbles (index of the first non-zero element in
// bits 1:0, of the second in bits 3:2, first < second, as ordered_metadata
// requires). One nibble serves every chunk of a tile and every metadata
// register is that nibble eight times, so the tile does not depend on which
// lanes or bits hold which chunk's metadata.
constexpr int kMetaNibbles[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};

constexpr int kExactTiles = 4;  // small integers: every sum exact, checks the layouts on the GPU
constexpr int kEdgeTiles = 6;

// ---- element generators ----------------------------------------------------

using Gen = std::function<uint64_t(Rng&)>;

inline void fill(std::vector<uint64_t>& v, size_t n, Rng& r, const Gen& g) {
  v.resize(n);
  for (auto& x : v) x = g(r);
}

// Float tiles, by kind. bias-relative exponent windows keep sums interesting.
inline void float_random_tile(const FormInfo& f, Tile& t, Rng& r, int kind) {
  const Fmt ma = fmt_of(f.a), mc = fmt_of(f.c);
  const int ba = ma.bias(), bc = mc.bias();
  const size_t na = size_t(f.m) * a_cols(f), nb = size_t(f.k) * f.n, nc = size_t(f.m) * f.n;
  static const char* const kNames[5] = {"random_wide", "random_moderate", "random_cancel", "random_spread",
                                        "random_tiny"};
  t.kind = kNames[kind];
  int alo = ba - 3, ahi = ba + 3, clo = bc - 6, chi = bc + 6;
  if (kind == 0) alo = 0, ahi = ma.max_code(), clo = 0, chi = mc.max_code();
  if (kind == 3) alo = ba - 12, ahi = ba + 12, clo = bc - 30, chi = bc + 30;
  if (kind == 4) alo = 0, ahi = 3, clo = 0, chi = 3;
  fill(t.a, na, r, [&](Rng& g) { return random_float(f.a, g, alo, ahi); });
  fill(t.b, nb, r, [&](Rng& g) { return random_float(f.a, g, alo, ahi); });
  fill(t.c, nc, r, [&](Rng& g) { return random_float(f.c, g, clo, chi); });
  if (kind == 4) {  // tiny: mix in a few moderate values so sums reach the subnormal boundary from above
    for (auto& x : t.a)
      if (r.chance(20)) x = random_float(f.a, r, ba - 2, ba + 2);
  }
  // tf32: random low 13 bits in the f32 registers (the hardware ignores or rounds them)
  if (f.a == Ty::tf32 && (kind & 1)) {
    for (auto& x : t.a) x |= r.next() & 0x1fff;
    for (auto& x : t.b) x |= r.next() & 0x1fff;
  }
}

// Cancellation: pairs of products that cancel exactly, and C near -sum.
inline void make_cancel(const FormInfo& f, Tile& t, Rng& r) {
  const int kk = a_cols(f);
  for (int k = 0; k + 1 < kk; k += 2) {
    if (!r.chance(50)) continue;
    for (int i = 0; i < f.m; ++i)
      t.a[size_t(i) * kk + k + 1] = t.a[size_t(i) * kk + k] ^ (uint64_t(1) << (ty_info(f.a).bits - 1));
  }
  if (f.sparse) return;  // the dense B rows a compressed pair meets differ; C below still cancels
  for (int i = 0; i < f.m; ++i) {
    for (int j = 0; j < f.n; ++j) {
      if (!r.chance(50)) continue;
      double s = 0;
      for (int k = 0; k < f.k; ++k) s += decode(f.a, t.a[size_t(i) * f.k + k]) * decode(f.a, t.b[size_t(k) * f.n + j]);
      t.c[size_t(i) * f.n + j] = encode(f.c, -s);
    }
  }
}

inline void float_edge_tile(const FormInfo& f, Tile& t, Rng& r, int which) {
  const Fmt ma = fmt_of(f.a), mc = fmt_of(f.c);
  float_random_tile(f, t, r, 1);
  static const char* const kNames[kEdgeTiles] = {
      "edge_specials", "edge_max", "edge_signed_zero", "edge_c_dominates", "edge_products_dominate", "edge_subnormal"};
  t.kind = kNames[which];
  auto each = [&](std::vector<uint64_t>& v, Ty ty, const std::function<uint64_t(uint64_t)>& g) {
    for (auto& x : v) x = g(x);
    (void)ty;
  };
  switch (which) {
    case 0:  // NaN, infinities, zeros, max, min subnormal scattered (3%)
      each(t.a, f.a, [&](uint64_t x) { return r.chance(3) ? special_float(f.a, r.range(0, 7)) : x; });
      each(t.b, f.a, [&](uint64_t x) { return r.chance(3) ? special_float(f.a, r.range(0, 7)) : x; });
      each(t.c, f.c, [&](uint64_t x) { return r.chance(8) ? special_float(f.c, r.range(0, 7)) : x; });
      break;
    case 1:  // max magnitudes: products and sums overflow
      each(t.a, f.a, [&](uint64_t) { return random_float(f.a, r, ma.max_code() - 1, ma.max_code()); });
      each(t.b, f.a, [&](uint64_t) { return random_float(f.a, r, ma.max_code() - 1, ma.max_code()); });
      each(t.c, f.c, [&](uint64_t) { return random_float(f.c, r, mc.max_code() - 2, mc.max_code()); });
      break;
    case 2:  // signed zeros: zero rows and columns, C = +-0
      each(t.a, f.a, [&](uint64_t x) { return r.chance(60) ? special_float(f.a, 3 + r.range(0, 1)) : x; });
      each(t.b, f.a, [&](uint64_t x) { return r.chance(60) ? special_float(f.a, 3 + r.range(0, 1)) : x; });
      each(t.c, f.c, [&](uint64_t) { return special_float(f.c, 3 + r.range(0, 1)); });
      break;
    case 3:  // C far above the products
      each(t.c, f.c, [&](uint64_t) { return random_float(f.c, r, mc.bias() + 20, mc.bias() + 40); });
      break;
    case 4:  // C far below the products
      each(t.c, f.c, [&](uint64_t) { return random_float(f.c, r, 0, 4); });
      break;
    default:  // subnormal inputs and C
      each(t.a, f.a, [&](uint64_t) { return random_float(f.a, r, 0, 0); });
      each(t.b, f.a, [&](uint64_t) { return random_float(f.a, r, ma.bias() - 1, ma.bias() + 1); });
      each(t.c, f.c, [&](uint64_t) { return random_float(f.c, r, 0, 1); });
      break;
  }
}

inline uint64_t int_elem(Ty t, Rng& r) { return r.next() & mask_bits(ty_info(t).bits); }

inline void int_tile(const FormInfo& f, Tile& t, Rng& r, int kind, bool edge) {
  const size_t na = size_t(f.m) * f.k, nb = size_t(f.k) * f.n, nc = size_t(f.m) * f.n;
  const int w = ty_info(f.a).bits;
  const bool is_signed = f.a == Ty::s8 || f.a == Ty::s4;
  const uint64_t hi = is_signed ? mask_bits(w - 1) : mask_bits(w), lo = is_signed ? uint64_t(1) << (w - 1) : 0;
  if (f.a == Ty::b1) {
    const int density = edge ? (kind % 2 ? 100 : 0) : (kind % 3 == 0 ? 50 : kind % 3 == 1 ? 10 : 90);
    fill(t.a, na, r, [&](Rng& g) { return uint64_t(g.chance(density)); });
    fill(t.b, nb, r, [&](Rng& g) { return uint64_t(edge && kind >= 2 ? 1 : g.chance(density)); });
  } else if (edge) {  // extremes: every product at its largest, of one sign or mixed
    fill(t.a, na, r, [&](Rng& g) { return kind % 2 || !is_signed ? hi : (g.chance(50) ? hi : lo); });
    fill(t.b, nb, r, [&](Rng& g) { return kind % 3 == 0 ? hi : kind % 3 == 1 ? lo : (g.chance(50) ? hi : lo); });
  } else {
    fill(t.a, na, r, [&](Rng& g) { return int_elem(f.a, g); });
    fill(t.b, nb, r, [&](Rng& g) { return int_elem(f.a, g); });
  }
  const int ck = edge ? kind % 3 : r.range(0, 2);
  fill(t.c, nc, r, [&](Rng& g) -> uint64_t {
    if (ck == 0) return uint64_t(int64_t(g.range(-(1 << 20), 1 << 20))) & 0xffffffff;
    if (ck == 1) return g.next() & 0xffffffff;
    const int64_t off = g.range(0, 1 << 20);
    return uint64_t(g.chance(50) ? 0x7fffffffLL - off : -0x80000000LL + off) & 0xffffffff;
  });
  t.kind = std::string(edge ? "edge_" : "random_") + (f.a == Ty::b1 ? "bits" : "ints") + std::to_string(kind);
}

// Exact tiles: small nonzero integers everywhere, so any summation order and
// alignment gives the exact result; a layout mistake shows as a mismatch.
inline void exact_tile(const FormInfo& f, Tile& t, Rng& r) {
  t.kind = "exact";
  const size_t na = size_t(f.m) * a_cols(f), nb = size_t(f.k) * f.n, nc = size_t(f.m) * f.n;
  auto small = [&](Rng& g) { return double(g.range(1, 3) * (g.chance(50) ? -1 : 1)); };
  fill(t.a, na, r, [&](Rng& g) { return encode(f.a, small(g)); });
  fill(t.b, nb, r, [&](Rng& g) { return encode(f.a, small(g)); });
  fill(t.c, nc, r, [&](Rng& g) { return encode(f.c, double(g.range(1, 64) * (g.chance(50) ? -1 : 1))); });
}

// mma.sp: the registers' compressed A becomes the logical dense A.
inline void expand_sparse(const FormInfo& f, Tile& t, int nibble) {
  t.meta_nibble = nibble;
  t.a_packed = t.a;
  const int half = f.k / 2, idx[2] = {nibble & 3, (nibble >> 2) & 3};
  std::vector<uint64_t> dense(size_t(f.m) * f.k, 0);
  for (int i = 0; i < f.m; ++i) {
    for (int q = 0; q < half; ++q) dense[size_t(i) * f.k + 4 * (q / 2) + idx[q % 2]] = t.a_packed[size_t(i) * half + q];
  }
  t.a = dense;
}

inline TileSet make_tiles(const FormInfo& f, int n) {
  TileSet s;
  s.tiles.resize(n);
  uint64_t seed = 0x70726f6265ULL;
  for (const char* p = f.id; *p; ++p) seed = seed * 131 + uint64_t(*p);
  for (int i = 0; i < n; ++i) {
    Rng r{seed ^ (uint64_t(i) * 0x9e3779b97f4a7c15ULL)};
    Tile& t = s.tiles[i];
    const bool ints = !is_float(f.a);
    if (ints)
      int_tile(f, t, r, i, i < kEdgeTiles);
    else if (i < kExactTiles)
      exact_tile(f, t, r);
    else if (i < kExactTiles + kEdgeTiles)
      float_edge_tile(f, t, r, i - kExactTiles);
    else {
      const int kind = i % 5;
      float_random_tile(f, t, r, kind);
      if (kind == 2) make_cancel(f, t, r);
    }
    if (f.sparse) expand_sparse(f, t, kMetaNibbles[i % 6]);
  }
  return s;
}

// ---- registers ---------------------------------------------------------------

// Per tile, per lane: A words, B words, C words, the metadata word.
inline std::vector<uint32_t> pack_inputs(const FormInfo& f, const TileSet& s) {
  const int wa = words_a(f), wb = words_b(f), wc = words_c(f), win = words_in(f);
  const int per_a = per_reg(f.a), ebits = ty_info(f.a).bits, ac = a_cols(f);
  const int rb = reg_bits(f.a) / 32, rc = reg_bits(f.c) / 32, cper = c_per_reg(f.c), cbits = ty_info(f.c).bits;
  std::vector<uint32_t> out(s.tiles.size() * 32 * win, 0);
  for (size_t ti = 0; ti < s.tiles.size(); ++ti) {
    const Tile& t = s.tiles[ti];
    const std::vector<uint64_t>& a = f.sparse ? t.a_packed : t.a;
    for (int lane = 0; lane < 32; ++lane) {
      uint32_t* w = &out[(ti * 32 + lane) * win];
      auto put = [&](uint32_t* base, int reg, int words, int e, int bits, uint64_t v) {
        const uint64_t shifted = (v & mask_bits(bits)) << (e * bits);
        for (int h = 0; h < words; ++h) base[reg * words + h] |= uint32_t(shifted >> (32 * h));
      };
      for (int r = 0; r < f.na; ++r)
        for (int e = 0; e < per_a; ++e) {
          const Pos p = a_pos(lane, r, e, f.a);
          put(w, r, rb, e, ebits, a[size_t(p.row) * ac + p.col]);
        }
      for (int r = 0; r < f.nb; ++r)
        for (int e = 0; e < per_a; ++e) {
          const Pos p = b_pos(lane, r, e, f.a);
          put(w + wa, r, rb, e, ebits, t.b[size_t(p.row) * f.n + p.col]);
        }
      for (int i = 0; i < f.nc * cper; ++i) {
        const Pos p = c_pos(lane, i);
        put(w + wa + wb, i / cper, rc, i % cper, cbits, t.c[size_t(p.row) * f.n + p.col]);
      }
      w[wa + wb + wc] = uint32_t(t.meta_nibble) * 0x11111111u;
    }
  }
  return out;
}

inline void unpack_d(const FormInfo& f, const std::vector<uint32_t>& out, TileSet* s) {
  const int wc = words_c(f), rc = reg_bits(f.c) / 32, cper = c_per_reg(f.c), cbits = ty_info(f.c).bits;
  for (size_t ti = 0; ti < s->tiles.size(); ++ti) {
    Tile& t = s->tiles[ti];
    t.d.assign(size_t(f.m) * f.n, 0);
    for (int lane = 0; lane < 32; ++lane) {
      const uint32_t* w = &out[(ti * 32 + lane) * wc];
      for (int i = 0; i < f.nc * cper; ++i) {
        const int reg = i / cper;
        uint64_t v = 0;
        for (int h = 0; h < rc; ++h) v |= uint64_t(w[reg * rc + h]) << (32 * h);
        const Pos p = c_pos(lane, i);
        t.d[size_t(p.row) * f.n + p.col] = (v >> ((i % cper) * cbits)) & mask_bits(cbits);
      }
    }
  }
}

// ---- host references -----------------------------------------------------------

// Integers and b1: exact (int64), wrapped to 32 bits or clamped (.satfinite).
inline uint64_t int_dot(const FormInfo& f, const Tile& t, int i, int j) {
  int64_t s = int_value(Ty::s32, t.c[size_t(i) * f.n + j]);
  for (int k = 0; k < f.k; ++k) {
    const uint64_t x = t.a[size_t(i) * f.k + k], y = t.b[size_t(k) * f.n + j];
    if (f.bitop == BitOp::xor_popc)
      s += int64_t(x ^ y);
    else if (f.bitop == BitOp::and_popc)
      s += int64_t(x & y);
    else
      s += int_value(f.a, x) * int_value(f.a, y);
  }
  if (f.satfinite) s = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, s));
  return uint64_t(s) & 0xffffffff;
}

// Fills D of every tile from the host reference; false for float forms.
inline bool host_reference(const FormInfo& f, TileSet* s) {
  if (is_float(f.a)) return false;
  for (Tile& t : s->tiles) {
    t.d.resize(size_t(f.m) * f.n);
    for (int i = 0; i < f.m; ++i)
      for (int j = 0; j < f.n; ++j) t.d[size_t(i) * f.n + j] = int_dot(f, t, i, j);
  }
  return true;
}

// Tiles whose D the host knows exactly (integer forms: all; float forms: the
// exact tiles) and how many of them the GPU matched.
inline std::string host_agreement(const FormInfo& f, const TileSet& s) {
  int checked = 0, agreed = 0;
  for (const Tile& t : s.tiles) {
    bool ok = true;
    if (!is_float(f.a)) {
      for (int i = 0; i < f.m; ++i)
        for (int j = 0; j < f.n; ++j) ok = ok && t.d[size_t(i) * f.n + j] == int_dot(f, t, i, j);
    } else if (t.kind == "exact") {
      for (int i = 0; i < f.m; ++i)
        for (int j = 0; j < f.n; ++j) {
          double sum = decode(f.c, t.c[size_t(i) * f.n + j]);
          for (int k = 0; k < f.k; ++k)
            sum += decode(f.a, t.a[size_t(i) * f.k + k]) * decode(f.a, t.b[size_t(k) * f.n + j]);
          ok = ok && decode(f.c, t.d[size_t(i) * f.n + j]) == sum;
        }
    } else {
      continue;
    }
    ++checked, agreed += ok;
  }
  return " host_exact=" + std::to_string(agreed) + "/" + std::to_string(checked) +
         (agreed == checked ? " layout=ok" : " layout=MISMATCH");
}

// ---- files -----------------------------------------------------------------------

inline void write_matrix(FILE* out, char tag, const std::vector<uint64_t>& v, Ty t) {
  const int digits = (ty_info(t).bits + 3) / 4;
  std::fputc(tag, out);
  for (uint64_t x : v) std::fprintf(out, " %0*llx", digits, static_cast<unsigned long long>(x));
  std::fputc('\n', out);
}

[[noreturn]] inline void die_io(const std::string& path) {
  std::perror(path.c_str());
  std::printf("summary ? FAILED io\n");
  std::exit(1);
}

// numerics_ID.txt (format in docs/mma.md); returns the summary fragment.
inline std::string write_numerics(const std::string& dir, const FormInfo& f, const TileSet& s) {
  const std::string path = dir + "/numerics_" + f.id + ".txt", tmp = path + ".tmp";
  FILE* out = std::fopen(tmp.c_str(), "w");
  if (!out) die_io(tmp);
  std::fprintf(out, "# ptxfu tensor_probe numerics v1: A MxK, B KxN, C MxN, D MxN row-major, hex bit patterns\n");
  std::fprintf(out, "form %s %s m=%d n=%d k=%d a=%s c=%s d=%s tiles=%zu\n", f.id, f.ptx, f.m, f.n, f.k,
               ty_info(f.a).name, ty_info(f.c).name, ty_info(f.c).name, s.tiles.size());
  for (size_t i = 0; i < s.tiles.size(); ++i) {
    const Tile& t = s.tiles[i];
    std::fprintf(out, "tile %zu %s", i, t.kind.c_str());
    if (f.sparse) std::fprintf(out, " meta=%x", t.meta_nibble);
    std::fputc('\n', out);
    write_matrix(out, 'A', t.a, f.a);
    write_matrix(out, 'B', t.b, f.a);
    write_matrix(out, 'C', t.c, f.c);
    write_matrix(out, 'D', t.d, f.c);
  }
  std::fprintf(out, "end %zu\n", s.tiles.size());
  if (std::fclose(out) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) die_io(path);
  return " numerics=ok tiles=" + std::to_string(s.tiles.size()) + host_agreement(f, s);
}

// Operands for timing: every element one small value (1/8 for floats, so
// chained sums stay finite; 1 for integers), the same in every lane.
inline std::vector<uint32_t> timing_operands(const FormInfo& f) {
  TileSet s;
  s.tiles.resize(1);
  Tile& t = s.tiles[0];
  const uint64_t av = is_float(f.a) ? encode(f.a, 0.125) : 1, cv = is_float(f.c) ? encode(f.c, 0.0) : 0;
  t.a.assign(size_t(f.m) * f.k, av);
  t.a_packed.assign(size_t(f.m) * a_cols(f), av);
  t.b.assign(size_t(f.k) * f.n, av);
  t.c.assign(size_t(f.m) * f.n, cv);
  t.meta_nibble = 0x4;
  return pack_inputs(f, s);
}

constexpr const char* kTimingHeader =
    "form,instruction,warps,chains,iters,cycles_slowest_warp,cycles_block,cycles_per_mma_per_warp,mma_per_cycle_per_sm";

class TimingWriter {
 public:
  TimingWriter(const std::string& dir, const FormInfo& f) : f_(f), path_(dir + "/timing_" + f.id + ".csv") {
    out_ = std::fopen((path_ + ".tmp").c_str(), "w");
    if (!out_) die_io(path_ + ".tmp");
    std::fprintf(out_, "%s\n", kTimingHeader);
  }
  // cycles_per_mma_per_warp: a warp's span over its own mma count (a chain's
  // latency when chains = 1); mma_per_cycle_per_sm: every warp's mma over the
  // block's span (one block on one SM).
  void row(const char* what, int warps, int chains, int iters, double warp_span, double block_span) {
    const double per_warp = double(chains) * iters;
    std::fprintf(out_, "%s_%s,%s,%d,%d,%d,%.0f,%.0f,%.3f,%.4f\n", f_.id, what, f_.ptx, warps, chains, iters, warp_span,
                 block_span, warp_span / per_warp, per_warp * warps / block_span);
  }
  void finish() {
    if (std::fclose(out_) != 0 || std::rename((path_ + ".tmp").c_str(), path_.c_str()) != 0) die_io(path_);
  }

 private:
  const FormInfo& f_;
  std::string path_;
  FILE* out_;
};

// ---- self-test (no GPU) ----------------------------------------------------------

// The PTX ISA's per-shape formulas, transcribed one by one (element i of a
// thread's fragment, low to high), against the one rule above; false for a
// shape with no transcription here (b1 and the sparse B follow the rule by
// the ISA's pattern, unchecked).
inline bool spec_a(const FormInfo& f, int lane, int i, Pos* p) {
  const int g = lane >> 2, t = lane & 3, bits = ty_info(f.a).bits, k = a_cols(f);
  if (bits == 16 && k == 16)
    return *p = {(i < 2 || (i >= 4 && i < 6)) ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)}, true;
  if (bits == 16 && k == 8) return *p = {i < 2 ? g : g + 8, t * 2 + (i & 1)}, true;
  if ((f.a == Ty::tf32 || f.a == Ty::f64) && k == 8) return *p = {i % 2 ? g + 8 : g, i < 2 ? t : t + 4}, true;
  if ((f.a == Ty::tf32 || f.a == Ty::f64) && k == 4 && f.m == 16) return *p = {i ? g + 8 : g, t}, true;
  if (f.a == Ty::f64 && k == 4 && f.m == 8) return *p = {g, t}, true;
  if (f.a == Ty::f64 && k == 16) return *p = {i % 2 ? g + 8 : g, i % 2 ? i * 2 - 2 + t : i * 2 + t}, true;
  if (bits == 8 && k == 32)
    return *p = {(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)}, true;
  if (bits == 8 && k == 16) return *p = {i < 4 ? g : g + 8, t * 4 + (i & 3)}, true;
  if (bits == 4 && k == 64)
    return *p = {(i < 8 || (i >= 16 && i < 24)) ? g : g + 8, t * 8 + (i & 7) + (i >= 16 ? 32 : 0)}, true;
  return false;
}
inline bool spec_b(const FormInfo& f, int lane, int i, Pos* p) {
  const int g = lane >> 2, t = lane & 3, bits = ty_info(f.a).bits;
  if (f.sparse) return false;
  if (bits == 16) return *p = {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g}, true;
  if (f.a == Ty::tf32 || f.a == Ty::f64) return *p = {t + 4 * i, g}, true;
  if (bits == 8 && f.k == 32) return *p = {t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g}, true;
  if (bits == 8 && f.k == 16) return *p = {t * 4 + i, g}, true;
  if (bits == 4) return *p = {t * 8 + (i & 7) + (i >= 8 ? 32 : 0), g}, true;
  return false;
}
// "ok", "n/a" (no transcription) or "BAD".
inline const char* spec_agreement(const FormInfo& f) {
  const int per = per_reg(f.a);
  bool any = false, ok = true;
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < f.na * per; ++i) {
      Pos want{}, got = a_pos(lane, i / per, i % per, f.a);
      if (spec_a(f, lane, i, &want)) any = true, ok = ok && want.row == got.row && want.col == got.col;
    }
    for (int i = 0; i < f.nb * per; ++i) {
      Pos want{}, got = b_pos(lane, i / per, i % per, f.a);
      if (spec_b(f, lane, i, &want)) any = true, ok = ok && want.row == got.row && want.col == got.col;
    }
  }
  return !any ? "n/a" : ok ? "ok" : "BAD";
}

// Every layout covers each element of A (or compressed A), B and C exactly
// once over the warp, and pack/unpack of C round-trips.
inline bool selftest() {
  bool ok = true;
  for (const FormInfo& f : kForms) {
    std::vector<int> ca(size_t(f.m) * a_cols(f), 0), cb(size_t(f.k) * f.n, 0), cc(size_t(f.m) * f.n, 0);
    const int per = per_reg(f.a);
    for (int lane = 0; lane < 32; ++lane) {
      for (int r = 0; r < f.na; ++r)
        for (int e = 0; e < per; ++e) {
          const Pos p = a_pos(lane, r, e, f.a);
          if (p.row < f.m && p.col < a_cols(f)) ++ca[size_t(p.row) * a_cols(f) + p.col];
        }
      for (int r = 0; r < f.nb; ++r)
        for (int e = 0; e < per; ++e) {
          const Pos p = b_pos(lane, r, e, f.a);
          if (p.row < f.k && p.col < f.n) ++cb[size_t(p.row) * f.n + p.col];
        }
      for (int i = 0; i < f.nc * c_per_reg(f.c); ++i) {
        const Pos p = c_pos(lane, i);
        if (p.row < f.m && p.col < f.n) ++cc[size_t(p.row) * f.n + p.col];
      }
    }
    auto once = [](const std::vector<int>& v) { return std::all_of(v.begin(), v.end(), [](int x) { return x == 1; }); };
    TileSet s = make_tiles(f, 12);
    const std::vector<uint32_t> in = pack_inputs(f, s);
    std::vector<uint32_t> cwords(s.tiles.size() * 32 * words_c(f));
    for (size_t i = 0; i < s.tiles.size() * 32; ++i)
      std::memcpy(&cwords[i * words_c(f)], &in[i * words_in(f) + words_a(f) + words_b(f)], 4 * words_c(f));
    TileSet back = s;
    unpack_d(f, cwords, &back);
    bool round_trip = true;
    for (size_t i = 0; i < s.tiles.size(); ++i) round_trip = round_trip && back.tiles[i].d == s.tiles[i].c;
    const std::string spec = spec_agreement(f);
    const bool good = once(ca) && once(cb) && once(cc) && round_trip && spec != "BAD";
    std::printf("selftest %s: A %s, B %s, C %s, C round trip %s, ISA formulas %s\n", f.id, once(ca) ? "ok" : "BAD",
                once(cb) ? "ok" : "BAD", once(cc) ? "ok" : "BAD", round_trip ? "ok" : "BAD", spec.c_str());
    ok = ok && good;
  }
  return ok;
}

}  // namespace probe
