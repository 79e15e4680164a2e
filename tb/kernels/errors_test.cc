// Every error path of the kernel executor: faults while running (out of
// bounds, misaligned, unmapped, read-only, diverged warp operation, step
// limit) name the PTX line, the block, warp, lane and thread, and the
// address, as compute-sanitizer does; bad modules, entries and arguments are
// refused before anything runs.
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "isa/opcodes.h"
#include "kernel/lower.h"
#include "kernel/printf.h"
#include "kernel_test_util.h"

namespace ptxfu::kernel::testing {
namespace {

// The 1-based line of the first line of `file` holding `text`.
unsigned line_of(const std::string& file, const std::string& text) {
  const std::string src = read_file(std::string(PTXFU_KERNELS_DIR) + "/" + file);
  size_t at = src.find(text);
  EXPECT_NE(at, std::string::npos) << text;
  unsigned line = 1;
  for (size_t i = 0; i < at; ++i) line += src[i] == '\n';
  return line;
}

std::string path_of(const std::string& file) { return std::string(PTXFU_KERNELS_DIR) + "/" + file; }

RunResult run_fault(const std::string& entry, Launch l, RunOptions options = {}) {
  const Kernel k = load_handwritten("errors.ptx", entry);
  RunResult r = run_functional(k, l, options);
  EXPECT_FALSE(r.ok) << entry << " ran without a fault";
  return r;
}

TEST(KernelErrors, OutOfBoundsReadNamesLineThreadAndBuffer) {
  Launch l;
  l.grid = {2};
  l.block = {64};
  l.args = {Arg::zeros(100 * 4), Arg::zeros(128 * 4), Arg::u32(128)};  // 100 elements, 128 threads
  const RunResult r = run_fault("copy", l);
  const unsigned line = line_of("errors.ptx", "ld.global.u32 \t%r5, [%rd4];");
  EXPECT_TRUE(Contains(r.error, path_of("errors.ptx") + ":" + std::to_string(line) +
                                    ":2: error: Invalid __global__ read "
                                    "of size 4 bytes at 0x"));
  // thread 100 is block 1, thread 36: warp 1, lane 4
  EXPECT_TRUE(Contains(r.error, "by thread (36,0,0) in block (1,0,0), warp 1, lane 4 ('ld.global.u32')"));
  EXPECT_TRUE(Contains(r.error,
                       "out of bounds: the access ends 4 bytes after the end of the buffer of parameter 0 "
                       "(400 bytes at 0x"));
}

TEST(KernelErrors, Misaligned) {
  Launch l;
  l.args = {Arg::zeros(64)};
  const RunResult r = run_fault("misaligned", l);
  EXPECT_TRUE(Contains(r.error, ":" + std::to_string(line_of("errors.ptx", "[%rd1+2]")) +
                                    ":2: error: Invalid __global__ read of size 4"));
  EXPECT_TRUE(Contains(r.error, "misaligned: it must be a multiple of 4"));
  EXPECT_TRUE(Contains(r.error, "thread (0,0,0) in block (0,0,0), warp 0, lane 0"));
}

TEST(KernelErrors, SharedOutOfBoundsOnOneLane) {
  Launch l;
  l.block = {64};
  const RunResult r = run_fault("shared_oob", l);
  EXPECT_TRUE(Contains(r.error,
                       "Invalid __shared__ write of size 4 bytes at 0x40 by thread (5,0,0) in block (0,0,0), "
                       "warp 0, lane 5"));
  EXPECT_TRUE(Contains(r.error, "the CTA has 16 bytes of shared memory"));
}

TEST(KernelErrors, UnmappedAndReadOnlyMemory) {
  Launch l;
  EXPECT_TRUE(Contains(run_fault("null_read", l).error, "Invalid generic read of size 4 bytes at 0x0"));
  EXPECT_TRUE(Contains(run_fault("null_read", l).error, "not in any allocation"));
  EXPECT_TRUE(Contains(run_fault("const_write", l).error, "Invalid generic write of size 4 bytes"));
  EXPECT_TRUE(Contains(run_fault("const_write", l).error, "constant memory is read-only"));
}

TEST(KernelErrors, WarpOperationOnDivergedLanes) {
  Launch l;
  l.block = {32};
  const RunResult r = run_fault("diverged_shuffle", l);
  EXPECT_TRUE(Contains(r.error, ":" + std::to_string(line_of("errors.ptx", "shfl.sync.bfly")) + ":2: error:"));
  EXPECT_TRUE(
      Contains(r.error, "member mask 0xffffffff but lanes 0x55555555 execute it (lanes 0xaaaaaaaa have diverged"));
}

TEST(KernelErrors, StepLimit) {
  Launch l;
  l.block = {64};
  RunOptions o;
  o.max_steps = 1000;
  const RunResult r = run_fault("spin", l, o);
  EXPECT_TRUE(Contains(r.error, "step limit of 1000 warp-instructions reached"));
  EXPECT_TRUE(Contains(r.error, ":" + std::to_string(line_of("errors.ptx", "bra.uni \tLOOP")) + ":2:"));
  EXPECT_EQ(r.warp_instructions, 1000u);
}

TEST(KernelErrors, ArgumentCountAndTypes) {
  const Kernel k = load_handwritten("errors.ptx", "copy");
  Launch l;
  l.args = {Arg::zeros(16), Arg::zeros(16)};
  RunResult r = run_functional(k, l);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "'copy' takes 3 parameters (.u64 in_param, .u64 out_param, .u32 n_param); 2 arguments "
                       "given"));
  l.args = {Arg::zeros(16), Arg::zeros(16), Arg::zeros(16)};
  EXPECT_TRUE(
      Contains(run_functional(k, l).error,
               "argument 2 for parameter 2 ('.u32 n_param', 4 bytes): a buffer's address needs a 64-bit integer "
               "parameter"));
  l.args = {Arg::zeros(16), Arg::zeros(16), Arg::u64(3)};
  EXPECT_TRUE(Contains(run_functional(k, l).error, "the argument is a 8-byte scalar"));
  l.args = {Arg::u32(1), Arg::zeros(16), Arg::u32(3)};
  EXPECT_TRUE(Contains(run_functional(k, l).error, "argument 0 for parameter 0 ('.u64 in_param', 8 bytes)"));

