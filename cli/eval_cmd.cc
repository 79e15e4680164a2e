#include "cli/eval_cmd.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "cli/line_reader.h"
#include "exec/execute.h"
#include "isa/statement.h"
#include "isa/table.h"
#include "isa/target_options.h"

namespace ptxfu::cli {
namespace {

struct Token {
  std::string_view text;
  unsigned column;
};

// What split() does with each byte: separators end a token, bytes that are
// not ASCII text stop the line (one table, one pass over the line).
enum ByteClass : uint8_t { kText, kSeparator, kInvalid };
constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (unsigned c = 0; c < 256; ++c) t[c] = (c < 0x20 || c >= 0x7f) ? kInvalid : kText;
  for (unsigned char c : {' ', '\t', ',', '\r'}) t[c] = kSeparator;
  return t;
}();

// Splits "mnemonic a, b c" on spaces and commas; "{_, _}" (an unpacking
// mov's destination) is one token. Returns max_tokens + 1 when
// there are more tokens; sets `invalid` to the first byte that is not ASCII
// text (npos if none).
unsigned split(std::string_view line, Token* tokens, unsigned max_tokens, size_t& invalid) {
  unsigned n = 0;
  size_t i = 0;
  invalid = std::string_view::npos;
  const auto cls = [&line](size_t k) { return kByteClass[static_cast<unsigned char>(line[k])]; };
  while (i < line.size()) {
    while (i < line.size() && cls(i) == kSeparator) ++i;
    if (i == line.size()) break;
    const size_t start = i;
    if (line[i] == '{') {  // to the closing brace; what follows is still checked byte by byte
      const size_t close = line.find('}', i);
      const size_t stop = close == std::string_view::npos ? line.size() : close + 1;
      for (; i < stop; ++i)
        if (cls(i) == kInvalid) {
          invalid = i;
          return n;
        }
    }
    uint8_t c;
    while (i < line.size() && (c = cls(i)) != kSeparator) {
      if (c == kInvalid) {
        invalid = i;
        return n;
      }
      ++i;
    }
    if (n == max_tokens) {
      invalid = isa::find_invalid_byte(line.substr(i));  // the rest still has to be text
      if (invalid != std::string_view::npos) invalid += i;
      return max_tokens + 1;
    }
    tokens[n++] = {line.substr(start, i - start), static_cast<unsigned>(start) + 1};
  }
  return n;
}

constexpr std::array<int8_t, 256> kHexDigit = [] {
  std::array<int8_t, 256> t{};
  for (auto& d : t) d = -1;
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<int8_t>(c);
  for (int c = 0; c < 6; ++c) t['a' + c] = t['A' + c] = static_cast<int8_t>(10 + c);
  return t;
}();

// `digits` lowercase hex digits of v (zero-padded beyond 16), at `out`.
char* put_digits(char* out, uint64_t v, unsigned digits) {
  for (unsigned k = digits; k-- > 0;) *out++ = k < 16 ? "0123456789abcdef"[(v >> (4 * k)) & 0xf] : '0';
  return out;
}
// The same after "0x".
char* put_hex(char* out, uint64_t v, unsigned digits) {
  *out++ = '0';
  *out++ = 'x';
  return put_digits(out, v, digits);
}

constexpr unsigned kMaxTokens = 8;

class Evaluator {
 public:
  Evaluator(std::FILE* out, const isa::Capabilities& caps) : out_(out), caps_(caps) { buffer_.reserve(1 << 17); }
  ~Evaluator() {
    flush_batch();
    flush();
  }

