// Fuzz target: `ptxfu eval` end to end on arbitrary bytes (line reader,
// tokenizer, operand parser, decoder, legality, executors).
//
// Properties beyond "no crash, no sanitizer report", from the contract in
// the README:
//  - exactly one output line per instruction line (blank lines and lines
//    starting with '#' or '//' give none; a too-long line gives one error);
//  - every output line is "0x<hex>[ 0x<hex>...][ cc=0|1]" (up to four values:
//    p and q, d and p, an unpacked vector's elements) or
//    "error: LINE:COL: MESSAGE";
//  - the exit status is 1 exactly when some line erred, else 0.
// The first input byte picks the target (the default newest or sm_70) and a
// small line limit so that the too-long path is reached.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "eval_harness.h"

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz_eval: %s: '%.*s'\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// How many output lines the contract promises for `input`, computed here
// without the line reader.
size_t expected_lines(std::string_view input, size_t max_line) {
  size_t n = 0;
  while (!input.empty()) {
    const size_t nl = input.find('\n');
    std::string_view line = input.substr(0, nl);
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
    if (line.size() > max_line) {
      ++n;
      continue;
    }
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#' || line.substr(first, 2) == "//") continue;
    ++n;
  }
  return n;
}

bool well_formed(std::string_view line, bool& is_error) {
  is_error = line.rfind("error: ", 0) == 0;
  if (is_error) return line.size() > 7;
  size_t i = 0;
  for (unsigned values = 0; values < 4; ++values) {
    if (line.substr(i, 2) != "0x") return false;
    const size_t start = i += 2;
    while (i < line.size() && ((line[i] >= '0' && line[i] <= '9') || (line[i] >= 'a' && line[i] <= 'f'))) ++i;
    if (i == start) return false;
    if (line.substr(i, 3) != " 0x") break;
    ++i;
  }
  const std::string_view rest = line.substr(i);
  return rest.empty() || rest == " cc=0" || rest == " cc=1";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  ptxfu::cli::EvalOptions options;
  if (data[0] & 1) options.target.target = "sm_70";
  if (data[0] & 2) options.max_line = 64;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  const ptxfu::fuzz::EvalRun r = ptxfu::fuzz::run_eval_on(input, options);

  size_t lines = 0;
  bool any_error = false;
  std::string_view out = r.out;
  while (!out.empty()) {
    const size_t nl = out.find('\n');
    if (nl == std::string_view::npos) fail("output does not end with a newline", r.out);
    bool is_error = false;
    if (!well_formed(out.substr(0, nl), is_error)) fail("malformed output line", out.substr(0, nl));
    any_error |= is_error;
    ++lines;
    out.remove_prefix(nl + 1);
  }
  if (lines != expected_lines(input, options.max_line)) fail("not one output line per instruction line", input);
  if (r.status != (any_error ? 1 : 0)) fail("exit status disagrees with the output", r.out);
  return 0;
}
