// A functional PTX kernel executor: GPGPU-Sim's functional half. A `Kernel`
// is an .entry of a checked module, loaded once (instructions with labels
// resolved, registers as frame slots, variables placed in their state
// spaces, the immediate post-dominator of every branch); a `Launch` names the
// grid, block and arguments; `Memory` holds the launch's global, constant and
// parameter bytes; a `Cta` holds its shared memory, barrier and warps; a
// `Warp` holds per-lane registers, a SIMT reconvergence stack and call
// frames. `step` runs one warp-instruction and reports what a timing model
// needs; `run_functional` runs a whole grid. Arithmetic goes through
// exec::execute; nothing here rounds a number.
#pragma once
#include <cstdint>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "isa/decode.h"
#include "isa/table.h"
#include "kernel/tensor.h"
#include "kernel/tensormap.h"
#include "kernel/texture.h"

namespace ptxfu::kernel {

// A bad module, entry or argument list (at load or launch), or a fault
// while running (out-of-bounds access, step limit). The message is complete:
// `FILE:LINE:COL: error: ...` where a source position exists.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Space : uint8_t { generic, global, shared, local, param, const_ };
std::string_view name(Space s);

// Generic address windows. Global and constant addresses are generic
// addresses (cvta is the identity on them); shared and local addresses are
// offsets from 0 in their space, at these bases in the generic space.
inline constexpr uint64_t kCodeBase = 0x0000'0000'0010'0000;   // function addresses (not readable)
inline constexpr uint64_t kConstBase = 0x0000'0000'1000'0000;  // module .const variables
inline constexpr uint64_t kSharedWindow = 0x0000'0001'0000'0000;
inline constexpr uint64_t kLocalWindow = 0x0000'0002'0000'0000;
inline constexpr uint64_t kWindowSize = 0x0000'0001'0000'0000;
// Kernel parameters in the generic space (cvta.param; a __grid_constant__
// parameter's address): read-only, at this base plus the parameter's offset.
inline constexpr uint64_t kParamWindow = 0x0000'0003'0000'0000;
inline constexpr uint64_t kGlobalBase = 0x0000'0010'0000'0000;  // module .global variables, then buffers
// A .shared::cluster address: (rank + 1) * kClusterRankStride + the offset in
// that CTA's shared memory. An offset below the stride is the CTA's own
// shared memory (a .shared::cta address is a .shared::cluster address of the
// executing CTA, as the PTX ISA says). In the generic space: kSharedWindow + it.
inline constexpr uint64_t kClusterRankStride = uint64_t{1} << 24;
inline constexpr uint64_t kObjectHandleBase = 0x7e70'0000'0000'0001;  // texture and surface object handles

// What an instruction does, as the executor and a timing model see it.
enum class Kind : uint8_t {
  arith,  // a form of the instruction table (exec::execute); `form.row->pipe` is its unit
  mov,    // mov (scalars, special registers, addresses, vector pack/unpack)
  cvta,   // cvta / cvta.to
  ld,
  st,
  atom,
  red,
  bra,
  call,
  ret,
  exit,
  bar,  // bar.sync / barrier.sync / bar.arrive
  shfl,
  vote,
  match,
  redux,
  activemask,
  fence,       // membar / fence: no functional effect
  nop,         // prefetch and friends: no functional effect
  func_end,    // synthetic: the end of a function, where its paths reconverge and it returns
  mma,         // mma.sync and wmma.mma.sync (kernel/tensor.h)
  ldmatrix,    // ldmatrix: rows from shared memory into fragments
  stmatrix,    // stmatrix: fragments into rows of shared memory
  movmatrix,   // movmatrix: a fragment transposed across the warp
  wmma_load,   // wmma.load: a matrix from memory into fragments
  wmma_store,  // wmma.store: fragments into a matrix in memory
  wgmma,       // wgmma.mma_async: a warpgroup's matrix product, A and B from shared memory (kernel/tensor.h)
  wgmma_sync,  // wgmma.fence, wgmma.commit_group, wgmma.wait_group

