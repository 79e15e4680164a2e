// The tensor-core candidate forms (mma.sync, mma.sp and .kind::f8f6f4 by
// shape, type, layout and modifier, with fragments right and wrong; wmma,
// wgmma, ldmatrix, stmatrix, movmatrix; tcgen05 from its own file, whose
// .cta_group::1 and ::2 candidates stand in kernels of their own)
// against ptxas 13.0's verdicts on every (target, PTX version) pair of
// tb/unit/isa/data/tensor_forms.ptxas, which scripts/tensor-forms-ptxas.py
// wrote by asking ptxas. `check` must give ptxas's verdict on every one; the
// test reports how often its message is ptxas's first message too. Where
// ptxas is installed, the committed verdicts are asked of it again.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isa/check_source.h"
#include "ptxas.h"
#include "sample.h"
#include "scratch_dir.h"

// The same test reads the synchronisation rows' verdicts (sync_forms.ptxas)
// where the build names another file and suite.
#ifndef PTXFU_AGREEMENT_SUITE
#define PTXFU_AGREEMENT_SUITE TensorAgreement
#define PTXFU_AGREEMENT_WHAT "tensor"
#endif

namespace ptxfu::isa {
namespace {

// The module each column's candidates stand in (as the script writes it).
// The file's `declare` lines stand after `.address_size` ({2}).
constexpr const char* kHeader =
    ".version {1}\n.target {0}\n.address_size 64\n{2}.visible .entry k() {{\n.reg .b16 %h<48>;\n.reg .b32 "
    "%r<136>;\n.reg .b64 %rd<48>;\n.reg .f32 %f<136>;\n.reg .f64 %fd<48>;\n.reg .pred %p<8>;\n";
constexpr unsigned kHeaderLines = 10;  // without the declarations

struct Column {
  std::string target, version;
};
struct Form {
  std::string statement;
  std::vector<int> verdicts;  // per column: -1 accepted, else the message's number
  unsigned kernel = 0;        // which kernel it stands in (a 'kernel' line begins the next)
};
struct Data {
  std::vector<Column> columns;
  std::string declarations;  // module-scope names the candidates use, one a line
  unsigned header_lines = kHeaderLines;
  std::vector<std::string> messages;
  std::vector<Form> forms;
};

Data read_data(const char* path) {
  Data d;
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line;
  unsigned kernel = 0;
  while (std::getline(in, line)) {
    if (line == "kernel") {
      ++kernel;
      continue;
    }
    std::istringstream s(line);
    std::string kind;
    s >> kind;
    if (kind == "declare") {
      d.declarations += line.substr(8) + "\n";
      ++d.header_lines;
    } else if (kind == "targets") {
      for (std::string c; s >> c;) d.columns.push_back({c.substr(0, c.find('/')), c.substr(c.find('/') + 1)});
    } else if (kind == "message") {
      size_t n;
      s >> n;
      std::string text;
      std::getline(s, text);
      EXPECT_EQ(n, d.messages.size());
      d.messages.push_back(text.substr(1));
    } else if (kind == "form") {
      const size_t tab = line.find('\t');
      Form f{line.substr(tab + 1), {}, kernel};
      std::istringstream cols(line.substr(5, tab - 5));
      for (std::string c; cols >> c;) {  // "N*V": N columns of V
        const size_t star = c.find('*');
        const int n = star == std::string::npos ? 1 : std::stoi(c.substr(0, star));
        const std::string v = star == std::string::npos ? c : c.substr(star + 1);
        f.verdicts.insert(f.verdicts.end(), static_cast<size_t>(n), v == "." ? -1 : std::stoi(v));
      }
      EXPECT_EQ(f.verdicts.size(), d.columns.size()) << line;
      d.forms.push_back(std::move(f));
    }
  }
  return d;
}

// The module, and each line's candidate (-1: none). ptxas refuses a kernel
// that uses both .cta_group::1 and ::2, so such candidates stand in kernels
// of their own, each with the registers of the first.
std::string module_text(const Data& d, const Column& c, std::vector<int>* line_form = nullptr) {
  std::string text = fmt::format(kHeader, c.target, c.version, d.declarations);
  const std::string registers = text.substr(text.find(".reg"));
  std::vector<int> lines(d.header_lines + 1, -1);  // lines[n]: the candidate on line n (1-based)
  unsigned kernel = 0;
  for (size_t i = 0; i < d.forms.size(); ++i) {
    for (; kernel < d.forms[i].kernel; ++kernel) {
      text += fmt::format("ret;\n}}\n.visible .entry k{}() {{\n", kernel + 1) + registers;
      lines.resize(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1, -1);
    }
    text += d.forms[i].statement + ";\n";
    lines.push_back(static_cast<int>(i));
  }
  if (line_form) *line_form = std::move(lines);
  return text + "ret;\n}\n";
}

// ptxfu's first message per candidate index (absent: accepted).
std::map<size_t, std::string> ptxfu_errors(const Data& d, const Column& c) {
  std::vector<int> line_form;
  const CheckOutcome out = check_source(module_text(d, c, &line_form), TargetOptions{}, 1u << 16);
  EXPECT_FALSE(out.usage_error) << out.usage_message;
  std::map<size_t, std::string> errors;
  for (const CheckVerdict& v : out.verdicts) {
    const int form = v.loc.line < line_form.size() ? line_form[v.loc.line] : -1;
    EXPECT_GE(form, 0) << c.target << " " << c.version << ": line " << v.loc.line << ": " << v.message;
    if (form >= 0) errors.emplace(static_cast<size_t>(form), v.message);
  }
  return errors;
}

// The verdict files: the tensor test reads tcgen05's too.
std::vector<const char*> data_files() {
#ifdef PTXFU_TCGEN05_FORMS
  return {PTXFU_TENSOR_FORMS, PTXFU_TCGEN05_FORMS};
#else
  return {PTXFU_TENSOR_FORMS};
#endif
}

// A statement's family: its mnemonic's first word (tcgen05: its first two).
std::string family_of(const std::string& st) {
  const size_t end = st.find_first_of(". ");
  if (st.compare(0, end, "tcgen05") != 0 || end == std::string::npos || st[end] != '.') return st.substr(0, end);
  return st.substr(0, st.find_first_of(".: ", end + 1));
}

void agreement(const char* path, const char* what) {
  const Data d = read_data(path);
  ASSERT_FALSE(d.forms.empty());
  size_t pairs = 0, agree = 0, rejected = 0, same_message = 0;
  struct Family {
    size_t pairs = 0, agree = 0, rejected = 0, same_message = 0;
  };
  std::map<std::string, Family> families;                       // by the mnemonic's first word
  std::map<std::string, std::pair<size_t, std::string>> wrong;  // "ptxas | ptxfu" -> count, an example
  for (size_t col = 0; col < d.columns.size(); ++col) {
    const Column& c = d.columns[col];
    const auto ours = ptxfu_errors(d, c);
    for (size_t i = 0; i < d.forms.size(); ++i) {
      ++pairs;
      const std::string& st = d.forms[i].statement;
      Family& fam = families[family_of(st)];
      ++fam.pairs;
      const int theirs = d.forms[i].verdicts[col];
      const auto it = ours.find(i);
      const bool we_accept = it == ours.end();
      if (we_accept == (theirs < 0)) {
        ++agree, ++fam.agree;
        if (theirs >= 0) {
          ++rejected, ++fam.rejected;
          if (it->second == d.messages[static_cast<size_t>(theirs)])
            ++same_message, ++fam.same_message;
          else if (std::getenv("PTXFU_SHOW_MESSAGES"))
            std::cout << "  message: " << d.forms[i].statement << " | ptxas: " << d.messages[theirs]
                      << " | ptxfu: " << it->second << "\n";
        }
        continue;
      }
      auto& w = wrong[fmt::format("ptxas {} | ptxfu {}", theirs < 0 ? "ok" : d.messages[theirs],
                                  we_accept ? "ok" : it->second)];
      if (w.first++ == 0) w.second = fmt::format("{} {}: {}", c.target, c.version, d.forms[i].statement);
    }
  }
  std::cout << fmt::format(
      "{} agreement: {} candidate forms x {} (target, PTX version) pairs = {} verdicts; agree {} ({} rejected; "
      "ptxas's first message on {} of the rejections, {:.1f}%)\n",
      what, d.forms.size(), d.columns.size(), pairs, agree, rejected, same_message,
      rejected ? 100.0 * static_cast<double>(same_message) / static_cast<double>(rejected) : 0.0);
  for (const auto& [name, f] : families)
    std::cout << fmt::format("  {}: agree {} of {}; ptxas's first message on {} of {} rejections\n", name, f.agree,
                             f.pairs, f.same_message, f.rejected);
  for (const auto& [what, w] : wrong)
    std::cout << "  disagree x" << w.first << ": " << what << "\n    e.g. " << w.second << "\n";
  EXPECT_EQ(agree, pairs) << path;
}

TEST(PTXFU_AGREEMENT_SUITE, EveryCandidateOnEveryTargetAsPtxasSaysIt) {
  const auto files = data_files();
  agreement(files[0], PTXFU_AGREEMENT_WHAT);
  if (files.size() > 1) agreement(files[1], "tcgen05");
}

void still_ptxass(const std::string& ptxas, const char* path) {
  const Data d = read_data(path);
  const testing_support::ScratchDir dir;
  for (size_t col = 0; col < d.columns.size(); ++col) {
    if (test::kSampled && !test::sampled(col, 7)) continue;  // under the sanitizers: a sample
    const Column& c = d.columns[col];
    const std::string file = dir / "forms.ptx";
    std::vector<int> line_form;
    std::ofstream(file) << module_text(d, c, &line_form);
    std::FILE* p = popen(fmt::format("{} -arch={} -o /dev/null {} 2>&1", ptxas, c.target, file).c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::vector<std::string> other;
    std::map<size_t, std::string> now;
    for (const auto& diag : testing_support::read_ptxas(p, other)) {
      ASSERT_FALSE(diag.fatal) << c.target << " " << c.version << ": " << diag.message;
      const int form = diag.line < line_form.size() ? line_form[diag.line] : -1;
      ASSERT_GE(form, 0) << c.target << " " << c.version << ": line " << diag.line << ": " << diag.message;
      now.emplace(static_cast<size_t>(form), diag.message);
    }
    pclose(p);
    for (size_t i = 0; i < d.forms.size(); ++i) {
      const int then = d.forms[i].verdicts[col];
      const auto it = now.find(i);
      EXPECT_EQ(it == now.end() ? std::string("ok") : it->second,
                then < 0 ? std::string("ok") : d.messages[static_cast<size_t>(then)])
          << c.target << " " << c.version << ": " << d.forms[i].statement;
    }
  }
}

TEST(PTXFU_AGREEMENT_SUITE, TheCommittedVerdictsAreStillPtxass) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas installed: the committed verdicts stand";
  for (const char* path : data_files()) still_ptxass(ptxas, path);
}

}  // namespace
}  // namespace ptxfu::isa
