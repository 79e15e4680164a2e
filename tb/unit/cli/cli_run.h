// Runs the built `ptxfu` with a command line, for the command-line tests:
// the exit status and what it printed (stdout and stderr together).
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ptxfu::cli_test {

struct CmdResult {
  int status;
  std::string out;
};

// `args` as a shell would split them (through bash, so quotes and globs work).
inline CmdResult run(const std::string& args) {
  const std::string cmd = "bash -c \"" + std::string(PTXFU_EXE) + " " + args + "\" 2>&1";
  std::FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, out};
}

}  // namespace ptxfu::cli_test