  warp_sync,     // bar.warp.sync: the member lanes meet (no functional effect past the mask check)
  elect,         // elect.sync: the lowest member lane is elected
  async_copy,    // cp.async: global to shared through the load/store unit, landing later (Cta::copies)
  async_commit,  // cp.async.commit_group: the thread's uncommitted copies become a group
  async_wait,    // cp.async.wait_group / wait_all: the warp waits until its older groups have landed
  async_arrive,  // cp.async.mbarrier.arrive: an arrive-on when the thread's copies have landed
  mbarrier,      // mbarrier.*: Inst::mbar names the operation (MBarrierOp)
  // mapa: a shared address in the same variable of another CTA of the cluster
  mapa,
  // barrier.cluster.arrive / .wait: every thread of every CTA of the cluster
  cluster_bar,
  tex,   // tex.{1d,2d}.v4: a texture object's sample (kernel/texture.h)
  suld,  // suld.b.{1d,2d}: a surface object's bytes
  sust,  // sust.b.{1d,2d}: bytes into a surface object
  // cp.async.bulk{.tensor}: a bulk copy through the TMA unit (Cta::bulk); its
  // commit_group and wait_group are async_commit and async_wait with Inst::bulk
  bulk_copy,
  kCount
};

// The unit class a timing model maps to a configured unit.
enum class Unit : uint8_t {
  pipe,    // an arithmetic pipe: Inst::pipe (the table's Pipe column; mov and cvta run on alu)
  memory,  // ld/st/atom/red/fence: Inst::space, Inst::access_bytes
  branch,  // bra/call/ret/exit/func_end
  warp,    // shfl/vote/match/redux/activemask/bar
  tensor,  // mma/movmatrix: the tensor core
};

// What the executor and a timing model know of each kind, one row per Kind
// in the enum's order: adding a kind is a row here (the static_assert below
// refuses a kind without one), the opcodes that lower to it (kernel/lower.cc:
// kLowerings; an opcode without a row is refused at load) and its case in
// exec.h's Exec::execute() (a switch without a default, whose missing case is
// a compile error).
struct KindRow {
  Kind kind;
  std::string_view name;
  Unit unit;
  bool control;      // holds its warp until it resolves (branches, calls, returns, exits, barriers)
  bool memory_path;  // its results come back from the memory path: a wait for them is a memory stall
  bool collective;   // its result or progress depends on other lanes or warps (barriers, warp-wide exchanges)
  // Its effects land after issue (async copies, their groups and arrivals,
  // mbarrier phases): a model settles them each cycle only for a kernel that has one.
  bool lands_later = false;
};
inline constexpr KindRow kKinds[] = {
    {Kind::arith, "arith", Unit::pipe, false, false, false},
    {Kind::mov, "mov", Unit::pipe, false, false, false},
    {Kind::cvta, "cvta", Unit::pipe, false, false, false},
    {Kind::ld, "ld", Unit::memory, false, true, false},
    {Kind::st, "st", Unit::memory, false, false, false},
    {Kind::atom, "atom", Unit::memory, false, true, false},
    {Kind::red, "red", Unit::memory, false, false, false},
    {Kind::bra, "bra", Unit::branch, true, false, false},
    {Kind::call, "call", Unit::branch, true, false, false},
    {Kind::ret, "ret", Unit::branch, true, false, false},
    {Kind::exit, "exit", Unit::branch, true, false, false},
    {Kind::bar, "bar", Unit::warp, true, false, true},
    {Kind::shfl, "shfl", Unit::warp, false, true, true},
    {Kind::vote, "vote", Unit::warp, false, false, true},
    {Kind::match, "match", Unit::warp, false, false, true},
    {Kind::redux, "redux", Unit::warp, false, false, true},
    {Kind::activemask, "activemask", Unit::warp, false, false, true},
    {Kind::fence, "fence", Unit::memory, false, false, false},
    {Kind::nop, "nop", Unit::branch, false, false, false},
    {Kind::func_end, "func_end", Unit::branch, true, false, false},
    {Kind::mma, "mma", Unit::tensor, false, false, true},
    {Kind::ldmatrix, "ldmatrix", Unit::memory, false, true, true},
    {Kind::stmatrix, "stmatrix", Unit::memory, false, false, true},
    {Kind::movmatrix, "movmatrix", Unit::tensor, false, false, true},
    {Kind::wmma_load, "wmma_load", Unit::memory, false, true, true},
    {Kind::wmma_store, "wmma_store", Unit::memory, false, false, true},
    {Kind::wgmma, "wgmma", Unit::tensor, false, false, true},
    {Kind::wgmma_sync, "wgmma_sync", Unit::warp, false, false, true},
    {Kind::warp_sync, "warp_sync", Unit::warp, false, false, true},
    {Kind::elect, "elect", Unit::warp, false, false, true},
    {Kind::async_copy, "async_copy", Unit::memory, false, false, false, true},
    {Kind::async_commit, "async_commit", Unit::memory, false, false, false, true},
    {Kind::async_wait, "async_wait", Unit::memory, false, false, true, true},
    {Kind::async_arrive, "async_arrive", Unit::memory, false, false, true, true},
    {Kind::mbarrier, "mbarrier", Unit::memory, false, true, true, true},
    {Kind::mapa, "mapa", Unit::pipe, false, false, false},
    {Kind::cluster_bar, "cluster_bar", Unit::warp, true, false, true},
    {Kind::tex, "tex", Unit::memory, false, true, false},
    {Kind::suld, "suld", Unit::memory, false, true, false},
    {Kind::sust, "sust", Unit::memory, false, false, false},
    {Kind::bulk_copy, "bulk_copy", Unit::memory, false, false, false, true},
};
static_assert(std::size(kKinds) == static_cast<size_t>(Kind::kCount), "every Kind has its row in kKinds");
constexpr bool kinds_in_order() {
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (static_cast<size_t>(kKinds[i].kind) != i) return false;
  return true;
}
static_assert(kinds_in_order(), "kKinds is in the enum's order");
inline const KindRow& row(Kind k) { return kKinds[static_cast<size_t>(k)]; }
inline bool lands_later(Kind k) { return row(k).lands_later; }
inline std::string_view name(Kind k) { return row(k).name; }

enum class SReg : uint8_t {
  tid,
  ntid,
  ctaid,
  nctaid,
  laneid,
  warpid,
  nwarpid,
  smid,
  nsmid,
  gridid,
  clock,
  clock_hi,
  clock64,
  lanemask_eq,
  lanemask_le,
  lanemask_lt,
  lanemask_ge,
  lanemask_gt,
  dynamic_smem_size,
  total_smem_size,
  reserved_smem_begin,  // the reserved region at the start of shared memory (kReservedSmemBytes)
  reserved_smem_end,
  reserved_smem_cap,
  reserved_smem_0,
  reserved_smem_1,
  globaltimer,  // nanoseconds: the cycle times Cta::globaltimer_ns_per_cycle
  globaltimer_lo,
  globaltimer_hi,
  clusterid,
  nclusterid,
  cluster_ctaid,
  cluster_nctaid,
  cluster_ctarank,
  cluster_nctarank,
  is_explicit_cluster,
};

// A kernel that reads %reserved_smem_* gets a region of shared memory
// reserved for the system at offset 0 (what the CUDA driver keeps per CTA
// on sm_80 and later: 1 KiB), its own variables after it; the two system
// words %reserved_smem_offset_0 and _1 name (cooperative groups keeps its
// multi-warp tile barriers at _1) are its first two 8-byte slots. Other
// kernels get no reserved region.
inline constexpr uint32_t kReservedSmemBytes = 1024;
inline constexpr uint32_t kReservedSmemSlot0 = 0, kReservedSmemSlot1 = 8;

struct Operand {
  enum class Kind : uint8_t { none, reg, imm, sreg, vector, sink };
  Kind kind = Kind::none;
  bool negated = false;      // !%p
  bool sign_extend = false;  // a destination of a signed type narrower than its register
  uint8_t bits = 0;          // the width the instruction reads or writes
  uint8_t reg_bits = 0;      // reg: the declared width (1 for .pred)
  SReg sreg = SReg::tid;
  uint8_t component = 0;  // %tid.x = 0, .y = 1, .z = 2
  uint32_t reg = 0;       // reg: slot in the function's frame; vector: first element in Kernel::elements
  uint32_t count = 0;     // vector: number of elements
  uint64_t value = 0;     // imm: the bits; also an address constant (symbol + offset)
};

// [base + offset]. Symbols are resolved at load: `offset` holds their
// address in the instruction's space (a kernel parameter: its offset in the
// parameter buffer; a .func parameter or call-sequence .param: its offset
// in the frame's per-lane parameter area).
struct Address {
  enum class Param : uint8_t { none, kernel, frame };
  bool has_reg = false;
  Param param = Param::none;
  uint32_t reg = 0;
  uint8_t reg_bits = 0;
  int64_t offset = 0;
};

enum class AtomOp : uint8_t { add, min, max, inc, dec, and_, or_, xor_, exch, cas };
enum class ShflMode : uint8_t { up, down, bfly, idx };
enum class VoteMode : uint8_t { all, any, uni, ballot };
// mbarrier.OP (the PTX ISA's "Parallel Synchronization and Communication
// Instructions: mbarrier").
enum class MBarrierOp : uint8_t {
  init,
  arrive,       // arrive{.noComplete}{.expect_tx}: Inst::mbar_no_complete, mbar_expect_tx
  arrive_drop,  // the same, and the expected count of later phases drops
  expect_tx,
  complete_tx,
  test_wait,  // Inst::mbar_parity: the source is a phase parity, not a state
  try_wait,
  pending_count,
  inval,
};

// A call the executor runs itself: a function of CUDA's runtime that a
// module declares without a body (.extern .func).
enum class Builtin : uint8_t { none, vprintf };

// wgmma.mma_async m64n256 with f32 accumulators: 128 fragment registers, read
// and written, and A's four, two descriptors and scale-d.
inline constexpr unsigned kMaxRegsPerInst = 136;
inline constexpr uint32_t kNoPc = 0xffffffff;

struct Inst {
  Kind kind = Kind::nop;
  unsigned line = 0, column = 0;
  std::string_view mnemonic;  // as written ("ld.global.nc.f32")
  int32_t guard = -1;         // predicate slot; -1 when unguarded
  bool guard_negated = false;
  bool uni = false;  // bra.uni / call.uni
  isa::Pipe pipe = isa::Pipe::alu;
  Space space = Space::generic;  // ld/st/atom/red/cvta
  uint8_t vec = 1;               // .v2 / .v4
  uint8_t access_bytes = 0;      // bytes per element of a memory access
  bool load_signed = false;      // ld.s8/.s16/.s32 sign-extend into wider registers
  isa::Instr form;               // arith; atom/red/redux: the combining operation (add.u32, min.s64, ...)
  AtomOp atom = AtomOp::add;
  ShflMode shfl = ShflMode::idx;
  VoteMode vote = VoteMode::all;
  bool match_all = false;
  bool bar_wait = true;  // bar.sync: true, bar.arrive: false
  MBarrierOp mbar = MBarrierOp::init;
  bool mbar_parity = false, mbar_no_complete = false, mbar_expect_tx = false;
  bool async_noinc = false;  // cp.async.mbarrier.arrive.noinc
  Address addr2;             // cp.async: the global source
  uint8_t num_dst = 0, num_src = 0;
  Operand dst[2];
  Operand src[5];
  Address addr;
  uint32_t target = kNoPc;               // bra: instruction index; direct call: function index
  uint32_t ipdom = kNoPc;                // bra/ret: where divergent paths reconverge
  uint32_t function = 0;                 // the function the instruction belongs to
  uint32_t first_arg = 0, num_args = 0;  // call: arguments, then return values, in Kernel::call_params
  uint32_t num_rets = 0;
  Builtin builtin = Builtin::none;  // call: the runtime function it calls (target is kNoPc)
  uint32_t tensor_op = 0;           // mma/ldmatrix/stmatrix/movmatrix/wgmma: its row in Kernel::tensor_ops
  // Registers read and written (frame slots), for a scoreboard: read when a
  // kernel loads, so kept out of line (a wgmma's 136 inline made every Inst
  // over a kilobyte, and a stream of them left the host's caches).
  uint8_t num_reads = 0, num_writes = 0;
  std::vector<uint32_t> reads, writes;
  // tex/suld/sust: 1 or 2 dimensions; tex: integer coordinates, an integer result;
  // suld/sust: out of range traps (0), clamps (1) or reads zero and drops the write (2).
  uint8_t tex_dims = 0;
  bool tex_int_coords = false, tex_int_result = false;
  uint8_t surface_oob = 0;
  // cp.async.bulk: `bulk` (also on its commit_group and wait_group); the
  // direction; 0 (a byte count in src[0]) or the tensor's rank (coordinates
  // in src[0..]); addr: the shared side, addr2: the global side (the tensor
  // map's address for .tensor), addr3: the mbarrier of a copy into shared.
  bool bulk = false, bulk_to_global = false;
  uint8_t bulk_dims = 0;
  Address addr3;

