#include "cli/kernel_sim_cmd.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/simulator.h"
#include "models/text_file.h"
#include "sweep/launch_args.h"

namespace ptxfu::cli {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t from = 0;
  for (size_t nl; (nl = text.find('\n', from)) != std::string_view::npos; from = nl + 1)
    lines.push_back(text.substr(from, nl - from));
  if (from < text.size()) lines.push_back(text.substr(from));
  return lines;
}

namespace {

using kernel::KernelError;
using sweep::parse_arg;
using sweep::parse_dim3;

// The lines the profile annotates: the file's. A straight-line program's
// source has the .entry's header line before the file's text and its
// closing brace after it.
std::vector<std::string_view> listing(const kernel::Kernel& k) {
  std::vector<std::string_view> lines = split_lines(*k.source);
  if (k.straight_line && lines.size() >= 2) {
    lines.erase(lines.begin());
    lines.pop_back();
  }
  return lines;
}

// The per-instruction profile summed per source line.
struct LineSums {
  uint64_t warp_instructions = 0, active_lanes = 0, stall_total = 0;
  std::array<uint64_t, static_cast<size_t>(models::WarpStall::kCount)> stalls{};
  std::string units;
};

std::map<unsigned, LineSums> line_sums(const std::vector<InstructionProfile>& profile) {
  std::map<unsigned, LineSums> sums;
  for (const InstructionProfile& i : profile) {
    LineSums& s = sums[i.line];
    const models::LineProfile& p = i.use;
    s.warp_instructions += p.warp_instructions;
    s.active_lanes += p.active_lanes;
    for (size_t j = 0; j < s.stalls.size(); ++j) s.stalls[j] += p.stalls[j];
    s.stall_total += p.stall_total();
    const std::string unit(p.constant_bank ? "cbank" : models::name(p.unit));
    if (s.units.find(unit) == std::string::npos) s.units += (s.units.empty() ? "" : "+") + unit;
  }
  return sums;
}

std::string top_stalls(const LineSums& s, size_t count) {
  std::vector<std::pair<uint64_t, size_t>> v;
  for (size_t j = 0; j < s.stalls.size(); ++j)
    if (s.stalls[j]) v.push_back({s.stalls[j], j});
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  for (size_t j = 0; j < v.size() && j < count; ++j)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", models::kWarpStallNames[v[j].second], v[j].first);
  return text;
}

}  // namespace

std::vector<InstructionProfile> instruction_profiles(const kernel::Kernel& k, const models::SimResult& r) {
  std::vector<InstructionProfile> v;
  for (size_t i = 0; i < k.insts.size() && i < r.lines.size(); ++i)
    if (k.insts[i].kind != kernel::Kind::func_end) v.push_back({k.insts[i].line, r.lines[i]});  // func_end: synthetic
  return v;
}

void print_profile(const std::vector<InstructionProfile>& profile, const std::vector<std::string_view>& lines,
                   std::ostream& out) {
  const auto sums = line_sums(profile);
  out << "\n  profile: per PTX line, warp-instructions issued, active lanes on average, warp-cycles waiting to\n"
         "  issue it (by reason), and its unit\n";
  out << fmt::format("  {:>5} {:>11} {:>6} {:>12}  {:<32} {:<7} {}\n", "line", "warp-insts", "lanes", "stall-cycles",
                     "top stall reasons", "unit", "source");
  const unsigned first = sums.empty() ? 1 : sums.begin()->first;
  for (unsigned line = first; line <= lines.size(); ++line) {
    const std::string_view text = lines[line - 1];
    const auto it = sums.find(line);
    if (it == sums.end()) {
      out << fmt::format("  {:>5} {:>11} {:>6} {:>12}  {:<32} {:<7} {}\n", line, "", "", "", "", "", text);
      continue;
    }
    const LineSums& s = it->second;
    const std::string lanes =
        s.warp_instructions
            ? fmt::format("{:.1f}", static_cast<double>(s.active_lanes) / static_cast<double>(s.warp_instructions))
            : "-";
    out << fmt::format("  {:>5} {:>11} {:>6} {:>12}  {:<32} {:<7} {}\n", line, s.warp_instructions, lanes,
                       s.stall_total, top_stalls(s, 2), s.units, text);
  }
  std::vector<std::pair<uint64_t, unsigned>> top;
  uint64_t total = 0;
  for (const auto& [line, s] : sums) {
    total += s.stall_total;
    if (s.stall_total) top.push_back({s.stall_total, line});
  }
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  out << "\n  top stall lines:\n";
  for (size_t i = 0; i < top.size() && i < 5; ++i) {
    const LineSums& s = sums.at(top[i].second);
    out << fmt::format("    line {:>5}: {:>5.1f}% of the warp-cycles waiting ({}): {}\n", top[i].second,
                       100.0 * static_cast<double>(top[i].first) / static_cast<double>(total), top_stalls(s, 3),
                       lines[top[i].second - 1]);
  }
  if (top.empty()) out << "    none\n";
}

