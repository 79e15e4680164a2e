// The calibration suite's text on host data: the CSV (RFC 4180, the columns of
// `ptxfu bench --json` then the GPU's), numbers that read back exactly, the
// YAML references block (YAML double-quoted scalars; the schema of
// configs/references.yaml, which the references loader reads), and the model-vs-GPU table. Expected texts are written
// from those specifications, not taken from the writer's output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "calib_csv.h"
#include "models/config.h"
#include "models/microbench.h"
#include "scratch_dir.h"

namespace ptxfu::hw {
namespace {

CalibRow measured_ffma() {
  CalibRow r;
  r.config = "sm_90";
  r.form = "fma.rn.f32";
  r.latency = 4.0234375;
  r.throughput = 127.5;
  r.gpu_name = "NVIDIA H100 80GB HBM3";
  r.clock_mhz = 1755;
  return r;
}

CalibRow measured_pair() {
  CalibRow r;
  r.config = "sm_90";
  r.form = "fma.rn.f32";
  r.consumer = "add.s32";
  r.latency = 5.5;
  r.gpu_name = "NVIDIA H100 80GB HBM3";
  r.clock_mhz = 1755;
  return r;
}

TEST(CalibCsv, ColumnsAreBenchJsonsFieldsThenTheGpus) {
  // `ptxfu bench --form FORM --json`, per config (issue 13, section 1): config,
  // form, consumer, latency, throughput, unit, ref_latency, ref_throughput,
  // ref_source; then the two columns only a GPU has.
  const std::vector<std::string> expected = {"config",     "form",     "consumer",    "latency",
                                             "throughput", "unit",     "ref_latency", "ref_throughput",
                                             "ref_source", "gpu_name", "clock_mhz"};
  ASSERT_EQ(kCsvColumns.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(kCsvColumns[i], expected[i]) << "column " << i;
  EXPECT_EQ(csv_header(),
            "config,form,consumer,latency,throughput,unit,ref_latency,ref_throughput,ref_source,gpu_name,clock_mhz\n");
}

TEST(CalibCsv, FieldsAreQuotedAsRfc4180Says) {
  EXPECT_EQ(csv_field("fma.rn.f32"), "fma.rn.f32");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field("\""), "\"\"\"\"");
  EXPECT_EQ(csv_field("GeForce RTX 4090 D"), "GeForce RTX 4090 D");  // spaces need no quotes
}

TEST(CalibCsv, NumbersAreTheShortestTextThatReadsBack) {
  EXPECT_EQ(format_number(4), "4");
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(63.875), "63.875");
  EXPECT_EQ(format_number(4.0234375), "4.0234375");
  EXPECT_EQ(format_number(-0.5), "-0.5");
  EXPECT_EQ(format_number(1e-7), "1e-07");
  EXPECT_EQ(format_number(1755), "1755");
  EXPECT_EQ(format_number(1500), "1500");  // not %g's 1.5e+03
  EXPECT_EQ(format_number(-2048), "-2048");
  EXPECT_EQ(format_number(1e16), "10000000000000000");
  EXPECT_EQ(format_number(1e17), "1e+17");
  EXPECT_EQ(format_number(0.0001), "0.0001");
  EXPECT_EQ(format_number(1.5e-5), "1.5e-05");
  EXPECT_EQ(format_number(1.0 / 3), "0.3333333333333333");     // 16 digits
  EXPECT_EQ(format_number(0.1 + 0.2), "0.30000000000000004");  // 17: 0.3 is another double
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "");

  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> cycles(0, 4096);
  for (int i = 0; i < 100000; ++i) {
    double v = cycles(rng);
    if (i % 2) {  // and any bit pattern of a finite double
      const uint64_t bits = rng();
      std::memcpy(&v, &bits, sizeof v);
      if (!std::isfinite(v)) continue;
    }
    const std::string s = format_number(v);
    ASSERT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
    // Shortest: with one significant digit fewer, no text reads back as v.
    // Significant digits: the mantissa's, less leading zeros (0.001) and, in
    // an integer (1500), trailing ones.
    std::string mantissa = s.substr(0, s.find('e'));
    mantissa.erase(0, mantissa.find_first_not_of("-0."));
    if (mantissa.find('.') == std::string::npos) mantissa.erase(mantissa.find_last_not_of('0') + 1);
    int digits = 0;
    for (const char c : mantissa) digits += c >= '0' && c <= '9';
    if (digits > 1) {
      char shorter[512];
      std::snprintf(shorter, sizeof shorter, "%.*g", digits - 1, v);
      ASSERT_NE(std::strtod(shorter, nullptr), v) << s << " " << shorter;
    }
  }
}