  const Kernel s = load_handwritten("errors.ptx", "scale");
  l.args = {Arg::u32(1), Arg::zeros(4)};
  EXPECT_TRUE(Contains(run_functional(s, l).error, "an integer does not fit a floating-point parameter"));
  l.args = {Arg::f32(1.25f), Arg::zeros(4)};
  const RunResult ok = run_ok(s, l);
  EXPECT_EQ(values_of<float>(ok.memory, 1)[0], 2.5f);
  l.args = {Arg::f32_bits(0x3f000000), Arg::zeros(4)};
  EXPECT_EQ(values_of<float>(run_ok(s, l).memory, 1)[0], 1.0f);
}

TEST(KernelErrors, UnsupportedInstructionIsRefusedAtLoad) {
  try {
    load_handwritten("unsupported.ptx", "unsupported");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    const unsigned line = line_of("unsupported.ptx", "\tbrkpt;");
    EXPECT_TRUE(Contains(e.what(), path_of("unsupported.ptx") + ":" + std::to_string(line) +
                                       ":2: error: 'brkpt' is not supported by the kernel executor"));
  }
}

// The lowering table covers every kind an instruction lowers to: each Kind
// but the table's arithmetic and the synthetic func_end is some opcode's
// row, each row an opcode of PTX's other instructions, once.
// tcgen05 passes `check` on sm_100a (ptxas's rows) but the kernel model does
// not run it: the load says so and where its legality and numerics are.
TEST(KernelErrors, Tcgen05IsRefusedAtLoadWithWhereItIsModelled) {
  const std::string body =
      "{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p1;\n"
      "  tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;\n  ret;\n}\n";
  try {
    load_kernel(".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k()\n" + body, "t.ptx");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(),
                         "t.ptx:9:3: error: 'tcgen05.mma.cta_group::1.kind::f16' is not supported by the "
                         "kernel executor: tcgen05"))
        << e.what();
    EXPECT_TRUE(Contains(e.what(), "`ptxfu check`")) << e.what();
  }
  try {  // on a target without it, ptxas's words from check
    load_kernel(".version 8.6\n.target sm_90a\n.address_size 64\n.visible .entry k()\n" + body, "t.ptx");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(), "t.ptx:9:3: error: Instruction 'tcgen05.mma' not supported on .target 'sm_90a'"))
        << e.what();
  }
}

