// The rows of the texture and surface instructions (tex, tld4, txq, suq,
// suld, sust, sured), with their hooks.
#include "isa/async_rows.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace ptxfu::isa::async_rows {
namespace {

using namespace std::string_view_literals;

// Textures and surfaces: the handle (a .texref/.surfref name, or a 64-bit
// register), how many coordinates each geometry reads, and their types.
struct Geometry {
  std::string_view word;
  unsigned coordinates;
  bool array, cube;
};
constexpr Geometry kGeometries[] = {
    {".1d", 1, false, false},  {".2d", 2, false, false},   {".3d", 4, false, false},
    {".a1d", 2, true, false},  {".a2d", 4, true, false},   {".cube", 4, false, true},
    {".acube", 4, true, true}, {".2dms", 4, false, false}, {".a2dms", 4, true, false},
};

const Geometry* geometry_of(const Ctx& c) {
  for (const Geometry& g : kGeometries)
    if (c.has(g.word)) return &g;
  return nullptr;
}

// The first and second type words: the result's and the coordinates'.
std::pair<std::string_view, std::string_view> types_of(const Ctx& c) {
  std::pair<std::string_view, std::string_view> t;
  for (std::string_view w : c.words)
    if (class_of(w) == "type") (t.first.empty() ? t.first : t.second) = w;
  return t;
}

// A register fits a type: no float register for an integer, no integer register for a float.
bool kind_fits(const Ctx& c, std::string_view reg, std::string_view type) {
  const auto r = c.regs ? c.regs->lookup(reg) : std::nullopt;
  if (!r) return true;
  return r->kind == RegKind::bits || (r->kind == RegKind::floating) == (type == ".f32");
}

bool handle_fits(const Ctx& c, std::string_view operand) {
  const std::string_view inner = operand.substr(1, operand.find_first_of(",]") - 1);
  const auto r = c.regs ? c.regs->lookup(trim(inner)) : std::nullopt;
  return !r || r->bits == 64;
}

// tex and tld4: .v4 results, coordinates for the geometry, the array index
// an integer, cubes read floats, multisampled textures integers.
bool texture_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands < 2) return mismatch(c, message);
  const std::string_view op = c.row.name;
  const Geometry* g = geometry_of(c);
  const auto [dtype, ctype] = types_of(c);
  if (g && g->array && ctype == ".f32") {
    message = fmt::format("Array index in the '{}' instruction has unexpected type. Expecting type .u32", op);
    return false;
  }
  if (op == "tld4" && ctype != ".f32") {
    message = "Unexpected instruction types specified for 'tld4'";
    return false;
  }
  if (op == "tld4" && first_of(c, {".r"sv, ".g"sv, ".b"sv, ".a"sv}).empty()) {
    message = "Component modifier required for instruction 'tld4'";
    return false;
  }
  std::string_view texels = c.st.operands[0].text;
  if (c.st.forms[0] == OperandForm::vector_pair) {
    if (c.caps.ptx < 71) {
      message = "Feature 'Texture instruction with optional predicate result' requires PTX ISA .version 7.1 or later";
      return false;
    }
    const std::string_view pred = trim(texels.substr(texels.rfind('|') + 1));
    const auto reg = c.regs ? c.regs->lookup(pred) : std::nullopt;
    if (reg && reg->kind != RegKind::predicate) {
      message = "Predicate output expected for instruction 'tex'";
      return false;
    }
    texels = texels.substr(0, texels.rfind('}') + 1);
  }
  std::string_view e[8];
  const unsigned n = std::min(vector_elements(texels, e, 8), 8u);
  for (unsigned k = 0; k < n; ++k)
    if (!kind_fits(c, e[k], dtype)) return mismatch(c, message);
  const std::string_view at = c.st.operands[1].text;
  if (dtype == ".f16" || c.st.forms[1] != OperandForm::indexed || !handle_fits(c, at)) return mismatch(c, message);
  if (at.find(',') < at.find('{') - 2) return mismatch(c, message);  // [tex, sampler, {..}]: not in unified mode
  if (!c.has(".v4")) {
    message = fmt::format("Instruction '{}{}' requires .v4 type", op, dtype);
    return false;
  }
  if (g && g->cube && ctype != ".f32") {
    message = "Floating-point coordinates required";
    return false;
  }
  if (g && (g->word == ".2dms" || g->word == ".a2dms") && ctype != ".s32") {
    message = "Integer coordinates require .s32 instruction type";
    return false;
  }
  if (g && vector_elements(coordinates(at), nullptr, 0) < g->coordinates) {
    message = fmt::format("Operand vector size doesn't match geometry for instruction '{}'", op);
    return false;
  }
  return true;
}

