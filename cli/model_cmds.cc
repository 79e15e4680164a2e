#include "cli/model_cmds.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/kernel_sim_cmd.h"
#include "models/microbench.h"
#include "models/simulator.h"
#include "models/text_file.h"

namespace ptxfu::cli {
namespace {

using models::ArchConfig;

ArchConfig config_from(const std::optional<std::string>& path) {
  return path ? models::load_config(*path) : models::default_config();
}

nlohmann::json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// `bench --form FORM [--consumer FORM]`: one row per config.
int run_form_bench(const BenchCmdOptions& o, const std::vector<ArchConfig>& configs, std::ostream& out,
                   std::ostream& err) {
  for (const std::string* f : {&*o.form, o.consumer ? &*o.consumer : nullptr}) {
    if (!f) continue;
    const std::string error = models::form_error(*f);
    if (!error.empty()) {
      err << "ptxfu bench: " << error << "\n";
      return 1;
    }
  }
  std::vector<models::FormBenchSpec> specs;
  specs.reserve(configs.size());
  for (const ArchConfig& c : configs) specs.push_back({&c, *o.form, o.consumer.value_or("")});
  const auto results = models::run_form_benches(specs);
  // A form illegal on the one config asked for is an error; with --all, a row saying so.
  int status = 0;
  for (const auto& r : results)
    if (!r.error.empty() && !o.all) {
      err << "ptxfu bench: " << r.config << ": " << r.error << "\n";
      status = 1;
    }
  if (status) return status;
  if (o.json) {  // the fields in the order of the calibration CSV (tb/hw/calib_csv.h)
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& r : results) {
      nlohmann::ordered_json row;
      row["config"] = r.config;
      row["form"] = r.form;
      row["consumer"] = r.consumer.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.consumer);
      row["latency"] = r.error.empty() ? nlohmann::ordered_json(r.latency) : nlohmann::ordered_json(nullptr);
      row["throughput"] = r.error.empty() ? nlohmann::ordered_json(r.throughput) : nlohmann::ordered_json(nullptr);
      row["unit"] =
          r.error.empty() ? nlohmann::ordered_json(std::string(models::name(r.unit))) : nlohmann::ordered_json(nullptr);
      if (r.reference) {
        auto number = [](const std::optional<double>& v) {
          return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
        };
        row["ref_latency"] = number(r.reference->latency);
        row["ref_throughput"] = number(r.reference->throughput);
        row["ref_source"] = r.reference->source;
      }
      if (!r.error.empty()) row["error"] = r.error;
      j.push_back(row);
    }
    out << j.dump(2) << "\n";
    return 0;
  }
  auto cell = [](double model, const std::optional<double>& ref) {
    if (!ref) return fmt::format("{:>8.2f} {:>6} {:>6}", model, "-", "-");
    return fmt::format("{:>8.2f} {:>6g} {:>6.2f}", model, *ref, *ref != 0.0 ? model / *ref : 0.0);
  };
  const std::string what = o.consumer ? fmt::format("{} -> {}", *o.form, *o.consumer) : *o.form;
  out << fmt::format("Model vs reference for {}: latency in cycles ({}), throughput in {}/clk/SM\n", what,
                     o.consumer ? "producer issue to consumer issue" : "dependent chain",
                     models::is_mma_form(*o.form) ? "mma (warp-instructions)" : "thread-instructions");
  out << fmt::format("{:<8} {:<6} {:>8} {:>6} {:>6}  {:>8} {:>6} {:>6}  {}\n", "config", "unit", "latency", "ref",
                     "ratio", "thruput", "ref", "ratio", "dependent");
  for (const auto& r : results) {
    if (!r.error.empty()) {
      out << fmt::format("{:<8} {}\n", r.config, r.error);
      continue;
    }
    const auto* ref = r.reference;
    out << fmt::format("{:<8} {:<6} {}  {}  {}\n", r.config, models::name(r.unit),
                       cell(r.latency, ref ? ref->latency : std::nullopt),
                       cell(r.throughput, ref ? ref->throughput : std::nullopt), r.chained_through);
  }
  bool any_ref = false;
  for (const auto& r : results)
    if (r.reference) {
      if (!any_ref) out << "Sources:\n";
      any_ref = true;
      out << fmt::format("  {}: {}\n", r.config, r.reference->source);
    }
  return 0;
}