  Unit unit() const { return row(kind).unit; }
};

// Whether an instruction reads the constant bank: ld.param of a kernel
// parameter and ld.const. On the hardware these are operands of the
// instruction that uses them (c[bank][offset]) or a load from the constant
// cache, not load/store-unit traffic.
inline bool reads_constant_bank(const Inst& in) {
  return in.kind == Kind::ld &&
         (in.space == Space::const_ || (in.space == Space::param && in.addr.param == Address::Param::kernel));
}

// A parameter of a .func (or the .entry): where it lives and its size.
struct Param {
  std::string_view name;
  uint32_t offset = 0;
  uint32_t bytes = 0;
  std::string_view type;  // "u64", "b8", ...
  bool floating = false;
};

// A call argument or return value: a .param of the caller's frame.
struct CallParam {
  uint32_t offset = 0;
  uint32_t bytes = 0;
};

struct Function {
  std::string_view name;
  bool is_entry = false;
  uint32_t begin = 0, end = 0;         // instructions [begin, end]; `end` is the func_end marker
  uint32_t num_regs = 0;               // register slots of a frame
  std::vector<uint8_t> reg_bits;       // per slot (1 for .pred)
  std::vector<std::string> reg_names;  // per slot, as declared ("%r3" for the fourth of %r<8>)
  std::vector<Param> params;           // the entry's: offsets in the kernel parameter buffer
  std::vector<Param> returns;
  uint32_t param_bytes = 0;  // a .func's per-lane parameter area: params, returns, call-sequence .params
  uint64_t address = 0;      // what `mov.u64 %rd, name` gives (kCodeBase + 16 * index)
};

// A module .global variable with its initial bytes.
struct GlobalVariable {
  std::string_view name;
  uint64_t address = 0;
  std::vector<uint8_t> init;
};

struct LoadOptions {
  std::string_view entry;   // empty: the module's only .entry
  std::string_view target;  // empty: the module's .target
};

class Kernel {
 public:
  std::string file;                           // for messages
  std::shared_ptr<const std::string> source;  // the views below point into it
  isa::Capabilities caps;
  std::vector<Inst> insts;
  std::vector<Function> functions;  // [0] is the entry
  std::vector<Operand> elements;    // vector operands' elements
  std::vector<CallParam> call_params;
  std::vector<tensor::TensorOp> tensor_ops;
  std::vector<GlobalVariable> globals;
  // The module .const variables, at kConstBase + offset in `constant`, with their initial bytes.
  std::vector<GlobalVariable> constants;
  std::vector<uint8_t> constant;  // the .const bank at kConstBase