// sured: the type each operation takes (.inc and .xor: any).
bool surface_reduction(const Ctx& c, std::string& message) {
  struct Op {
    std::string_view op, types;
  };
  static constexpr Op kOps[] = {{".add", ".u32 .s32 .u64"},
                                {".min", ".u32 .s32 .u64 .s64"},
                                {".max", ".u32 .s32 .u64 .s64"},
                                {".and", ".b32"},
                                {".or", ".b32"},
                                {".inc", ""},
                                {".xor", ""}};
  const std::string_view type = types_of(c).first;
  for (const Op& o : kOps) {
    if (!c.has(o.op) || c.row.name == "sured.p") continue;
    if (o.types.empty()) return true;
    if (type == ".b64" || type == ".f32")
      message = fmt::format("Unexpected instruction types specified for '{}'", c.row.name);
    else if (!listed(o.types, type))
      message = fmt::format("Incorrect type '{}' for operation '{}' in instruction '{}'", type, o.op, c.row.name);
    else if ((o.op == ".min" || o.op == ".max") && (type == ".u64" || type == ".s64") && c.caps.ptx < 81)
      message = "Feature '64-bit min/max operation on sured.b' requires PTX ISA .version 8.1 or later";
    return message.empty();
  }
  return true;
}

// suld, sust, sured: a clamp mode (sured may leave it out), integer
// coordinates for the geometry, at most 128 bits.
bool surface_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands < 2) return mismatch(c, message);
  const bool red = c.row.name.rfind("sured", 0) == 0;
  const unsigned at = c.row.name.rfind("suld", 0) == 0 ? 1 : 0;
  if (!red && first_of(c, {".trap"sv, ".clamp"sv, ".zero"sv}).empty()) {
    message = fmt::format("Clamp modifier required for instruction '{}'", c.row.name);
    return false;
  }
  if (c.st.forms[at] != OperandForm::indexed || !handle_fits(c, c.st.operands[at].text)) return mismatch(c, message);
  if (c.has(".v4") && c.has(".b64")) {
    message = "Vector type too large, exceeds 128 bit limit";
    return false;
  }
  std::string_view e[8];
  const unsigned n = std::min(vector_elements(coordinates(c.st.operands[at].text), e, 8), 8u);
  for (unsigned k = 0; k < n; ++k) {
    const auto r = c.regs ? c.regs->lookup(e[k]) : std::nullopt;
    if (r && r->kind == RegKind::floating) return mismatch(c, message);
  }
  const Geometry* g = geometry_of(c);
  if (g && n < g->coordinates) return mismatch(c, message);
  return !red || surface_reduction(c, message);
}

// txq and suq: the handle, a name or a 64-bit register.
bool query_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands < 2 || c.st.forms[1] != OperandForm::address) return mismatch(c, message);
  const std::string_view h = c.st.operands[1].text;
  const auto r = c.regs ? c.regs->lookup(trim(h.substr(1, h.size() - 2))) : std::nullopt;
  return !(r && r->bits != 64) || mismatch(c, message);
}

constexpr std::string_view kSurface =
    "geom!=.1d .2d .3d .a1d .a2d; clamp=.trap .clamp .zero; vec=.v2 .v4; type!=.b8 .b16 .b32 .b64";
constexpr std::string_view kSured =
    "op!=.add .min .max .and .or .inc .xor; geom!=.1d .2d .3d .a1d .a2d .cube; clamp=.trap .clamp .zero; "
    "type!=.u32 .s32 .b32 .u64 .s64 .b64 .f32";

// ptxas 13.0's verdicts (tb/unit/isa/data/sync_forms.ptxas) decide every row.
// clang-format off
const Row kRows[] = {
    {"tex", "tex", "geom!=.1d .2d .3d .a1d .a2d .cube .acube .2dms .a2dms; mode=.base .level .grad; vec=.v2 .v4; "
     "type!=.f32 .s32 .u32 .f16; ctype=.f32 .s32", "vV,x;vV,x,rvf;vV,x,rvf,rvf;vV,x,rvf,rvf,rvf", 0, 0, kHookFirst | kTwoTypes, {}, {},
     texture_rules},
    {"tld4", "tld4", "comp=.r .g .b .a; geom!=.2d .a2d .cube .acube; vec=.v2 .v4; type!=.f32 .s32 .u32; ctype=.f32 .s32",
     "v,x;v,x,rv",
     0, 0, kHookFirst | kTwoTypes, {}, {}, texture_rules},
    {"txq", "txq", "level=.level; query!=.width .height .depth .channel_data_type .channel_order .normalized_coords "
     ".filter_mode .addr_mode_0 .addr_mode_1 .addr_mode_2 .array_size .num_mipmap_levels .num_samples; type!=.b32",
     "r,a;r,a,r", 0, 0, kHookFirst, "!query=Query modifier required for instruction '{1}'", {}, query_rules},
    {"suq", "suq", "query!=.width .height .depth .channel_data_type .channel_order .array_size .memory_layout; "
     "type!=.b32", "r,a", 0, 0, kHookFirst,
     "!query=Query modifier required for instruction '{1}'; txquery=Illegal query modifier for instruction '{1}'", {},
     query_rules},
    {"suld.b", "suld.b", kSurface, "rv,x", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sust.b", "sust.b", kSurface, "x,rvn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sust.p", "sust.p", kSurface, "x,rvn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sured", "sured.b", kSured, "x,rn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sured.b", "sured.b", kSured, "x,rn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sured.p", "sured.p", kSured, "x,rn", 0, 0, kHookFirst, {}, {}, surface_rules},
};
// clang-format on

}  // namespace

RowSpan texture_rows() { return {std::begin(kRows), std::end(kRows)}; }

}  // namespace ptxfu::isa::async_rows
