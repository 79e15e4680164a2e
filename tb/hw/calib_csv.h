// The GPU calibration suite's results as text: the CSV that latency_bench.cu
// writes, its block for configs/references.yaml, and a table of the model beside
// the GPU. Plain C++17 with no CUDA and no ptxfu dependency, so that the suite
// (compiled by nvcc), calib_compare and the unit tests share one writer.
//
// CSV (RFC 4180, one header line, "\n" line ends): the columns are those that
// `ptxfu bench --form FORM --json` prints per config, in its order, then the
// GPU's name and its measured SM clock:
//
//   config,form,consumer,latency,throughput,unit,ref_latency,ref_throughput,ref_source,gpu_name,clock_mhz
//
// A field with a comma, a double quote, a CR or an LF is double-quoted, its
// quotes doubled. A missing value (no consumer, no figure) is an empty field.
// A number is the shortest decimal that reads back (strtod) as the same double,
// with an exponent only below 1e-4 or from 1e17 up: 4, 0.1, 63.875, 1500, 1e-07.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxfu::hw {

inline constexpr std::array<std::string_view, 11> kCsvColumns = {
    "config",      "form",           "consumer",   "latency",  "throughput", "unit",
    "ref_latency", "ref_throughput", "ref_source", "gpu_name", "clock_mhz"};

// One measured form or producer->consumer pair; also one object of
// `ptxfu bench --json` (gpu_name and clock_mhz empty there).
struct CalibRow {
  std::string config;                   // sm_90
  std::string form;                     // fma.rn.f32
  std::optional<std::string> consumer;  // add.s32 for a pair
  std::optional<double> latency;        // cycles
  std::optional<double> throughput;     // thread-instructions per clock per SM
  std::string unit;                     // the model's unit; empty for a GPU measurement
  std::optional<double> ref_latency;    // a config's reference figures (empty when measured)
  std::optional<double> ref_throughput;
  std::optional<std::string> ref_source;
  std::string gpu_name;             // NVIDIA H100 80GB HBM3
  std::optional<double> clock_mhz;  // the SM clock measured during the run
};

// Shortest decimal text that strtod reads back as exactly v (see above). Non-finite
// values have no CSV or YAML spelling here; they are written as missing.
std::string format_number(double v);

// RFC 4180: the field as is, or double-quoted with its quotes doubled.
std::string csv_field(std::string_view s);

std::string csv_header();                   // the column names, "\n"-terminated
std::string csv_record(const CalibRow& r);  // one "\n"-terminated line

// Writes the header and the rows to PATH.partial, then renames it to PATH,
// so that no partial file is left looking complete. False with `error` set.
bool write_csv_file(const std::string& path, const std::vector<CalibRow>& rows, std::string& error);

// Reads what csv_record writes (any RFC 4180 quoting, "\n" or "\r\n"). The
// header must name exactly kCsvColumns. False with `error` ("line N: ...").
bool read_csv(std::string_view text, std::vector<CalibRow>& rows, std::string& error);

// The name `ptxfu bench` gives its built-in benchmark of FORM (ffma for
// fma.rn.f32; the six of models/microbench.cc), or "" for any other form.
std::string_view builtin_bench(std::string_view form);

// A pair's chain is producer, consumer, producer, ...: its step takes the
// round trip P->C + C->P. Chains cannot split a round trip, so:
// - with the producer's own latency P->P, the extra cycles of the round trip
//   over P->P + C->C are shared equally by the two crossings:
//   P->C = P->P + (round_trip - P->P - C->C) / 2;
// - without it (setp's result is a predicate: no chain of its own), C->P is
//   taken to be C->C: P->C = round_trip - C->C.
double producer_to_consumer(double round_trip, std::optional<double> producer_latency, double consumer_latency);

// A YAML double-quoted scalar: backslash, double quote and control characters
// escaped (\\, \", \n, \t, \xNN).
std::string yaml_quoted(std::string_view s);

// The key of a row in a config's references mapping: the built-in bench's
// name (ffma), else the form, or "PRODUCER -> CONSUMER" for a pair; quoted
// unless it is a plain identifier.
std::string reference_key(const CalibRow& r);

// A config's section of configs/references.yaml: the rows' config name, then
// one line per row, `KEY: {latency: L, throughput: T, source: "SOURCE"}`,
// null where a figure is missing. Rows keep their order.
std::string reference_block(const std::vector<CalibRow>& rows, std::string_view source);

// The model beside the GPU, one line per measured row: the model's latency
// and throughput (matched by config, form and consumer; "-" where the model
// printed none), the measurement, and model/measured.
std::string comparison_table(const std::vector<CalibRow>& measured, const std::vector<CalibRow>& model);

}  // namespace ptxfu::hw
