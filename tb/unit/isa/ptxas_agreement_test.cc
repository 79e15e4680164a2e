// Compares ptxfu's legality verdict with NVIDIA's ptxas for every candidate
// form of the instruction table (each subset of a row's modifiers, legal or
// not, plus each foreign modifier) on a set of (target, PTX version) pairs.
// ptxas is the authority; the test is skipped when it is not installed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ptxas.h"
#include "sample.h"

#include "isa/decode.h"
#include "isa/forms.h"
#include "isa/registers.h"
#include "isa/statement.h"
#include "scratch_dir.h"

namespace ptxfu::isa {
namespace {

using testing_support::find_ptxas;

struct Candidate {
  std::string statement;  // "fma.rn.f32 %r0, %r1, %r2, %r3"
  Instr shape;            // for operand widths only
};

const char* reg_for(unsigned bits) {
  return bits == 1 ? "%p" : bits == 8 ? "%rb" : bits == 16 ? "%h" : bits == 32 ? "%r" : bits == 64 ? "%rd" : "%q";
}

// Operand k (0: the destination) as a candidate writes it; `bits` is the
// width of a register (of one element of a vector).
std::string operand_text(Operand kind, unsigned bits, unsigned k) {
  switch (kind) {
    case Operand::pred_pair: return "%p0|%p1";
    case Operand::reg_pred: return fmt::format("{}0|%p0", reg_for(bits));
    case Operand::imm: return "0x96";  // lop3's LUT
    case Operand::vector2: return fmt::format("{{{0}{1}, {0}{2}}}", reg_for(bits), k, k + 1);
    case Operand::vector4:
      return fmt::format("{{{0}{1}, {0}{2}, {0}{3}, {0}{4}}}", reg_for(bits), k, k + 1, k + 2, k + 3);
    default: return fmt::format("{}{}", reg_for(bits), k);
  }
}

std::vector<Candidate> make_candidates() {
  std::vector<Candidate> out;
  std::set<std::string> seen;
  for (const FormRow* row = rows_begin(); row != rows_end(); ++row) {
    const ModSet allowed = row->allowed();
    std::vector<ModSet> mod_sets;
    for (ModSet m = allowed;; m = (m - 1) & allowed) {
      mod_sets.push_back(m);
      if (m == 0) break;
    }
    // One foreign modifier on a minimal legal form.
    ModSet minimal = row->required | (row->selector & (~row->selector + 1));
    for (unsigned i = 0; i < static_cast<unsigned>(Mod::kCount); ++i)
      if (!(allowed & bit(static_cast<Mod>(i)))) mod_sets.push_back(minimal | bit(static_cast<Mod>(i)));
    auto add = [&](const Instr& in, const std::string& mnemonic) {
      std::string s = mnemonic + " " + operand_text(in.row->dest, dest_bits(in), 0);
      for (unsigned k = 0, value = 0; k < in.row->num_src; value += elements(in.row->src[k]), ++k)
        s += ", " + operand_text(in.row->src[k], src_bits(in, value), k + 1);
      if (seen.insert(s).second) out.push_back({s, in});
    };
    for_each_op_and_type(*row, [&](const Instr& base) {
      for (ModSet m : mod_sets) {
        Instr in = base;
        in.mods = m;
        add(in, spell(in));
      }
      // Each allowed modifier written twice on a minimal form.
      for (unsigned i = 0; i < static_cast<unsigned>(Mod::kCount); ++i) {
        const Mod m = static_cast<Mod>(i);
        if (!(allowed & bit(m))) continue;
        Instr in = base;
        in.mods = minimal | bit(m);
        const std::string once = spell(in);
        add(in, std::string(name(in.op)) + "." + std::string(name(m)) + once.substr(name(in.op).size()));
      }
    });
  }
  return out;
}

struct Verdict {
  bool ok = true;
  std::string message;
};

Verdict ptxfu_verdict(const Candidate& c, const Capabilities& caps, const RegisterTable& regs) {
  Statement st;
  Diagnostic d;
  Instr in;
  if (!parse_statement(c.statement, 1, st, d)) return {false, d.message};
  const OperandValues values = operand_values(st);
  if (!check_form(st.mnemonic.text, values.src, caps, 1, in, d, values.dest) || !check_operands(in, st, &regs, d))
    return {false, d.message};
  return {};
}

// Runs ptxas on all candidates for one target and returns the first error
// message per candidate index (absent: accepted).
std::map<size_t, std::string> run_ptxas(const std::string& ptxas, const std::vector<Candidate>& cands,
                                        const std::string& target, const std::string& version) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string path = fmt::format("{}/ptxfu_agree_{}_{}.ptx", dir, target, version);
  // .b128 registers exist from PTX ISA 8.3 on: before it the candidates that
  // use them name unknown registers, for ptxas and for ptxfu alike.
  const bool b128 = *parse_ptx_version(version) >= 83;
  const unsigned kHeaderLines = b128 ? 10 : 9;
  {
    std::ofstream f(path);
    f << ".version " << version << "\n.target " << target << "\n.address_size 64\n.visible .entry k() {\n";
    for (const char* decl : {".b8 %rb<8>", ".b16 %h<8>", ".b32 %r<8>", ".b64 %rd<8>", ".pred %p<8>"})
      f << ".reg " << decl << ";\n";
    if (b128) f << ".reg .b128 %q<8>;\n";
    for (const auto& c : cands) f << c.statement << ";\n";
    f << "ret;\n}\n";
  }
  const std::string cmd = fmt::format("{} -arch={} {} -o /dev/null 2>&1", ptxas, target, path);
  std::map<size_t, std::string> errors;
  std::FILE* p = popen(cmd.c_str(), "r");
  if (!p) return errors;
  std::vector<std::string> other;
  for (const auto& d : testing_support::read_ptxas(p, other)) {
    if (d.line <= kHeaderLines) {
      ADD_FAILURE() << "ptxas rejected the file header for " << target << " " << version << ": " << d.message;
      continue;
    }
    errors.emplace(d.line - kHeaderLines - 1, d.message);
  }
  pclose(p);
  return errors;
}

// Where ptxfu departs from ptxas on purpose, with the reason. Each is
// reported, and counted apart from the agreement.
const std::map<std::string, std::string> kKnownDeviations = {
    {"testp.f32 %p0, %r1", "ptxas takes testp without a class; what it computes is undocumented, so ptxfu refuses it"},
    {"testp.f64 %p0, %rd1", "ptxas takes testp without a class; what it computes is undocumented, so ptxfu refuses it"},
};

TEST(PtxasAgreement, EveryCandidateFormOnEveryTarget) {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (set PTXFU_PTXAS or install CUDA): agreement not checked";

  const auto cands = make_candidates();
  RegisterTable regs, regs_b128;
  Diagnostic d;
  for (const char* decl : {".b8 %rb<8>", ".b16 %h<8>", ".b32 %r<8>", ".b64 %rd<8>", ".pred %p<8>"}) {
    ASSERT_TRUE(regs.declare(decl, 1, d));
    ASSERT_TRUE(regs_b128.declare(decl, 1, d));
  }
  ASSERT_TRUE(regs_b128.declare(".b128 %q<8>", 1, d));

  std::vector<std::pair<std::string, std::string>> targets = {
      {"sm_75", "9.0"},  {"sm_80", "9.0"},  {"sm_86", "9.0"},   {"sm_89", "9.0"},   {"sm_90", "9.0"},
      {"sm_90a", "9.0"}, {"sm_100", "9.0"}, {"sm_100a", "9.0"}, {"sm_100f", "9.0"}, {"sm_120a", "9.0"},
      {"sm_103", "9.0"}, {"sm_120", "9.0"}, {"sm_121", "9.0"},  {"sm_75", "6.3"},   {"sm_75", "7.0"},
      {"sm_80", "7.0"},  {"sm_86", "7.1"},  {"sm_90", "7.8"},   {"sm_90", "8.0"},   {"sm_100", "8.6"},
      {"sm_100", "8.7"}, {"sm_120", "8.7"},
  };
  // The targets and versions where the stochastic-rounding cvt (sm_100a, sm_103a; PTX 8.7),
  // cvt.pack (PTX 6.5) and .b128 (PTX 8.3) begin or end.
  const std::vector<std::pair<std::string, std::string>> boundaries = {
      {"sm_103a", "9.0"}, {"sm_110a", "9.0"}, {"sm_121a", "9.0"}, {"sm_100a", "8.6"}, {"sm_100a", "8.7"},
      {"sm_75", "6.4"},   {"sm_75", "6.5"},   {"sm_90", "8.2"},   {"sm_90", "8.3"},
  };
  targets.insert(targets.end(), boundaries.begin(), boundaries.end());
  if (test::kSampled) {  // under the sanitizers: the first pair and a seeded sample (tb/sample.h)
    std::vector<std::pair<std::string, std::string>> sample;
    for (size_t i = 0; i < targets.size(); ++i)
      if (i == 0 || test::sampled(i, 152)) sample.push_back(targets[i]);
    targets = sample;
  }
  size_t pairs = 0, agree = 0, accepted = 0, same_message = 0, rejected = 0, deviations = 0;
  // statement -> the (target version: ptxas says / ptxfu says) where they differ
  std::map<std::string, std::vector<std::string>> disagreements;
  for (const auto& [target, version] : targets) {
    const auto errors = run_ptxas(ptxas, cands, target, version);
    const auto t = find_target(target);
    ASSERT_TRUE(t) << target;
    const Capabilities caps = capabilities_of(*t, *parse_ptx_version(version));
    const RegisterTable& declared = *parse_ptx_version(version) >= 83 ? regs_b128 : regs;
    for (size_t i = 0; i < cands.size(); ++i) {
      ++pairs;
      const Verdict ours = ptxfu_verdict(cands[i], caps, declared);
      const auto it = errors.find(i);
      const bool ptxas_ok = it == errors.end();
      if (ours.ok == ptxas_ok) {
        ++agree;
        if (ptxas_ok)
          ++accepted;
        else {
          ++rejected;
          if (ours.message == it->second)
            ++same_message;
          else if (std::getenv("PTXFU_SHOW_MESSAGES"))
            std::cout << "  message: " << cands[i].statement << " | ptxas: " << it->second
                      << " | ptxfu: " << ours.message << "\n";
        }
      } else if (kKnownDeviations.count(cands[i].statement)) {
        ++deviations;
      } else {
        disagreements[cands[i].statement].push_back(fmt::format("{} {}: ptxas {} / ptxfu {}", target, version,
                                                                ptxas_ok ? "ok" : it->second,
                                                                ours.ok ? "ok" : ours.message));
      }
    }
  }
  std::cout << fmt::format(
      "ptxas agreement: {} candidate forms x {} (target, PTX version) pairs = {} verdicts; "
      "agree {} ({} accepted, {} rejected; identical message on {} of the rejections, {:.1f}%); "
      "{} known deviations\n",
      cands.size(), targets.size(), pairs, agree, accepted, rejected, same_message,
      100.0 * static_cast<double>(same_message) / static_cast<double>(rejected), deviations);
  for (const auto& [statement, reason] : kKnownDeviations)
    std::cout << "  known deviation: " << statement << ": " << reason << "\n";
  for (const auto& [statement, where] : disagreements)
    std::cout << "  disagree on '" << statement << "' at " << where.size() << " pairs, first " << where.front() << "\n";
  EXPECT_EQ(agree + deviations, pairs);
}

}  // namespace
}  // namespace ptxfu::isa
