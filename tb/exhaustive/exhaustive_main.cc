// ptxfu_exhaustive OP|FORM [--shard K/N] [--threads T]
// Every pair of 16-bit operands through each f16/bf16 form of OP (add sub
// mul min max: every rounding modifier, and .NaN, the table allows), or
// through one FORM, against the separately written oracle. Prints each
// form's pairs, mismatches and time; the first mismatches as `ptxfu eval`
// lines. Exit 0 when everything matched, 1 on mismatches, 2 on bad usage.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "exhaustive/pair_check.h"
#include "isa/decode.h"
#include "isa/target_options.h"

namespace {

// OP's spellings the table allows on the newest target, or FORM itself.
std::vector<std::string> forms_of(const std::string& op_or_form) {
  if (op_or_form.find('.') != std::string::npos) return {op_or_form};
  std::string error;
  const auto caps = ptxfu::isa::resolve_capabilities({}, std::nullopt, std::nullopt, true, error);
  std::vector<std::string> forms;
  const bool min_max = op_or_form == "min" || op_or_form == "max";
  for (const char* type : {"f16", "bf16"})
    for (const char* mod :
         min_max ? std::vector<const char*>{"", ".NaN"} : std::vector<const char*>{".rn", ".rz", ".rm", ".rp"}) {
      const std::string form = op_or_form + mod + "." + type;
      ptxfu::isa::Instr in;
      ptxfu::isa::Diagnostic d;
      if (caps && ptxfu::isa::check_form(form, 2, *caps, 1, in, d)) forms.push_back(form);
    }
  return forms;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Every pair of f16/bf16 operands of a form against an independent oracle."};
  std::string target, shard = "0/1";
  unsigned threads = 0;
  app.add_option("OP", target, "add, sub, mul, min or max (all their f16/bf16 forms), or one form: add.rz.f16")
      ->required();
  app.add_option("--shard", shard, "K/N: the K-th of N equal parts of the first operand's 65,536 values");
  app.add_option("--threads", threads, "worker threads (default: the machine's)");
  CLI11_PARSE(app, argc, argv);

  ptxfu::exhaustive::PairCheckOptions o;
  o.threads = threads;
  char slash = 0;
  std::string rest;
  std::istringstream in(shard);
  if (!(in >> o.shard_index >> slash >> o.shard_count) || slash != '/' || (in >> rest)) {
    std::cerr << "ptxfu_exhaustive: --shard wants K/N\n";
    return 2;
  }
  const std::vector<std::string> forms = forms_of(target);
  if (forms.empty()) {
    std::cerr << fmt::format("ptxfu_exhaustive: '{}' has no f16/bf16 form to check (add sub mul min max)\n", target);
    return 2;
  }
  bool mismatched = false;
  for (const std::string& form : forms) {
    o.form = form;
    std::string error;
    const auto r = ptxfu::exhaustive::check_pairs(o, std::cout, error);
    if (!r) {
      std::cerr << "ptxfu_exhaustive: " << error << "\n";
      return 2;
    }
    std::cout << fmt::format("form={} shard={} pairs={} mismatches={} seconds={:.1f} pairs_per_s={:.0f}\n", form, shard,
                             r->pairs, r->mismatches, r->seconds, r->pairs / r->seconds);
    std::cout.flush();
    mismatched |= r->mismatches != 0;
  }
  return mismatched ? 1 : 0;
}
