// The GPU-measured tensor-core vectors (tb/data/tensor-core-vectors.tar.xz,
// from Khattak & Mikaitis, see its README and LICENCE): loading a set and
// replaying one line through the engine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mma/numerics.h"

namespace ptxfu::mma::test {

// One set: a GPU, an input format (the folder), an output format.
struct SetSpec {
  const char* gpu;     // folder and file infix: "H100"
  int sm;              // its target
  const char* folder;  // "fp16", "bf16", "tf32", "E4M3", "E5M2"
  Elem in, out;
  Family family;  // the instruction that produced the set
  // The GPU computed with c = 0: H100 fp8 -> fp32 (wgmma). The H100 fp8 ->
  // fp16 lines come from mma.sync with c (rounded to f16), as the upstream
  // CUDA source (model_validation/CUDA/mma_fp8_output_fp16.cu) shows.
  bool c_zero;
};

// The 30 sets of the archive.
const std::vector<SetSpec>& all_sets();
std::string set_name(const SetSpec& s);  // "H100_bf16_fp32"

struct VectorSet {
  SetSpec spec;
  int k = 0;                   // products a line
  std::vector<uint32_t> a, b;  // k values a line, binary32 bits
  std::vector<uint32_t> c, d;  // one a line, binary32 bits
};

// Reads the set below `root` (the extracted tensor-core-vectors folder);
// throws std::runtime_error naming the file when one is missing or malformed.
VectorSet load_set(const std::string& root, const SetSpec& spec);

// The inputs of line `i` as the engine takes them (bit patterns in the
// row's formats: c rounded to f16 for f16 output, as the GPU did).
struct Line {
  std::vector<uint64_t> a, b;
  uint64_t c;
};
Line engine_inputs(const VectorSet& set, std::size_t i);
// The engine's result for line `i` under `row`, widened to binary32 bits as
// the d files hold it.
uint32_t replay(const NumericsRow& row, const VectorSet& set, std::size_t i);
// The line in a replayable form: a, b, c (binary32 hex), d expected and got.
std::string describe(const VectorSet& set, std::size_t i, uint32_t got);

}  // namespace ptxfu::mma::test