TEST(CalibCsv, RecordsHaveOneFieldPerColumnInOrder) {
  EXPECT_EQ(csv_record(measured_ffma()), "sm_90,fma.rn.f32,,4.0234375,127.5,,,,,NVIDIA H100 80GB HBM3,1755\n");
  EXPECT_EQ(csv_record(measured_pair()), "sm_90,fma.rn.f32,add.s32,5.5,,,,,,NVIDIA H100 80GB HBM3,1755\n");
  CalibRow model;  // a model row, as bench --json gives it, with references
  model.config = "sm_80";
  model.form = "ex2.approx.ftz.f32";
  model.latency = 23;
  model.throughput = 16;
  model.unit = "mufu";
  model.ref_latency = 23;
  model.ref_throughput = 16;
  model.ref_source = "Accel-Sim SM80_A100 trace.config SFU latency 23, initiation 8; \"quoted\"";
  EXPECT_EQ(csv_record(model),
            "sm_80,ex2.approx.ftz.f32,,23,16,mufu,23,16,"
            "\"Accel-Sim SM80_A100 trace.config SFU latency 23, initiation 8; \"\"quoted\"\"\",,\n");
}

TEST(CalibCsv, WhatIsWrittenReadsBack) {
  CalibRow odd = measured_ffma();
  odd.gpu_name = "GPU, \"with\"\nodd name";
  odd.latency = 1.0 / 3;
  odd.ref_source = "a,b";
  const std::vector<CalibRow> rows = {measured_ffma(), measured_pair(), odd};
  std::string text = csv_header();
  for (const CalibRow& r : rows) text += csv_record(r);
  std::vector<CalibRow> back;
  std::string error;
  ASSERT_TRUE(read_csv(text, back, error)) << error;
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(csv_record(back[i]), csv_record(rows[i])) << i;
  EXPECT_EQ(back[2].gpu_name, "GPU, \"with\"\nodd name");
  EXPECT_EQ(*back[2].latency, 1.0 / 3);
  EXPECT_FALSE(back[0].consumer.has_value());

  // \r\n line ends read the same.
  std::string crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  // (the newline inside the quoted name becomes \r\n too: it is data)
  ASSERT_TRUE(read_csv(crlf, back, error)) << error;
  EXPECT_EQ(back.size(), 3u);
}

TEST(CalibCsv, BadCsvGetsItsLine) {
  std::vector<CalibRow> rows;
  std::string error;
  EXPECT_FALSE(read_csv("", rows, error));
  EXPECT_EQ(error, "empty file (no header)");
  EXPECT_FALSE(read_csv("config,form\n", rows, error));
  EXPECT_EQ(error.rfind("line 1: the header is not config,form,consumer,", 0), 0u) << error;
  const std::string h = csv_header();
  EXPECT_FALSE(read_csv(h + "sm_90,fma.rn.f32\n", rows, error));
  EXPECT_EQ(error, "line 2: 2 fields, expected 11");
  EXPECT_FALSE(read_csv(h + "sm_90,fma.rn.f32,,four,,,,,,GPU,1\n", rows, error));
  EXPECT_EQ(error, "line 2: latency 'four' is not a finite number");
  EXPECT_FALSE(read_csv(h + "sm_90,fma.rn.f32,,inf,,,,,,GPU,1\n", rows, error));
  EXPECT_EQ(error, "line 2: latency 'inf' is not a finite number");
  EXPECT_FALSE(read_csv(h + "sm_90,\"fma.rn.f32,,4,,,,,,GPU,1\n", rows, error));
  EXPECT_EQ(error, "line 2: a quoted field is not closed");
  EXPECT_FALSE(read_csv(h + "sm_90,fm\"a,,4,,,,,,GPU,1\n", rows, error));
  EXPECT_EQ(error.rfind("line 2: a double quote inside an unquoted field", 0), 0u) << error;
}

