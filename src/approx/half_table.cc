#include "approx/half_table.h"

#include <atomic>
#include <cctype>
#include <fstream>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <vector>

#include "approx/mufu.h"

namespace ptxfu::approx {
namespace {

constexpr std::string_view kNames[] = {"tanh.approx.f16", "ex2.approx.f16", "tanh.approx.bf16", "ex2.approx.ftz.bf16"};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == kHalfFnCount);

// Installed tables. Replaced tables stay alive (in `g_keep`) so that a
// reader holding an old pointer never sees freed memory.
std::atomic<const HalfTable*> g_installed[kHalfFnCount];
std::mutex g_keep_mutex;
std::vector<std::unique_ptr<HalfTable>> g_keep;

std::string hex16(unsigned v) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  for (int sh = 12; sh >= 0; sh -= 4) s += digits[(v >> sh) & 0xf];
  return s;
}

// Parses `0x` followed by exactly four hex digits.
bool parse_hex16(std::string_view tok, uint16_t& out) {
  if (tok.size() != 6 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X')) return false;
  unsigned v = 0;
  for (size_t i = 2; i < 6; ++i) {
    const char c = tok[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      return false;
    v = v * 16 + d;
  }
  out = static_cast<uint16_t>(v);
  return true;
}

std::vector<std::string_view> split_ws(std::string_view line) {
  std::vector<std::string_view> toks;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) toks.push_back(line.substr(i, j - i));
    i = j;
  }
  return toks;
}

}  // namespace

std::string_view half_fn_name(HalfFn fn) { return kNames[static_cast<size_t>(fn)]; }

std::optional<HalfFn> half_fn_from_name(std::string_view name) {
  for (size_t i = 0; i < kHalfFnCount; ++i) {
    if (kNames[i] == name) return static_cast<HalfFn>(i);
  }
  return std::nullopt;
}

uint16_t model_half(HalfFn fn, uint16_t a) {
  switch (fn) {
    case HalfFn::tanh_f16: return tanh_approx_f16(a);
    case HalfFn::ex2_f16: return ex2_approx_f16(a);
    case HalfFn::tanh_bf16: return tanh_approx_bf16(a);
    case HalfFn::ex2_ftz_bf16: return ex2_approx_ftz_bf16(a);
    case HalfFn::kCount: break;
  }
  return 0;
}

HalfTable model_table(HalfFn fn) {
  HalfTable t{};
  for (uint32_t i = 0; i < t.size(); ++i) t[i] = model_half(fn, static_cast<uint16_t>(i));
  return t;
}

void write_table(std::ostream& os, HalfFn fn, const HalfTable& table, std::string_view source) {
  os << "# ptxfu MUFU table: one line per input, 0xINPUT 0xOUTPUT (bit patterns)\n"
     << "# source: " << source << "\n"
     << "function " << half_fn_name(fn) << "\n";
  for (uint32_t i = 0; i < table.size(); ++i) os << hex16(i) << ' ' << hex16(table[i]) << '\n';
}

TableError::TableError(const std::string& file, int line, const std::string& what)
    : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what),
      file_(file),
      line_(line) {}

LoadedTable read_table(std::istream& is, const std::string& file) {
  LoadedTable out{HalfFn::kCount, {}};
  std::vector<int> seen_on(65536, 0);  // line of each input's entry, 0 = not yet
  bool have_header = false;
  size_t count = 0;
  std::string raw;
  int line_no = 0;
  while (std::getline(is, raw)) {
    ++line_no;
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> toks = split_ws(line);
    if (toks.empty() || toks[0][0] == '#') continue;
    if (!have_header) {
      if (toks.size() != 2 || toks[0] != "function") {
        throw TableError(file, line_no, "expected the header 'function <name>'");
      }
      const std::optional<HalfFn> fn = half_fn_from_name(toks[1]);
      if (!fn) {
        throw TableError(file, line_no,
                         "unknown function '" + std::string(toks[1]) +
                             "' (expected tanh.approx.f16, ex2.approx.f16, tanh.approx.bf16 or "
                             "ex2.approx.ftz.bf16)");
      }
      out.fn = *fn;
      have_header = true;
      continue;
    }
    uint16_t in = 0;
    uint16_t res = 0;
    if (toks.size() != 2 || !parse_hex16(toks[0], in) || !parse_hex16(toks[1], res)) {
      throw TableError(file, line_no,
                       "expected '0xIIII 0xOOOO' (two 16-bit hex bit patterns), got '" + std::string(line) + "'");
    }
    if (seen_on[in] != 0) {
      throw TableError(file, line_no,
                       "duplicate input " + hex16(in) + " (first given on line " + std::to_string(seen_on[in]) + ")");
    }
    seen_on[in] = line_no;
    out.table[in] = res;
    ++count;
  }
  if (is.bad()) throw TableError(file, line_no, "read error");
  if (!have_header) throw TableError(file, line_no, "no 'function <name>' header");
  if (count != 65536) {
    size_t first = 0;
    while (seen_on[first] != 0) ++first;
    throw TableError(file, line_no,
                     "table ends after " + std::to_string(count) +
                         " of 65536 inputs; first "
                         "missing input " +
                         hex16(static_cast<unsigned>(first)));
  }
  return out;
}

LoadedTable read_table_file(const std::string& path) {
  std::ifstream is(path);
  if (!is) throw TableError(path, 0, "cannot open file");
  return read_table(is, path);
}

void install_hardware_table(HalfFn fn, const HalfTable& table) {
  auto copy = std::make_unique<HalfTable>(table);
  const HalfTable* p = copy.get();
  {
    std::lock_guard<std::mutex> lock(g_keep_mutex);
    g_keep.push_back(std::move(copy));
  }
  g_installed[static_cast<size_t>(fn)].store(p, std::memory_order_release);
}

int install_hardware_tables_from_dir(const std::string& dir) {
  std::vector<LoadedTable> found;
  for (size_t i = 0; i < kHalfFnCount; ++i) {
    const auto fn = static_cast<HalfFn>(i);
    const std::string path = dir + "/" + std::string(half_fn_name(fn)) + ".tab";
    std::ifstream is(path);
    if (!is) continue;
    LoadedTable t = read_table(is, path);
    if (t.fn != fn) {
      throw TableError(
          path, 0,
          "holds " + std::string(half_fn_name(t.fn)) + ", not " + std::string(half_fn_name(fn)) + " as its name says");
    }
    found.push_back(t);
  }
  for (const LoadedTable& t : found) install_hardware_table(t.fn, t.table);
  return static_cast<int>(found.size());
}

void clear_hardware_table(HalfFn fn) { g_installed[static_cast<size_t>(fn)].store(nullptr, std::memory_order_release); }

bool has_hardware_table(HalfFn fn) {
  return g_installed[static_cast<size_t>(fn)].load(std::memory_order_acquire) != nullptr;
}

uint16_t eval_half(HalfFn fn, uint16_t a) {
  const HalfTable* t = g_installed[static_cast<size_t>(fn)].load(std::memory_order_acquire);
  return t ? (*t)[a] : builtin_half(fn, a);
}

}  // namespace ptxfu::approx
