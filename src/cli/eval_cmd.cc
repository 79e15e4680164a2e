#include "cli/eval_cmd.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "cli/line_reader.h"
#include "isa/target_options.h"
#include "exec/execute.h"
#include "isa/statement.h"
#include "isa/table.h"

namespace ptxfu::cli {
namespace {

struct Token {
  std::string_view text;
  unsigned column;
};

// Splits "mnemonic a, b c" on spaces and commas; "{_, _}" (an unpacking
// mov's destination) is one token.
unsigned split(std::string_view line, Token* tokens, unsigned max_tokens) {
  unsigned n = 0;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == ',' || line[i] == '\r')) ++i;
    if (i == line.size()) break;
    const size_t start = i;
    if (line[i] == '{') {
      const size_t close = line.find('}', i);
      i = close == std::string_view::npos ? line.size() : close + 1;
    }
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ',' && line[i] != '\r') ++i;
    if (n == max_tokens) return max_tokens + 1;
    tokens[n++] = {line.substr(start, i - start), static_cast<unsigned>(start) + 1};
  }
  return n;
}

class Evaluator {
 public:
  Evaluator(std::FILE* out, const isa::Capabilities& caps) : out_(out), caps_(caps) { buffer_.reserve(1 << 17); }
  ~Evaluator() { flush(); }

  void line(std::string_view text, unsigned line_no) {
    line_no_ = line_no;
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || text[first] == '#' || text.compare(first, 2, "//") == 0) return;
    if (const size_t bad = isa::find_invalid_byte(text); bad != std::string_view::npos)
      return error(static_cast<unsigned>(bad) + 1,
                   fmt::format("invalid byte 0x{:02x}: input is ASCII text", static_cast<unsigned char>(text[bad])));
    constexpr unsigned kMaxTokens = 8;
    Token tok[kMaxTokens];
    const unsigned n = split(text, tok, kMaxTokens);
    if (n == 0) return error(static_cast<unsigned>(first) + 1, "expected an instruction");  // separators only
    if (n > kMaxTokens) return error(1, "too many operands");

    // An unpacking mov names its destination vector: mov.b32 {_, _} 0x12345678.
    unsigned first_src = 1, dest_values = 1;
    if (n > 1 && tok[1].text[0] == '{') {
      std::string_view e[4];
      dest_values = isa::vector_elements(tok[1].text, e, 4);
      if (tok[1].text.back() != '}' || dest_values > 4 ||
          !std::all_of(e, e + std::min(dest_values, 4u), [](std::string_view x) { return x == "_"; }))
        return error(tok[1].column,
                     fmt::format("'{}': a destination vector is written with sinks, as {{_, _}}", tok[1].text));
      first_src = 2;
    }
    unsigned num_src = n - first_src;
    std::optional<bool> carry_in;
    if (num_src > 0 && tok[n - 1].text.rfind("cc=", 0) == 0) {
      const std::string_view v = tok[n - 1].text.substr(3);
      if (v != "0" && v != "1") return error(tok[n - 1].column, fmt::format("bad carry '{}': expected cc=0 or cc=1", tok[n - 1].text));
      carry_in = v == "1";
      --num_src;
    }
    const isa::Instr* instr = decode(tok[0], num_src, dest_values);
    if (!instr) return;
    if (isa::reads_carry(*instr) != carry_in.has_value())
      return error(tok[0].column, carry_in ? fmt::format("'{}' does not read the carry flag: drop cc=", tok[0].text)
                                           : fmt::format("'{}' reads the carry flag: end the line with cc=0 or cc=1", tok[0].text));
    uint64_t src[kMaxTokens + 1] = {};  // a 128-bit value takes two words
    for (unsigned k = 0, word = 0; k < num_src; ++k) {
      const unsigned bits = isa::src_bits(*instr, k);
      if (!parse_operand(tok[k + first_src], bits, k, src + word)) return;
      word += bits > 64 ? 2 : 1;
    }

