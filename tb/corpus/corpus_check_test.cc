// Every file of the real-code corpus (tb/corpus/ptx: what nvcc 13.0 emits,
// all accepted by ptxas) passes `ptxfu check` for its own .target with no
// diagnostic. The table statements are counted, so the suite cannot pass by
// checking nothing.
#include <gtest/gtest.h>

#include <cctype>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "corpus/corpus_files.h"

namespace ptxfu::corpus {
namespace {

struct Counts {
  unsigned instructions = 0;
  unsigned table = 0;
  std::map<std::string, unsigned> per_opcode;  // table statements only
};

Counts count_statements(const std::string& text) {
  std::vector<isa::LexError> lex_errors;
  const auto lexemes = isa::lex(text, 64 * 1024, lex_errors);
  std::vector<isa::ModuleError> errors;
  const isa::Module m = isa::parse_module(lexemes, errors);
  Counts c;
  for (const isa::Function& f : m.functions)
    for (const isa::Instruction& in : f.instructions) {
      ++c.instructions;
      if (!in_table(in.st)) continue;
      ++c.table;
      ++c.per_opcode[std::string(opcode_of(in.st))];
    }
  return c;
}

class CorpusCheck : public testing::TestWithParam<std::string> {};

TEST_P(CorpusCheck, PassesWithNoDiagnostic) {
  const std::string text = read_text(corpus_path(GetParam()));
  ASSERT_FALSE(text.empty()) << corpus_path(GetParam());
  const CheckRun r = check_text(text, GetParam());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const Counts c = count_statements(text);
  std::cout << GetParam() << ": " << c.instructions << " instructions, " << c.table << " through the table\n";
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Ptx, CorpusCheck, testing::ValuesIn(corpus_files()), test_name);

TEST(CorpusCheck, FileSetAndTableCoverage) {
  const auto files = corpus_files();
  ASSERT_GE(files.size(), 60u) << "corpus files in " << PTXFU_CORPUS_DIR;
  Counts total;
  for (const std::string& name : files) {
    const Counts c = count_statements(read_text(corpus_path(name)));
    total.instructions += c.instructions;
    total.table += c.table;
    for (const auto& [op, n] : c.per_opcode) total.per_opcode[op] += n;
  }
  std::cout << files.size() << " files, " << total.instructions << " instructions, " << total.table
            << " through the instruction table:";
  for (const auto& [op, n] : total.per_opcode) std::cout << ' ' << op << ' ' << n;
  std::cout << '\n';
  EXPECT_GT(total.table, 0u);
}

}  // namespace
}  // namespace ptxfu::corpus
