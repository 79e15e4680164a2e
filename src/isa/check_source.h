// `check` on a whole text: lexes and parses it, decides whether it is a
// module (any directive) or loose statements, resolves the target from the
// options and the file's directives, and checks everything. The command line
// (cli/check_cmd.cc) prints the verdicts; the library API returns them.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "isa/lexer.h"
#include "isa/target_options.h"

namespace ptxfu::isa {

struct CheckVerdict {
  SourceLoc loc;  // statements: where the mnemonic (or the error) is; modules: the error
  bool error = false;
  std::string message;  // "ok" for an accepted loose statement
};

struct CheckOutcome {
  // Any directive: a module, whose verdicts are its errors only (none: accepted).
  // Else one verdict per loose statement, `ok` or an error.
  bool module = false;
  std::vector<CheckVerdict> verdicts;  // in source order
  // The target could not be resolved. `usage_error` is set when the options
  // are at fault; a bad .target in the file is a verdict at its location.
  bool usage_error = false;
  std::string usage_message;

  bool ok() const {
    if (usage_error) return false;
    for (const CheckVerdict& v : verdicts)
      if (v.error) return false;
    return true;
  }
};

CheckOutcome check_source(std::string_view text, const TargetOptions& options, size_t max_line);

}  // namespace ptxfu::isa
