// `ptxfu mma`: D = A B + C for one tensor-core instruction (or, with
// --matmul, a chain of it over a larger K) on matrices of hexadecimal bit
// patterns read from files; the format is in kMmaHelp and docs/mma.md.
#pragma once
#include <ostream>
#include <string>

namespace ptxfu::cli {

inline constexpr const char* kMmaHelp =
    "D = A B + C bit-exactly, as the target's tensor core computes a matrix instruction.\n"
    "A.txt, B.txt and C.txt hold one matrix row per line, the elements as hexadecimal bit patterns (0x optional)\n"
    "separated by spaces or tabs; blank lines and lines starting with # are skipped. A is M x K, B is K x N,\n"
    "C is M x N, in the instruction's element types: f16/bf16 16 bits, tf32 the 32-bit f32 register (the low\n"
    "13 bits ignored, as the hardware truncates), fp8 8 bits, s8/u8 8, s32 and f32 32, f64 64. D is written\n"
    "in the same format, each element 0x-prefixed and zero-padded to d's width. Without --matmul the sizes\n"
    "are the instruction's shape; with it K is any multiple of the shape's k (the instruction chained over K\n"
    "in ascending k, each D the next C) and M and N any size. Bad input: FILE:LINE:COLUMN: MESSAGE on\n"
    "standard error, exit status 1, and no output file.";

struct MmaCmdOptions {
  std::string instruction;  // "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
  std::string target = "sm_80";
  std::string a_path, b_path, c_path;
  std::string out_path;  // empty or "-": standard output
  bool matmul = false;
};

// Returns 0, or 1 after printing `ptxfu mma: MESSAGE` to `err`.
int run_mma(const MmaCmdOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
