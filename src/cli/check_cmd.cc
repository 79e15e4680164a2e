#include "cli/check_cmd.h"

#include <fmt/format.h>

#include "cli/line_reader.h"
#include "isa/target_options.h"
#include "isa/registers.h"
#include "isa/source.h"

namespace ptxfu::cli {
namespace {

std::string_view trim(std::string_view s) {  // spaces and tabs at both ends
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

class Checker {
 public:
  Checker(std::ostream& out, std::ostream& err, const CheckOptions& options)
      : out_(out), err_(err), options_(options) {}

  // Returns false on a fatal error (no usable target).
  bool line(std::string_view text, unsigned line_no) {
    line_no_ = line_no;
    if (const size_t bad = isa::find_invalid_byte(text); bad != std::string_view::npos) {
      report(static_cast<unsigned>(bad) + 1,
             fmt::format("invalid byte 0x{:02x}: PTX source is ASCII text", static_cast<unsigned char>(text[bad])));
      return true;
    }
    for (const isa::SourcePiece& piece : splitter_.split(text)) {
      if (piece.is_directive()) {
        directive(piece.text, piece.column);
      } else if (!piece.terminated) {
        report(piece.column + static_cast<unsigned>(piece.text.size()), "expected ';' at the end of the statement");
      } else if (!statement(piece.text, piece.column)) {
        return false;
      }
    }
    return true;
  }

  void too_long(unsigned line_no, size_t length) {
    line_no_ = line_no;
    report(1, fmt::format("line is {} bytes long; the limit is {}", length, options_.max_line));
  }

  bool any_error() const { return any_error_; }
  bool fatal() const { return fatal_; }

 private:
  void directive(std::string_view body, unsigned column) {
    file_mode_ = true;
    const size_t sp = body.find_first_of(" \t");
    const std::string_view name = body.substr(0, sp);
    const std::string_view arg = sp == std::string_view::npos ? std::string_view{} : trim(body.substr(sp));
    const unsigned arg_column = column + static_cast<unsigned>(sp == std::string_view::npos ? body.size() : body.find(arg, sp));
    if (name == ".version") {
      const auto v = isa::parse_ptx_version(arg);
      if (!v) {
        report(arg_column, fmt::format("bad .version '{}' (expected MAJOR.MINOR)", arg));
        return;
      }
      file_ptx_ = *v;
      caps_.reset();
    } else if (name == ".target") {
      file_target_ = std::string(trim(arg.substr(0, arg.find(','))));
      caps_.reset();
    } else if (name == ".reg") {
      isa::Diagnostic d;
      if (!regs_.declare(arg, arg_column, d)) report(d.column, d.message);
    }
  }

  bool ensure_caps() {
    if (caps_) return true;
    std::string error;
    caps_ = isa::resolve_capabilities(options_.target, file_target_, file_ptx_, false, error);
    if (caps_) return true;
    if (file_target_ && !options_.target.target) {  // a bad .target in the file: report and stop
      report(1, error);
    } else {
      err_ << "ptxfu check: " << error << "\n";
    }
    fatal_ = true;
    return false;
  }

  bool statement(std::string_view body, unsigned column) {
    isa::Statement st;
    isa::Diagnostic d;
    if (!isa::parse_statement(body, column, st, d)) {
      report(d.column, d.message);
      return true;
    }
    if (isa::is_non_arithmetic_opcode(st.mnemonic.text)) {
      if (!file_mode_)
        report(st.mnemonic.column,
               fmt::format("'{}' is not an arithmetic instruction; ptxfu checks the arithmetic chapter only",
                           st.mnemonic.text.substr(0, st.mnemonic.text.find('.'))));
      return true;
    }
    if (!ensure_caps()) return false;
    isa::Instr instr;
    const unsigned num_src = st.num_operands == 0 ? 0 : st.num_operands - 1;
    if (st.num_operands == 0) {
      report(st.mnemonic.column, fmt::format("Arguments mismatch for instruction '{}'",
                                             st.mnemonic.text.substr(0, st.mnemonic.text.find('.'))));
      return true;
    }
    if (!isa::decode(st.mnemonic.text, num_src, st.mnemonic.column, instr, d) ||
        !isa::check_target(instr, *caps_, st.mnemonic.column, d) ||
        !isa::check_operands(instr, st, file_mode_ ? &regs_ : nullptr, d)) {
      report(d.column, d.message);
      return true;
    }
    if (!file_mode_) out_ << "ok\n";
    return true;
  }

  void report(unsigned column, const std::string& message) {
    any_error_ = true;
    if (file_mode_)
      out_ << options_.input_name << ':' << line_no_ << ':' << column << ": error: " << message << '\n';
    else
      out_ << "error: " << line_no_ << ':' << column << ": " << message << '\n';
  }

  std::ostream& out_;
  std::ostream& err_;
  const CheckOptions& options_;
  std::optional<std::string> file_target_;
  std::optional<uint16_t> file_ptx_;
  std::optional<isa::Capabilities> caps_;
  isa::RegisterTable regs_;
  unsigned line_no_ = 0;
  bool file_mode_ = false;
  isa::SourceSplitter splitter_;
  bool any_error_ = false;
  bool fatal_ = false;
};

}  // namespace

int run_check(std::FILE* in, std::ostream& out, std::ostream& err, const CheckOptions& options) {
  Checker checker(out, err, options);
  LineReader reader(in, options.max_line);
  std::string_view text;
  size_t length = 0;
  bool any_line = false;
  for (LineReader::Status s; (s = reader.next(text, length)) != LineReader::Status::end;) {
    any_line = true;
    if (s == LineReader::Status::too_long) {
      checker.too_long(reader.line_number(), length);
      continue;
    }
    if (!checker.line(text, reader.line_number())) return 2;
  }
  if (reader.read_error()) {
    err << "ptxfu check: read error on " << options.input_name << "\n";
    return 2;
  }
  if (!any_line) {
    err << "ptxfu check: " << options.input_name << " is empty: no statements to check\n";
    return 1;
  }
  return checker.any_error() ? 1 : 0;
}

}  // namespace ptxfu::cli