  uint32_t reserved_shared = 0;        // kReservedSmemBytes when the kernel reads %reserved_smem_*, else 0
  uint32_t static_shared = 0;          // bytes of static .shared variables (from reserved_shared on)
  uint32_t dynamic_shared_offset = 0;  // where .extern .shared arrays start
  uint32_t local_bytes = 0;            // per thread: every function's .local variables
  uint32_t param_bytes = 0;            // the kernel parameter buffer
  bool straight_line = false;          // loaded by load_straight_line: statements without an .entry
  // .reqnctapercluster (0: not given); .explicitcluster (or .reqnctapercluster)
  uint32_t cluster_dims[3] = {0, 0, 0};
  bool explicit_cluster = false;
  // Entry parameters read as texture or surface object handles (by tex, suld
  // or sust): the parameter's offset and the instruction that reads it.
  std::vector<std::pair<uint32_t, uint32_t>> object_params;

  const Function& entry() const { return functions[0]; }
  // "FILE:LINE:COL" of an instruction.
  std::string where(const Inst& in) const;
};

// Reads, checks (isa::check_module) and loads one .entry with the .funcs it
// reaches. Throws KernelError with every diagnostic of a bad module, or the
// line and instruction of what the executor does not cover.
Kernel load_kernel(std::string text, std::string file, const LoadOptions& options = {});

// Whether the parser finds functions (.entry or .func) in `text`: a module
// to load with load_kernel, not a straight-line program.
bool defines_functions(std::string_view text);

// A straight-line program (.reg declarations and statements, as `ptxfu sim`
// takes them) loaded as a kernel: the body of an .entry without parameters,
// checked for `caps` (its target and PTX version). Messages name `file` and
// the program's own lines.
inline constexpr std::string_view kStraightLineEntry = "straight_line_program";
Kernel load_straight_line(std::string text, std::string file, const isa::Capabilities& caps);

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

// One kernel argument: a scalar of 1, 2, 4 or 8 bytes, or a global buffer
// whose address the parameter receives.
struct Arg {
  enum class Kind : uint8_t { integer, floating, buffer, texture, tensor_map };
  Kind kind = Kind::integer;
  unsigned bytes = 0;                          // scalar width
  uint64_t value = 0;                          // scalar bits
  std::vector<uint8_t> data;                   // buffer contents
  uint64_t offset = 0;                         // buffer: the parameter receives its address plus this many bytes
  std::shared_ptr<const TextureDesc> texture;  // texture: the object (a texture and a surface alike)
  // tensor_map: the map over a buffer of its own (`data`; map_buffer -1) or
  // the buffer of argument `map_buffer`, its address `offset` bytes into it.
  // The parameter receives the map (a 128-byte .b8 array parameter: a
  // __grid_constant__ CUtensorMap) or the address of a global copy of it (a
  // 64-bit parameter).
  TensorMap map;
  int map_buffer = -1;

