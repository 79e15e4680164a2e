#include "sweep/numerics.h"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include <yaml-cpp/yaml.h>
#include "sweep/spec.h"

#include "fp/ops.h"
#include "mma/block_fma.h"
#include "models/text_file.h"
#include "models/yaml_reader.h"
#include "util/splitmix64.h"

namespace ptxfu::sweep {
namespace {

using models::ConfigError;
using Reader = models::YamlReader;

constexpr long kMaxProducts = 1L << 32;  // M * N * K of one workload

uint64_t to_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
double to_double(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

const char* rounding_name(fp::Rounding r) { return r == fp::Rounding::rn ? "rn" : "rz"; }

// The parameter table: name, lowest and highest value a spec may write
// (custom_row checks the combination).
struct ParamInfo {
  const char* name;
  long lo, hi;
};
constexpr ParamInfo kParams[] = {
    {"block_width", 1, 64}, {"kept_bits", 1, 61}, {"carry_bits", 2, 61}, {"sum_frac_bits", 1, 63}, {"rounding", 0, 0}};

int param_value(const NumericsSpec& s, const std::vector<size_t>& choice, const char* name, int fallback) {
  for (size_t i = 0; i < s.parameters.size(); ++i)
    if (s.parameters[i].key == name) return std::stoi(s.parameters[i].values[choice[i]]);
  return fallback;
}

class NumericsLoader {
 public:
  NumericsLoader(const YAML::Node& root, const std::string& path) : r_{path}, root_(root), path_(path) {}

  NumericsSpec load() {
    if (!root_ || !root_.IsMap()) throw ConfigError(path_ + ": empty sweep spec");
    r_.only_keys(root_, "", {"name", "description", "mode", "row", "parameters", "gemms", "synth", "plot"});
    s_.path = path_;
    s_.name = root_["name"] ? r_.string(root_["name"], "name") : stem_of(path_);
    if (s_.name.empty() || s_.name.find_first_of("/ \t\n'\"") != std::string::npos)
      r_.fail(root_["name"], "name", "expected a name without spaces, quotes or slashes");
    load_row();
    load_parameters();
    load_gemms();
    load_synth();
    load_plots();
    make_points();
    return std::move(s_);
  }

 private:
  void load_row() {
    const YAML::Node row = r_.required(root_, "row", "");
    r_.only_keys(row, "row", {"target", "in", "out"});
    s_.target = r_.string(r_.required(row, "target", "row"), "row.target");
    int sm = 0;
    if (std::sscanf(s_.target.c_str(), "sm_%d", &sm) != 1) r_.fail(row["target"], "row.target", "expected sm_NN");
    const auto elem = [&](const char* k, mma::Elem* e) {
      const std::string v = r_.string(r_.required(row, k, "row"), std::string("row.") + k);
      if (!mma::parse_elem(v, e)) r_.fail(row[k], std::string("row.") + k, "unknown element type '" + v + "'");
    };
    elem("in", &s_.in);
    elem("out", &s_.out);
    s_.base = mma::find_row(sm, mma::Family::mma_sync, s_.in, s_.out);
    if (!s_.base)
      r_.fail(row, "row",
              fmt::format("no mma.sync {} -> {} row on {}", mma::elem_name(s_.in), mma::elem_name(s_.out), s_.target));
    if (s_.base->method != mma::Method::block_fma || s_.base->k_split != 1 || s_.base->datapath_in != s_.in)
      r_.fail(row, "row", "the row is not a one-instruction block-FMA row (f64, integers and widened fp8 are not)");
  }

  void load_parameters() {
    const YAML::Node ps = r_.required(root_, "parameters", "");
    std::vector<std::string_view> names;
    for (const ParamInfo& p : kParams) names.push_back(p.name);
    r_.only_keys(ps, "parameters", names);
    for (const auto& kv : ps) {
      const std::string name = kv.first.Scalar();
      const std::string key = "parameters." + name;
      const auto info = std::find_if(std::begin(kParams), std::end(kParams), [&](auto& p) { return name == p.name; });
      Parameter p;
      p.key = name;
      const YAML::Node vs = kv.second;
      const size_t count = vs.IsSequence() ? vs.size() : 1;
      if (vs.IsSequence() && count == 0) r_.fail(vs, key, "expected at least one value");
      for (size_t i = 0; i < count; ++i) {
        const YAML::Node v = vs.IsSequence() ? vs[i] : vs;
        const std::string at = vs.IsSequence() ? fmt::format("{}[{}]", key, i) : key;
        std::string text;
        if (name == "rounding") {
          text = r_.string(v, at);
          if (text != "rz" && text != "rn") r_.fail(v, at, "expected rz or rn (the RTL's two roundings)");
        } else {
          text = std::to_string(r_.integer(v, at, info->lo, info->hi));
        }
        if (std::count(p.values.begin(), p.values.end(), text)) r_.fail(v, at, "value '" + text + "' given twice");
        p.values.push_back(text);
        p.yaml.push_back(text);
        nodes_[name].push_back(v);
      }
      s_.parameters.push_back(std::move(p));
    }
  }

  void load_gemms() {
    const YAML::Node gs = r_.required(root_, "gemms", "");
    if (!gs.IsSequence() || gs.size() == 0) r_.fail(gs, "gemms", "expected a list of GEMM workloads");
    for (size_t i = 0; i < gs.size(); ++i) {
      const std::string key = fmt::format("gemms[{}]", i);
      const YAML::Node g = gs[i];
      r_.only_keys(g, key, {"name", "m", "n", "k", "distribution", "seed"});
      GemmWorkload w;
      w.m = static_cast<int>(r_.integer(r_.required(g, "m", key), key + ".m", 1, 1 << 16));
      w.n = static_cast<int>(r_.integer(r_.required(g, "n", key), key + ".n", 1, 1 << 16));
      w.k = static_cast<int>(r_.integer(r_.required(g, "k", key), key + ".k", 1, 1 << 24));
      if (static_cast<long>(w.m) * w.n * w.k > kMaxProducts)
        r_.fail(g, key, fmt::format("M * N * K is beyond {} products", kMaxProducts));
      w.distribution = g["distribution"] ? r_.string(g["distribution"], key + ".distribution") : "normal";
      if (w.distribution != "normal" && w.distribution != "uniform" && w.distribution != "positive")
        r_.fail(g["distribution"], key + ".distribution", "expected normal, uniform or positive");
      w.seed = g["seed"] ? static_cast<uint64_t>(r_.integer(g["seed"], key + ".seed", 0, 1LL << 62)) : 1;
      w.name = g["name"] ? r_.string(g["name"], key + ".name")
                         : fmt::format("{}x{}x{}.{}.{}", w.m, w.n, w.k, w.distribution, w.seed);
      for (const auto& other : s_.gemms)
        if (other.name == w.name) r_.fail(g, key, "a second workload named '" + w.name + "'");
      s_.gemms.push_back(w);
    }
  }

  void load_synth() {
    const YAML::Node files = root_["synth"];
    if (!files) return;
    const std::vector<std::string> names = r_.strings(files, "synth");
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string file = resolve(path_, names[i]);
      std::string text;
      if (models::read_text_file(file, models::kMaxConfigBytes, text) != models::ReadStatus::ok)
        r_.fail(files[i], fmt::format("synth[{}]", i), "cannot read '" + file + "'");
      read_synth_csv(text, file, files[i], i);
    }
  }

  // in,out,W,B,carry,sum_frac,round,stages,cells,flops,logic_depth; only
  // the unpipelined rows (stages 0) are costs of the combinational block.
  void read_synth_csv(const std::string& text, const std::string& file, const YAML::Node& n, size_t i) {
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      if (++number == 1) {
        if (line != "in,out,W,B,carry,sum_frac,round,stages,cells,flops,logic_depth")
          r_.fail(n, fmt::format("synth[{}]", i), file + ": not a synth-block.sh CSV (header)");
        continue;
      }
      if (line.empty()) continue;
      SynthRow s;
      char in[16], out[16], rnd[8];
      int stages = 0;
      long flops = 0;
      if (std::sscanf(line.c_str(), "%15[^,],%15[^,],%d,%d,%d,%d,%7[^,],%d,%ld,%ld,%ld", in, out, &s.w, &s.b, &s.carry,
                      &s.sum_frac, rnd, &stages, &s.cells, &flops, &s.depth) != 11)
        r_.fail(n, fmt::format("synth[{}]", i), fmt::format("{}:{}: expected 11 fields", file, number));
      s.in = in, s.out = out, s.round = rnd;
      if (stages == 0) s_.synth.push_back(s);
    }
  }

