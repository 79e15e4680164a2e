// Prints the model beside a GPU calibration (scripts/calibrate.sh runs it).
//
//   calib_compare MEASURED.csv MODEL.json...
//
// MEASURED.csv is what latency_bench writes; each MODEL.json is the output of
// `ptxfu bench --form FORM [--consumer FORM] --config C --json`: one object
// or an array of objects with at least config, form, consumer, latency and
// throughput. Exit status 0, or 1 with a message for an unreadable input.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calib_csv.h"

namespace {

std::optional<double> number(const nlohmann::json& o, const char* key) {
  if (!o.contains(key) || !o[key].is_number()) return std::nullopt;
  return o[key].get<double>();
}

std::optional<std::string> text(const nlohmann::json& o, const char* key) {
  if (!o.contains(key) || !o[key].is_string()) return std::nullopt;
  return o[key].get<std::string>();
}

ptxfu::hw::CalibRow row_of(const nlohmann::json& o) {
  ptxfu::hw::CalibRow r;
  r.config = text(o, "config").value_or("");
  r.form = text(o, "form").value_or("");
  r.consumer = text(o, "consumer");
  r.latency = number(o, "latency");
  r.throughput = number(o, "throughput");
  r.unit = text(o, "unit").value_or("");
  r.ref_latency = number(o, "ref_latency");
  r.ref_throughput = number(o, "ref_throughput");
  r.ref_source = text(o, "ref_source");
  return r;
}

bool read_file(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: calib_compare MEASURED.csv [MODEL.json...]\n");
    return 2;
  }
  std::string csv;
  if (!read_file(argv[1], csv)) {
    std::fprintf(stderr, "calib_compare: %s: cannot open\n", argv[1]);
    return 1;
  }
  std::vector<ptxfu::hw::CalibRow> measured, model;
  std::string error;
  if (!ptxfu::hw::read_csv(csv, measured, error)) {
    std::fprintf(stderr, "calib_compare: %s: %s\n", argv[1], error.c_str());
    return 1;
  }
  for (int i = 2; i < argc; ++i) {
    std::string json;
    if (!read_file(argv[i], json)) {
      std::fprintf(stderr, "calib_compare: %s: cannot open\n", argv[i]);
      return 1;
    }
    const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !(j.is_object() || j.is_array())) {
      std::fprintf(stderr, "calib_compare: %s: not a JSON object or array\n", argv[i]);
      return 1;
    }
    if (j.is_object()) model.push_back(row_of(j));
    for (const nlohmann::json& o : j.is_array() ? j : nlohmann::json::array())
      if (o.is_object()) model.push_back(row_of(o));
  }
  if (!measured.empty())
    std::printf("Model vs %s (%s, SM clock %s MHz): latency in cycles, throughput in thread-instructions/clk/SM\n",
                measured[0].gpu_name.c_str(), measured[0].config.c_str(),
                measured[0].clock_mhz ? ptxfu::hw::format_number(*measured[0].clock_mhz).c_str() : "?");
  std::fputs(ptxfu::hw::comparison_table(measured, model).c_str(), stdout);
  return 0;
}