  static Arg u32(uint32_t v) { return {Kind::integer, 4, v, {}, 0, {}, {}, -1}; }
  static Arg s32(int32_t v) { return {Kind::integer, 4, static_cast<uint32_t>(v), {}, 0, {}, {}, -1}; }
  static Arg u64(uint64_t v) { return {Kind::integer, 8, v, {}, 0, {}, {}, -1}; }
  static Arg s64(int64_t v) { return {Kind::integer, 8, static_cast<uint64_t>(v), {}, 0, {}, {}, -1}; }
  static Arg u16(uint16_t v) { return {Kind::integer, 2, v, {}, 0, {}, {}, -1}; }
  static Arg f32(float v);
  static Arg f64(double v);
  static Arg f32_bits(uint32_t bits) { return {Kind::floating, 4, bits, {}, 0, {}, {}, -1}; }
  static Arg buffer(std::vector<uint8_t> bytes) { return {Kind::buffer, 8, 0, std::move(bytes), 0, {}, {}, -1}; }
  static Arg zeros(size_t bytes) { return buffer(std::vector<uint8_t>(bytes)); }
  // A texture or surface object: the parameter receives its handle.
  static Arg texture_object(TextureDesc t) {
    return {Kind::texture, 8, 0, {}, 0, std::make_shared<const TextureDesc>(std::move(t)), {}, -1};
  }
  static Arg tensor_map(const TensorMap& m, std::vector<uint8_t> bytes) {
    return {Kind::tensor_map, 0, 0, std::move(bytes), 0, {}, m, -1};
  }
  static Arg tensor_map(const TensorMap& m, int buffer_arg) {
    return {Kind::tensor_map, 0, 0, {}, 0, {}, m, buffer_arg};
  }
};

// The bytes a module .const or .global variable holds at the launch, in
// place of its initialiser (CUDA's cudaMemcpyToSymbol before the launch).
struct VariableFill {
  std::string name;
  std::vector<uint8_t> bytes;  // exactly the variable's size
};

struct Launch {
  Dim3 grid, block;
  std::vector<Arg> args;
  uint32_t shared_bytes = 0;  // dynamic (.extern .shared) bytes per CTA
  std::vector<VariableFill> variables;
  Dim3 cluster{0, 0, 0};  // CTAs per cluster (--cluster); x = 0: the kernel's .reqnctapercluster, or none
};

// The text one thread's printf call (vprintf) made.
struct PrintfRecord {
  uint64_t cta = 0;  // linear: x + y * grid.x + z * grid.x * grid.y
  uint32_t warp = 0, lane = 0;
  std::string text;
};

inline constexpr uint64_t kMaxClusterCtas = 16;  // the H100's non-portable maximum (8 portable)

// The cluster shape of a launch: the launch's, else the kernel's
// .reqnctapercluster, else 1x1x1. Throws KernelError for a shape that does
// not divide the grid, holds over kMaxClusterCtas CTAs, disagrees with the
// kernel's directive, or (over one CTA) a target below sm_90.
Dim3 cluster_shape(const Kernel& k, const Launch& launch);
// The i-th CTA of the grid in launch order: cluster by cluster (x fastest),
// the CTAs of a cluster in rank order (x fastest).
Dim3 cta_in_launch_order(const Dim3& grid, const Dim3& cluster, uint64_t i);

// A global allocation: a kernel argument's buffer or a module .global variable.
struct Buffer {
  uint64_t base = 0;
  std::vector<uint8_t> bytes;
  int arg = -1;      // the parameter index; -1 for a module variable
  std::string name;  // the parameter's or variable's name
};

// The memory of one launch that outlives CTAs: global buffers, the constant
// bank and the kernel parameter buffer.
class Memory {
 public:
  std::vector<Buffer> buffers;  // by increasing base
  std::vector<uint8_t> constant;
  std::vector<uint8_t> params;
  std::vector<PrintfRecord> printf;   // in the order the calls ran
  size_t printf_bytes = 0;            // their text, in all
  std::vector<TextureDesc> textures;  // texture and surface objects, by handle - kObjectHandleBase
  std::vector<int> texture_args;      // the parameter of each

