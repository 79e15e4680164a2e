#include "calib_csv.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>

namespace ptxfu::hw {
namespace {

std::string optional_number(const std::optional<double>& v) { return v ? format_number(*v) : std::string(); }

// One CSV record's fields; `pos` moves past it. False on a stray quote.
bool split_record(std::string_view text, size_t& pos, std::vector<std::string>& fields, std::string& error) {
  fields.assign(1, std::string());
  bool quoted = false;
  bool was_quoted = false;  // the current field opened with a quote
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (pos < text.size() && text[pos] == '"') {
        fields.back() += '"';
        ++pos;
      } else {
        quoted = false;
      }
      continue;
    }
    if (c == ',') {
      fields.emplace_back();
      was_quoted = false;
    } else if (c == '\n') {
      return true;
    } else if (c == '\r' && pos < text.size() && text[pos] == '\n') {
      ++pos;
      return true;
    } else if (c == '"' && fields.back().empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == '"' || was_quoted) {
      error = "a double quote inside an unquoted field, or text after a closing quote";
      return false;
    } else {
      fields.back() += c;
    }
  }
  if (quoted) {
    error = "a quoted field is not closed";
    return false;
  }
  return true;
}

bool parse_number(const std::string& s, std::optional<double>& out) {
  if (s.empty()) {
    out.reset();
    return true;
  }
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::optional<std::string> optional_text(std::string s) {
  if (s.empty()) return std::nullopt;
  return s;
}

// "%.2f" of a value, or "-".
std::string cell(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", *v);
  return buf;
}

std::string ratio(const std::optional<double>& model, const std::optional<double>& measured) {
  if (!model || !measured || *measured == 0) return "-";
  return cell(*model / *measured);
}

}  // namespace

std::string format_number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[512];
  for (int precision = 1; precision <= 17; ++precision) {  // %.17g always reads back
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // %g writes an exponent when it is at least the precision (1500 as 1.5e+03).
  // Below 1e17 the same significant digits are written out, zeros standing
  // for the exponent: the same decimal value, read at a glance.
  const char* e = std::strchr(buf, 'e');
  if (!e || std::fabs(v) < 1 || std::fabs(v) >= 1e17) return buf;
  std::string digits;
  int after_point = 0;
  bool point = false;
  for (const char* c = buf; c != e; ++c) {
    if (*c == '.') {
      point = true;
    } else if (*c != '-') {
      digits += *c;
      after_point += point ? 1 : 0;
    }
  }
  return std::string(v < 0 ? "-" : "") + digits + std::string(std::atoi(e + 1) - after_point, '0');
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string csv_header() {
  std::string s;
  for (const std::string_view c : kCsvColumns) s += (s.empty() ? "" : ",") + std::string(c);
  return s + '\n';
}

std::string csv_record(const CalibRow& r) {
  const std::string fields[] = {r.config,
                                r.form,
                                r.consumer.value_or(""),
                                optional_number(r.latency),
                                optional_number(r.throughput),
                                r.unit,
                                optional_number(r.ref_latency),
                                optional_number(r.ref_throughput),
                                r.ref_source.value_or(""),
                                r.gpu_name,
                                optional_number(r.clock_mhz)};
  static_assert(std::size(fields) == kCsvColumns.size(), "one field per column");
  std::string s;
  for (size_t i = 0; i < std::size(fields); ++i) s += (i ? "," : "") + csv_field(fields[i]);
  return s + '\n';
}

bool write_csv_file(const std::string& path, const std::vector<CalibRow>& rows, std::string& error) {
  const std::string tmp = path + ".partial";
  std::FILE* fp = std::fopen(tmp.c_str(), "w");
  if (!fp) {
    error = tmp + ": cannot open for writing";
    return false;
  }
  std::string text = csv_header();
  for (const CalibRow& r : rows) text += csv_record(r);
  const bool written = std::fwrite(text.data(), 1, text.size(), fp) == text.size() && std::fflush(fp) == 0;
  const bool closed = std::fclose(fp) == 0;
  if (!written || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": write failed";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

bool read_csv(std::string_view text, std::vector<CalibRow>& rows, std::string& error) {
  rows.clear();
  if (text.empty()) {
    error = "empty file (no header)";
    return false;
  }
  size_t pos = 0;
  std::vector<std::string> f;
  for (unsigned line = 1; pos < text.size(); ++line) {
    std::string why;
    if (!split_record(text, pos, f, why)) {
      error = "line " + std::to_string(line) + ": " + why;
      return false;
    }
    if (line == 1) {
      if (f.size() != kCsvColumns.size() || !std::equal(f.begin(), f.end(), kCsvColumns.begin())) {
        error = "line 1: the header is not " + csv_header().substr(0, csv_header().size() - 1);
        return false;
      }
      continue;
    }
    if (f.size() != kCsvColumns.size()) {
      error = "line " + std::to_string(line) + ": " + std::to_string(f.size()) + " fields, expected " +
              std::to_string(kCsvColumns.size());
      return false;
    }
    CalibRow r;
    r.config = f[0];
    r.form = f[1];
    r.consumer = optional_text(f[2]);
    r.unit = f[5];
    r.ref_source = optional_text(f[8]);
    r.gpu_name = f[9];
    const std::pair<size_t, std::optional<double>*> numbers[] = {
        {3, &r.latency}, {4, &r.throughput}, {6, &r.ref_latency}, {7, &r.ref_throughput}, {10, &r.clock_mhz}};
    for (const auto& [i, out] : numbers)
      if (!parse_number(f[i], *out)) {
        error = "line " + std::to_string(line) + ": " + std::string(kCsvColumns[i]) + " '" + f[i] +
                "' is not a finite number";
        return false;
      }
    rows.push_back(std::move(r));
  }
  return true;
}

std::string_view builtin_bench(std::string_view form) {
  static constexpr std::pair<std::string_view, std::string_view> kBenches[] = {
      {"fma.rn.f32", "ffma"}, {"fma.rn.f16x2", "hfma2"}, {"fma.rn.f64", "dfma"},
      {"mad.lo.s32", "imad"}, {"add.s32", "iadd3"},      {"ex2.approx.ftz.f32", "mufu_ex2"}};
  for (const auto& [f, name] : kBenches)
    if (f == form) return name;
  return "";
}

double producer_to_consumer(double round_trip, std::optional<double> producer_latency, double consumer_latency) {
  if (!producer_latency) return round_trip - consumer_latency;
  return *producer_latency + (round_trip - *producer_latency - consumer_latency) / 2;
}

std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;  // UTF-8 passes through
    }
  }
  return out + '"';
}

