// Every line of every GPU-measured set (Khattak & Mikaitis' model_validation
// data, tb/data/tensor-core-vectors.tar.xz) through the engine: the result
// must equal the hardware's bit for bit, every line of every set.
#include <gtest/gtest.h>

#include <string>

#include "mma/numerics.h"
#include "tensor_vectors.h"

namespace ptxfu::mma::test {
namespace {

void check_set(const std::string& name) {
  const SetSpec* spec = nullptr;
  for (const SetSpec& s : all_sets()) {
    if (set_name(s) == name) spec = &s;
  }
  ASSERT_NE(spec, nullptr) << name;
  const NumericsRow* row = find_row(spec->sm, spec->family, spec->in, spec->out);
  ASSERT_NE(row, nullptr) << "no numerics row for " << name;
  const VectorSet set = load_set(PTXFU_TC_VECTORS_DIR, *spec);
  std::size_t agree = 0;
  std::string first;
  int shown = 0;
  for (std::size_t i = 0; i < set.d.size(); ++i) {
    const uint32_t got = replay(*row, set, i);
    if (got == set.d[i]) {
      ++agree;
    } else if (shown++ < 3) {
      first += describe(set, i, got) + "\n";
    }
  }
  EXPECT_EQ(agree, set.d.size()) << name << ": " << agree << "/" << set.d.size()
                                 << " lines reproduced; first mismatches:\n"
                                 << first;
  ::testing::Test::RecordProperty("agreement", std::to_string(agree) + "/" + std::to_string(set.d.size()));
  std::printf("%s: %zu/%zu lines reproduced\n", name.c_str(), agree, set.d.size());
}

#define PTXFU_VECTOR_SET(name) \
  TEST(TensorVectors, name) { check_set(#name); }

PTXFU_VECTOR_SET(V100_fp16_fp32)
PTXFU_VECTOR_SET(V100_fp16_fp16)
PTXFU_VECTOR_SET(A100_fp16_fp32)
PTXFU_VECTOR_SET(A100_fp16_fp16)
PTXFU_VECTOR_SET(A100_bf16_fp32)
PTXFU_VECTOR_SET(A100_tf32_fp32)
PTXFU_VECTOR_SET(Ada_fp16_fp32)
PTXFU_VECTOR_SET(Ada_fp16_fp16)
PTXFU_VECTOR_SET(Ada_bf16_fp32)
PTXFU_VECTOR_SET(Ada_tf32_fp32)
PTXFU_VECTOR_SET(Ada_E4M3_fp32)
PTXFU_VECTOR_SET(Ada_E4M3_fp16)
PTXFU_VECTOR_SET(Ada_E5M2_fp32)
PTXFU_VECTOR_SET(Ada_E5M2_fp16)
PTXFU_VECTOR_SET(H100_fp16_fp32)
PTXFU_VECTOR_SET(H100_fp16_fp16)
PTXFU_VECTOR_SET(H100_bf16_fp32)
PTXFU_VECTOR_SET(H100_tf32_fp32)
PTXFU_VECTOR_SET(H100_E4M3_fp32)
PTXFU_VECTOR_SET(H100_E4M3_fp16)
PTXFU_VECTOR_SET(H100_E5M2_fp32)
PTXFU_VECTOR_SET(H100_E5M2_fp16)
PTXFU_VECTOR_SET(B200_fp16_fp32)
PTXFU_VECTOR_SET(B200_fp16_fp16)
PTXFU_VECTOR_SET(B200_bf16_fp32)
PTXFU_VECTOR_SET(B200_tf32_fp32)
PTXFU_VECTOR_SET(B200_E4M3_fp32)
PTXFU_VECTOR_SET(B200_E4M3_fp16)
PTXFU_VECTOR_SET(B200_E5M2_fp32)
PTXFU_VECTOR_SET(B200_E5M2_fp16)

// Every set of the archive has its test above.
TEST(TensorVectors, EverySetIsTested) { EXPECT_EQ(all_sets().size(), 30u); }

}  // namespace
}  // namespace ptxfu::mma::test
