// Runs `ptxfu eval` (cli::run_eval) in process on a byte buffer and returns
// its output and status. Shared by the eval fuzz targets.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/eval_cmd.h"

namespace ptxfu::fuzz {

struct EvalRun {
  int status = 0;
  std::string out;
};

inline EvalRun run_eval_on(std::string_view input, const cli::EvalOptions& options) {
  // fmemopen cannot open an empty buffer on every libc: feed a tmpfile then.
  std::FILE* in = input.empty() ? std::tmpfile() : fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  if (!in || !out) std::abort();
  std::ostringstream err;
  EvalRun r;
  r.status = cli::run_eval(in, out, err, options);
  std::fclose(in);
  std::fclose(out);
  r.out.assign(buf, len);
  std::free(buf);
  return r;
}

}  // namespace ptxfu::fuzz