TEST(CalibCsv, TheFileAppearsOnlyWhenComplete) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string path = dir + "/calib_csv_test.csv";
  std::remove(path.c_str());
  std::string error;
  ASSERT_TRUE(write_csv_file(path, {measured_ffma(), measured_pair()}, error)) << error;
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, csv_header() + "sm_90,fma.rn.f32,,4.0234375,127.5,,,,,NVIDIA H100 80GB HBM3,1755\n" +
                      "sm_90,fma.rn.f32,add.s32,5.5,,,,,,NVIDIA H100 80GB HBM3,1755\n");
  EXPECT_FALSE(std::ifstream(path + ".partial").good());

  const std::string nowhere = dir + "/no/such/dir/x.csv";
  EXPECT_FALSE(write_csv_file(nowhere, {measured_ffma()}, error));
  EXPECT_EQ(error, nowhere + ".partial: cannot open for writing");
  EXPECT_FALSE(std::ifstream(nowhere).good());
}

TEST(CalibCsv, BuiltinBenchNamesAreTheModelsSix) {
  for (const models::MicroBench& b : models::micro_benches())
    EXPECT_EQ(builtin_bench(b.mnemonic), b.name) << b.mnemonic;
  EXPECT_EQ(builtin_bench("add.rn.f32"), "");
  EXPECT_EQ(builtin_bench("ex2.approx.f32"), "");  // mufu_ex2 is the .ftz form
}

TEST(CalibCsv, ProducerToConsumerSharesTheCrossingsExtraCycles) {
  // FMA->ALU 5 and ALU->FMA 5 with FMA->FMA 4 and ALU->ALU 4: a round trip of 10.
  EXPECT_EQ(producer_to_consumer(10, 4.0, 4), 5);
  // An asymmetric truth cannot be split: 5 + 4 reads as 4.5 each way.
  EXPECT_EQ(producer_to_consumer(9, 4.0, 4), 4.5);
  // No producer chain (setp): the round trip less the consumer's own latency.
  EXPECT_EQ(producer_to_consumer(9, std::nullopt, 4), 5);
  EXPECT_EQ(producer_to_consumer(27, 23.0, 4), 23);
}

TEST(CalibYaml, DoubleQuotedScalarsEscapeWhatYamlRequires) {
  EXPECT_EQ(yaml_quoted("plain text, with: colon"), "\"plain text, with: colon\"");
  EXPECT_EQ(yaml_quoted("a \"b\" c"), "\"a \\\"b\\\" c\"");
  EXPECT_EQ(yaml_quoted("back\\slash"), "\"back\\\\slash\"");
  EXPECT_EQ(yaml_quoted("tab\there\nnewline"), "\"tab\\there\\nnewline\"");
  EXPECT_EQ(yaml_quoted(std::string("nul\0bell\x07", 9)), "\"nul\\x00bell\\x07\"");
  EXPECT_EQ(yaml_quoted("GeForce RTX™"), "\"GeForce RTX™\"");  // UTF-8 as is
}

TEST(CalibYaml, KeysAreTheBenchNameTheFormOrThePair) {
  EXPECT_EQ(reference_key(measured_ffma()), "ffma");
  EXPECT_EQ(reference_key(measured_pair()), "\"fma.rn.f32 -> add.s32\"");
  CalibRow r = measured_ffma();
  r.form = "add.rn.f32";
  EXPECT_EQ(reference_key(r), "\"add.rn.f32\"");
  r.form = "ex2.approx.ftz.f32";
  EXPECT_EQ(reference_key(r), "mufu_ex2");
}

TEST(CalibYaml, TheBlockIsOneFlowMappingPerRow) {
  CalibRow ex2 = measured_ffma();
  ex2.form = "ex2.approx.f32";
  ex2.latency = 18;
  ex2.throughput = 16;
  const std::string block = reference_block({measured_ffma(), ex2, measured_pair()},
                                            "measured on NVIDIA H100 80GB HBM3 by tb/hw, 2025-01-02");
  EXPECT_EQ(block,
            "sm_90:  # latency: cycles of a dependent chain; throughput: thread-instructions/clk/SM\n"
            "  ffma: {latency: 4.0234375, throughput: 127.5, source: \"measured on NVIDIA H100 80GB HBM3 by tb/hw, "
            "2025-01-02\"}\n"
            "  \"ex2.approx.f32\": {latency: 18, throughput: 16, source: \"measured on NVIDIA H100 80GB HBM3 by tb/hw, "
            "2025-01-02\"}\n"
            "  \"fma.rn.f32 -> add.s32\": {latency: 5.5, throughput: null, source: \"measured on NVIDIA H100 80GB HBM3 "
            "by tb/hw, 2025-01-02\"}\n");
}