TEST(KernelErrors, EveryKindHasALoweringRow) {
  std::set<std::string_view> opcodes;
  std::set<Kind> lowered;
  for (const loading::Lowerer::Row& r : loading::Lowerer::rows()) {
    EXPECT_TRUE(opcodes.insert(r.opcode).second) << r.opcode << " has two rows";
    EXPECT_TRUE(isa::is_other_instruction(r.opcode)) << r.opcode;
    EXPECT_LE(r.min_operands, r.max_operands) << r.opcode;
    lowered.insert(r.kind);
  }
  for (const KindRow& k : kKinds) {
    if (k.kind == Kind::bulk_copy) continue;  // cp's row's, by cp.async's third word (bulk)
    // arith: the instruction table's; func_end: the loader's; wmma_load/store: the wmma row's, by its second
    // word; wgmma_sync: the wgmma row's (fence, commit_group, wait_group); warp_sync: bar's (bar.warp.sync);
    // the cp.async groups: cp's, by cp.async's next word
    EXPECT_EQ(lowered.count(k.kind), k.kind == Kind::arith || k.kind == Kind::func_end || k.kind == Kind::wmma_load ||
                                             k.kind == Kind::wmma_store || k.kind == Kind::wgmma_sync ||
                                             k.kind == Kind::warp_sync || k.kind == Kind::async_commit ||
                                             k.kind == Kind::async_wait || k.kind == Kind::async_arrive ||
                                             k.kind == Kind::cluster_bar  // the barrier row's (barrier.cluster)
                                         ? 0u
                                         : 1u)
        << k.name;
  }
}

// Operand counts are the row's: outside them a statement is refused with
// ptxas's words, before its qualifiers are read.
TEST(KernelErrors, OperandCountsOfTheLoweringRows) {
  const std::string head = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n";
  const std::pair<std::string, std::string> cases[] = {
      // ptxas 13.0 names the opcode alone here ('membar'), as check now does
      {"  .reg .b32 %r<2>;\n  membar.gl %r1;\n", "k.ptx:7:3: error: Arguments mismatch for instruction 'membar'"},
      {"  .reg .b32 %r<2>;\n  bra;\n", "k.ptx:7:3: error: Arguments mismatch for instruction 'bra'"},
      {"  .reg .b32 %r<2>;\n  shfl.sync.bfly.b32 %r1, %r1, 1, 31;\n",
       "k.ptx:7:3: error: Arguments mismatch for instruction 'shfl.sync.bfly.b32'"},
  };
  for (const auto& [body, expect] : cases) {
    try {
      load_kernel(head + body + "  ret;\n}\n", "k.ptx");
      ADD_FAILURE() << body << " loaded";
    } catch (const KernelError& e) {
      EXPECT_TRUE(Contains(e.what(), expect)) << e.what();
    }
  }
}

TEST(KernelErrors, BadModuleAndUnknownEntry) {
  try {
    load_kernel(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  add.u32 %r1, %r2, 1;\n  ret;\n}\n",
        "bad.ptx");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(), "bad.ptx:6:11: error: Unknown symbol '%r1'"));
  }
  try {
    load_handwritten("errors.ptx", "nope");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(), "no .entry named 'nope' (the module has copy, misaligned, spin,"));
  }
  try {
    load_kernel(read_file(path_of("errors.ptx")), "errors.ptx");
    FAIL() << "loaded";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(), "8 .entry functions; name one"));
  }
}