  void line(std::string_view text, unsigned line_no) {
    line_no_ = line_no;
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || text[first] == '#' || text.compare(first, 2, "//") == 0) return;
    Token tok[kMaxTokens];
    size_t bad;
    const unsigned n = split(text, tok, kMaxTokens, bad);
    if (bad != std::string_view::npos)
      return error(static_cast<unsigned>(bad) + 1,
                   fmt::format("invalid byte 0x{:02x}: input is ASCII text", static_cast<unsigned char>(text[bad])));
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
      if (v != "0" && v != "1")
        return error(tok[n - 1].column, fmt::format("bad carry '{}': expected cc=0 or cc=1", tok[n - 1].text));
      carry_in = v == "1";
      --num_src;
    }
    const Form* form = decode(tok[0], num_src, dest_values);
    if (!form) return;
    if (form->reads_carry != carry_in.has_value())
      return error(tok[0].column,
                   carry_in ? fmt::format("'{}' does not read the carry flag: drop cc=", tok[0].text)
                            : fmt::format("'{}' reads the carry flag: end the line with cc=0 or cc=1", tok[0].text));
    // Forms may read a source slot they do not use; a 128-bit value takes two words.
    uint64_t src[kMaxTokens + 1] = {};
    for (unsigned k = 0, word = 0; k < num_src; ++k) {
      if (!parse_operand(tok[k + first_src], form->src_bits[k], k, src + word)) return;
      word += form->src_bits[k] > 64 ? 2 : 1;
    }

