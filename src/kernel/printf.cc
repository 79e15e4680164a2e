// Device printf (printf.h): the format parsed here, every field laid out
// here as C99 7.21.6.1 says; fmt only writes a double's digits.
#include "kernel/printf.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "kernel/kernel.h"

namespace ptxfu::kernel {
namespace {

enum class Length : uint8_t { none, hh, h, l, ll, z, j, t };

struct Spec {
  bool minus = false, plus = false, space = false, alt = false, zero = false;
  int width = 0;
  int precision = -1;  // -1: none
  Length length = Length::none;
  char conv = 0;
};

// The bytes an argument of this conversion takes in CUDA's buffer (and its
// alignment): int-sized for d i u x X o c without a long length, 8 for
// the long ones, pointers and doubles.
unsigned argument_bytes(const Spec& s) {
  switch (s.conv) {
    case 's':
    case 'p':
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G': return 8;
    case 'c': return 4;
    default: return s.length >= Length::l ? 8 : 4;
  }
}

// The value of an integer argument as its length makes it (sign-extended
// for d and i, truncated for the unsigned conversions).
uint64_t integer_value(uint64_t raw, const Spec& s, bool is_signed) {
  unsigned bits = 64;
  if (s.length == Length::hh) bits = 8;
  if (s.length == Length::h) bits = 16;
  if (s.length == Length::none) bits = 32;
  if (bits == 64) return raw;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  raw &= mask;
  if (is_signed && (raw >> (bits - 1) & 1)) raw |= ~mask;
  return raw;
}

// A field: `prefix` (sign, 0x) then `body`, padded to the width: spaces on
// the left, on the right with '-', or zeros after the prefix with '0'.
void pad(std::string& out, const Spec& s, std::string_view prefix, std::string_view body, bool zero_allowed) {
  const size_t len = prefix.size() + body.size();
  const size_t fill = s.width > 0 && static_cast<size_t>(s.width) > len ? s.width - len : 0;
  if (s.minus) {
    out.append(prefix).append(body).append(fill, ' ');
  } else if (s.zero && zero_allowed) {
    out.append(prefix).append(fill, '0').append(body);
  } else {
    out.append(fill, ' ').append(prefix).append(body);
  }
}

std::string sign_of(bool negative, const Spec& s) { return negative ? "-" : s.plus ? "+" : s.space ? " " : ""; }

void format_integer(std::string& out, const Spec& s, uint64_t raw) {
  const bool is_signed = s.conv == 'd' || s.conv == 'i';
  const uint64_t v = integer_value(raw, s, is_signed);
  const bool negative = is_signed && static_cast<int64_t>(v) < 0;
  const uint64_t magnitude = negative ? ~v + 1 : v;
  std::string digits;
  switch (s.conv) {
    case 'x': digits = fmt::format("{:x}", magnitude); break;
    case 'X': digits = fmt::format("{:X}", magnitude); break;
    case 'o': digits = fmt::format("{:o}", magnitude); break;
    default: digits = fmt::format("{}", magnitude); break;
  }
  if (s.precision == 0 && magnitude == 0) digits.clear();  // "%.0d" of 0 prints no digit
  if (s.precision > 0 && digits.size() < static_cast<size_t>(s.precision))
    digits.insert(0, s.precision - digits.size(), '0');
  if (s.alt && s.conv == 'o' && (digits.empty() || digits[0] != '0')) digits.insert(0, 1, '0');
  std::string prefix = is_signed ? sign_of(negative, s) : "";
  if (s.alt && magnitude != 0 && (s.conv == 'x' || s.conv == 'X')) prefix = s.conv == 'x' ? "0x" : "0X";
  pad(out, s, prefix, digits, s.precision < 0);
}

// %g: %e or %f by the exponent, trailing zeros gone unless '#'.
std::string general_body(double a, const Spec& s) {
  const int p = s.precision < 0 ? 6 : s.precision == 0 ? 1 : s.precision;
  const std::string e = fmt::format("{:.{}e}", a, p - 1);
  const int x = std::atoi(e.c_str() + e.find('e') + 1);
  std::string body = p > x && x >= -4 ? fmt::format("{:.{}f}", a, p - 1 - x) : e;
  if (!s.alt) {
    const size_t exp = body.find('e');
    std::string mantissa = body.substr(0, exp), tail = exp == std::string::npos ? "" : body.substr(exp);
    if (mantissa.find('.') != std::string::npos) {
      while (mantissa.back() == '0') mantissa.pop_back();
      if (mantissa.back() == '.') mantissa.pop_back();
    }
    body = mantissa + tail;
  } else if (body.find('.') == std::string::npos) {
    body.insert(body.find('e') == std::string::npos ? body.size() : body.find('e'), ".");
  }
  return body;
}

void format_double(std::string& out, const Spec& s, uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, 8);
  const bool negative = std::signbit(v), upper = s.conv == 'F' || s.conv == 'E' || s.conv == 'G';
  const double a = std::fabs(v);
  std::string body;
  if (std::isnan(v) || std::isinf(v)) {
    body = std::isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    pad(out, s, sign_of(negative, s), body, false);
    return;
  }
  const int p = s.precision < 0 ? 6 : s.precision;
  if (s.conv == 'f' || s.conv == 'F')
    body = fmt::format("{:.{}f}", a, p);
  else if (s.conv == 'e' || s.conv == 'E')
    body = fmt::format("{:.{}e}", a, p);
  else
    body = general_body(a, s);
  if (s.alt && p == 0 && (s.conv == 'f' || s.conv == 'F' || s.conv == 'e' || s.conv == 'E'))
    body.insert(body.find('e') == std::string::npos ? body.size() : body.find('e'), ".");
  if (upper)
    for (char& c : body) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  pad(out, s, sign_of(negative, s), body, true);
}

class Formatter {
 public:
  Formatter(std::string_view format, uint64_t args, const DeviceRead& read) : f_(format), args_(args), read_(read) {}

