#include "cli/run_cmd.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/kernel_sim_cmd.h"
#include "host/ptxfu_host.hpp"
#include "models/kernel_sm.h"
#include "models/text_file.h"
#include "models/units.h"
#include "sweep/program.h"

namespace ptxfu::cli {

const char* const kRunHelp =
    "Run a host program written as YAML on the cycle-approximate SM model: buffers in device memory (zeros,\n"
    "random:SEED, arange, file:PATH), module variables (__constant__, __device__) filled from the same kinds of\n"
    "data, then a list of launches, one after another as on one stream, whose arguments name buffers\n"
    "(NAME, or NAME+K for the address of element K) and scalars (u32:1024, f32:0.5, ...). Reports each launch as\n"
    "`sim` does and the total; --out-dir writes each output buffer to DIR/NAME.bin, only when every launch ended\n"
    "well. See docs/run.md.";

namespace {

using sweep::HostProgram;
using sweep::HostProgramRun;
using sweep::ProgramFault;
using sweep::ProgramLaunch;
using sweep::total_of;

// A launch's per-instruction profile as `sim --profile` sums it.
std::vector<InstructionProfile> instruction_profiles(const LaunchResult& r) {
  std::vector<InstructionProfile> v;
  for (const LineUse& l : r.profile) {
    InstructionProfile p;
    p.line = l.line;
    p.use.constant_bank = l.unit == "cbank";  // a constant-bank read uses no unit
    p.use.unit = models::unit_named(l.unit).value_or(models::Unit::alu);
    p.use.warp_instructions = l.warp_instructions;
    p.use.active_lanes = l.active_lanes;
    for (size_t j = 0; j < p.use.stalls.size(); ++j) {
      const auto it = l.stalls.find(std::string(models::kWarpStallNames[j]));
      p.use.stalls[j] = it == l.stalls.end() ? 0 : it->second;
    }
    v.push_back(p);
  }
  return v;
}

// The kernel files' texts, which the profiles annotate, by path.
class Listings {
 public:
  const std::vector<std::string_view>& of(const std::string& path) {
    auto it = lines_.find(path);
    if (it != lines_.end()) return it->second;
    std::string& text = texts_[path];
    if (models::read_text_file(path, models::kMaxProgramBytes, text) != models::ReadStatus::ok) text.clear();
    return lines_[path] = split_lines(text);
  }