  // The buffer of parameter `arg`, or nullptr.
  const Buffer* arg_buffer(unsigned arg) const;
  // The buffer holding [addr, addr + n), or nullptr. `nearest` gets the
  // buffer whose end or start is closest below addr (for messages).
  Buffer* find(uint64_t addr, uint64_t n, const Buffer** nearest = nullptr);
};

// Every thread's printf text, by block, then warp, then lane, then call
// order: the same whatever order the warps ran in.
std::string printf_output(const Memory& m);

// Validates the arguments against the entry's parameters (count, widths)
// and places the buffers. Throws KernelError naming the parameter.
Memory make_memory(const Kernel& k, const Launch& launch);

struct SimtEntry {
  uint32_t pc = 0;
  uint32_t rpc = kNoPc;  // reconvergence pc: the entry is popped when pc reaches it
  uint32_t mask = 0;
  bool call = false;  // the base entry of a call: popping it returns from the call
};

struct Frame {
  uint32_t function = 0;
  uint32_t reg_base = 0;     // first slot in Warp::regs (times 32 lanes)
  uint32_t param_base = 0;   // first byte of the per-lane parameter areas in Warp::params
  uint32_t call_pc = kNoPc;  // the call instruction (its return values are copied back on return)
  uint32_t caller = 0;       // the calling frame (an indirect call may push several frames at once)
};

// A cp.async copy in flight: its bytes were read from global memory when
// it issued (src-size of them, zeros after); they land in shared memory at
// `land_at`, when Cta::settle_async reaches that cycle.
inline constexpr uint64_t kLandsUntimed = 0;            // no timing model: lands at the next settle
inline constexpr uint64_t kLandsNotYet = ~uint64_t{0};  // a timing model has not said when yet
struct AsyncCopy {
  uint64_t seq = 0;  // issue order in the CTA
  uint32_t warp = 0;
  uint8_t lane = 0, bytes = 0;
  uint32_t group = 0;  // the thread's commit count at issue: the group it joins when committed
  uint32_t dst = 0;    // shared offset
  uint8_t data[16] = {};
  uint64_t land_at = kLandsUntimed;
};

// cp.async.mbarrier.arrive: an arrive-on the mbarrier at `mbarrier` once
// the thread's copies issued before it (seq < `after`) have landed.
struct AsyncArrive {
  uint64_t after = 0;
  uint32_t warp = 0;
  uint8_t lane = 0;
  uint32_t mbarrier = 0;  // shared offset
};

// A bulk copy in flight (cp.async.bulk{.tensor}). Into shared memory: its
// bytes were read from global memory when it issued; at `land_at` they land
// at `dst` and complete `bytes` of the mbarrier's tx-count. Into global
// memory: the bytes were written when it issued, and it completes (for
// cp.async.bulk.wait_group) at `land_at`.
struct BulkCopy {
  uint64_t seq = 0;  // issue order in the CTA, shared with AsyncCopy's
  uint32_t warp = 0;
  uint8_t lane = 0;
  bool to_global = false;
  uint32_t group = 0;     // to global: the thread's bulk commit count at issue
  uint32_t dst = 0;       // to shared: shared offset
  uint32_t mbarrier = 0;  // to shared: shared offset
  std::vector<uint8_t> data;
  uint64_t land_at = kLandsUntimed;
};

// An mbarrier object (PTX ISA: "Contents of the mbarrier object"), kept
// beside the 8 bytes of shared memory it names, which PTX leaves opaque.
struct MBarrier {
  uint32_t addr = 0;  // shared offset
  bool valid = false;
  uint32_t expected = 0, pending = 0;  // arrival counts
  int64_t tx = 0;                      // tx-count
  uint32_t phase = 0;                  // phases completed
};

class Warp {
 public:
  uint32_t index = 0;   // warp in its CTA
  uint32_t valid = 0;   // lanes that are threads of the CTA
  uint32_t exited = 0;  // lanes that have exited
  std::vector<SimtEntry> stack;
  std::vector<Frame> frames;
  // A register holds no bits above its declared width: every writer masks (the executors rely on it).
  std::vector<uint64_t> regs;   // [(frame.reg_base + slot) * 32 + lane]
  std::vector<uint8_t> params;  // per-lane .param areas of the frames
  std::vector<uint8_t> local;   // [lane * Kernel::local_bytes + offset]
  uint32_t carry = 0;           // the carry flag, one bit per lane
  int barrier = -1;             // the barrier the warp waits at; -1 when running
  uint64_t steps = 0;           // warp-instructions executed
  uint64_t wgmmas = 0;          // wgmma.mma_async executed (a warpgroup's warps execute as many)