// The block is a config's section of configs/references.yaml, and the
// references loader (models/config.cc) reads it.
TEST(CalibYaml, TheReferencesLoaderReadsTheBlock) {
  CalibRow odd = measured_ffma();
  odd.form = "tanh.approx.f32";
  odd.latency = 1.0 / 3;
  const std::string source = "measured on \"GPU\\X\" by tb/hw, 2025-01-02";
  const models::References refs =
      models::load_references_text(reference_block({measured_ffma(), measured_pair(), odd}, source), "calib");
  ASSERT_EQ(refs.count("sm_90"), 1u);
  models::ArchConfig c;
  c.references = refs.at("sm_90");
  ASSERT_NE(c.reference("ffma"), nullptr);
  EXPECT_EQ(*c.reference("ffma")->latency, 4.0234375);
  EXPECT_EQ(*c.reference("ffma")->throughput, 127.5);
  EXPECT_EQ(c.reference("ffma")->source, "measured on \"GPU\\X\" by tb/hw, 2025-01-02");
  ASSERT_NE(c.reference("fma.rn.f32 -> add.s32"), nullptr);
  EXPECT_EQ(*c.reference("fma.rn.f32 -> add.s32")->latency, 5.5);
  EXPECT_FALSE(c.reference("fma.rn.f32 -> add.s32")->throughput.has_value());
  ASSERT_NE(c.reference("tanh.approx.f32"), nullptr);
  EXPECT_EQ(*c.reference("tanh.approx.f32")->latency, 1.0 / 3);  // no digit lost on the way
}

TEST(CalibCompare, TheTableMatchesRowsByConfigFormAndConsumer) {
  CalibRow model = measured_ffma();
  model.latency = 4;
  model.throughput = 128;
  model.unit = "fma";
  CalibRow other_config = model;
  other_config.config = "sm_80";
  other_config.latency = 99;
  const std::string table = comparison_table({measured_ffma(), measured_pair()}, {other_config, model});
  EXPECT_EQ(table,
            "config  form                   consumer        latency  measured  ratio   thruput  measured  ratio\n"
            "sm_90   fma.rn.f32             -                  4.00      4.02   0.99    128.00    127.50   1.00\n"
            "sm_90   fma.rn.f32             add.s32               -      5.50      -         -         -      -\n");
}

// When this build's ptxfu has `bench --form`, its --json objects carry the
// CSV's first nine columns, in the same order (keys a config lacks may be
// absent). Skipped otherwise.
TEST(CalibCsv, BenchJsonHasTheCsvsFieldsInOrder) {
  std::string help;
  const std::string ptxfu = PTXFU_BINARY;
  if (std::FILE* p = popen(("'" + ptxfu + "' bench --help 2>&1").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) help.append(buf, n);
    pclose(p);
  }
  if (help.find("--form") == std::string::npos)
    GTEST_SKIP() << ptxfu << " has no `bench --form` (or is not built): nothing to compare with";
  std::string out;
  const std::string command =
      "'" + ptxfu + "' bench --form fma.rn.f32 --config '" PTXFU_SOURCE_DIR "/configs/sm_80.yaml' --json";
  if (std::FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ASSERT_EQ(pclose(p), 0) << command;
  }
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(out);
  if (j.is_array()) {
    ASSERT_FALSE(j.empty()) << out;
    j = j[0];
  }
  size_t column = 0;
  for (const auto& item : j.items()) {
    while (column < 9 && kCsvColumns[column] != item.key()) ++column;
    EXPECT_LT(column, 9u) << "bench --json key '" << item.key() << "' is not a CSV column, or is out of order";
  }
  for (const char* required : {"config", "form", "consumer", "latency", "throughput", "unit"})
    EXPECT_TRUE(j.contains(required)) << required;
}

}  // namespace
}  // namespace ptxfu::hw
