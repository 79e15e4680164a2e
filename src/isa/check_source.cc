#include "isa/check_source.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "isa/module.h"
#include "isa/module_check.h"

namespace ptxfu::isa {
namespace {

// The .version directives ptxas 13.0 reads: up to 9.0, but not 8.9 (which
// CUDA 13.0 skipped). ptxfu knows PTX 9.1 from the spec; --ptx-version may
// still ask for it.
constexpr uint16_t kPtxasNewestPtx = 90;
constexpr uint16_t kPtxasSkippedPtx[] = {89};

bool after(SourceLoc a, SourceLoc b) { return a.line != b.line ? a.line > b.line : a.column > b.column; }

bool ptxas_reads_version(uint16_t ptx) {
  return ptx <= kPtxasNewestPtx &&
         std::find(std::begin(kPtxasSkippedPtx), std::end(kPtxasSkippedPtx), ptx) == std::end(kPtxasSkippedPtx);
}

}  // namespace

CheckOutcome check_source(std::string_view text, const TargetOptions& options, size_t max_line) {
  CheckOutcome out;
  std::vector<LexError> lex_errors;
  const std::vector<Lexeme> lexemes = lex(text, max_line, lex_errors);
  for (auto& e : lex_errors) out.verdicts.push_back({e.loc, true, std::move(e.message)});
  std::vector<ModuleError> errors;
  const Module module = parse_module(lexemes, errors);
  out.module = module.has_directives;

  std::optional<std::string> file_target;
  if (module.target) file_target = std::string(*module.target);
  std::optional<uint16_t> file_ptx;
  if (module.version) {
    file_ptx = parse_ptx_version(*module.version);
    if (!file_ptx)
      errors.push_back({module.version_loc, fmt::format("bad .version '{}' (expected MAJOR.MINOR)", *module.version)});
    else if (!ptxas_reads_version(*file_ptx))
      errors.push_back({module.version_loc, fmt::format("Unsupported .version {}; current version is '{}'",
                                                        *module.version, format_ptx_version(kPtxasNewestPtx))});
  }
  std::string target_error;
  const auto caps = resolve_capabilities(options, file_target, file_ptx, false, target_error);
  if (!caps) {
    out.verdicts.clear();
    if (file_target && !options.target) {  // a bad .target in the file: report it there
      out.module = true;
      out.verdicts.push_back({module.target_loc, true, std::move(target_error)});
    } else {
      out.usage_error = true;
      out.usage_message = std::move(target_error);
    }
    return out;
  }

  if (out.module) {
    check_module(module, *caps, errors);
  } else {
    for (const Instruction& instr : module.loose_instructions) {
      Diagnostic d;
      bool other = false;
      const SourceLoc at{instr.st.mnemonic.line, instr.st.mnemonic.column};
      if (check_statement(instr.st, *caps, nullptr, d, other))
        out.verdicts.push_back({at, false, "ok"});
      else
        out.verdicts.push_back({{at.line, d.column}, true, d.message});
    }
  }
  for (auto& e : errors) out.verdicts.push_back({e.loc, true, std::move(e.message)});
  if (out.module && !module.loose_instructions.empty()) {
    // An instruction outside every function is a syntax error ptxas stops
    // at (a stray '}' before it, most often): what follows is its cascade.
    const Token& m = module.loose_instructions.front().st.mnemonic;
    const SourceLoc cut{m.line, m.column};
    out.verdicts.erase(std::remove_if(out.verdicts.begin(), out.verdicts.end(),
                                      [&](const CheckVerdict& v) { return after(v.loc, cut); }),
                       out.verdicts.end());
  }
  if (module.statements == 0 && out.verdicts.empty())
    out.verdicts.push_back(
        {{1, 1}, true, "no statements: a PTX file needs .version, .target and at least one function"});
  std::stable_sort(out.verdicts.begin(), out.verdicts.end(), [](const CheckVerdict& a, const CheckVerdict& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.column < b.loc.column;
  });
  return out;
}

}  // namespace ptxfu::isa