    const exec::Result r = exec::execute(*instr, src, carry_in.value_or(false));
    const unsigned bits = isa::dest_bits(*instr);
    const unsigned digits = (bits + 3) / 4;  // a predicate: one digit
    char buf[80];
    int len = 0;
    if (isa::is_vector(instr->row->dest)) {  // an unpacking mov: the elements, first to last
      for (unsigned i = 0; i < isa::num_dests(*instr); ++i)
        len += std::snprintf(buf + len, sizeof buf - len, "%s0x%0*llx", i ? " " : "", static_cast<int>(digits),
                             static_cast<unsigned long long>(exec::element(r, i, bits)));
    } else if (bits > 64) {  // mov.b128
      len = std::snprintf(buf, sizeof buf, "0x%0*llx%016llx", static_cast<int>(digits - 16),
                          static_cast<unsigned long long>(r.high), static_cast<unsigned long long>(r.value));
    } else {
      len = std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(digits),
                          static_cast<unsigned long long>(r.value));
    }
    if (isa::num_dests(*instr) == 2 &&
        !isa::is_vector(instr->row->dest))  // p|q, or lop3's d|p: the second is a predicate
      len += std::snprintf(buf + len, sizeof buf - len, " 0x%d", static_cast<int>(r.second & 1));
    if (isa::writes_carry(*instr)) len += std::snprintf(buf + len, sizeof buf - len, " cc=%d", r.carry_out ? 1 : 0);
    buf[len++] = '\n';
    write(std::string_view(buf, static_cast<size_t>(len)));
  }

  void too_long(unsigned line_no, size_t length, size_t limit) {
    line_no_ = line_no;
    error(1, fmt::format("line is {} bytes long; the limit is {}", length, limit));
  }

  bool any_error() const { return any_error_; }

 private:
  // Decoded forms are cached by mnemonic: streams repeat a few forms.
  const isa::Instr* decode(const Token& mnemonic, unsigned num_src, unsigned dest_values) {
    std::string key(mnemonic.text);
    key += static_cast<char>('0' + num_src);
    key += static_cast<char>('0' + dest_values);
    if (auto it = cache_.find(key); it != cache_.end()) return &it->second;
    isa::Instr instr;
    isa::Diagnostic d;
    if (!isa::check_form(mnemonic.text, num_src, caps_, mnemonic.column, instr, d, dest_values)) {
      error(d.column, d.message);
      return nullptr;
    }
    if (cache_.size() > 4096) cache_.clear();  // bounded memory on adversarial input
    return &cache_.emplace(std::move(key), instr).first->second;
  }

  // One operand into value[0], or a 128-bit one into value[0] (bits 63:0)
  // and value[1] (bits 127:64).
  bool parse_operand(const Token& t, unsigned bits, unsigned index, uint64_t* value) {
    const std::string_view s = t.text;
    const auto hex = [](std::string_view digits, uint64_t& out) {
      const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out, 16);
      if (ec == std::errc::result_out_of_range) return std::errc::result_out_of_range;
      return ec != std::errc() || p != digits.data() + digits.size() ? std::errc::invalid_argument : std::errc();
    };
    std::errc ec = std::errc::invalid_argument;
    if (s.size() >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      const std::string_view digits = s.substr(2);
      if (bits > 64) {  // the last 16 digits are bits 63:0, the ones before bits 127:64
        const size_t low = digits.size() > 16 ? digits.size() - 16 : 0;
        value[1] = 0;
        ec = low > 0 ? hex(digits.substr(0, low), value[1]) : std::errc();
        if (ec == std::errc()) ec = hex(digits.substr(low), value[0]);
      } else {
        ec = hex(digits, value[0]);
        if (ec == std::errc() && bits < 64 && (value[0] >> bits)) ec = std::errc::result_out_of_range;
      }
    }
    if (ec == std::errc::result_out_of_range) {
      error(t.column, fmt::format("operand {} '{}' does not fit in {} bits", index + 1, s, bits));
      return false;
    }
    if (ec != std::errc()) {
      error(t.column, fmt::format("operand {} '{}': expected a 0x hexadecimal bit pattern", index + 1, s));
      return false;
    }
    return true;
  }

  void error(unsigned column, const std::string& message) {
    any_error_ = true;
    write(fmt::format("error: {}:{}: {}\n", line_no_, column, message));
  }

  void write(std::string_view s) {
    buffer_.append(s);
    if (buffer_.size() >= (1 << 16)) flush();
  }
  void flush() {
    if (!buffer_.empty()) std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
    buffer_.clear();
  }

  std::FILE* out_;
  const isa::Capabilities& caps_;
  std::unordered_map<std::string, isa::Instr> cache_;
  std::string buffer_;
  unsigned line_no_ = 0;
  bool any_error_ = false;
};

}  // namespace

int run_eval(std::FILE* in, std::FILE* out, std::ostream& err, const EvalOptions& options) {
  std::string error;
  const auto caps = isa::resolve_capabilities(options.target, std::nullopt, std::nullopt, true, error);
  if (!caps) {
    err << "ptxfu eval: " << error << "\n";
    return 2;
  }
  bool any_error = false;
  {
    Evaluator ev(out, *caps);
    LineReader reader(in, options.max_line);
    std::string_view text;
    size_t length = 0;
    for (LineReader::Status s; (s = reader.next(text, length)) != LineReader::Status::end;) {
      if (s == LineReader::Status::too_long)
        ev.too_long(reader.line_number(), length, options.max_line);
      else
        ev.line(text, reader.line_number());
    }
    if (reader.read_error()) {
      err << "ptxfu eval: read error\n";
      return 2;
    }
    any_error = ev.any_error();
  }
  std::fflush(out);
  return any_error ? 1 : 0;
}

}  // namespace ptxfu::cli
