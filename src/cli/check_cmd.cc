#include "cli/check_cmd.h"

#include <algorithm>

#include <fmt/format.h>

#include "isa/module_check.h"

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

// A line of output at a source position: diagnostics (and, in statement
// mode, verdicts) are printed in source order.
struct Report {
  isa::SourceLoc loc;
  bool error;
  std::string message;
};

}  // namespace

int run_check(std::FILE* in, std::ostream& out, std::ostream& err, const CheckOptions& options) {
  std::string text;
  switch (read_all(in, options.max_input, text)) {
    case ReadStatus::too_large:
      err << "ptxfu check: " << options.input_name << " is larger than " << options.max_input << " bytes\n";
      return 2;
    case ReadStatus::error:
      err << "ptxfu check: read error on " << options.input_name << "\n";
      return 2;
    case ReadStatus::ok: break;
  }
  if (text.empty()) {
    err << "ptxfu check: " << options.input_name << " is empty: no statements to check\n";
    return 1;
  }

  std::vector<Report> reports;
  std::vector<isa::LexError> lex_errors;
  const std::vector<isa::Lexeme> lexemes = isa::lex(text, options.max_line, lex_errors);
  reports.reserve(lex_errors.size());
  for (auto& e : lex_errors) reports.push_back({e.loc, true, std::move(e.message)});
  std::vector<isa::ModuleError> errors;
  const isa::Module module = isa::parse_module(lexemes, errors);
  const bool file_mode = module.has_directives;

  std::optional<std::string> file_target;
  if (module.target) file_target = std::string(*module.target);
  std::optional<uint16_t> file_ptx;
  if (module.version) {
    file_ptx = isa::parse_ptx_version(*module.version);
    if (!file_ptx)
      errors.push_back({module.version_loc, fmt::format("bad .version '{}' (expected MAJOR.MINOR)", *module.version)});
  }
  std::string target_error;
  const auto caps = isa::resolve_capabilities(options.target, file_target, file_ptx, false, target_error);
  if (!caps) {
    if (file_target && !options.target.target) {  // a bad .target in the file: report it
      out << options.input_name << ':' << module.target_loc.line << ':' << module.target_loc.column
          << ": error: " << target_error << '\n';
      return 1;
    }
    err << "ptxfu check: " << target_error << "\n";
    return 2;
  }

  if (file_mode) {
    isa::check_module(module, *caps, errors);
  } else {
    for (const isa::Instruction& instr : module.loose_instructions) {
      isa::Diagnostic d;
      bool other = false;
      const isa::SourceLoc at{instr.st.mnemonic.line, instr.st.mnemonic.column};
      if (isa::check_statement(instr.st, *caps, nullptr, d, other))
        reports.push_back({at, false, "ok"});
      else
        reports.push_back({{at.line, d.column}, true, d.message});
    }
  }
  for (auto& e : errors) reports.push_back({e.loc, true, std::move(e.message)});
  if (module.statements == 0 && reports.empty())
    reports.push_back({{1, 1}, true, "no statements: a PTX file needs .version, .target and at least one function"});
  std::stable_sort(reports.begin(), reports.end(), [](const Report& a, const Report& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.column < b.loc.column;
  });

  bool any_error = false;
  for (const Report& r : reports) {
    any_error |= r.error;
    if (file_mode)
      out << options.input_name << ':' << r.loc.line << ':' << r.loc.column << ": error: " << r.message << '\n';
    else if (r.error)
      out << "error: " << r.loc.line << ':' << r.loc.column << ": " << r.message << '\n';
    else
      out << "ok\n";
  }
  return any_error ? 1 : 0;
}

}  // namespace ptxfu::cli