    if (form->batch) {  // evaluated with the lines of the same form around it
      if (pending_form_ != form) flush_batch();
      pending_form_ = form;
      for (unsigned k = 0; k < num_src; ++k) pending_[k][pending_n_] = src[k];
      if (++pending_n_ == kBatch) flush_batch();
      return;
    }
    flush_batch();
    const exec::Result r = exec::execute(form->instr, src, carry_in.value_or(false));
    char buf[96];
    char* end = buf;
    if (form->vector_dest) {  // an unpacking mov: the elements, first to last
      for (unsigned i = 0; i < form->dests; ++i) {
        if (i) *end++ = ' ';
        end = put_hex(end, exec::element(r, i, form->dest_bits), form->digits);
      }
    } else if (form->dest_bits > 64) {  // mov.b128: bits 127:64, then 63:0
      end = put_hex(end, r.high, form->digits - 16);
      end = put_digits(end, r.value, 16);
    } else {
      end = put_hex(end, r.value, form->digits);
    }
    if (form->two_dests && !form->vector_dest) {  // p|q, or lop3's d|p: the second is a predicate
      *end++ = ' ';
      end = put_hex(end, r.second & 1, 1);
    }
    if (form->writes_carry) {
      std::memcpy(end, r.carry_out ? " cc=1" : " cc=0", 5);
      end += 5;
    }
    *end++ = '\n';
    write(std::string_view(buf, static_cast<size_t>(end - buf)));
  }

  void too_long(unsigned line_no, size_t length, size_t limit) {
    line_no_ = line_no;
    error(1, fmt::format("line is {} bytes long; the limit is {}", length, limit));
  }

  bool any_error() const { return any_error_; }

 private:
  // A decoded form and what printing its lines needs, computed once.
  struct Form {
    isa::Instr instr;
    uint8_t src_bits[kMaxTokens];
    uint8_t dest_bits;  // of the destination, or of each element of a destination vector
    uint8_t digits;     // of dest_bits; a predicate: one
    uint8_t dests;      // destinations (isa::num_dests)
    bool two_dests, vector_dest, writes_carry, reads_carry;
    // The float executor's forms with one destination: consecutive lines of
    // such a form are evaluated together (exec::execute_float_many, the
    // core's array path), the form dispatched once per batch.
    bool batch;
  };

  // Consecutive lines of one batchable form, not yet evaluated: their
  // operands, source by source. Flushed before any other output, so lines
  // keep their order.
  static constexpr size_t kBatch = 1024;
  static constexpr unsigned kBatchSources = 4;
  void flush_batch() {
    if (pending_n_ == 0) return;
    const Form& f = *pending_form_;
    const uint64_t* src[kBatchSources];
    const ptrdiff_t strides[kBatchSources] = {1, 1, 1, 1};
    for (unsigned k = 0; k < kBatchSources; ++k) src[k] = pending_[k].data();
    exec::execute_float_many(f.instr, pending_n_, src, strides, results_.data());
    char* out = out_lines_.data();
    for (size_t i = 0; i < pending_n_; ++i) {
      out = put_hex(out, results_[i], f.digits);
      *out++ = '\n';
    }
    pending_n_ = 0;
    write(std::string_view(out_lines_.data(), static_cast<size_t>(out - out_lines_.data())));
  }

  // Decoded forms are cached by mnemonic and source count: streams repeat a
  // few forms, often the same one line after line (checked first).
  const Form* decode(const Token& mnemonic, unsigned num_src, unsigned dest_values) {
    const unsigned shape = num_src * 8 + dest_values;  // both at most 8
    if (last_ && shape == last_shape_ && mnemonic.text == last_mnemonic_) return last_;
    key_.assign(mnemonic.text);
    key_ += static_cast<char>('0' + num_src);
    key_ += static_cast<char>('0' + dest_values);
    if (auto it = cache_.find(key_); it != cache_.end()) return remember(&it->second, mnemonic.text, shape);
    Form f{};
    isa::Diagnostic d;
    if (!isa::check_form(mnemonic.text, num_src, caps_, mnemonic.column, f.instr, d, dest_values)) {
      error(d.column, d.message);
      return nullptr;
    }
    for (unsigned k = 0; k < num_src; ++k) f.src_bits[k] = static_cast<uint8_t>(isa::src_bits(f.instr, k));
    f.dest_bits = static_cast<uint8_t>(isa::dest_bits(f.instr));
    f.digits = static_cast<uint8_t>((f.dest_bits + 3) / 4);
    f.dests = static_cast<uint8_t>(isa::num_dests(f.instr));
    f.two_dests = f.dests == 2;
    f.vector_dest = isa::is_vector(f.instr.row->dest);
    f.writes_carry = isa::writes_carry(f.instr);
    f.reads_carry = isa::reads_carry(f.instr);
    f.batch = f.instr.row->executor == isa::Executor::floating && f.dests == 1 && !f.vector_dest && !f.writes_carry &&
              !f.reads_carry && f.dest_bits <= 64 && num_src <= kBatchSources;
    if (cache_.size() > 4096) {  // bounded memory on adversarial input
      flush_batch();             // its form is about to go
      cache_.clear();
      last_ = nullptr;
    }
    return remember(&cache_.emplace(key_, f).first->second, mnemonic.text, shape);
  }
  const Form* remember(const Form* f, std::string_view mnemonic, unsigned shape) {
    last_mnemonic_.assign(mnemonic);
    last_shape_ = shape;
    return last_ = f;
  }

  // One operand into value[0], or a 128-bit one into value[0] (bits 63:0)
  // and value[1] (bits 127:64).
  bool parse_operand(const Token& t, unsigned bits, unsigned index, uint64_t* value) {
    const std::string_view s = t.text;
    if (s.size() <= 18 && bits <= 64 && s.size() >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      // Up to 16 digits: the common case, one table lookup a digit.
      uint64_t v = 0;
      size_t i = 2;
      for (int8_t d; i < s.size() && (d = kHexDigit[static_cast<unsigned char>(s[i])]) >= 0; ++i)
        v = v << 4 | static_cast<uint64_t>(d);
      if (i == s.size() && (bits == 64 || (v >> bits) == 0)) {
        value[0] = v;
        return true;
      }
    }
    // Everything else, errors included.
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
    flush_batch();
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
  std::unordered_map<std::string, Form> cache_;  // node-based: pointers stay valid
  std::string key_, last_mnemonic_;              // reused: no allocation per line
  unsigned last_shape_ = 0;
  const Form* last_ = nullptr;
  std::string buffer_;
  const Form* pending_form_ = nullptr;
  size_t pending_n_ = 0;
  std::array<std::array<uint64_t, kBatch>, kBatchSources> pending_{};
  std::array<uint64_t, kBatch> results_{};
  std::array<char, kBatch * 20> out_lines_{};  // "0x" + 16 digits + "\n" a line at most
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
