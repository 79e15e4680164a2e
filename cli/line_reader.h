// Reads text lines in constant memory. A line longer than the limit is
// consumed to its end and reported as too long instead of being stored.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace ptxfu::cli {

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = 64 * 1024;

  explicit LineReader(std::FILE* file, size_t max_line = kDefaultMaxLine);

  enum class Status { line, too_long, end };
  // On `line`, `text` holds the line without its newline (valid until the
  // next call). On `too_long`, `length` holds the full length seen.
  Status next(std::string_view& text, size_t& length);
  unsigned line_number() const { return line_number_; }
  bool read_error() const { return read_error_; }

 private:
  bool fill();

  std::FILE* file_;
  size_t max_line_;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  bool read_error_ = false;
  unsigned line_number_ = 0;
  std::string line_;
};

}  // namespace ptxfu::cli
