// The host API's results: a simulation's result as a LaunchResult, its JSON,
// the fault a failed launch throws, and the scalars' types.
#include <cstring>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host/host_state.h"
#include "models/simulator.h"

namespace ptxfu {
namespace host_detail {

LaunchResult to_launch_result(const kernel::Kernel& k, const models::SimResult& r) {
  LaunchResult out;
  out.cycles = r.cycles;
  out.warp_instructions = r.warp_instructions;
  out.ctas = r.ctas;
  out.ipc = r.ipc;
  for (const models::UnitRow& row : models::kUnits) {
    const models::UnitStats& u = r.units[static_cast<size_t>(row.unit)];
    out.units.push_back({std::string(row.name), u.busy_cycles, u.utilisation, u.warp_instructions});
  }
  for (size_t i = 0; i < r.stalls.size(); ++i) out.stalls[std::string(models::kWarpStallNames[i])] = r.stalls[i];
  out.residency.ctas = r.residency.ctas;
  out.residency.warps_per_cta = r.residency.warps_per_cta;
  out.residency.registers_per_thread = r.residency.registers_per_thread;
  out.residency.shared_per_cta = r.residency.shared_per_cta;
  out.residency.limit = r.residency.limit;
  for (size_t i = 0; i < k.insts.size() && i < r.lines.size(); ++i) {
    const kernel::Inst& in = k.insts[i];
    if (in.kind == kernel::Kind::func_end) continue;  // synthetic
    const models::LineProfile& p = r.lines[i];
    LineUse l{in.line,
              std::string(in.mnemonic),
              std::string(p.constant_bank ? "cbank" : models::name(p.unit)),
              p.warp_instructions,
              p.active_lanes,
              {}};
    for (size_t j = 0; j < p.stalls.size(); ++j) l.stalls[std::string(models::kWarpStallNames[j])] = p.stalls[j];
    out.profile.push_back(std::move(l));
  }
  out.printf = kernel::printf_output(r.memory);
  out.host_seconds = r.host_seconds;
  out.ok = r.ok;
  out.error = r.error;
  return out;
}

}  // namespace host_detail

const UnitUse& LaunchResult::unit(const std::string& name) const {
  for (const UnitUse& u : units)
    if (u.name == name) return u;
  std::string list;
  for (const UnitUse& u : units) list += (list.empty() ? "" : ", ") + u.name;
  throw Error(fmt::format("no unit named '{}' (the model has {})", name, list));
}

std::string LaunchResult::to_json() const {
  nlohmann::ordered_json j;
  j["kernel"] = kernel;
  j["start_cycle"] = start_cycle;
  j["end_cycle"] = end_cycle;
  j["cycles"] = cycles;
  j["warp_instructions"] = warp_instructions;
  j["ctas"] = ctas;
  j["ipc"] = ipc;
  for (const UnitUse& u : units)
    j["units"][u.name] = {
        {"busy_cycles", u.busy_cycles}, {"utilisation", u.utilisation}, {"warp_instructions", u.warp_instructions}};
  j["stalls"] = stalls;
  j["residency"] = {{"ctas", residency.ctas},
                    {"limit", residency.limit},
                    {"warps_per_cta", residency.warps_per_cta},
                    {"registers_per_thread", residency.registers_per_thread},
                    {"shared_per_cta", residency.shared_per_cta}};
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  for (const LineUse& l : profile)
    lines.push_back({{"line", l.line},
                     {"instruction", l.instruction},
                     {"unit", l.unit},
                     {"warp_instructions", l.warp_instructions},
                     {"active_lanes", l.active_lanes},
                     {"stalls", l.stalls}});
  j["profile"] = std::move(lines);
  j["printf"] = printf;
  j["host_seconds"] = host_seconds;
  j["ok"] = ok;
  if (!ok) j["error"] = error;
  return j.dump();
}

KernelFault::KernelFault(const LaunchResult& r) : Error(r.error), result_(r) {
  static const std::regex where(R"(^.*?:(\d+):\d+: error: )");
  static const std::regex who(R"(by thread \((\d+),(\d+),(\d+)\) in block \((\d+),(\d+),(\d+)\))");
  std::smatch m;
  if (std::regex_search(r.error, m, where)) line = static_cast<unsigned>(std::stoul(m[1]));
  if (std::regex_search(r.error, m, who)) {
    auto u = [&](int i) { return static_cast<uint32_t>(std::stoul(m[i])); };
    thread = Dim3(u(1), u(2), u(3));
    block = Dim3(u(4), u(5), u(6));
  }
}

Scalar Scalar::f32(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return {Type::f32, u};
}

Scalar Scalar::f64(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return {Type::f64, u};
}

namespace {

struct ScalarRow {
  Scalar::Type type;
  const char* name;
  unsigned bytes;
};
constexpr ScalarRow kScalarRows[] = {
    {Scalar::Type::u8, "u8", 1},   {Scalar::Type::s8, "s8", 1},   {Scalar::Type::u16, "u16", 2},
    {Scalar::Type::s16, "s16", 2}, {Scalar::Type::u32, "u32", 4}, {Scalar::Type::s32, "s32", 4},
    {Scalar::Type::u64, "u64", 8}, {Scalar::Type::s64, "s64", 8}, {Scalar::Type::f16, "f16", 2},
    {Scalar::Type::f32, "f32", 4}, {Scalar::Type::f64, "f64", 8},
};

}  // namespace

unsigned Scalar::bytes() const { return kScalarRows[static_cast<size_t>(type)].bytes; }

std::string Scalar::type_name() const { return kScalarRows[static_cast<size_t>(type)].name; }

}  // namespace ptxfu
