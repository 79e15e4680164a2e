// The hardware-table interface: write/read round trip of the model's own
// tables, installation through the executor, the built-in H100 outputs, and
// the loader's errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "approx/half_table.h"
#include "exec/execute.h"
#include "hw/table_writer.h"
#include "scratch_dir.h"

namespace ptxfu::test {
namespace {

using approx::HalfFn;
using approx::HalfTable;

std::string model_text(HalfFn fn) {
  std::ostringstream os;
  approx::write_table(os, fn, approx::model_table(fn), "ptxfu interpolation model");
  return os.str();
}

// Loads `text` and returns the error, failing the test if it loads.
approx::TableError load_error(const std::string& text) {
  std::istringstream is(text);
  try {
    approx::read_table(is, "t.tab");
  } catch (const approx::TableError& e) {
    return e;
  }
  ADD_FAILURE() << "table loaded although it should not";
  return approx::TableError("t.tab", -1, "none");
}

TEST(HalfTable, NamesRoundTrip) {
  for (size_t i = 0; i < approx::kHalfFnCount; ++i) {
    const auto fn = static_cast<HalfFn>(i);
    EXPECT_EQ(approx::half_fn_from_name(approx::half_fn_name(fn)), fn);
  }
  EXPECT_FALSE(approx::half_fn_from_name("ex2.approx.bf16").has_value());
}

TEST(HalfTable, ModelTableRoundTrips) {
  for (size_t i = 0; i < approx::kHalfFnCount; ++i) {
    const auto fn = static_cast<HalfFn>(i);
    const std::string text = model_text(fn);
    std::istringstream is(text);
    const approx::LoadedTable t = approx::read_table(is, "model");
    EXPECT_EQ(t.fn, fn);
    EXPECT_EQ(t.table, approx::model_table(fn));
    std::ostringstream again;
    approx::write_table(again, t.fn, t.table, "ptxfu interpolation model");
    EXPECT_EQ(again.str(), text);
  }
}

TEST(HalfTable, FileRoundTripAndOrderFree) {
  const testing_support::ScratchDir scratch;
  const std::string path = scratch / "ptxfu_tanh_bf16.tab";
  {
    // reversed order, upper-case digits, comments and CRLF line ends in between
    std::ofstream os(path);
    const HalfTable t = approx::model_table(HalfFn::tanh_bf16);
    os << "# written by a test\r\n\r\nfunction tanh.approx.bf16\r\n";
    for (int i = 65535; i >= 0; --i) {
      char line[32];
      std::snprintf(line, sizeof line, "0x%04X\t0x%04X\r\n", i, t[static_cast<size_t>(i)]);
      os << line;
      if (i == 40000) os << "# halfway\n";
    }
  }
  const approx::LoadedTable t = approx::read_table_file(path);
  EXPECT_EQ(t.fn, HalfFn::tanh_bf16);
  EXPECT_EQ(t.table, approx::model_table(HalfFn::tanh_bf16));
  std::remove(path.c_str());
}

TEST(HalfTable, InstalledTableDrivesTheExecutor) {
  HalfTable t{};
  for (size_t i = 0; i < t.size(); ++i) t[i] = static_cast<uint16_t>(i ^ 0x5a5a);
  approx::install_hardware_table(HalfFn::ex2_f16, t);
  EXPECT_TRUE(approx::has_hardware_table(HalfFn::ex2_f16));
  EXPECT_FALSE(approx::has_hardware_table(HalfFn::tanh_f16));

  isa::Instr in;
  in.op = isa::Op::ex2;
  in.type = in.type2 = isa::Type::f16x2;
  in.mods = isa::bit(isa::Mod::approx);
  in.num_src = 1;
  const uint64_t src = 0x12343c00;
  exec::Result r;
  ASSERT_TRUE(exec::execute_approx(in, &src, r));
  EXPECT_EQ(r.value, ((0x1234u ^ 0x5a5au) << 16) | (0x3c00u ^ 0x5a5au));
  // the model is untouched
  EXPECT_EQ(approx::model_half(HalfFn::ex2_f16, 0x0000), 0x3c00);

  approx::clear_hardware_table(HalfFn::ex2_f16);
  EXPECT_FALSE(approx::has_hardware_table(HalfFn::ex2_f16));
  ASSERT_TRUE(exec::execute_approx(in, &src, r));
  EXPECT_EQ(r.value, (uint64_t{approx::builtin_half(HalfFn::ex2_f16, 0x1234)} << 16) |
                         approx::builtin_half(HalfFn::ex2_f16, 0x3c00));
}

// The built-in outputs are the measured files, row for row: each unpacked
// H100 table read through the reader (which places rows by their input, not
// their order) equals kBuiltinHalf; and against the interpolation model they
// differ on the counts docs/semantics.md states, by 1 ulp at most.
TEST(HalfTable, BuiltinIsTheData) {
  const int differing[approx::kHalfFnCount] = {14736, 19417, 2086, 3496};
  for (size_t i = 0; i < approx::kHalfFnCount; ++i) {
    const auto fn = static_cast<HalfFn>(i);
    const std::string path = std::string(PTXFU_H100_HALF_TABLES) + "/" + std::string(approx::half_fn_name(fn)) + ".tab";
    const approx::LoadedTable t = approx::read_table_file(path);
    ASSERT_EQ(t.fn, fn) << path;
    int differ = 0;
    for (uint32_t x = 0; x < 65536; ++x) {
      ASSERT_EQ(approx::builtin_half(fn, static_cast<uint16_t>(x)), t.table[x]) << path << " input " << x;
      const uint16_t m = approx::model_half(fn, static_cast<uint16_t>(x));
      if (m == t.table[x]) continue;
      ++differ;
      const int ulps = std::abs((m & 0x7fff) - (t.table[x] & 0x7fff));
      EXPECT_TRUE((m & 0x8000) == (t.table[x] & 0x8000) && ulps == 1) << std::hex << x << " " << m << " " << t.table[x];
    }
    EXPECT_EQ(differ, differing[i]) << approx::half_fn_name(fn);
  }
}

TEST(HalfTable, InstallFromDirectory) {
  const testing_support::ScratchDir scratch;
  const std::string& dir = scratch.path();
  const std::string good = dir + "/tanh.approx.f16.tab";
  const std::string wrong = dir + "/ex2.approx.f16.tab";
  HalfTable t{};
  t.fill(0x3c00);
  {
    std::ofstream os(good);
    approx::write_table(os, HalfFn::tanh_f16, t, "test");
  }
  EXPECT_EQ(approx::install_hardware_tables_from_dir(dir), 1);
  EXPECT_EQ(approx::eval_half(HalfFn::tanh_f16, 0x1234), 0x3c00);
  approx::clear_hardware_table(HalfFn::tanh_f16);
  {
    // a file whose header does not match its name is refused, and nothing
    // (not even the good file) is installed
    std::ofstream os(wrong);
    approx::write_table(os, HalfFn::tanh_bf16, t, "test");
  }
  try {
    approx::install_hardware_tables_from_dir(dir);
    ADD_FAILURE() << "mismatched file accepted";
  } catch (const approx::TableError& e) {
    EXPECT_NE(std::string(e.what()).find("holds tanh.approx.bf16, not ex2.approx.f16"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(approx::has_hardware_table(HalfFn::tanh_f16));
  EXPECT_FALSE(approx::has_hardware_table(HalfFn::ex2_f16));
  std::remove(good.c_str());
  std::remove(wrong.c_str());
}

// The writer that tb/hw/mufu_dump.cu uses produces files the loader accepts.
TEST(HalfTable, GpuDumpWriterRoundTrips) {
  const testing_support::ScratchDir scratch;
  const std::string path = scratch / "ex2.approx.f16.tab";
  const HalfTable model = approx::model_table(HalfFn::ex2_f16);
  ASSERT_TRUE(hw::write_half_table_file(path, "ex2.approx.f16", "unit test", model.data()));
  std::ifstream partial(path + ".partial");
  EXPECT_FALSE(partial.good());  // renamed when complete
  const approx::LoadedTable t = approx::read_table_file(path);
  EXPECT_EQ(t.fn, HalfFn::ex2_f16);
  EXPECT_EQ(t.table, model);
  std::remove(path.c_str());
}

TEST(HalfTableErrors, MissingFile) {
  try {
    approx::read_table_file("/nonexistent/dir/x.tab");
    FAIL();
  } catch (const approx::TableError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_STREQ(e.what(), "/nonexistent/dir/x.tab: cannot open file");
  }
}

TEST(HalfTableErrors, EmptyOrCommentOnly) {
  const auto e = load_error("# nothing\n\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(std::string(e.what()).find("no 'function <name>' header"), std::string::npos);
}

TEST(HalfTableErrors, DataBeforeHeader) {
  const auto e = load_error("# c\n0x0000 0x0000\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(std::string(e.what()).find("expected the header"), std::string::npos);
}

TEST(HalfTableErrors, UnknownFunction) {
  const auto e = load_error("function sin.approx.f16\n");
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(std::string(e.what()).rfind("t.tab:1: unknown function 'sin.approx.f16'", 0), 0u) << e.what();
}

TEST(HalfTableErrors, MalformedLines) {
  for (const char* bad : {"0x0000", "0x0000 0x0000 0x0000", "0x000 0x0000", "0x0000 0x00000", "0x00g0 0x0000",
                          "0000 0x0000", "0x0000,0x0000", "x0000 0x0000"}) {
    const auto e = load_error(std::string("function tanh.approx.f16\n0x0001 0x0001\n") + bad + "\n");
    EXPECT_EQ(e.line(), 3) << bad;
    EXPECT_NE(std::string(e.what()).find("expected '0xIIII 0xOOOO'"), std::string::npos) << bad;
  }
}

TEST(HalfTableErrors, DuplicateInput) {
  const auto e = load_error("function ex2.approx.f16\n0x0001 0x0001\n#\n0x0001 0x0002\n");
  EXPECT_EQ(e.line(), 4);
  EXPECT_NE(std::string(e.what()).find("duplicate input 0x0001 (first given on line 2)"), std::string::npos)
      << e.what();
}

TEST(HalfTableErrors, MissingInputs) {
  std::string text = model_text(HalfFn::ex2_ftz_bf16);
  // drop the line of input 0x1234
  const size_t at = text.find("\n0x1234 ");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, text.find('\n', at + 1) - at);
  const auto e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("65535 of 65536 inputs; first missing input 0x1234"), std::string::npos)
      << e.what();
}

}  // namespace
}  // namespace ptxfu::test