  std::string run() {
    for (size_t i = 0; i < f_.size();) {
      const size_t pct = f_.find('%', i);
      out_.append(f_.substr(i, pct == std::string_view::npos ? std::string_view::npos : pct - i));
      if (pct == std::string_view::npos) break;
      i = conversion(pct);
    }
    return std::move(out_);
  }
  unsigned arguments() const { return arguments_; }

 private:
  [[noreturn]] void bad(size_t at, size_t end, std::string_view why) const {
    throw PrintfError(fmt::format("conversion '{}' at offset {}: {}", f_.substr(at, end - at), at, why));
  }

  uint64_t next_argument(unsigned bytes, size_t at, size_t end) {
    if (args_ == 0) bad(at, end, "the call passed no arguments");
    offset_ = (offset_ + bytes - 1) / bytes * bytes;
    const uint64_t v = read_(args_ + offset_, bytes);
    offset_ += bytes;
    ++arguments_;
    return v;
  }

  // A width or precision: digits, or '*' (an int argument).
  int number(size_t& i, size_t at, bool& from_argument) {
    from_argument = i < f_.size() && f_[i] == '*';
    if (from_argument) {
      ++i;
      return static_cast<int32_t>(next_argument(4, at, i));
    }
    int64_t n = 0;
    while (i < f_.size() && f_[i] >= '0' && f_[i] <= '9') {
      n = n * 10 + (f_[i++] - '0');
      if (n > kMaxPrintfField) bad(at, i, fmt::format("a width or precision above {}", kMaxPrintfField));
    }
    return static_cast<int>(n);
  }

  Spec parse(size_t at, size_t& i) {
    Spec s;
    for (; i < f_.size(); ++i) {
      const char c = f_[i];
      if (c == '-')
        s.minus = true;
      else if (c == '+')
        s.plus = true;
      else if (c == ' ')
        s.space = true;
      else if (c == '#')
        s.alt = true;
      else if (c == '0')
        s.zero = true;
      else
        break;
    }
    bool star = false;
    s.width = number(i, at, star);
    if (star && s.width < -static_cast<int>(kMaxPrintfField))
      bad(at, i, fmt::format("a width or precision above {}", kMaxPrintfField));
    if (star && s.width < 0) s.minus = true, s.width = -s.width;  // a negative '*' width is '-'
    if (i < f_.size() && f_[i] == '.') {
      ++i;
      s.precision = number(i, at, star);
      if (star && s.precision < 0) s.precision = -1;
    }
    if (s.width > static_cast<int>(kMaxPrintfField) || s.precision > static_cast<int>(kMaxPrintfField))
      bad(at, i, fmt::format("a width or precision above {}", kMaxPrintfField));
    s.length = length(i);
    if (i >= f_.size()) bad(at, i, "the format ends inside the conversion");
    s.conv = f_[i++];
    return s;
  }

