// The configs against the table of what ptxas makes of the integer forms
// (configs/int_sequences.csv, written by tb/hw/int_sequences.py): every form
// that is a sequence of two or more SASS instructions on a config's target has
// a `sequence:` row with the table's length and dependent path, and the
// loader turns it into the timing the README states (computed here apart from
// ArchConfig::sequence_timing). With ptxas and python3 installed, the table is
// regenerated and compared; without them that test skips.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "isa/decode.h"
#include "isa/forms.h"
#include "models/config.h"
#include "ptxas.h"

namespace ptxfu::models {
namespace {

struct Row {
  std::string form, sm;
  unsigned instructions = 0, depth = 0;
  std::map<std::string, unsigned> path;  // unit -> instructions on the longest path
  std::string sass;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string f; std::getline(in, f, sep);) out.push_back(f);
  return out;
}

std::vector<Row> read_table() {
  std::ifstream in(PTXFU_SOURCE_DIR "/configs/int_sequences.csv");
  std::vector<Row> rows;
  bool header = true;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      EXPECT_EQ(line, "form,sm,instructions,depth,path_units,sass");
      header = false;
      continue;
    }
    const auto f = split(line, ',');
    if (f.size() != 6) {
      ADD_FAILURE() << "bad row: " << line;
      continue;
    }
    Row r{f[0], f[1], static_cast<unsigned>(std::stoul(f[2])), static_cast<unsigned>(std::stoul(f[3])), {}, f[5]};
    for (const std::string& p : split(f[4], ' ')) {
      const auto colon = p.find(':');
      if (colon != std::string::npos)
        r.path[p.substr(0, colon)] = static_cast<unsigned>(std::stoul(p.substr(colon + 1)));
    }
    rows.push_back(r);
  }
  return rows;
}

bool decode_form(const std::string& form, isa::Instr& out) {
  for (unsigned n = 1; n <= 4; ++n) {
    isa::Diagnostic d;
    if (isa::decode(form, n, 1, out, d)) return true;
  }
  return false;
}

// The target whose ptxas output a config follows: its own, or sm_75 for sm_70
// (ptxas 13.0 has no sm_70 target).
std::string table_target(const ArchConfig& c) { return c.name == "sm_70" ? "sm_75" : c.name; }

TEST(ConfigSequences, TableIsWellFormed) {
  const auto rows = read_table();
  ASSERT_GE(rows.size(), 7u * 40);
  for (const Row& r : rows) {
    isa::Instr in;
    ASSERT_TRUE(decode_form(r.form, in)) << r.form << " is no form of the table";
    EXPECT_EQ(isa::spell(in), r.form) << "not the canonical spelling";
    unsigned on_path = 0;
    for (const auto& [unit, n] : r.path) {
      EXPECT_TRUE(unit_named(unit)) << r.form << " " << r.sm << ": unit " << unit;
      on_path += n;
    }
    EXPECT_EQ(on_path, r.depth) << r.form << " " << r.sm;
    EXPECT_LE(r.depth, r.instructions) << r.form << " " << r.sm;
    EXPECT_EQ(split(r.sass, ' ').size(), r.instructions) << r.form << " " << r.sm << ": " << r.sass;
  }
}

// What ptxas 13.0 was seen to do, as a check that the table reads the cubins:
// one IMAD.WIDE for mul.wide, one IDP.4A for dp4a, two instructions for a
// 64-bit add before sm_120, and integer division far longer than any other.
TEST(ConfigSequences, TableHoldsWhatPtxasMakes) {
  std::map<std::string, Row> at;  // "form sm"
  for (const Row& r : read_table()) at[r.form + " " + r.sm] = r;
  const auto row = [&](const std::string& form, const std::string& sm) { return at[form + " " + sm]; };
  for (const std::string sm : {"sm_75", "sm_80", "sm_90", "sm_120"}) {
    EXPECT_EQ(row("mul.wide.s32", sm).sass, "IMAD.WIDE") << sm;
    EXPECT_EQ(row("mul.wide.u32", sm).sass, "IMAD.WIDE.U32") << sm;
    EXPECT_EQ(row("dp4a.u32.u32", sm).sass, "IDP.4A") << sm;
    EXPECT_EQ(row("mul.hi.u32", sm).sass, "IMAD.HI.U32") << sm;
    EXPECT_GE(row("mul.hi.u64", sm).instructions, 4u) << sm;
    EXPECT_GE(row("div.u32", sm).instructions, 10u) << sm;
    EXPECT_GT(row("div.u64", sm).instructions, row("div.u32", sm).instructions) << sm;
  }
  EXPECT_EQ(row("add.u64", "sm_80").sass, "IADD3 IADD3.X");
  EXPECT_EQ(row("add.u64", "sm_120").instructions, 1u);
}