// `bench --references`: every config's references, measured by form.
int run_reference_table(const BenchCmdOptions& o, const std::vector<ArchConfig>& configs, std::ostream& out) {
  std::vector<models::FormBenchSpec> specs;
  std::vector<const models::Reference*> refs;
  for (const ArchConfig& c : configs)
    for (const models::Reference& r : c.references) {
      specs.push_back(models::spec_of(c, r));
      refs.push_back(&r);
    }
  const auto results = models::run_form_benches(specs);
  if (o.json) {
    nlohmann::json j = nlohmann::json::array();
    for (size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      j.push_back({{"config", r.config},
                   {"reference", refs[i]->bench},
                   {"form", r.form},
                   {"consumer", r.consumer.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.consumer)},
                   {"latency", r.error.empty() ? nlohmann::json(r.latency) : nlohmann::json(nullptr)},
                   {"throughput", r.error.empty() ? nlohmann::json(r.throughput) : nlohmann::json(nullptr)},
                   {"unit", std::string(models::name(r.unit))},
                   {"ref_latency", optional_number(refs[i]->latency)},
                   {"ref_throughput", optional_number(refs[i]->throughput)},
                   {"ref_source", refs[i]->source}});
    }
    out << j.dump(2) << "\n";
    return 0;
  }
  auto cell = [](double model, const std::optional<double>& ref) {
    if (!ref) return fmt::format("{:>7.2f} {:>5} {:>5}", model, "-", "-");
    return fmt::format("{:>7.2f} {:>5g} {:>5.2f}", model, *ref, *ref != 0.0 ? model / *ref : 0.0);
  };
  out << "| config | reference | unit | latency | ref | ratio | thruput | ref | ratio | source |\n";
  out << "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    const models::Reference& ref = *refs[i];
    std::string lat = cell(r.latency, ref.latency), thr = cell(r.throughput, ref.throughput);
    auto cols = [](const std::string& s) {  // "a b c" -> "a | b | c"
      std::string t;
      bool space = false;
      for (char ch : s) {
        if (ch == ' ') {
          space = true;
          continue;
        }
        if (space && !t.empty()) t += " | ";
        space = false;
        t += ch;
      }
      return t;
    };
    if (!r.error.empty()) lat = "- - -", thr = "- - -";
    out << fmt::format("| {} | `{}` | {} | {} | {} | {} |\n", r.config, ref.bench, models::name(r.unit), cols(lat),
                       cols(thr), r.error.empty() ? ref.source : r.error);
  }
  return 0;
}

}  // namespace

int sim_status(const models::SimResult& r) {
  const bool half = r.rtl_half && (r.rtl_cosim.mismatches != 0 || r.rtl_cosim.latency_mismatches != 0);
  const bool tensor = r.rtl_tensor && r.rtl_tensor_cosim.mismatches != 0;
  if (half || tensor) return 3;
  return r.racecheck && r.races.hazards != 0 ? 4 : 0;
}

void print_racecheck(const kernel::Kernel& k, const models::SimResult& r, unsigned lines, std::ostream& out) {
  if (!r.racecheck) return;
  const kernel::RaceReport& races = r.races;
  out << fmt::format("  racecheck: {} hazard{} (thread accesses) between {} pair{} of PTX lines{}\n", races.hazards,
                     races.hazards == 1 ? "" : "s", races.sites.size(), races.sites.size() == 1 ? "" : "s",
                     races.sites.size() > lines ? fmt::format(", the first {} shown", lines) : "");
  for (size_t i = 0; i < races.sites.size() && i < lines; ++i)
    out << "  ========= " << kernel::describe(k, races.sites[i]) << "\n";
  out << "  ========= " << kernel::racecheck_summary(races) << "\n";
}

void add_racecheck_json(const kernel::Kernel& k, const models::SimResult& r, nlohmann::json& j) {
  if (!r.racecheck) return;
  nlohmann::json sites = nlohmann::json::array();
  for (const kernel::RaceSite& s : r.races.sites) {
    auto access = [&](const kernel::RaceAccess& a) {
      return nlohmann::json{{"line", k.insts[a.pc].line},
                            {"instruction", std::string(k.insts[a.pc].mnemonic)},
                            {"warp", a.warp},
                            {"lane", a.lane}};
    };
    sites.push_back({{"kind", std::string(kernel::name(s.kind))},
                     {"first", access(s.first)},
                     {"second", access(s.second)},
                     {"block", {s.block.x, s.block.y, s.block.z}},
                     {"shared_address", s.shared_addr},
                     {"hazards", s.hazards},
                     {"message", kernel::describe(k, s)}});
  }
  j["racecheck"] = {{"hazards", r.races.hazards}, {"sites", sites}};
}

void add_rtl_cosim_json(const models::SimResult& r, nlohmann::json& j) {
  if (r.rtl_half)
    j["rtl_cosim"] = {{"instructions", r.rtl_cosim.instructions},
                      {"lanes_checked", r.rtl_cosim.lanes_checked},
                      {"mismatches", r.rtl_cosim.mismatches},
                      {"latency_mismatches", r.rtl_cosim.latency_mismatches},
                      {"reports", r.rtl_cosim.reports}};
  if (r.rtl_tensor) {
    const auto& t = r.rtl_tensor_cosim;
    j["rtl_tensor"] = {{"instructions", t.instructions},
                       {"blocks", t.blocks},
                       {"mismatches", t.mismatches},
                       {"models", t.models},
                       {"reports", t.reports}};
  }
}