  bool async_wait_bulk = false;  // the wait is cp.async.bulk.wait_group's (on bulk groups)
  bool async_wait = false;       // waits at cp.async.wait_group until its lanes' older groups land
  uint32_t async_wait_lanes = 0, async_wait_groups = 0;
  int64_t mbar_wait = -1;  // the mbarrier (shared offset) its last test_wait/try_wait found incomplete; -1: none
  // lanes arrived at barrier.cluster in its current phase
  uint32_t cluster_arrived = 0;
  // Last: the scheduler's per-cycle look (done, waiting, pc) stays in the first cache lines.
  uint32_t async_groups[32] = {};  // per lane: cp.async groups committed
  uint32_t bulk_groups[32] = {};   // per lane: bulk async-groups committed

  bool done() const { return stack.empty(); }
  bool waiting() const { return barrier >= 0 || async_wait; }
  uint32_t pc() const { return stack.empty() ? kNoPc : stack.back().pc; }
  uint32_t active() const { return stack.empty() ? 0 : stack.back().mask; }
};

inline constexpr unsigned kBarriers = 16;
inline constexpr int kClusterBarrier = kBarriers;  // Warp::barrier of a warp at barrier.cluster.wait

class Cta;
// The CTAs of one cluster, resident together, and its barrier. A CTA that
// retires leaves a null behind.
struct Cluster {
  Dim3 id, shape;
  std::vector<Cta*> ctas;    // by rank
  uint64_t phases = 0;       // completed barrier.cluster phases
  bool is_explicit = false;  // %is_explicit_cluster
  // Completes the phase when every thread that has not exited has arrived.
  void settle();
};

class Cta {
 public:
  Cta(const Kernel& k, const Launch& launch, Dim3 ctaid, uint32_t sm = 0);
  ~Cta();
  Cta(const Cta&) = delete;
  Cta& operator=(const Cta&) = delete;
  // Joins `c` as rank `rank` (the cluster holds it until this CTA goes).
  void join(std::shared_ptr<Cluster> c, uint32_t rank);
  // Leaves its cluster: the others no longer count or reach it.
  void leave_cluster();
  std::shared_ptr<Cluster> cluster;  // null only once it has left: a launch without clusters has one CTA in each
  uint32_t cluster_rank = 0;
  const Kernel* kernel;
  const Launch* launch;
  Dim3 ctaid;
  uint32_t sm = 0;
  uint32_t warp_slots = 0;  // %nwarpid: the SM's warp slots (a model sets its max_warps); 0: the CTA's warps
  uint16_t arch_sm = 0;  // the SM's architecture (a model sets its config's): whose tensor core; 0: the kernel's target
  // Shown every block the tensor core's engine computes for this CTA's mma
  // (a model's RTL co-simulation sets it); nullptr: none.
  mma::BlockObserver* block_observer = nullptr;
  std::vector<uint8_t> shared;
  std::vector<Warp> warps;
  uint32_t arrived[kBarriers] = {};   // warps arrived at each barrier
  uint32_t expected[kBarriers] = {};  // warps a barrier waits for (bar.sync a, b: b / 32); 0: every live warp
  // The asynchronous side (kernel/async_step.cc): copies in flight,
  // arrive-ons waiting for them, the mbarriers, and what %globaltimer counts.
  std::vector<AsyncCopy> copies;  // in issue order
  std::vector<AsyncArrive> arrives;
  std::vector<BulkCopy> bulk;  // in issue order
  uint64_t bulk_latency = 0;   // cycles from a bulk copy's issue completing to its landing (a model sets its config's)
  uint64_t async_seq = 0;
  std::vector<MBarrier> mbarriers;
  uint64_t mbarrier_completions = 0;      // phases completed, any mbarrier (a model wakes suspended waiters)
  double globaltimer_ns_per_cycle = 1.0;  // a model sets its config's
  std::string async_error;                // an arrive-on that failed as its copies landed