 private:
  std::map<std::string, std::string> texts_;
  std::map<std::string, std::vector<std::string_view>> lines_;
};

// Writes every output to DIR/NAME.bin: all to temporary names first, then
// renamed, so no file looks complete before the whole set is.
std::vector<std::string> write_outputs(const std::string& dir, const HostProgram& p, const HostProgramRun& run) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ProgramFault{fmt::format("--out-dir {}: {}", dir, ec.message()), 2};
  std::vector<std::string> written;
  for (size_t b : p.outputs) {
    const std::string path = fmt::format("{}/{}.bin", dir, p.buffers[b].name), tmp = path + ".partial";
    const std::vector<uint8_t> bytes = run.contents(b);
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw ProgramFault{fmt::format("{}: cannot write", tmp), 1};
    written.push_back(path);
  }
  for (const std::string& path : written)
    if (std::rename((path + ".partial").c_str(), path.c_str()) != 0)
      throw ProgramFault{fmt::format("{}.partial: cannot rename to {}", path, path), 1};
  return written;
}

// The fields `sim --json` reports for a kernel, from a launch (or the total).
nlohmann::ordered_json launch_json(const LaunchResult& r) {
  nlohmann::ordered_json j;
  j["start_cycle"] = r.start_cycle;
  j["end_cycle"] = r.end_cycle;
  j["cycles"] = r.cycles;
  j["warp_instructions"] = r.warp_instructions;
  j["ipc"] = r.ipc;
  j["ctas"] = r.ctas;
  for (const UnitUse& u : r.units)
    j["pipes"][u.name] = {
        {"busy_cycles", u.busy_cycles}, {"utilisation", u.utilisation}, {"warp_instructions", u.warp_instructions}};
  for (std::string_view s : models::kWarpStallNames) {
    const auto it = r.stalls.find(std::string(s));
    j["stalls"][std::string(s)] = it == r.stalls.end() ? 0 : it->second;
  }
  j["host_seconds"] = r.host_seconds;
  return j;
}

void print_json(const HostProgram& p, const RunCmdOptions& o, const std::string& config,
                const std::vector<LaunchResult>& results, const std::vector<std::string>& written, std::ostream& out) {
  Listings listings;
  nlohmann::ordered_json j;
  j["config"] = config;
  j["program"] = o.program_path;
  j["launches"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < results.size(); ++i) {
    const ProgramLaunch& l = p.launches[i];
    const LaunchResult& r = results[i];
    nlohmann::ordered_json one;
    one["kernel"] = l.kernel_path;
    one["entry"] = r.kernel;
    one["grid"] = {l.grid.x, l.grid.y, l.grid.z};
    one["block"] = {l.block.x, l.block.y, l.block.z};
    one.update(launch_json(r));
    one["printf"] = r.printf;
    one["residency"] = {{"ctas", r.residency.ctas},
                        {"limit", r.residency.limit},
                        {"warps_per_cta", r.residency.warps_per_cta},
                        {"registers_per_thread", r.residency.registers_per_thread},
                        {"shared_bytes_per_cta", r.residency.shared_per_cta}};
    if (o.profile) one["lines"] = profile_json(instruction_profiles(r), listings.of(l.kernel_path));
    j["launches"].push_back(std::move(one));
  }
  j["total"] = launch_json(total_of(results));
  j["outputs"] = written;
  out << j.dump(2) << "\n";
}

void print_pipes_and_stalls(const LaunchResult& r, std::ostream& out) {
  out << "  unit   busy cycles  utilisation  warp-instructions\n";
  for (const UnitUse& u : r.units)
    out << fmt::format("  {:<6} {:>11}  {:>10.1f}%  {:>17}\n", u.name, u.busy_cycles, 100 * u.utilisation,
                       u.warp_instructions);
  out << "  stall cycles (a sub-partition issued nothing):";
  for (std::string_view s : models::kWarpStallNames) {
    if (s == "not_selected") continue;
    const auto it = r.stalls.find(std::string(s));
    out << fmt::format(" {} {}", s, it == r.stalls.end() ? 0 : it->second);
  }
  out << "\n";
}

void print_text(const HostProgram& p, const RunCmdOptions& o, const std::string& config,
                const std::vector<LaunchResult>& results, const std::vector<std::string>& written, std::ostream& out) {
  Listings listings;
  out << fmt::format("ptxfu run: {} on {}, {} launch{}\n", o.program_path, config, results.size(),
                     results.size() == 1 ? "" : "es");
  for (size_t i = 0; i < results.size(); ++i) {
    const ProgramLaunch& l = p.launches[i];
    const LaunchResult& r = results[i];
    out << fmt::format("\nlaunch {}: {} '{}', grid ({},{},{}) x block ({},{},{}), cycles {} .. {}\n", i + 1,
                       l.kernel_path, r.kernel, l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z,
                       r.start_cycle, r.end_cycle);
    out << r.printf;  // what the kernel's printf calls printed, as `sim` shows it
    out << fmt::format(
        "  cycles             {}\n  warp instructions  {}\n  IPC                {:.3f} (warp-instructions per cycle, "
        "whole SM)\n  CTAs               {} ({} resident at once, limited by {}; {} warps, {} registers per thread, "
        "{} bytes of shared memory each)\n",
        r.cycles, r.warp_instructions, r.ipc, r.ctas, r.residency.ctas, r.residency.limit, r.residency.warps_per_cta,
        r.residency.registers_per_thread, r.residency.shared_per_cta);
    print_pipes_and_stalls(r, out);
    if (o.profile) print_profile(instruction_profiles(r), listings.of(l.kernel_path), out);
  }
  const LaunchResult t = total_of(results);
  out << fmt::format(
      "\ntotal: {} launch{} one after another\n  cycles             {}\n  warp instructions  {}\n  IPC                "
      "{:.3f}\n  CTAs               {}\n",
      results.size(), results.size() == 1 ? "" : "es", t.cycles, t.warp_instructions, t.ipc, t.ctas);
  print_pipes_and_stalls(t, out);
  for (const std::string& path : written) out << "  wrote " << path << "\n";
  out << fmt::format("  host time {:.4f} s\n", t.host_seconds);
}

}  // namespace

CLI::App* add_run_subcommand(CLI::App& app, RunCmdOptions& o) {
  CLI::App* run = app.add_subcommand("run", kRunHelp);
  run->add_option("PROGRAM", o.program_path, "the program (YAML)")->required();
  run->add_option("--config", o.config,
                  "architecture config: an embedded name (sm_70 ... sm_120) or a YAML file; default: the program's "
                  "config:, else sm_90");
  run->add_option("--out-dir", o.out_dir, "after a run that ends well, write each output buffer to DIR/NAME.bin");
  run->add_flag("--profile", o.profile,
                "per launch, the kernel's PTX listing with each line's warp-instructions, active lanes and stall "
                "reasons, as `sim --profile` prints it (with --json: each launch's `lines` array)");
  run->add_flag("--json", o.json, "print one JSON object (each launch as `sim --json` reports it, and the total)");
  return run;
}

int run_program(const RunCmdOptions& o, std::ostream& out, std::ostream& err) {
  try {
    const std::shared_ptr<const HostProgram> program = sweep::load_host_program(o.program_path);
    const HostProgram& p = *program;
    const std::string config = o.config ? *o.config : p.config;
    std::unique_ptr<HostProgramRun> run;
    try {
      run = std::make_unique<HostProgramRun>(p, Device(config));
    } catch (const Error& e) {
      err << "ptxfu run: " << e.what() << "\n";
      return 2;
    }
    const std::vector<LaunchResult> results = run->run();
    const std::vector<std::string> written =
        o.out_dir.empty() ? std::vector<std::string>{} : write_outputs(o.out_dir, p, *run);
    if (o.json)
      print_json(p, o, config, results, written, out);
    else
      print_text(p, o, config, results, written, out);
    return 0;
  } catch (const models::ConfigError& e) {
    err << "ptxfu run: " << e.what() << "\n";
    return 2;
  } catch (const ProgramFault& f) {
    err << "ptxfu run: " << f.message << "\n";
    return f.status;
  }
}

}  // namespace ptxfu::cli