  Length length(size_t& i) const {
    auto next_is = [&](char c) { return i < f_.size() && f_[i] == c; };
    if (next_is('h')) return ++i, next_is('h') ? (++i, Length::hh) : Length::h;
    if (next_is('l')) return ++i, next_is('l') ? (++i, Length::ll) : Length::l;
    if (next_is('z')) return ++i, Length::z;
    if (next_is('j')) return ++i, Length::j;
    if (next_is('t')) return ++i, Length::t;
    return Length::none;
  }

  // Formats the conversion starting at f_[at] == '%'; returns where the text goes on.
  size_t conversion(size_t at) {
    size_t i = at + 1;
    if (i < f_.size() && f_[i] == '%') {
      out_.push_back('%');
      return i + 1;
    }
    const Spec s = parse(at, i);
    const bool long_length = s.length != Length::none && s.length != Length::l;
    switch (s.conv) {
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o': format_integer(out_, s, next_argument(argument_bytes(s), at, i)); break;
      case 'c':
        if (s.length != Length::none) bad(at, i, "wide characters are not supported");
        pad(out_, s, "", std::string(1, static_cast<char>(next_argument(4, at, i))), false);
        break;
      case 's': {
        if (s.length != Length::none) bad(at, i, "wide strings are not supported");
        const uint64_t p = next_argument(8, at, i);
        const size_t limit = s.precision >= 0 ? static_cast<size_t>(s.precision) : kMaxPrintfString;
        pad(out_, s, "", p == 0 ? std::string("(null)").substr(0, limit) : string_at(p, limit, at, i), false);
        break;
      }
      case 'p': {
        const uint64_t p = next_argument(8, at, i);
        pad(out_, s, "", p == 0 ? "(nil)" : fmt::format("0x{:x}", p), false);
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
        if (long_length) bad(at, i, "a length other than 'l' does not apply to a double");
        format_double(out_, s, next_argument(8, at, i));
        break;
      case 'n': bad(at, i, "%n is not supported");
      default: bad(at, i, fmt::format("unknown conversion '{}'", s.conv));
    }
    return i;
  }

  // Up to `limit` bytes of the string at p (fewer at its NUL).
  std::string string_at(uint64_t p, size_t limit, size_t at, size_t end) {
    std::string s;
    for (; s.size() < limit; ++p) {
      const char c = static_cast<char>(read_(p, 1));
      if (c == 0) return s;
      s.push_back(c);
    }
    if (limit == kMaxPrintfString) bad(at, end, fmt::format("the string has no NUL in its first {} bytes", limit));
    return s;
  }

  std::string_view f_;
  uint64_t args_;
  const DeviceRead& read_;
  uint64_t offset_ = 0;
  unsigned arguments_ = 0;
  std::string out_;
};

}  // namespace

std::string format_vprintf(std::string_view format, uint64_t args, const DeviceRead& read, unsigned* arguments) {
  Formatter f(format, args, read);
  std::string text = f.run();
  if (arguments) *arguments = f.arguments();
  return text;
}

std::string printf_output(const Memory& m) {
  std::vector<const PrintfRecord*> order;
  for (const PrintfRecord& r : m.printf) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const PrintfRecord* a, const PrintfRecord* b) {
    return a->cta != b->cta ? a->cta < b->cta : a->warp != b->warp ? a->warp < b->warp : a->lane < b->lane;
  });
  std::string out;
  for (const PrintfRecord* r : order) out += r->text;
  return out;
}

std::string read_device_string(uint64_t address, size_t limit, const DeviceRead& read, std::string_view what) {
  if (address == 0) throw PrintfError(fmt::format("{} is a null pointer", what));
  std::string s;
  for (; s.size() <= limit; ++address) {
    const char c = static_cast<char>(read(address, 1));
    if (c == 0) return s;
    s.push_back(c);
  }
  throw PrintfError(fmt::format("{} has no NUL in its first {} bytes", what, limit));
}

}  // namespace ptxfu::kernel
