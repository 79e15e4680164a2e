// The replaceable piece of the half-precision special functions: a table of
// exact hardware outputs, one per 16-bit input, that replaces the
// interpolation model for one function so that ptxfu matches a given GPU bit
// for bit (tb/hw/mufu_dump.cu writes such tables on a GPU).
//
// Table file format (text, ASCII):
//
//     # any number of comment lines starting with '#', and blank lines
//     function tanh.approx.f16
//     0x0000 0x0000
//     0x0001 0x0001
//     ...
//
// - The first line that is neither blank nor a comment is the header
//   `function <name>`, <name> one of tanh.approx.f16, ex2.approx.f16,
//   tanh.approx.bf16, ex2.approx.ftz.bf16 (the PTX spelling of the scalar form;
//   the x2 forms use the same table lane by lane).
// - Then exactly 65536 data lines `0xIIII 0xOOOO`: the input and the output
//   bit patterns, `0x` and four hexadecimal digits each (either case),
//   separated by spaces or tabs. Every input appears exactly once, in any
//   order. Comments and blank lines may appear between data lines.
// A file that breaks any rule is rejected whole with a TableError naming the
// file and line; nothing is installed.
#pragma once
#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ptxfu::approx {

enum class HalfFn : uint8_t { tanh_f16, ex2_f16, tanh_bf16, ex2_ftz_bf16, kCount };
inline constexpr size_t kHalfFnCount = static_cast<size_t>(HalfFn::kCount);

std::string_view half_fn_name(HalfFn fn);
std::optional<HalfFn> half_fn_from_name(std::string_view name);

using HalfTable = std::array<uint16_t, 65536>;

// The interpolation model's output for `a` (ignores any installed table).
uint16_t model_half(HalfFn fn, uint16_t a);
// All 65536 outputs of the model.
HalfTable model_table(HalfFn fn);

// Writes `table` in the file format above; `source` goes into a comment line.
void write_table(std::ostream& os, HalfFn fn, const HalfTable& table, std::string_view source);

class TableError : public std::runtime_error {
 public:
  TableError(const std::string& file, int line, const std::string& what);
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0 when no line applies (file not readable)

 private:
  std::string file_;
  int line_;
};

struct LoadedTable {
  HalfFn fn;
  HalfTable table;
};

// Parses a table; `file` names the stream in error messages.
LoadedTable read_table(std::istream& is, const std::string& file);
LoadedTable read_table_file(const std::string& path);

// Process-wide override, meant to be set up once before execution starts
// (installing while other threads execute the same function is not
// supported). Installing copies the table.
void install_hardware_table(HalfFn fn, const HalfTable& table);
// Loads every `<function>.tab` present in `dir` (the names mufu_dump writes,
// e.g. tanh.approx.f16.tab) and installs them; returns how many. Every file
// is checked before any is installed: a malformed file, or one whose header
// names another function, throws TableError and installs nothing.
int install_hardware_tables_from_dir(const std::string& dir);
void clear_hardware_table(HalfFn fn);
bool has_hardware_table(HalfFn fn);

// The exact outputs of an NVIDIA H100 (sm_90), measured on 2026-11-26 by
// tb/hw/mufu_dump.cu (data/README.md): kBuiltinHalf[fn][a]. Where they differ
// from the model (3 to 30% of the inputs) it is by 1 ulp.
extern const uint16_t kBuiltinHalf[kHalfFnCount][65536];
inline constexpr std::string_view kBuiltinHalfSource = "NVIDIA H100 80GB HBM3 (sm_90), tb/hw/mufu_dump.cu, 2026-11-26";
inline uint16_t builtin_half(HalfFn fn, uint16_t a) { return kBuiltinHalf[static_cast<size_t>(fn)][a]; }

// What the executor computes: the installed hardware table when there is
// one, else the built-in H100 outputs.
uint16_t eval_half(HalfFn fn, uint16_t a);

}  // namespace ptxfu::approx
