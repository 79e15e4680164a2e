// The ptxfu command line: one subcommand per job. Each subcommand's logic
// lives in its own file (check_cmd.cc, eval_cmd.cc, ...); this file only
// declares the options.
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/check_cmd.h"

namespace {

using ptxfu::cli::TargetOptions;

void add_target_options(CLI::App& sub, TargetOptions& t) {
  sub.add_option("--target", t.target, "sm target whose feature mask applies (sm_53 ... sm_121, a/f suffixes too)");
  sub.add_option("--ptx-version", t.ptx_version, "PTX ISA version in force, e.g. 8.6 (default: the newest known, 9.1)");
  sub.add_option("--add-feature", t.add_features, "add a named feature to the target's mask (repeatable), e.g. oob");
  sub.add_option("--remove-feature", t.remove_features, "remove a named feature from the target's mask (repeatable)");
}

// Opens FILE or stdin ("-"); the deleter closes only real files.
std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_input(const std::string& path) {
  if (path == "-") return {stdin, [](std::FILE*) { return 0; }};
  return {std::fopen(path.c_str(), "rb"), [](std::FILE* f) { return f ? std::fclose(f) : 0; }};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ptxfu: a bit-exact model of NVIDIA GPU arithmetic functional units.\n"
      "Subcommands check PTX arithmetic instructions against an sm target and compute their results."};
  app.set_version_flag("--version", std::string("ptxfu ") + PTXFU_VERSION);
  app.require_subcommand(1);

  ptxfu::cli::CheckOptions check;
  std::string check_input = "-";
  CLI::App* check_cmd = app.add_subcommand(
      "check",
      "Check PTX arithmetic statements for an sm target.\n"
      "Input: one statement per line as in a .ptx file (`fma.rn.f32 %f1, %f2, %f3, %f4;`), printing `ok` or\n"
      "`error: LINE:COL: MESSAGE` per statement; or a whole .ptx file (with .version/.target/.reg), printing\n"
      "FILE:LINE:COL: error: MESSAGE diagnostics. Messages use ptxas's words. Exit 1 if any statement is illegal.");
  add_target_options(*check_cmd, check.target);
  check_cmd->add_option("FILE", check_input, "input file, or - for standard input (default)");

  CLI11_PARSE(app, argc, argv);

  if (*check_cmd) {
    auto in = open_input(check_input);
    if (!in) {
      std::cerr << "ptxfu check: cannot open '" << check_input << "'\n";
      return 2;
    }
    check.input_name = check_input == "-" ? "<stdin>" : check_input;
    return ptxfu::cli::run_check(in.get(), std::cout, std::cerr, check);
  }
  return 0;
}