TEST(ConfigSequences, EveryConfigTakesItsTargetsSequences) {
  const auto rows = read_table();
  for (const auto& e : embedded_configs()) {
    const ArchConfig c = load_config(std::string(e.name));
    const std::string target = table_target(c);
    unsigned sequences = 0;
    for (const Row& r : rows) {
      if (r.sm != target) continue;
      isa::Instr in;
      ASSERT_TRUE(decode_form(r.form, in)) << r.form;
      const FormOverride* first = nullptr;
      for (const FormOverride& o : c.forms)
        if ((!o.pipe_class || *o.pipe_class == in.row->pipe) && o.match == r.form) {
          first = &o;
          break;
        }
      const std::string what = c.name + " " + r.form;
      if (r.instructions < 2) {
        EXPECT_TRUE(!first || !first->sequence) << what << ": one instruction (" << r.sass << "), not a sequence";
        continue;
      }
      // A measured latency of the form (TITAN RTX clz.b32, followed by sm_70 and sm_75) comes first.
      if (first && first->latency) continue;
      ASSERT_TRUE(first && first->sequence) << what << ": " << r.instructions << " instructions (" << r.sass
                                            << ") and no sequence row (tb/hw/int_sequences.py --yaml " << target << ")";
      ++sequences;
      EXPECT_EQ(first->sequence->instructions, r.instructions) << what;
      for (const UnitRow& u : kUnits) {
        const auto it = r.path.find(std::string(u.name));
        EXPECT_EQ(first->sequence->path[static_cast<size_t>(u.unit)], it == r.path.end() ? 0u : it->second)
            << what << " path." << u.name;
      }
      EXPECT_NE(first->source.find("ptxas"), std::string::npos) << what << ": source " << first->source;
      EXPECT_NE(first->source.find(std::to_string(r.instructions) + " instructions"), std::string::npos)
          << what << ": source " << first->source;

      // The rule: the unit for `instructions` warp-instructions, the latency the path's units' added up.
      const Timing t = c.timing_for(in);
      const Timing& unit = c.units[static_cast<size_t>(t.unit)];
      unsigned latency = 0;
      for (const auto& [name, n] : r.path) latency += n * c.units[static_cast<size_t>(*unit_named(name))].latency;
      EXPECT_EQ(t.latency, latency) << what;
      EXPECT_EQ(t.occupancy(), (32 / t.lanes) * unit.interval * r.instructions) << what;
    }
    EXPECT_GE(sequences, 20u) << c.name;
  }
}

TEST(ConfigSequences, SequenceKeysAreValidated) {
  std::string text;
  for (const auto& e : embedded_configs())
    if (e.name == "sm_80") text = std::string(e.text);
  const std::string row = "path: {alu: 1, fma: 3}}";
  const auto pos = text.find(row);
  ASSERT_NE(pos, std::string::npos);
  for (const auto& [bad, message] : std::vector<std::pair<std::string, std::string>>{
           {"path: {alu: 1, fma: 9}}", "0..7"}, {"path: {alu: 1, fpu: 3}}", "fpu"}, {"path: {}}", "expected 1 to"}}) {
    std::string t = text;
    t.replace(pos, row.size(), bad);
    try {
      load_config_text(t, "cfg.yaml");
      ADD_FAILURE() << bad << " loaded";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("sequence"), std::string::npos) << e.what();
    }
  }
}

TEST(ConfigSequences, PtxasStillMakesTheTable) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty())
    GTEST_SKIP() << "ptxas not found ($PTXFU_PTXAS, /usr/local/cuda/bin): the table is not regenerated";
  if (std::system("/usr/bin/python3 -c 'import csv' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 not found";
  const std::string ptx = std::string(PTXFU_BINARY_DIR) + "/int_sequences.ptx";
  const std::string command = "/usr/bin/python3 '" PTXFU_SOURCE_DIR "/tb/hw/int_sequences.py' --ptxas '" + ptxas +
                              "' --ptx '" + ptx + "' --check '" PTXFU_SOURCE_DIR "/configs/int_sequences.csv' 2>&1";
  std::FILE* p = popen(command.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string output;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) output += buf;
  const int status = pclose(p);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << "\n" << output;
}

}  // namespace
}  // namespace ptxfu::models
