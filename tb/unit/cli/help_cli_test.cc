// ptxfu's help through the real binary: the top-level help lists every
// subcommand with a one-line summary, and an unknown subcommand is an error,
// with --help or without.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ptxfu::cli_test::CmdResult;
using ptxfu::cli_test::run;

// The "Subcommands:" section of a help text: name -> the lines of its entry
// (the name's line and any continuation lines, indented deeper).
std::map<std::string, std::vector<std::string>> subcommand_entries(const std::string& help) {
  std::map<std::string, std::vector<std::string>> entries;
  std::istringstream in(help);
  std::string line, current;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (line == "Subcommands:") {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.empty()) break;
    if (line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ') {
      std::istringstream words(line);
      words >> current;
      entries[current].push_back(line);
    } else if (!current.empty()) {
      entries[current].push_back(line);
    }
  }
  return entries;
}

TEST(HelpCli, UnknownSubcommandWithHelpIsAnError) {
  const CmdResult r = run("nosuch --help");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("unknown subcommand 'nosuch'"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Subcommands:"), std::string::npos) << "printed the top-level help:\n" << r.out;
}

TEST(HelpCli, UnknownSubcommandIsAnError) {
  const CmdResult r = run("nosuch");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("unknown subcommand 'nosuch'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check, eval, sim"), std::string::npos) << r.out;
}

TEST(HelpCli, KnownSubcommandHelpStillWorks) {
  const CmdResult r = run("sim --help");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("--entry"), std::string::npos) << r.out;
}

// Every subcommand is listed with one line, and the line says what it does
// today (check reads whole modules; sim runs kernels and straight-line
// programs), not the arithmetic-only description of earlier rounds.
TEST(HelpCli, TopLevelHelpListsEverySubcommandOnOneLine) {
  const CmdResult r = run("--help");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("check PTX arithmetic"), std::string::npos) << r.out;
  const auto entries = subcommand_entries(r.out);
  std::map<std::string, std::string> want = {
      {"check", "ptxas"},        {"eval", "bit-exactly"}, {"sim", "kernel"},       {"bench", "published"},
      {"sweep", "design space"}, {"mma", "tensor-core"},  {"run", "host program"},
  };
#ifdef PTXFU_HAVE_COSIM
  want["cosim"] = "RTL";
#endif
  for (const auto& [name, word] : want) {
    const auto it = entries.find(name);
    ASSERT_NE(it, entries.end()) << name << " is not listed:\n" << r.out;
    EXPECT_EQ(it->second.size(), 1u) << name << "'s entry is not one line:\n" << r.out;
    EXPECT_NE(it->second[0].find(word), std::string::npos) << name << ": " << it->second[0];
    if (name == "sim") {
      EXPECT_NE(it->second[0].find("straight-line"), std::string::npos) << it->second[0];
    }
  }
  for (const auto& [name, lines] : entries) EXPECT_TRUE(want.count(name) || name == "cosim") << "unexpected " << name;
}

}  // namespace
