// Illegal (or suspicious) variants of the corpus's table statements, judged
// by ptxfu and by NVIDIA's ptxas, line by line. For each corpus file a
// sample of table statements (up to kSample, spread over distinct mnemonics)
// gets:
//   - older target: the whole file with an older .target and/or .version
//     (kOlderHeaders); every line of table statements is compared;
//   - modifier (rejected): one modifier inserted after the opcode, the first
//     of a rotating list that ptxfu's check_form refuses;
//   - modifier (accepted): likewise, the first that check_form takes;
//   - register width: one register operand replaced by a declared register
//     of another width.
// Each kind is one copy of the file with all its variants on distinct lines,
// so one ptxas run judges them all. ptxas is the authority; the test is
// skipped when it is not installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ptxas.h"

#include "corpus/corpus_files.h"
#include "isa/features.h"
#include "isa/registers.h"
#include "isa/target_options.h"
#include "scratch_dir.h"

namespace ptxfu::corpus {
namespace {

using testing_support::find_ptxas;

constexpr size_t kSample = 12;            // statements per file
constexpr unsigned kMessageExamples = 3;  // per kind, where both reject in other words
// ptxas is run for the virtual architecture compute_NN: it parses and checks
// the PTX without generating code (the same diagnostics, in half the time).
// ptxas 13.0 knows compute_75 and newer only; PTX for an older .target is
// checked as compute_75, and ptxas still judges features by the .target.
constexpr unsigned kOldestArch = 75;
// Headers for the older-target copies, used where neither part is newer
// than the file's own. .version 6.0 and 7.0 make ptxas refuse the .loc
// lines of inlined code too; those are outside the table and not compared.
struct Header {
  const char* version;
  const char* target;
};
const Header kOlderHeaders[] = {{"9.0", "sm_53"}, {"9.0", "sm_80"}, {"6.0", "sm_53"}, {"7.0", "sm_80"}};
// Modifiers to insert, tried in a rotating order.
const char* const kModifiers[] = {"sat", "ftz",    "relu", "oob", "rz", "hi",  "wide",
                                  "cc",  "approx", "NaN",  "rn",  "lo", "full"};

// Verdicts known to differ from ptxas because of a ptxfu bug, as
// "file:line:kind" (kind as printed: "register width", "older target sm_53
// .version 9.0", ...) -> what ptxas says. They are reported and counted
// apart; one that agrees again, or is no longer made, fails the test so that
// the list stays exact. Empty: on the committed corpus every verdict agrees.
const std::map<std::string, std::string> kExpectedDisagreements = {};

enum class Kind { older_target, modifier_rejected, modifier_accepted, width };
constexpr const char* kKindNames[] = {"older target", "modifier (ptxfu rejects)", "modifier (ptxfu accepts)",
                                      "register width"};

struct Variant {
  unsigned line;  // 1-based
  std::string what;
};

// One copy of a file handed to ptxas and to ptxfu.
struct Copy {
  Kind kind;
  std::string label;  // "older target sm_53 .version 9.0"
  std::string arch;   // ptxas -arch
  std::vector<std::string> lines;
  std::vector<Variant> variants;  // empty for older targets: every table line counts
};

// Errors per line: the first message of each line.
using LineErrors = std::map<unsigned, std::string>;

struct PtxasResult {
  LineErrors errors;
  std::map<unsigned, std::vector<std::string>> all;  // every message of each line, in order
  std::optional<unsigned> fatal_line;                // a "fatal" with a line: ptxas stopped there
  std::string fatal_message;
  std::string unexpected;  // anything but the usual summary line that has no line number
};

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string::npos ? text.size() : nl;
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

unsigned sm_number(std::string_view target) {
  unsigned n = 0;
  for (char c : target.substr(3))
    if (c >= '0' && c <= '9')
      n = n * 10 + static_cast<unsigned>(c - '0');
    else
      break;
  return n;
}

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// Starts ptxas on each path; the pipes are read by finish_ptxas, so the runs
// overlap.
std::vector<std::FILE*> start_ptxas(const std::string& ptxas,
                                    const std::vector<std::pair<std::string, std::string>>& jobs) {
  std::vector<std::FILE*> pipes;
  for (const auto& [path, arch] : jobs)
    pipes.push_back(popen(fmt::format("{} -arch={} {} -o /dev/null 2>&1", ptxas, arch, path).c_str(), "r"));
  return pipes;
}

PtxasResult finish_ptxas(std::FILE* p) {
  PtxasResult r;
  if (!p) {
    r.unexpected = "popen failed";
    return r;
  }
  std::vector<std::string> other;
  for (const auto& d : testing_support::read_ptxas(p, other)) {
    if (d.fatal) {
      r.fatal_line = d.line;
      r.fatal_message = d.message;
    } else {
      r.errors.emplace(d.line, d.message);
      r.all[d.line].push_back(d.message);
    }
  }
  for (const std::string& line : other)
    if (line.find("Ptx assembly aborted due to errors") == std::string::npos &&
        line.find("warning") == std::string::npos)
      r.unexpected += line + "\n";
  pclose(p);
  return r;
}

LineErrors ptxfu_errors(const std::string& text) {
  const CheckRun r = check_text(text, "v.ptx");
  EXPECT_EQ(r.err, "");
  LineErrors errors;
  static const std::regex re(R"(^v\.ptx:(\d+):(\d+): error: (.*)$)");
  std::istringstream s(r.out);
  std::string line;
  while (std::getline(s, line)) {
    std::smatch m;
    if (std::regex_match(line, m, re))
      errors.emplace(static_cast<unsigned>(std::stoul(m[1])), m[3]);
    else
      ADD_FAILURE() << "unexpected ptxfu output: " << line;
  }
  return errors;
}

// What one corpus file offers: its table statements, and which lines hold
// only table statements (where a ptxas error can be laid at the table's door).
struct FileInfo {
  std::string name;
  std::string text;  // the lexemes and the module are views into it
  std::vector<std::string> lines;
  std::vector<isa::Lexeme> lexemes;
  isa::Module module;
  std::map<unsigned, unsigned> table_per_line, other_per_line;
  std::vector<std::pair<const isa::Function*, const isa::Statement*>> table;  // in source order
};

void read_file_info(const std::string& name, FileInfo& fi) {
  fi.name = name;
  fi.text = read_text(corpus_path(name));
  fi.lines = split_lines(fi.text);
  std::vector<isa::LexError> lex_errors;
  fi.lexemes = isa::lex(fi.text, 64 * 1024, lex_errors);
  std::vector<isa::ModuleError> errors;
  fi.module = isa::parse_module(fi.lexemes, errors);
  EXPECT_TRUE(lex_errors.empty() && errors.empty()) << name << " does not parse";
  for (const isa::Function& f : fi.module.functions)
    for (const isa::Instruction& in : f.instructions) {
      if (in_table(in.st)) {
        ++fi.table_per_line[in.st.mnemonic.line];
        fi.table.push_back({&f, &in.st});
      } else {
        ++fi.other_per_line[in.st.mnemonic.line];
      }
    }
}

bool table_only_line(const FileInfo& fi, unsigned line) {
  return fi.table_per_line.count(line) && !fi.other_per_line.count(line);
}

// Up to kSample statements alone on their lines, one per distinct mnemonic,
// taking one mnemonic of each opcode before a second of any.
std::vector<size_t> choose_sample(const FileInfo& fi) {
  std::map<std::string_view, size_t> first_of;  // mnemonic -> index into fi.table
  std::vector<std::string_view> order;
  for (size_t i = 0; i < fi.table.size(); ++i) {
    const isa::Statement& st = *fi.table[i].second;
    const unsigned line = st.mnemonic.line;
    if (!table_only_line(fi, line) || fi.table_per_line.at(line) != 1) continue;
    if (first_of.emplace(st.mnemonic.text, i).second) order.push_back(st.mnemonic.text);
  }
  std::map<std::string_view, unsigned> seen_op;
  std::vector<std::pair<unsigned, size_t>> ranked;  // (rank within its opcode, index)
  for (std::string_view m : order) {
    const size_t i = first_of[m];
    ranked.push_back({seen_op[opcode_of(*fi.table[i].second)]++, i});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<size_t> out;
  for (size_t k = 0; k < ranked.size() && out.size() < kSample; ++k) out.push_back(ranked[k].second);
  std::sort(out.begin(), out.end());
  return out;
}

// Replaces `old` at (line, column) in `lines`; false if it is not there.
bool substitute(std::vector<std::string>& lines, unsigned line, unsigned column, std::string_view old,
                const std::string& replacement) {
  std::string& l = lines[line - 1];
  if (column == 0 || l.compare(column - 1, old.size(), old) != 0) return false;
  l.replace(column - 1, old.size(), replacement);
  return true;
}

bool has_modifier(std::string_view mnemonic, std::string_view mod) {
  size_t start = mnemonic.find('.');
  while (start != std::string_view::npos) {
    const size_t end = mnemonic.find('.', start + 1);
    if (mnemonic.substr(start + 1, end == std::string_view::npos ? end : end - start - 1) == mod) return true;
    start = end;
  }
  return false;
}

std::string insert_modifier(std::string_view mnemonic, std::string_view mod) {
  const size_t dot = mnemonic.find('.');
  const std::string op(mnemonic.substr(0, dot));
  return op + "." + std::string(mod) + (dot == std::string_view::npos ? "" : std::string(mnemonic.substr(dot)));
}

// The modifier copy: for each sampled statement, the first modifier (from a
// rotating start) on which check_form's verdict is `want_legal`.
Copy modifier_copy(const FileInfo& fi, const std::vector<size_t>& sample, const isa::Capabilities& caps,
                   bool want_legal, unsigned seed, const std::string& arch) {
  Copy c{want_legal ? Kind::modifier_accepted : Kind::modifier_rejected, "", arch, fi.lines, {}};
  constexpr size_t n = std::size(kModifiers);
  for (size_t k = 0; k < sample.size(); ++k) {
    const isa::Statement& st = *fi.table[sample[k]].second;
    const size_t start = (seed + k + (want_legal ? n / 2 : 0)) % n;
    for (size_t j = 0; j < n; ++j) {
      const char* mod = kModifiers[(start + j) % n];
      if (has_modifier(st.mnemonic.text, mod)) continue;
      const std::string mnemonic = insert_modifier(st.mnemonic.text, mod);
      isa::Instr instr;
      isa::Diagnostic d;
      const isa::OperandValues values = isa::operand_values(st);
      const bool legal = isa::check_form(mnemonic, values.src, caps, 1, instr, d, values.dest);
      if (legal != want_legal) continue;
      if (substitute(c.lines, st.mnemonic.line, st.mnemonic.column, st.mnemonic.text, mnemonic))
        c.variants.push_back({st.mnemonic.line, fmt::format(".{} inserted", mod)});
      break;
    }
  }
  return c;
}

// The width copy: extra registers of each width declared after every
// function's opening brace (on the brace's line, so no line moves), and one
// register operand of each sampled statement replaced by one of another
// width. Their names must not end in a digit: ptxas (and ptxfu with it) finds
// no %w160 in `.reg .b16 %w16<4>`.
Copy width_copy(const FileInfo& fi, const std::vector<size_t>& sample, unsigned seed, const std::string& arch) {
  Copy c{Kind::width, "", arch, fi.lines, {}};
  // The function bodies' opening braces, found from each function's name.
  for (const isa::Function& f : fi.module.functions) {
    if (!f.has_body) continue;
    size_t i = 0;
    while (i < fi.lexemes.size() && (fi.lexemes[i].loc.line < f.loc.line ||
                                     (fi.lexemes[i].loc.line == f.loc.line && fi.lexemes[i].loc.column < f.loc.column)))
      ++i;
    int depth = 0;
    for (; i < fi.lexemes.size() && fi.lexemes[i].kind != isa::TokKind::end; ++i) {
      const isa::Lexeme& x = fi.lexemes[i];
      if (x.is('(')) ++depth;
      if (x.is(')')) --depth;
      if (depth == 0 && x.is('{')) {
        std::string& l = c.lines[x.loc.line - 1];
        l.insert(x.loc.column, " .reg .b16 %ptxfu_h<4>; .reg .b32 %ptxfu_s<4>; .reg .b64 %ptxfu_d<4>;");
        break;
      }
    }
  }
  for (size_t k = 0; k < sample.size(); ++k) {
    const auto& [f, st] = fi.table[sample[k]];
    isa::RegisterTable regs;
    for (const isa::Declaration& d : f->declarations)
      if (d.space == isa::StateSpace::reg)
        if (const auto t = isa::reg_type(d.type)) regs.declare(d.name, d.count, *t);
    std::vector<std::pair<unsigned, unsigned>> candidates;  // (operand, bits)
    for (unsigned o = 0; o < st->num_operands; ++o) {
      if (st->forms[o] != isa::OperandForm::plain) continue;
      const auto t = regs.lookup(st->operands[o].text);
      if (t && t->kind != isa::RegKind::predicate) candidates.push_back({o, t->bits});
    }
    if (candidates.empty()) continue;
    const auto [o, bits] = candidates[(seed + k) % candidates.size()];
    std::vector<unsigned> others;
    for (unsigned w : {16u, 32u, 64u})
      if (w != bits) others.push_back(w);
    const unsigned w = others[(seed + k) % others.size()];
    const isa::Token& tok = st->operands[o];
    const std::string reg = fmt::format("%ptxfu_{}{}", w == 16 ? 'h' : w == 32 ? 's' : 'd', k % 4);
    // The brace line may be the statement's line only in one-line functions,
    // which the corpus does not have; substitute() checks the text anyway.
    if (substitute(c.lines, tok.line, tok.column, tok.text, reg))
      c.variants.push_back({tok.line, fmt::format("{} ({} bits) -> {}", tok.text, bits, reg)});
  }
  return c;
}

struct Tally {
  unsigned made = 0, ptxas_rejected = 0, ptxfu_rejected = 0, agree = 0, expected = 0, both_rejected = 0, exact = 0,
           among = 0, syntax = 0;
};

TEST(CorpusPtxas, IllegalVariantsAgreeLineByLine) {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (set PTXFU_PTXAS or install CUDA): corpus variants not compared";
  const auto files = corpus_files();
  ASSERT_GE(files.size(), 60u);

  std::map<Kind, Tally> tally;
  std::set<std::string> disagreements_seen;
  unsigned ptxas_outside_table = 0, ptxas_reused = 0;
  std::map<std::string, PtxasResult> ptxas_cache;                       // by -arch and text
  const bool verbose = std::getenv("PTXFU_CORPUS_VERBOSE") != nullptr;  // every variant with both verdicts
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();

  for (size_t fidx = 0; fidx < files.size(); ++fidx) {
    FileInfo fi;
    read_file_info(files[fidx], fi);
    ASSERT_TRUE(fi.module.target && fi.module.version) << fi.name;
    const std::string target(*fi.module.target);
    const unsigned sm = sm_number(target);
    std::string err;
    const auto caps = isa::resolve_capabilities({}, target, isa::parse_ptx_version(*fi.module.version), false, err);
    ASSERT_TRUE(caps) << fi.name << ": " << err;
    const std::vector<size_t> sample = choose_sample(fi);
    const unsigned seed = static_cast<unsigned>(fidx);
    const std::string own_arch = "compute_" + target.substr(3);  // sm_90a: compute_90a (wgmma is its alone)

    std::vector<Copy> copies;
    for (const Header& h : kOlderHeaders) {
      const uint16_t ptx = *isa::parse_ptx_version(h.version);
      if (sm_number(h.target) > sm || ptx > caps->ptx || (sm_number(h.target) == sm && ptx == caps->ptx)) continue;
      Copy c{Kind::older_target,
             fmt::format("older target {} .version {}", h.target, h.version),
             fmt::format("compute_{}", std::max(sm_number(h.target), kOldestArch)),
             fi.lines,
             {}};
      EXPECT_TRUE(substitute(c.lines, fi.module.target_loc.line, fi.module.target_loc.column, target, h.target));
      EXPECT_TRUE(
          substitute(c.lines, fi.module.version_loc.line, fi.module.version_loc.column, *fi.module.version, h.version));
      copies.push_back(std::move(c));
    }
    copies.push_back(modifier_copy(fi, sample, *caps, false, seed, own_arch));
    copies.push_back(modifier_copy(fi, sample, *caps, true, seed, own_arch));
    copies.push_back(width_copy(fi, sample, seed, own_arch));

    // ptxas on every copy at once; a copy that ptxas cannot parse loses the
    // variant on the fatal line and runs again. Files that differ only in
    // their .target give the same older-target copies: ptxas sees each once.
    std::vector<PtxasResult> results(copies.size());
    std::vector<size_t> pending(copies.size());
    for (size_t i = 0; i < copies.size(); ++i) pending[i] = i;
    for (int round = 0; !pending.empty(); ++round) {
      ASSERT_LT(round, 4) << fi.name << ": ptxas keeps stopping on syntax errors";
      std::vector<std::string> keys, paths;
      std::vector<std::pair<std::string, std::string>> jobs;
      for (size_t i : pending) {
        keys.push_back(copies[i].arch + "\n" + join(copies[i].lines));
        paths.push_back(fmt::format("{}ptxfu_corpus_{}_{}", dir, i, fi.name));
        if (ptxas_cache.count(keys.back())) continue;
        std::ofstream(paths.back()) << join(copies[i].lines);
        jobs.push_back({paths.back(), copies[i].arch});
      }
      const auto pipes = start_ptxas(ptxas, jobs);
      std::vector<size_t> again;
      for (size_t j = 0, next_pipe = 0; j < pending.size(); ++j) {
        Copy& c = copies[pending[j]];
        if (!ptxas_cache.count(keys[j])) {
          ptxas_cache[keys[j]] = finish_ptxas(pipes[next_pipe++]);
          std::remove(paths[j].c_str());
        } else {
          ++ptxas_reused;
        }
        PtxasResult r = ptxas_cache[keys[j]];
        ASSERT_EQ(r.unexpected, "") << fi.name << " [" << kKindNames[int(c.kind)] << "]: ptxas said";
        if (r.fatal_line) {
          const unsigned line = *r.fatal_line;
          auto v = std::find_if(c.variants.begin(), c.variants.end(), [&](const Variant& x) { return x.line == line; });
          ASSERT_NE(v, c.variants.end()) << fi.name << ": ptxas fatal on an unchanged line " << line << ": "
                                         << r.fatal_message;
          std::cout << fmt::format("syntax: {}:{} [{}] {}: ptxas: {}\n", fi.name, line, kKindNames[int(c.kind)],
                                   trim(c.lines[line - 1]), r.fatal_message);
          ++tally[c.kind].syntax;
          c.lines[line - 1] = fi.lines[line - 1];
          c.variants.erase(v);
          again.push_back(pending[j]);
        } else {
          results[pending[j]] = std::move(r);
        }
      }
      pending = std::move(again);
    }

    for (size_t i = 0; i < copies.size(); ++i) {
      const Copy& c = copies[i];
      const LineErrors& theirs = results[i].errors;
      const LineErrors ours = ptxfu_errors(join(c.lines));
      Tally& t = tally[c.kind];
      // The lines compared: the variants' lines, or every table-only line.
      std::map<unsigned, std::string> compared;
      if (c.kind == Kind::older_target) {
        for (const auto& [line, n] : fi.table_per_line)
          if (table_only_line(fi, line)) compared[line] = c.label;
        for (const auto& [line, msg] : theirs)
          if (!fi.table_per_line.count(line)) ++ptxas_outside_table;
      } else {
        for (const Variant& v : c.variants) compared[v.line] = v.what;
      }
      // Errors outside the compared lines: ptxfu must have none that ptxas
      // does not share; ptxas none at all in the single-variant copies.
      for (const auto& [line, msg] : ours)
        if (!compared.count(line) && !theirs.count(line))
          ADD_FAILURE() << fmt::format("{} [{}]: ptxfu reports line {} that ptxas accepts: {}", fi.name,
                                       kKindNames[int(c.kind)], line, msg);
      if (c.kind != Kind::older_target)
        for (const auto& [line, msg] : theirs)
          if (!compared.count(line))
            ADD_FAILURE() << fmt::format("{} [{}]: ptxas rejects unchanged line {}: {}", fi.name,
                                         kKindNames[int(c.kind)], line, msg);

      for (const auto& [line, what] : compared) {
        const auto p = theirs.find(line);
        const auto q = ours.find(line);
        const bool ptxas_rej = p != theirs.end(), ptxfu_rej = q != ours.end();
        ++t.made;
        t.ptxas_rejected += ptxas_rej;
        t.ptxfu_rejected += ptxfu_rej;
        if (ptxas_rej && ptxfu_rej) {
          ++t.both_rejected;
          const auto& every = results[i].all.at(line);
          t.among += std::find(every.begin(), every.end(), q->second) != every.end();
          if (p->second == q->second) {
            ++t.exact;
          } else if (t.both_rejected - t.exact <= kMessageExamples) {
            std::cout << fmt::format("message differs: {}:{} [{}] {}\n    ptxas: {}\n    ptxfu: {}\n", fi.name, line,
                                     kKindNames[int(c.kind)], trim(c.lines[line - 1]), p->second, q->second);
          }
        }
        const std::string key =
            fmt::format("{}:{}:{}", fi.name, line, c.kind == Kind::older_target ? c.label : kKindNames[int(c.kind)]);
        const bool expected = kExpectedDisagreements.count(key) > 0;
        if (verbose && c.kind != Kind::older_target)
          std::cout << fmt::format("{}:{} [{}] {} | ptxas: {} | ptxfu: {}\n", fi.name, line, kKindNames[int(c.kind)],
                                   trim(c.lines[line - 1]), ptxas_rej ? p->second : "accepted",
                                   ptxfu_rej ? q->second : "accepted");
        if (ptxas_rej == ptxfu_rej) {
          ++t.agree;
          EXPECT_FALSE(expected) << key << " is listed as an expected disagreement but agrees now";
          continue;
        }
        disagreements_seen.insert(key);
        const std::string report =
            fmt::format("{}:{} [{}] {}\n    variant: {}\n    ptxas: {}\n    ptxfu: {}", fi.name, line,
                        c.kind == Kind::older_target ? c.label : kKindNames[int(c.kind)], what, trim(c.lines[line - 1]),
                        ptxas_rej ? p->second : "accepted", ptxfu_rej ? q->second : "accepted");
        if (expected) {
          ++t.expected;
          std::cout << "expected disagreement: " << report << "\n";
        } else {
          ADD_FAILURE() << "disagreement: " << report;
        }
      }
    }
  }

  const char* const kRow = "{:<26} {:>6} {:>14} {:>14} {:>6} {:>9} {:>9} {:>9} {:>7}\n";
  std::cout << fmt::format(kRow, "variant kind", "made", "ptxas rejects", "ptxfu rejects", "agree", "expected", "exact",
                           "among", "syntax");
  Tally all;
  for (const auto& [kind, t] : tally) {
    std::cout << fmt::format(kRow, kKindNames[int(kind)], t.made, t.ptxas_rejected, t.ptxfu_rejected, t.agree,
                             t.expected, fmt::format("{}/{}", t.exact, t.both_rejected),
                             fmt::format("{}/{}", t.among, t.both_rejected), t.syntax);
    all.made += t.made;
    all.ptxas_rejected += t.ptxas_rejected;
    all.agree += t.agree;
    all.expected += t.expected;
    all.both_rejected += t.both_rejected;
    all.exact += t.exact;
    all.among += t.among;
  }
  const auto share = [&](unsigned n) { return all.both_rejected ? 100.0 * n / all.both_rejected : 0.0; };
  std::cout << fmt::format(
      "all: {} made, {} rejected by ptxas, {} agree, {} expected disagreements; where both reject, ptxfu's message is "
      "ptxas's first on {} of {} lines ({:.0f}%) and one of ptxas's on {} ({:.0f}%); {} ptxas errors on lines "
      "outside the table ignored; {} ptxas runs, {} copies seen before\n",
      all.made, all.ptxas_rejected, all.agree, all.expected, all.exact, all.both_rejected, share(all.exact), all.among,
      share(all.among), ptxas_outside_table, ptxas_cache.size(), ptxas_reused);
  for (const auto& [key, why] : kExpectedDisagreements)
    EXPECT_TRUE(disagreements_seen.count(key)) << key << " is listed as an expected disagreement but was not made";
  EXPECT_GT(tally[Kind::modifier_rejected].ptxas_rejected, 0u);
  EXPECT_GT(tally[Kind::width].made, 0u);
}

}  // namespace
}  // namespace ptxfu::corpus