nlohmann::json profile_json(const std::vector<InstructionProfile>& profile,
                            const std::vector<std::string_view>& lines) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& [line, s] : line_sums(profile)) {
    nlohmann::json stalls = nlohmann::json::object();
    for (size_t i = 0; i < s.stalls.size(); ++i)
      if (i != static_cast<size_t>(models::WarpStall::idle))
        stalls[std::string(models::kWarpStallNames[i])] = s.stalls[i];
    j.push_back(
        {{"line", line},
         {"source", std::string(line <= lines.size() ? lines[line - 1] : "")},
         {"warp_instructions", s.warp_instructions},
         {"active_lanes",
          s.warp_instructions ? static_cast<double>(s.active_lanes) / static_cast<double>(s.warp_instructions) : 0.0},
         {"stall_cycles", s.stall_total},
         {"stalls", stalls},
         {"unit", s.units}});
  }
  return j;
}

namespace {

// Writes every buffer and texture (surface) argument to DIR/argN.bin, each through a temporary
// name so that no file looks complete before it is.
void write_buffers(const std::string& dir, const kernel::Memory& m, std::vector<std::string>& written) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw KernelError(fmt::format("--out-dir {}: {}", dir, ec.message()));
  auto write = [&](int arg, const std::vector<uint8_t>& bytes) {
    const std::string path = fmt::format("{}/arg{}.bin", dir, arg), tmp = path + ".partial";
    {
      std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      if (!f) throw KernelError(fmt::format("{}: cannot write", tmp));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw KernelError(fmt::format("{}: cannot rename to {}", tmp, path));
    written.push_back(path);
  };
  for (const kernel::Buffer& b : m.buffers)
    if (b.arg >= 0) write(b.arg, b.bytes);
  for (size_t t = 0; t < m.textures.size() && t < m.texture_args.size(); ++t)  // surfaces sust wrote
    write(m.texture_args[t], m.textures[t].texels);
}

std::string unit_name(size_t u) { return std::string(models::name(static_cast<models::Unit>(u))); }

// The report's parts that kernels and straight-line programs share.
void add_pipes_and_stalls(const models::SimResult& r, nlohmann::json& j) {
  for (size_t u = 0; u < r.units.size(); ++u)
    j["pipes"][unit_name(u)] = {{"busy_cycles", r.units[u].busy_cycles},
                                {"utilisation", r.units[u].utilisation},
                                {"warp_instructions", r.units[u].warp_instructions}};
  for (size_t s = 0; s < r.stalls.size(); ++s) j["stalls"][std::string(models::kWarpStallNames[s])] = r.stalls[s];
}

void print_pipes_and_stalls(const models::SimResult& r, std::ostream& out) {
  out << "  unit   busy cycles  utilisation  warp-instructions\n";
  for (size_t u = 0; u < r.units.size(); ++u)
    out << fmt::format("  {:<6} {:>11}  {:>10.1f}%  {:>17}\n", unit_name(u), r.units[u].busy_cycles,
                       100 * r.units[u].utilisation, r.units[u].warp_instructions);
  out << "  stall cycles (a sub-partition issued nothing):";
  for (size_t s = 0; s < r.stalls.size(); ++s)
    if (s != static_cast<size_t>(models::WarpStall::not_selected))
      out << fmt::format(" {} {}", models::kWarpStallNames[s], r.stalls[s]);
  out << "\n";
}

std::string register_hex(uint64_t v, unsigned bits) {
  return bits == 1 ? fmt::format("0x{:x}", v & 1) : fmt::format("0x{:0{}x}", v, (bits + 3) / 4);
}

// A straight-line program: its report adds the final registers of warp 0.
int run_straight_line(const SimCmdOptions& o, std::string text, std::ostream& out, std::ostream& err) {
  const models::ArchConfig config = o.config_path ? models::load_config(*o.config_path) : models::default_config();
  const kernel::Kernel k = kernel::load_straight_line(std::move(text), o.program_path, config.caps);
  const kernel::Function& e = k.entry();
  models::SimJob job;
  job.config = &config;
  job.kernel = &k;
  job.warps = o.warps;
  if (!apply_sim_options(o, job, err)) return 2;
  const models::SimResult r = models::simulate({job}).front();
  if (!r.ok) {
    err << "ptxfu sim: " << r.error << "\n";
    return 1;
  }
  if (o.json) {
    nlohmann::json j;
    j["config"] = config.name;
    j["program"] = o.program_path;
    j["warps"] = o.warps;
    j["mode"] = o.style;
    j["cycles"] = r.cycles;
    j["warp_instructions"] = r.warp_instructions;
    j["ipc"] = r.ipc;
    add_pipes_and_stalls(r, j);
    j["registers"] = nlohmann::json::object();
    for (size_t reg = 0; reg < e.num_regs; ++reg) {
      auto& lanes = j["registers"][e.reg_names[reg]];
      for (uint64_t v : r.warp0_registers[reg]) lanes.push_back(register_hex(v, e.reg_bits[reg]));
    }
    add_rtl_cosim_json(r, j);
    add_racecheck_json(k, r, j);
    if (o.profile) j["lines"] = profile_json(instruction_profiles(k, r), listing(k));
    j["host_seconds"] = r.host_seconds;
    out << j.dump(2) << "\n";
    return sim_status(r);
  }
  out << fmt::format("ptxfu sim: {} on {} ({}), {} warp{}, {}\n", o.program_path, config.name, config.description,
                     o.warps, o.warps == 1 ? "" : "s", o.style == "lt" ? "loosely timed" : "approximately timed");
  out << fmt::format(
      "  cycles             {}\n  warp instructions  {}\n  IPC                {:.3f} (warp-instructions per cycle, "
      "whole SM)\n",
      r.cycles, r.warp_instructions, r.ipc);
  print_pipes_and_stalls(r, out);
  out << "  registers of warp 0, lanes 0..3:\n";
  for (size_t reg = 0; reg < e.num_regs; ++reg) {
    out << fmt::format("    {:<8}", e.reg_names[reg]);
    for (size_t lane = 0; lane < 4; ++lane) out << " " << register_hex(r.warp0_registers[reg][lane], e.reg_bits[reg]);
    out << "\n";
  }
  print_rtl_cosim(job, r, out);
  print_racecheck(k, r, o.racecheck_lines, out);
  if (o.profile) print_profile(instruction_profiles(k, r), listing(k), out);
  out << fmt::format("  host time {:.4f} s\n", r.host_seconds);
  return sim_status(r);
}

// The launch --grid, --block, --cluster, --shared-bytes and the --args describe.
kernel::Launch launch_of(const SimCmdOptions& o, const kernel::Kernel& k) {
  const kernel::Function& e = k.entry();
  kernel::Launch launch;
  launch.grid = parse_dim3(o.grid, "--grid");
  launch.block = parse_dim3(o.block, "--block");
  launch.shared_bytes = o.shared_bytes;
  if (!o.cluster.empty()) launch.cluster = parse_dim3(o.cluster, "--cluster");
  if (o.args.size() != e.params.size()) {
    std::string list;
    for (const kernel::Param& p : e.params) list += fmt::format("{}.{} {}", list.empty() ? "" : ", ", p.type, p.name);
    throw KernelError(fmt::format("{}: '{}' takes {} parameter{} ({}); {} --arg given", o.program_path, e.name,
                                  e.params.size(), e.params.size() == 1 ? "" : "s", list, o.args.size()));
  }
  for (size_t i = 0; i < o.args.size(); ++i)
    launch.args.push_back(parse_arg(o.args[i], static_cast<unsigned>(i), e.params[i]));
  for (const std::string& spec : o.constants) launch.variables.push_back(sweep::parse_variable_fill(spec, k));
  return launch;
}

// What a kernel's run reports, as JSON or as text.
struct KernelRun {
  const SimCmdOptions& o;
  const models::ArchConfig& config;
  const kernel::Kernel& k;
  const models::SimJob& job;
  const models::SimResult& r;
  std::vector<std::string> written;  // --out-dir files
};

void print_kernel_json(const KernelRun& run, std::ostream& out) {
  const auto& [o, config, k, job, r, written] = run;
  nlohmann::json j;
  j["config"] = config.name;
  j["kernel"] = o.program_path;
  j["entry"] = std::string(k.entry().name);
  j["grid"] = {job.launch.grid.x, job.launch.grid.y, job.launch.grid.z};
  j["block"] = {job.launch.block.x, job.launch.block.y, job.launch.block.z};
  j["mode"] = o.style;
  j["cycles"] = r.cycles;
  j["warp_instructions"] = r.warp_instructions;
  j["ipc"] = r.ipc;
  j["ctas"] = r.ctas;
  j["residency"] = {{"ctas", r.residency.ctas},
                    {"limit", r.residency.limit},
                    {"warps_per_cta", r.residency.warps_per_cta},
                    {"registers_per_thread", r.residency.registers_per_thread},
                    {"shared_bytes_per_cta", r.residency.shared_per_cta}};
  add_pipes_and_stalls(r, j);
  j["outputs"] = written;
  if (!o.no_printf) j["printf"] = kernel::printf_output(r.memory);
  add_rtl_cosim_json(r, j);
  add_racecheck_json(k, r, j);
  if (o.profile) j["lines"] = profile_json(instruction_profiles(k, r), listing(k));
  j["host_seconds"] = r.host_seconds;
  out << j.dump(2) << "\n";
}

void print_kernel_text(const KernelRun& run, std::ostream& out) {
  const auto& [o, config, k, job, r, written] = run;
  if (!o.no_printf) out << kernel::printf_output(r.memory);  // what the kernel printed, first, as a program shows it
  out << fmt::format("ptxfu sim: {} '{}' on {} ({}), grid ({},{},{}) x block ({},{},{}), {}\n", o.program_path,
                     k.entry().name, config.name, config.description, job.launch.grid.x, job.launch.grid.y,
                     job.launch.grid.z, job.launch.block.x, job.launch.block.y, job.launch.block.z,
                     o.style == "lt" ? "loosely timed" : "approximately timed");
  out << fmt::format(
      "  cycles             {}\n  warp instructions  {}\n  IPC                {:.3f} (warp-instructions per cycle, "
      "whole SM)\n  CTAs               {} ({} resident at once, limited by {}; {} warps, {} registers per thread, "
      "{} bytes of shared memory each)\n",
      r.cycles, r.warp_instructions, r.ipc, r.ctas, r.residency.ctas, r.residency.limit, r.residency.warps_per_cta,
      r.residency.registers_per_thread, r.residency.shared_per_cta);
  print_pipes_and_stalls(r, out);
  for (const std::string& path : written) out << "  wrote " << path << "\n";
  print_rtl_cosim(job, r, out);
  print_racecheck(k, r, o.racecheck_lines, out);
  if (o.profile) print_profile(instruction_profiles(k, r), listing(k), out);
  out << fmt::format("  host time {:.4f} s\n", r.host_seconds);
}

// A file with an .entry: the kernel launched as the options say.
int run_kernel(const SimCmdOptions& o, std::string text, std::ostream& out, std::ostream& err) {
  const models::ArchConfig config = o.config_path ? models::load_config(*o.config_path) : models::default_config();
  kernel::LoadOptions load;
  load.entry = o.entry;
  const kernel::Kernel k = kernel::load_kernel(std::move(text), o.program_path, load);
  models::SimJob job;
  job.config = &config;
  job.kernel = &k;
  job.launch = launch_of(o, k);
  job.registers_per_thread = o.registers_per_thread;
  job.max_cycles = o.max_cycles;
  if (!apply_sim_options(o, job, err)) return 2;
  models::SimResult r = models::simulate({job}).front();
  if (!r.ok) {
    err << "ptxfu sim: " << r.error << "\n";
    return 1;
  }
  KernelRun run{o, config, k, job, r, {}};
  if (!o.out_dir.empty()) write_buffers(o.out_dir, r.memory, run.written);
  if (o.json)
    print_kernel_json(run, out);
  else
    print_kernel_text(run, out);
  return sim_status(r);
}

}  // namespace

int run_kernel_sim(const SimCmdOptions& o, std::string text, std::ostream& out, std::ostream& err) {
  try {
    if (kernel::defines_functions(text)) return run_kernel(o, std::move(text), out, err);
    if (!o.entry.empty() || o.grid != "1" || o.block != "1" || !o.args.empty() || !o.out_dir.empty() ||
        o.shared_bytes || o.registers_per_thread || !o.constants.empty()) {
      err << "ptxfu sim: " << o.program_path
          << ": --entry, --grid, --block, --arg, --const, --out-dir, --shared-bytes and --regs-per-thread need a "
             "kernel (a file with an .entry); this file is a straight-line program\n";
      return 2;
    }
    return run_straight_line(o, std::move(text), out, err);
  } catch (const kernel::KernelError& ex) {
    err << "ptxfu sim: " << ex.what() << "\n";
  } catch (const models::ConfigError& ex) {
    err << "ptxfu sim: " << ex.what() << "\n";
  }
  return 1;
}

}  // namespace ptxfu::cli
