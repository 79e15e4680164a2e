// Fuzz target: `ptxfu check` end to end (cli::run_check) on arbitrary bytes:
// statement mode, and whole-file mode from the first directive on.
//
// Properties beyond "no crash, no sanitizer report":
//  - the exit status is 0, 1 or 2; 0 only when no line says "error";
//  - every output line is "ok", "error: LINE:COL: MESSAGE" (statement mode)
//    or "<input>:LINE:COL: error: MESSAGE" (file mode).
// The first byte picks --target (none: the file's .target decides; sm_80;
// sm_90 with .oob added) and a small line limit for the too-long path.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/check_cmd.h"

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz_check: %s: '%.*s'\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

bool digits_colon_digits(std::string_view& s) {  // consumes "LINE:COL: "
  size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == 0 || i == s.size() || s[i] != ':') return false;
  const size_t j = ++i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == j || s.substr(i, 2) != ": ") return false;
  s.remove_prefix(i + 2);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  ptxfu::cli::CheckOptions options;
  options.input_name = "in.ptx";
  switch (data[0] % 3) {
    case 0: break;
    case 1: options.target.target = "sm_80"; break;
    case 2:
      options.target.target = "sm_90";
      options.target.add_features = {"oob"};
      break;
  }
  if (data[0] & 4) options.max_line = 80;
  std::FILE* in = fmemopen(const_cast<uint8_t*>(data + 1), size - 1, "rb");
  if (!in) std::abort();
  std::ostringstream out, err;
  const int status = ptxfu::cli::run_check(in, out, err, options);
  std::fclose(in);

  if (status < 0 || status > 2) fail("exit status outside 0..2", std::to_string(status));
  const std::string text = out.str();
  std::string_view rest = text;
  bool any_error = false;
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) fail("output does not end with a newline", text);
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    if (line == "ok") continue;
    any_error = true;
    if (line.rfind("error: ", 0) == 0) {
      line.remove_prefix(7);
      if (!digits_colon_digits(line) || line.empty()) fail("malformed statement-mode error", line);
    } else if (line.rfind("in.ptx:", 0) == 0) {
      line.remove_prefix(7);
      if (!digits_colon_digits(line) || line.rfind("error: ", 0) != 0 || line.size() == 7)
        fail("malformed file-mode error", line);
    } else {
      fail("unexpected output line", line);
    }
  }
  if (status == 0 && any_error) fail("exit status 0 with errors in the output", text);
  return 0;
}
