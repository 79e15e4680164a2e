// Where NVIDIA's ptxas is, for the tests that compare with it: $PTXFU_PTXAS,
// else the CUDA install. Empty when there is none (the tests then skip).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

namespace ptxfu::testing_support {

inline std::string find_ptxas() {
  if (const char* env = std::getenv("PTXFU_PTXAS")) return env;
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::FILE* f = std::fopen(p, "rb")) {
      std::fclose(f);
      return p;
    }
  return "";
}

// One diagnostic of ptxas ("ptxas F.ptx, line 12; error   : MESSAGE").
struct PtxasDiagnostic {
  unsigned line = 0;
  bool fatal = false;
  std::string message;
};

// Reads a ptxas run's output (a popen'ed pipe, 2>&1) to its end and returns
// the diagnostics; every other line goes to `other`. The caller closes `p`.
inline std::vector<PtxasDiagnostic> read_ptxas(std::FILE* p, std::vector<std::string>& other) {
  std::vector<PtxasDiagnostic> out;
  static const std::regex line_re(R"(line (\d+); (error|fatal)\s*: (.*))");
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    std::string line(buf);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    std::smatch m;
    if (std::regex_search(line, m, line_re))
      out.push_back({static_cast<unsigned>(std::stoul(m[1])), m[2] == "fatal", m[3]});
    else
      other.push_back(line);
  }
  return out;
}

// Runs ptxas on the module at `path` for `arch` and returns its diagnostics
// (its other output lines dropped); none when ptxas cannot be started.
inline std::vector<PtxasDiagnostic> run_ptxas(const std::string& ptxas, const std::string& path,
                                              const std::string& arch) {
  std::FILE* p = popen((ptxas + " -arch=" + arch + " -o /dev/null " + path + " 2>&1").c_str(), "r");
  if (p == nullptr) return {};
  std::vector<std::string> other;
  std::vector<PtxasDiagnostic> out = read_ptxas(p, other);
  pclose(p);
  return out;
}

}  // namespace ptxfu::testing_support