  bool done() const;
  // The CTA `ctaid` of the same launch from its start, in the storage of the
  // last one (a simulator reuses a retired CTA's). `zeroed`: the entry's
  // registers to clear, the others keeping the last CTA's values, which no
  // thread can read (every path writes them first); nullptr: all of them.
  void restart(Dim3 ctaid, const std::vector<uint32_t>* zeroed = nullptr);
  // Releases barriers every live warp has reached (after warps exit).
  void settle_barriers();
  bool async_pending() const { return !copies.empty() || !arrives.empty() || !bulk.empty(); }
  // Lands the copies due at `cycle`, fires the arrive-ons whose copies have
  // all landed, and releases the warps whose cp.async wait is over; returns
  // whether it released any. A failed arrive-on sets async_error.
  bool settle_async(uint64_t cycle);
  // Lands the bulk copies due at `cycle` (settle_async's first step).
  void land_bulk(uint64_t cycle);
  // The next cycle after `t` that settle_async has something to do at
  // (copies' land_at; t + 1 for an arrive-on with nothing left to wait for),
  // or kLandsNotYet.
  uint64_t next_async_event(uint64_t t) const;
  // Whether w's cp.async wait (Warp::async_wait_*) still has copies in flight.
  bool waits_for_copies(const Warp& w) const;
  // Sets land_at of the copies seq in [first, first + count) (bulk copies:
  // bulk_latency later).
  void time_copies(uint64_t first, uint32_t count, uint64_t land_at);
  // The mbarrier at shared offset `addr`, or nullptr.
  MBarrier* find_mbarrier(uint32_t addr);
  // Warps whose last mbarrier wait found it incomplete, by barrier: "" when
  // none; else a sentence for a hang report (the barrier's address and
  // state, the warps waiting).
  std::string mbarrier_waits() const;
};

struct StepResult {
  enum class Status : uint8_t {
    executed,  // one warp-instruction ran
    waiting,   // the warp waits at a barrier (this step arrived there, or it was already waiting)
    exited,    // the warp's last lanes exited with this step (or it had already)
    error,     // a fault: `error` says what, where, and which thread
  };
  Status status = Status::executed;
  const Inst* inst = nullptr;  // what ran; nullptr when nothing did
  uint32_t pc = kNoPc;
  uint32_t active = 0;    // lanes the SIMT stack ran the instruction for
  uint32_t executed = 0;  // of those, the lanes whose guard held
  unsigned active_lanes = 0;
  uint32_t frame_reg_base = 0;  // add to Inst::reads/writes for warp-unique register ids
  // ld/st/atom/red: the address each executing lane accessed, in `space`
  // (a generic access resolved to the window it fell in; param: the offset).
  Space space = Space::generic;
  uint64_t addresses[32] = {};
  // cp.async: the copies it made (Cta::copies' seq numbers), for a timing
  // model to say when they land (Cta::time_copies).
  uint64_t async_first = 0;
  uint32_t async_count = 0;
  // mbarrier.test_wait/try_wait found the phase incomplete for some lane;
  // try_wait's suspendTimeHint (ns; 0: none given).
  bool mbar_incomplete = false;
  uint64_t suspend_hint_ns = 0;
  std::string error;
};

// Executes one warp-instruction of `w` functionally. `clock` is what %clock
// and %clock64 read.
StepResult step(Warp& w, Cta& cta, Memory& mem, uint64_t clock = 0);
// The same into `r`, reused from step to step (a simulator's per-issue
// path): every field is set afresh except the addresses of lanes that did
// not access memory this time, which keep what they held.
void step(Warp& w, Cta& cta, Memory& mem, uint64_t clock, StepResult& r);

struct RunOptions {
  uint64_t max_steps = 100'000'000;  // warp-instructions over the whole grid
};

struct RunResult {
  bool ok = true;
  std::string error;
  uint64_t warp_instructions = 0;
  uint64_t ctas = 0;
  Memory memory;  // the buffers after the run
};

// Runs every CTA in order, its warps round-robin one warp-instruction at a
// time, to completion, a fault or the step limit.
RunResult run_functional(const Kernel& k, const Launch& launch, const RunOptions& options = {});

}  // namespace ptxfu::kernel