  void load_plots() {
    const YAML::Node p = root_["plot"];
    if (!p) {
      s_.plots = {"max_ulp", "mean_ulp", "rel_error"};
      return;
    }
    s_.plots = p.IsSequence() ? r_.strings(p, "plot") : std::vector<std::string>{r_.string(p, "plot")};
    const auto& ms = numerics_metrics();
    for (size_t i = 0; i < s_.plots.size(); ++i)
      if (std::find(ms.begin(), ms.begin() + 3, s_.plots[i]) == ms.begin() + 3)
        r_.fail(p.IsSequence() ? p[i] : p, "plot", "'" + s_.plots[i] + "': expected max_ulp, mean_ulp or rel_error");
  }

  // The product of the parameters (the last varies fastest), per workload;
  // each set checked by mma::custom_row.
  void make_points() {
    std::vector<size_t> choice(s_.parameters.size(), 0);
    size_t total = 1;
    for (const auto& p : s_.parameters) total *= p.values.size();
    for (size_t g = 0; g < s_.gemms.size(); ++g)
      for (size_t i = 0; i < total; ++i) {
        size_t rest = i;
        for (size_t d = s_.parameters.size(); d-- > 0;)
          choice[d] = rest % s_.parameters[d].values.size(), rest /= s_.parameters[d].values.size();
        s_.points.push_back(make_point(g, choice));
      }
  }