TEST(KernelErrors, LaunchShape) {
  const Kernel k = load_handwritten("errors.ptx", "spin");
  Launch l;
  l.block = {2048};
  EXPECT_TRUE(Contains(run_functional(k, l).error, "a block has 1 to 1024 threads"));
}

TEST(KernelErrors, ClusterShapesAndMapaOutOfRange) {
  const Kernel k = load_handwritten("cluster.ptx", "mapa_out_of_range");
  Launch l;
  l.grid = {4};
  l.block = {32};
  l.cluster = {2};
  const RunResult r = run_functional(k, l);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "cluster.ptx:"));
  EXPECT_TRUE(Contains(r.error, "mapa to CTA rank 2 by thread (0,0,0) in block (0,0,0): the cluster has 2 CTAs"));
  for (const auto& [cluster, why] :
       {std::pair{Dim3{3, 1, 1}, "the grid is not a whole number of clusters"}, {Dim3{2, 0, 1}, "at least one CTA"}}) {
    l.cluster = cluster;
    const RunResult bad = run_functional(k, l);
    EXPECT_FALSE(bad.ok);
    EXPECT_TRUE(Contains(bad.error, why));
  }
  l.grid = {32};
  l.cluster = {32};
  EXPECT_TRUE(Contains(run_functional(k, l).error, "a cluster holds at most 16 CTAs"));
}

