// Every error path of the kernel executor: faults while running (out of
// bounds, misaligned, unmapped, read-only, diverged warp operation, step
// limit) name the PTX line, the block, warp, lane and thread, and the
// address, as compute-sanitizer does; bad modules, entries and arguments are
// refused before anything runs.
#include <set>
#include <string>

#include "isa/opcodes.h"
#include "kernel/lower.h"
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
TEST(KernelErrors, EveryKindHasALoweringRow) {
  std::set<std::string_view> opcodes;
  std::set<Kind> lowered;
  for (const loading::Lowerer::Row& r : loading::Lowerer::rows()) {
    EXPECT_TRUE(opcodes.insert(r.opcode).second) << r.opcode << " has two rows";
    EXPECT_TRUE(isa::is_other_instruction(r.opcode)) << r.opcode;
    EXPECT_LE(r.min_operands, r.max_operands) << r.opcode;
    lowered.insert(r.kind);
  }
  for (const KindRow& k : kKinds)
    // arith: the instruction table's; func_end: the loader's; wmma_load/store: the wmma row's, by its second word;
    // cluster_bar: the barrier row's (barrier.cluster)
    EXPECT_EQ(lowered.count(k.kind), k.kind == Kind::arith || k.kind == Kind::func_end || k.kind == Kind::wmma_load ||
                                             k.kind == Kind::wmma_store || k.kind == Kind::cluster_bar
                                         ? 0u
                                         : 1u)
        << k.name;
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