  NumericsSpec::Point make_point(size_t g, const std::vector<size_t>& choice) {
    const mma::BlockParams base = mma::block_params(*s_.base);
    mma::BlockParams p = base;
    p.block_width = param_value(s_, choice, "block_width", base.block_width);
    p.kept_bits = param_value(s_, choice, "kept_bits", base.kept_bits);
    p.carry_bits = param_value(s_, choice, "carry_bits", mma::min_carry_bits(p.block_width));
    p.sum_frac_bits = param_value(s_, choice, "sum_frac_bits", base.sum_frac_bits);
    for (size_t i = 0; i < s_.parameters.size(); ++i)
      if (s_.parameters[i].key == "rounding")
        p.out_rounding = s_.parameters[i].values[choice[i]] == "rn" ? fp::Rounding::rn : fp::Rounding::rz;
    try {
      mma::custom_row(*s_.base, p);
    } catch (const std::invalid_argument& e) {
      const YAML::Node at = s_.parameters.empty() ? root_["parameters"] : nodes_[s_.parameters[0].key][choice[0]];
      r_.fail(at, "parameters",
              fmt::format("W={} B={} carry={}: {}", p.block_width, p.kept_bits, p.carry_bits, e.what()));
    }
    const GemmWorkload& w = s_.gemms[g];
    const std::string identity =
        fmt::format("numerics\n{} {} {}\ngemm {} {} {} {} {}\nW {} B {} carry {} sum {} round {}\n", s_.target,
                    mma::elem_name(s_.in), mma::elem_name(s_.out), w.m, w.n, w.k, w.distribution, w.seed, p.block_width,
                    p.kept_bits, p.carry_bits, p.sum_frac_bits, rounding_name(p.out_rounding));
    return {hash_hex(identity), g, p};
  }

  Reader r_;
  YAML::Node root_;
  std::string path_;
  NumericsSpec s_;
  std::map<std::string, std::vector<YAML::Node>> nodes_;
};

// A value of the workload's distribution, from the SplitMix64 stream.
double draw(const std::string& dist, uint64_t& state) {
  const auto unit = [&] { return static_cast<double>(util::splitmix64(state) >> 11) * 0x1p-53; };  // [0, 1)
  if (dist == "uniform") return 2 * unit() - 1;
  if (dist == "positive") return unit();
  const double u1 = 1 - unit(), u2 = unit();  // Box-Muller: u1 in (0, 1]
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

}  // namespace

const std::vector<std::string>& numerics_parameter_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ParamInfo& p : kParams) v.push_back(p.name);
    return v;
  }();
  return names;
}

const std::vector<std::string>& numerics_metrics() {
  static const std::vector<std::string> m = {"max_ulp",     "mean_ulp",    "rel_error", "cells",
                                             "logic_depth", "cost_source", "shipped"};
  return m;
}

std::vector<std::string> numerics_columns() {
  std::vector<std::string> c = {"key", "program"};
  for (const auto& p : numerics_parameter_names()) c.push_back(p);  // every set whole, swept or not
  c.push_back("status");
  for (const auto& m : numerics_metrics()) c.push_back(m);
  c.push_back("error");
  return c;
}

bool is_numerics_spec_file(const std::string& path) {
  std::string text;
  if (models::read_text_file(path, models::kMaxConfigBytes, text) != models::ReadStatus::ok) return false;
  try {
    const YAML::Node root = YAML::Load(text);
    return root.IsMap() && root["mode"] && root["mode"].IsScalar() && root["mode"].Scalar() == "numerics";
  } catch (const YAML::Exception&) {
    return false;
  }
}

NumericsSpec load_numerics_spec_text(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return NumericsLoader(root, path).load();
}

