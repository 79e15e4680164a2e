#include "cli/check_cmd.h"

#include "isa/check_source.h"

namespace ptxfu::cli {
namespace {

// Whole-input reading: a module's statements span lines, and its symbols
// may be used before the line that declares them (labels).
enum class ReadStatus { ok, too_large, error };
ReadStatus read_all(std::FILE* in, size_t limit, std::string& out) {
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) {
    out.append(buf, n);
    if (out.size() > limit) return ReadStatus::too_large;
  }
  return std::ferror(in) ? ReadStatus::error : ReadStatus::ok;
}

}  // namespace

int run_check(std::FILE* in, std::ostream& out, std::ostream& err, const CheckOptions& options) {
  std::string text;
  switch (read_all(in, options.max_input, text)) {
    case ReadStatus::too_large:
      err << "ptxfu check: " << options.input_name << " is larger than " << options.max_input << " bytes\n";
      return 2;
    case ReadStatus::error: err << "ptxfu check: read error on " << options.input_name << "\n"; return 2;
    case ReadStatus::ok: break;
  }
  if (text.empty()) {
    err << "ptxfu check: " << options.input_name << " is empty: no statements to check\n";
    return 1;
  }

  const isa::CheckOutcome outcome = isa::check_source(text, options.target, options.max_line);
  if (outcome.usage_error) {
    err << "ptxfu check: " << outcome.usage_message << "\n";
    return 2;
  }
  bool any_error = false;
  for (const isa::CheckVerdict& r : outcome.verdicts) {
    any_error |= r.error;
    if (outcome.module)
      out << options.input_name << ':' << r.loc.line << ':' << r.loc.column << ": error: " << r.message << '\n';
    else if (r.error)
      out << "error: " << r.loc.line << ':' << r.loc.column << ": " << r.message << '\n';
    else
      out << "ok\n";
  }
  return any_error ? 1 : 0;
}

}  // namespace ptxfu::cli
