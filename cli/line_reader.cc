#include "cli/line_reader.h"

#include <cstring>

namespace ptxfu::cli {

LineReader::LineReader(std::FILE* file, size_t max_line) : file_(file), max_line_(max_line), buffer_(1 << 16) {}

bool LineReader::fill() {
  if (eof_) return false;
  begin_ = 0;
  end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
  if (end_ == 0) {
    eof_ = true;
    read_error_ = std::ferror(file_) != 0;
    return false;
  }
  return true;
}

LineReader::Status LineReader::next(std::string_view& text, size_t& length) {
  line_.clear();
  length = 0;
  bool any = false;
  while (true) {
    if (begin_ == end_ && !fill()) break;
    any = true;
    const char* start = buffer_.data() + begin_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    const size_t chunk = nl ? static_cast<size_t>(nl - start) : end_ - begin_;
    if (length + chunk <= max_line_) line_.append(start, chunk);
    length += chunk;
    begin_ += chunk + (nl ? 1 : 0);
    if (nl) break;
  }
  if (!any) return Status::end;
  ++line_number_;
  if (length > max_line_) return Status::too_long;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  text = line_;
  return Status::line;
}

}  // namespace ptxfu::cli