TEST(KernelErrors, ClustersBelowSm90AreRefusedAtLoad) {
  const std::string body = "{\n  .reg .b32 %r1;\n  mov.u32 %r1, 0;\n  ret;\n}\n";
  try {
    load_kernel(".version 8.0\n.target sm_80\n.address_size 64\n.entry k() .reqnctapercluster 2, 1, 1\n" + body,
                "k.ptx");
    ADD_FAILURE() << "loaded";
  } catch (const KernelError& e) {
    // ptxas may refuse it first, with its own words; either way it is refused at load
    EXPECT_TRUE(Contains(e.what(), "k.ptx")) << e.what();
  }
  const std::string text = read_file(path_of("cluster.ptx"));
  EXPECT_THROW(load_kernel(text, "cluster.ptx", {"exchange", "sm_80"}), KernelError);
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- printf: the formatter against the C library's snprintf, and its errors

// An argument buffer as CUDA packs one: each value at the next multiple of its size.
struct ArgBuffer {
  std::vector<uint8_t> bytes;
  template <typename T>
  ArgBuffer& add(T v) {
    bytes.resize((bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
    const size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &v, sizeof(T));
    return *this;
  }
  template <typename... T>
  ArgBuffer& add_all(T... v) {
    (add(v), ...);
    return *this;
  }
};

constexpr uint64_t kArgs = 0x1000, kText = 0x8000;  // where the fake device memory holds them

std::string format_with(const std::string& format, const ArgBuffer& args, const std::string& text = "") {
  const DeviceRead read = [&](uint64_t a, unsigned n) -> uint64_t {
    uint64_t v = 0;
    if (a >= kArgs && a + n <= kArgs + args.bytes.size())
      std::memcpy(&v, args.bytes.data() + (a - kArgs), n);
    else if (a >= kText && a + n <= kText + text.size() + 1)
      std::memcpy(&v, text.c_str() + (a - kText), n);
    else
      throw std::out_of_range("unmapped");
    return v;
  };
  return format_vprintf(format, kArgs, read);
}

template <typename... T>
std::string c_library(const char* format, T... v) {
  char out[1024];
  std::snprintf(out, sizeof out, format, v...);
  return out;
}

// The formatter's text for `format` with the arguments as CUDA packs them, against the C library's.
#define EXPECT_FORMATS_AS_C(format, ...) \
  EXPECT_EQ(format_with(format, ArgBuffer{}.add_all(__VA_ARGS__)), c_library(format, __VA_ARGS__)) << (format)

TEST(Printf, IntegersAsTheCLibrary) {
  for (int v : {0, 1, -1, 42, -2147483647 - 1, 2147483647}) {
    for (const char* f : {"%d", "%i", "%5d", "%-5d|", "%+d", "% d", "%05d", "%.3d", "%.0d", "%08.3d", "%-+8d|"})
      EXPECT_FORMATS_AS_C(f, v);
    for (const char* f : {"%u", "%x", "%X", "%o", "%#x", "%#X", "%#o", "%#.0o", "%.0x", "%#10x", "%-#10o|", "%010X"})
      EXPECT_FORMATS_AS_C(f, static_cast<unsigned>(v));
    EXPECT_FORMATS_AS_C("%c|%3c|%-3c|", 'a' + (v & 15), 'A' + (v & 7), static_cast<int>('z'));
  }
  for (long long v : {0LL, -1LL, 1234567890123LL, -9223372036854775807LL - 1}) {
    for (const char* f : {"%lld", "%ld", "%+20lld", "%-20ld|", "%.25lld"}) EXPECT_FORMATS_AS_C(f, v);
    for (const char* f : {"%llu", "%lu", "%llx", "%#lX", "%lo", "%zu", "%jx"})
      EXPECT_FORMATS_AS_C(f, static_cast<unsigned long long>(v));
  }
  // hh and h narrow a 4-byte int argument, as the C library does
  EXPECT_EQ(format_with("%hhd %hu %hhx", ArgBuffer{}.add(300).add(-1).add(0x1ff)),
            c_library("%hhd %hu %hhx", 300, -1, 0x1ff));
}

TEST(Printf, DoublesAsTheCLibrary) {
  const double values[] = {0.0,
                           -0.0,
                           1.0,
                           0.1,
                           2.5,
                           -2.5,
                           1.0 / 3,
                           123456.0,
                           1234567.0,
                           1e-5,
                           1e-4,
                           1e15,
                           1e16,
                           5e-324,
                           1.7976931348623157e308,
                           3.14159265358979,
                           100.0,
                           0.5,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  const char* formats[] = {"%f",     "%e",   "%g",    "%G",       "%E",        "%F",    "%.3f",   "%10.4e",
                           "%-12g|", "%+g",  "% g",   "%#g",      "%#.0f",     "%#.0e", "%08.3f", "%.0e",
                           "%.10g",  "%.0g", "%#.3g", "%+012.4e", "%-+10.1f|", "%lf"};
  for (double v : values)
    for (const char* f : formats) EXPECT_FORMATS_AS_C(f, v);
  EXPECT_EQ(format_with("%f %5.1F", ArgBuffer{}.add(std::nan("")).add(std::nan(""))), "nan   NAN");
}

TEST(Printf, StringsPointersStarsAndPercent) {
  ArgBuffer a;
  a.add(kText).add(uint64_t{0}).add(7).add(3).add(kText).add(kText).add(uint64_t{0x1234abcd}).add(uint64_t{0});
  // glibc's spellings of a null string and a null pointer
  EXPECT_EQ(format_with("[%s] [%s] [%*.*s] %% [%-8.2s] [%p] [%p]", a, "hello"),
            "[hello] [(null)] [    hel] % [he      ] [0x1234abcd] [(nil)]");
  EXPECT_EQ(format_with("%s|%.2s", ArgBuffer{}.add(kText).add(kText), "hello"), c_library("%s|%.2s", "hello", "hello"));
  // a negative '*' width means '-'
  EXPECT_EQ(format_with("[%*d]", ArgBuffer{}.add(-5).add(42)), c_library("[%*d]", -5, 42));
}

TEST(Printf, MalformedFormatsAreErrors) {
  struct Case {
    const char* format;
    const char* message;
  };
  for (const Case& c :
       {Case{"%q", "conversion '%q' at offset 0: unknown conversion 'q'"},
        Case{"ab%5", "conversion '%5' at offset 2: the format ends inside the conversion"},
        Case{"%n", "%n is not supported"}, Case{"%Lf", "unknown conversion 'L'"},
        Case{"%lc", "wide characters are not supported"}, Case{"%99999999d", "a width or precision above 65536"},
        Case{"%hf", "a length other than 'l' does not apply to a double"}}) {
    try {
      format_with(c.format, ArgBuffer{}.add(1.0).add(1.0));
      ADD_FAILURE() << c.format << " was taken";
    } catch (const PrintfError& e) {
      EXPECT_TRUE(Contains(e.what(), c.message)) << c.format;
    }
  }
  EXPECT_THROW(format_with("%s", ArgBuffer{}.add(uint64_t{0x99999})), std::out_of_range);  // the reader's error
  // a '*' width of INT_MIN (whose negation overflows) and a huge '*' precision
  EXPECT_THROW(format_with("%*d", ArgBuffer{}.add(int32_t{-2147483647 - 1}).add(1)), PrintfError);
  EXPECT_THROW(format_with("%.*f", ArgBuffer{}.add(int32_t{2147483647}).add(1.0)), PrintfError);
}

// A kernel whose printf call has a format and one 64-bit argument given
// per test: errors in the executor's words, with the call's line.
std::string vprintf_module(const std::string& format) {
  std::string bytes;
  for (char c : format) bytes += std::to_string(static_cast<unsigned char>(c)) + ", ";
  return ".version 8.0\n.target sm_80\n.address_size 64\n"
         ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 "
         "vprintf_param_1);\n"
         ".global .align 1 .b8 $str[" +
         std::to_string(format.size() + 1) + "] = {" + bytes +
         "0};\n"
         ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
         ".local .align 8 .b8 __local_depot0[8];\n.reg .b64 %rd<8>;\n.reg .b32 %r<2>;\n"
         "ld.param.u64 %rd1, [k_param_0];\nmov.u64 %rd2, __local_depot0;\ncvta.local.u64 %rd3, %rd2;\n"
         "st.local.u64 [%rd2], %rd1;\nmov.u64 %rd4, $str;\ncvta.global.u64 %rd5, %rd4;\n"
         "{\n.param .b64 param0;\nst.param.b64 [param0], %rd5;\n.param .b64 param1;\nst.param.b64 [param1], %rd3;\n"
         ".param .b32 retval0;\ncall.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r1, [retval0];\n}\n"
         "ld.param.u64 %rd6, [k_param_1];\nst.global.u32 [%rd6], %r1;\nret;\n}\n";
}

TEST(Printf, KernelFaultsNameTheCallAndThread) {
  Launch l;
  l.block = {2};
  l.args = {Arg::u64(0x4242), Arg::zeros(4)};
  const Kernel bad_format = load_kernel(vprintf_module("x=%y\n"), "printf.ptx");
  RunResult r = run_functional(bad_format, l);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "printf.ptx:23:1: error: printf format \"x=%y\\n\": conversion '%y' at offset 2"));
  EXPECT_TRUE(Contains(r.error, "by thread (0,0,0) in block (0,0,0)"));
  const Kernel bad_string = load_kernel(vprintf_module("%s\n"), "printf.ptx");
  r = run_functional(bad_string, l);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "Invalid generic read of size 1 bytes at 0x4242"));
  EXPECT_TRUE(Contains(r.error, "address is not in any allocation"));
  // A null %s prints (null); printf returns the number of arguments it read.
  l.args = {Arg::u64(0), Arg::zeros(4)};
  r = run_functional(bad_string, l);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(printf_output(r.memory), "(null)\n(null)\n");
  EXPECT_EQ(values_of<int32_t>(r.memory, 1)[0], 1);
}

}  // namespace
}  // namespace ptxfu::kernel::testing