NumericsSpec load_numerics_spec(const std::string& path) {
  std::string text;
  if (models::read_text_file(path, models::kMaxConfigBytes, text) != models::ReadStatus::ok)
    throw ConfigError(path + ": cannot read the sweep spec");
  return load_numerics_spec_text(text, path);
}

GemmData make_gemm(const GemmWorkload& w, mma::Elem in) {
  const fp::Format& f = *mma::format_of(in);
  uint64_t state = w.seed;
  GemmData d;
  const auto bits = [&] { return fp::convert(fp::kF64, f, to_bits(draw(w.distribution, state))); };
  d.a.resize(static_cast<size_t>(w.m) * w.k);
  for (auto& x : d.a) x = bits();
  d.b_cols.resize(static_cast<size_t>(w.n) * w.k);  // B row-major as drawn, stored by columns
  for (int k = 0; k < w.k; ++k)
    for (int n = 0; n < w.n; ++n) d.b_cols[static_cast<size_t>(n) * w.k + k] = bits();
  return d;
}

// The exact sums at a precision that holds any sum of K products of the
// input format: every product of two inputs is exact in binary64 (at most
// 2 * 24 significand bits for the formats here, exponents within
// binary64's range), and the MPFR sum keeps every bit from the largest
// product's top to the smallest's bottom plus log2(K) carries.
struct ExactGemm::Impl {
  std::vector<__mpfr_struct> v;  // mpfr_t is an array type: the structs themselves
  mpfr_prec_t prec;
  ~Impl() {
    for (auto& x : v) mpfr_clear(&x);
  }
};