std::string reference_key(const CalibRow& r) {
  std::string key;
  if (r.consumer)
    key = r.form + " -> " + *r.consumer;
  else if (const std::string_view bench = builtin_bench(r.form); !bench.empty())
    key = bench;
  else
    key = r.form;
  bool plain = !key.empty() && !(key[0] >= '0' && key[0] <= '9');
  for (const char c : key)
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  return plain ? key : yaml_quoted(key);
}

std::string reference_block(const std::vector<CalibRow>& rows, std::string_view source) {
  // The header names the config, as in configs/references.yaml.
  std::string s = (rows.empty() ? std::string("sm_XY") : rows.front().config) +
                  ":  # latency: cycles of a dependent chain; throughput: thread-instructions/clk/SM\n";
  const auto number = [](const std::optional<double>& v) {
    return v && std::isfinite(*v) ? format_number(*v) : std::string("null");
  };
  for (const CalibRow& r : rows)
    s += "  " + reference_key(r) + ": {latency: " + number(r.latency) + ", throughput: " + number(r.throughput) +
         ", source: " + yaml_quoted(source) + "}\n";
  return s;
}

std::string comparison_table(const std::vector<CalibRow>& measured, const std::vector<CalibRow>& model) {
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "%-7s %-22s %-14s %8s %9s %6s %9s %9s %6s\n", "config", "form", "consumer",
                "latency", "measured", "ratio", "thruput", "measured", "ratio");
  s += line;
  for (const CalibRow& m : measured) {
    const CalibRow* k = nullptr;
    for (const CalibRow& c : model)
      if (c.config == m.config && c.form == m.form && c.consumer == m.consumer) k = &c;
    std::optional<double> lat, tp;  // the model's, when it has the row
    if (k) {
      lat = k->latency;
      tp = k->throughput;
    }
    std::snprintf(line, sizeof line, "%-7s %-22s %-14s %8s %9s %6s %9s %9s %6s\n", m.config.c_str(), m.form.c_str(),
                  m.consumer.value_or("-").c_str(), cell(lat).c_str(), cell(m.latency).c_str(),
                  ratio(lat, m.latency).c_str(), cell(tp).c_str(), cell(m.throughput).c_str(),
                  ratio(tp, m.throughput).c_str());
    s += line;
  }
  return s;
}

}  // namespace ptxfu::hw
