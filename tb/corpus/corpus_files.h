// What both corpus suites share: the list of corpus files, reading one,
// running `ptxfu check` on a text in process, and telling the statements of
// the instruction table from the others.
#pragma once
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/check_cmd.h"
#include "isa/instr.h"
#include "isa/module.h"
#include "isa/module_check.h"

namespace ptxfu::corpus {

// The corpus's .ptx file names (not paths), sorted; empty if the directory
// is missing.
inline std::vector<std::string> corpus_files() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(PTXFU_CORPUS_DIR, ec))
    if (e.is_regular_file() && e.path().extension() == ".ptx") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string corpus_path(const std::string& name) { return std::string(PTXFU_CORPUS_DIR) + "/" + name; }

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct CheckRun {
  int status = 0;
  std::string out;
  std::string err;
};

// `ptxfu check` on `text` as file `name`, with the target the file names.
inline CheckRun check_text(const std::string& text, const std::string& name) {
  std::FILE* in = std::tmpfile();
  std::fwrite(text.data(), 1, text.size(), in);
  std::rewind(in);
  cli::CheckOptions options;
  options.input_name = name;
  std::ostringstream out, err;
  CheckRun r;
  r.status = cli::run_check(in, out, err, options);
  std::fclose(in);
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline std::string_view opcode_of(const isa::Statement& st) {
  return st.mnemonic.text.substr(0, st.mnemonic.text.find('.'));
}

// Whether the statement goes through the instruction table (its opcode is a
// name in isa::kOps); the others are only resolved for their symbols.
// A statement the instruction table judges (mov only with a vector operand).
inline bool in_table(const isa::Statement& st) { return isa::is_table_statement(st); }

}  // namespace ptxfu::corpus