ExactGemm::ExactGemm(const GemmWorkload& w, const GemmData& data, mma::Elem in)
    : impl_(std::make_unique<Impl>()), n_(static_cast<size_t>(w.m) * w.n) {
  const fp::Format& f = *mma::format_of(in);
  if (2 * (f.frac_bits + 1) > 53) throw std::invalid_argument("exact GEMM: products wider than binary64");
  impl_->prec = 2 * (f.emax() + 2) - 2 * (f.emin() - f.frac_bits) + 64 + 32;
  impl_->v.resize(n_);
  std::vector<double> a(data.a.size()), b(data.b_cols.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = to_double(fp::convert(f, fp::kF64, data.a[i]));
  for (size_t i = 0; i < b.size(); ++i) b[i] = to_double(fp::convert(f, fp::kF64, data.b_cols[i]));
  for (int i = 0; i < w.m; ++i)
    for (int j = 0; j < w.n; ++j) {
      mpfr_ptr s = &impl_->v[static_cast<size_t>(i) * w.n + j];
      mpfr_init2(s, impl_->prec);
      mpfr_set_zero(s, 1);
      const double* ar = &a[static_cast<size_t>(i) * w.k];
      const double* bc = &b[static_cast<size_t>(j) * w.k];
      for (int k = 0; k < w.k; ++k) mpfr_add_d(s, s, ar[k] * bc[k], MPFR_RNDN);  // exact: see above
    }
}

ExactGemm::~ExactGemm() = default;

double ExactGemm::exact_double(size_t i) const { return mpfr_get_d(&impl_->v[i], MPFR_RNDN); }

double ExactGemm::ulp_error(size_t i, const fp::Format& out, uint64_t d, double* diff) const {
  mpfr_srcptr e = &impl_->v[i];
  const double dv = to_double(fp::convert(out, fp::kF64, d));  // exact widening
  if (!std::isfinite(dv)) {
    *diff = std::numeric_limits<double>::infinity();
    return *diff;
  }
  mpfr_t t;
  mpfr_init2(t, impl_->prec + 64);
  mpfr_sub_d(t, e, dv, MPFR_RNDN);  // exact: e - d
  mpfr_neg(t, t, MPFR_RNDN);
  *diff = mpfr_get_d(t, MPFR_RNDN);
  // The exact value's binade, floor(log2 |e|); below the normal range the
  // subnormal ulp.
  const long binade = mpfr_zero_p(e) ? out.emin() : std::max<long>(mpfr_get_exp(e) - 1, out.emin());
  mpfr_mul_2si(t, t, -(binade - out.frac_bits), MPFR_RNDN);
  const double ulps = std::fabs(mpfr_get_d(t, MPFR_RNDN));
  mpfr_clear(t);
  return ulps;
}

NumericsMetrics measure(const mma::NumericsRow& row, const GemmWorkload& w, const GemmData& data,
                        const ExactGemm& exact) {
  const fp::Format& out = *mma::format_of(row.out);
  NumericsMetrics m;
  long double err2 = 0, ref2 = 0, sum_ulp = 0;
  for (int i = 0; i < w.m; ++i)
    for (int j = 0; j < w.n; ++j) {
      const uint64_t d = mma::block_fma(row, static_cast<size_t>(w.k), &data.a[static_cast<size_t>(i) * w.k],
                                        &data.b_cols[static_cast<size_t>(j) * w.k], out.zero(false));
      const size_t at = static_cast<size_t>(i) * w.n + j;
      double diff = 0;
      const double ulps = exact.ulp_error(at, out, d, &diff);
      m.max_ulp = std::max(m.max_ulp, ulps);
      sum_ulp += ulps;
      err2 += static_cast<long double>(diff) * diff;
      const double e = exact.exact_double(at);
      ref2 += static_cast<long double>(e) * e;
    }
  m.mean_ulp = static_cast<double>(sum_ulp / exact.size());
  m.rel_error = ref2 > 0 ? static_cast<double>(std::sqrt(err2 / ref2)) : static_cast<double>(std::sqrt(err2));
  return m;
}

// Estimates from the measured sets of the same formats, rounding and sum
// width: cells by a least-squares line over W * (B + carry) (the aligned
// addends the adder tree holds), depth from the measured set of the same W
// or, without one, a line over log2(W).
Cost cost_of(const std::vector<SynthRow>& synth, mma::Elem in, mma::Elem out, const mma::BlockParams& p) {
  const std::string i = std::string(mma::elem_name(in)), o = std::string(mma::elem_name(out));
  const std::string r = rounding_name(p.out_rounding);
  std::vector<const SynthRow*> peers;
  for (const SynthRow& s : synth) {
    if (s.in != i || s.out != o || s.round != r || s.sum_frac != p.sum_frac_bits) continue;
    if (s.w == p.block_width && s.b == p.kept_bits && s.carry == p.carry_bits) return {"yosys", s.cells, s.depth};
    peers.push_back(&s);
  }
  const auto fit = [&](auto x, auto y, double at) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const SynthRow* s : peers) n += 1, sx += x(*s), sy += y(*s), sxx += x(*s) * x(*s), sxy += x(*s) * y(*s);
    const double den = n * sxx - sx * sx;
    if (n < 2 || den == 0) return -1.0;
    const double slope = (n * sxy - sx * sy) / den;
    return (sy - slope * sx) / n + slope * at;
  };
  const double cells =
      fit([](const SynthRow& s) { return double(s.w) * (s.b + s.carry); },
          [](const SynthRow& s) { return double(s.cells); }, double(p.block_width) * (p.kept_bits + p.carry_bits));
  if (cells < 0) return {"none", 0, 0};
  double depth = -1;
  for (const SynthRow* s : peers)
    if (s->w == p.block_width) depth = std::max(depth, double(s->depth));
  if (depth < 0)
    depth = fit([](const SynthRow& s) { return std::log2(double(s.w)); },
                [](const SynthRow& s) { return double(s.depth); }, std::log2(double(p.block_width)));
  return {"estimate", std::lround(cells), std::lround(std::max(depth, 0.0))};
}

std::string shipped_label(mma::Elem in, mma::Elem out, const mma::BlockParams& p) {
  std::string label;
  const mma::RowTable t = mma::numerics_rows();
  for (size_t i = 0; i < t.size; ++i) {
    const mma::NumericsRow& r = t.rows[i];
    if (r.method != mma::Method::block_fma || r.in != in || r.out != out || r.k_split != 1 || r.datapath_in != in ||
        r.c_align != mma::CAlign::with_block)
      continue;
    const mma::BlockParams q = mma::block_params(r);
    if (q.block_width != p.block_width || q.kept_bits != p.kept_bits || q.carry_bits != p.carry_bits ||
        q.sum_frac_bits != p.sum_frac_bits || q.out_rounding != p.out_rounding)
      continue;
    const std::string span =
        r.sm_first == r.sm_last ? fmt::format("sm_{}", r.sm_first) : fmt::format("sm_{}-{}", r.sm_first, r.sm_last);
    if (label.find(span) == std::string::npos) label += (label.empty() ? "" : "+") + span;
  }
  return label;
}

std::vector<std::string> point_values(const NumericsSpec::Point& pt) {
  const mma::BlockParams& p = pt.params;
  return {std::to_string(p.block_width), std::to_string(p.kept_bits), std::to_string(p.carry_bits),
          std::to_string(p.sum_frac_bits), rounding_name(p.out_rounding)};
}

}  // namespace ptxfu::sweep