namespace {

// Each report's lines, indented under the summary.
void print_reports(const std::vector<std::string>& reports, std::ostream& out) {
  for (const auto& report : reports) {
    size_t from = 0;
    for (size_t nl; (nl = report.find('\n', from)) != std::string::npos; from = nl + 1)
      out << "    " << report.substr(from, nl - from) << "\n";
    out << "    " << report.substr(from) << "\n";
  }
}

}  // namespace

void print_rtl_cosim(const models::SimJob& job, const models::SimResult& r, std::ostream& out) {
  if (r.rtl_half) {
    const auto& c = r.rtl_cosim;
    out << fmt::format(
        "  RTL co-simulation (rtl_ref HFMA2, NUM_STAGES={}): {} warp-instructions, {} threads checked, "
        "{} mismatches, {} latency mismatches\n",
        models::rtl_stages_for(job), c.instructions, c.lanes_checked, c.mismatches, c.latency_mismatches);
    print_reports(c.reports, out);  // `# context` and `ptxfu eval` input lines
  }
  if (r.rtl_tensor) {
    const auto& t = r.rtl_tensor_cosim;
    std::string models;
    for (const auto& m : t.models) models += (models.empty() ? "" : "; ") + m;
    out << fmt::format(
        "  RTL co-simulation (rtl_ref block FMA, {}): {} mma warp-instructions, {} blocks checked, {} mismatches\n",
        models.empty() ? "no blocks" : models, t.instructions, t.blocks, t.mismatches);
    print_reports(t.reports, out);  // `# context` and `ptxfu cosim --op mma.block --replay` lines
  }
}

bool apply_sim_options(const SimCmdOptions& o, models::SimJob& job, std::ostream& err) {
  if (o.style != "lt" && o.style != "at") {
    err << "ptxfu sim: --mode must be lt or at, not '" << o.style << "'\n";
    return false;
  }
  job.style = o.style == "lt" ? models::TimingStyle::loosely_timed : models::TimingStyle::approximately_timed;
  job.vcd_path = o.vcd_path;
  job.kanata_path = o.kanata_path;
  job.rtl_half = o.rtl_half;
  job.rtl_tensor = o.rtl_tensor;
  job.racecheck = o.racecheck;
  return true;
}

int run_sim(const SimCmdOptions& o, std::ostream& out, std::ostream& err) {
  std::string text;
  switch (models::read_text_file(o.program_path, models::kMaxProgramBytes, text)) {
    case models::ReadStatus::cannot_open: err << "ptxfu sim: " << o.program_path << ": cannot open\n"; return 1;
    case models::ReadStatus::too_large:
      err << "ptxfu sim: " << o.program_path << ": larger than " << models::kMaxProgramBytes << " bytes\n";
      return 1;
    case models::ReadStatus::ok: break;
  }
  return run_kernel_sim(o, std::move(text), out, err);
}

int run_bench(const BenchCmdOptions& o, std::ostream& out, std::ostream& err) {
  std::vector<ArchConfig> configs;
  try {
    if (o.all) {
      for (const auto& e : models::embedded_configs()) configs.push_back(models::load_config(std::string(e.name)));
    } else {
      configs.push_back(config_from(o.config_path));
    }
  } catch (const models::ConfigError& e) {
    err << "ptxfu bench: " << e.what() << "\n";
    return 1;
  }
  if (o.form) return run_form_bench(o, configs, out, err);
  if (o.references) return run_reference_table(o, configs, out);
  const auto results = models::run_benches(configs);
  if (o.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : results) {
      j.push_back({{"config", r.config},
                   {"bench", r.bench},
                   {"latency", r.latency},
                   {"ref_latency", optional_number(r.reference ? r.reference->latency : std::nullopt)},
                   {"throughput", r.throughput},
                   {"ref_throughput", optional_number(r.reference ? r.reference->throughput : std::nullopt)},
                   {"ref_source", r.reference ? nlohmann::json(r.reference->source) : nlohmann::json(nullptr)}});
    }
    out << j.dump(2) << "\n";
    return 0;
  }
  auto cell = [](double model, const std::optional<double>& ref) {
    if (!ref) return fmt::format("{:>8.2f} {:>6} {:>6}", model, "-", "-");
    return fmt::format("{:>8.2f} {:>6g} {:>6.2f}", model, *ref, *ref != 0.0 ? model / *ref : 0.0);
  };
  out << "Model vs reference: latency in cycles (dependent chain), throughput in thread-instructions/clk/SM\n";
  out << fmt::format("{:<8} {:<9} {:>8} {:>6} {:>6}  {:>8} {:>6} {:>6}\n", "config", "bench", "latency", "ref", "ratio",
                     "thruput", "ref", "ratio");
  for (const auto& r : results) {
    const auto* ref = r.reference;
    out << fmt::format("{:<8} {:<9} {}  {}\n", r.config, r.bench, cell(r.latency, ref ? ref->latency : std::nullopt),
                       cell(r.throughput, ref ? ref->throughput : std::nullopt));
  }
  out << "Sources: configs/references.yaml (ptxfu bench --json prints them).\n";
  return 0;
}

}  // namespace ptxfu::cli
