// Reads tensor_probe's numerics files (numerics_FORM.txt, format in
// docs/mma.md) and compares every tile's D with ptxfu's engine through the
// C++ API (ptxfu::MmaInstruction). Needs no GPU.
//
// What each form is compared with:
//   dense floats and integers  the engine, the instruction as the file names it, target sm_90
//   b1 (.xor.popc/.and.popc)   no engine row: the PTX ISA's definition, D = C + popc(A op B), host integers
//   mma.sp f16                 no engine row: two readings, each through the engine, both reported:
//                              "dense"      the dense A (zeros included) as two chained m16n8k16
//                              "compressed" the K/2 stored values against the B rows the metadata picks, one m16n8k16
//                                           (the one the H100 data follows: 192/192 tiles)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxfu::probe_check {

struct ProbeTile {
  int index = 0;
  std::string kind;
  int meta = -1;  // mma.sp: the metadata nibble of every chunk
  std::vector<uint64_t> a, b, c, d;
};

struct ProbeForm {
  std::string path, id, instruction;
  int m = 0, n = 0, k = 0;
  std::string a_type, c_type, d_type;
  std::vector<ProbeTile> tiles;
};

// Throws std::runtime_error "PATH:LINE:COLUMN: message" for a malformed file
// (a missing field, a bad hex digit, a matrix of the wrong size, no "end").
ProbeForm read_numerics(const std::string& path);
// The same from text already in memory (tests); `path` names it in errors.
ProbeForm parse_numerics(const std::string& text, const std::string& path);

struct Agreement {
  std::string reference;  // "engine", "host b1", "engine, dense A", ...
  std::size_t tiles = 0, tiles_matched = 0;
  std::size_t elements = 0, elements_matched = 0;
  std::size_t both_nan = 0;        // mismatched elements where both are NaN (payloads differ)
  std::vector<std::string> first;  // the first few mismatches, described
  bool all() const { return tiles_matched == tiles; }
};

struct FormReport {
  std::string id, instruction;
  std::vector<Agreement> readings;  // one, or two for mma.sp
  std::string error;                // the engine refused the form (its message)
};

FormReport check_form(const ProbeForm& form, const std::string& target = "sm_90");

// "f16_f32_m16n8k16: engine 256/256 tiles, 32768/32768 elements" (one line per reading).
std::string describe(const FormReport& r);

}  // namespace ptxfu::probe_check
