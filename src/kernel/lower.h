// The lowering pass of the loader: each PTX statement of a function to an
// `Inst`, by a table with one row per opcode (kLowerings in lower.cc: its
// Kind, its operand counts, its lowering function), its operands resolved
// through the symbol resolver (kernel/resolve.h). An opcode of the
// instruction table (isa/table.cc) lowers as `Kind::arith`; any other opcode
// without a row is refused at load. Internal to src/kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/lexer.h"
#include "isa/module.h"
#include "kernel/kernel.h"
#include "kernel/resolve.h"

namespace ptxfu::kernel::loading {

using Words = std::vector<std::string_view>;  // a mnemonic's words: "ld.global.f32" -> ld, global, f32

class Lowerer {
 public:
  Lowerer(Kernel& k, Resolver& symbols) : k_(k), symbols_(symbols) {}

  // The Inst of one statement of the current function (Resolver::begin_function).
  Inst instruction(const isa::Statement& st);

  // One row per opcode that is not the instruction table's: the Kind it
  // lowers to, how many operands it takes (checked before the lowering,
  // which narrows them by qualifier), and the function that fills the Inst.
  struct Row {
    std::string_view opcode;  // the mnemonic's first word
    Kind kind;
    uint8_t min_operands, max_operands;
    void (Lowerer::*lower)(Inst&, const isa::Statement&, const Words&);
  };
  static const std::vector<Row>& rows();

 private:
  [[noreturn]] void fail(isa::SourceLoc loc, const std::string& message) const { loading::fail(k_, loc, message); }
  [[noreturn]] void fail(const isa::Token& tok, const std::string& message) const { loading::fail(k_, tok, message); }
  std::optional<Symbol> lookup(std::string_view name) { return symbols_.lookup(name); }

  // ---- operands

  const isa::Token* tok_ = nullptr;  // the operand being read (for messages)

  void note(uint8_t& n, std::vector<uint32_t>& list, uint32_t slot);
  Operand reg_operand(const Symbol& s, unsigned bits);
  // A source: register, immediate, special register, or (where `symbols`)
  // the address of a variable or function.
  Operand source(Inst& in, std::string_view text, unsigned bits, bool floating, bool symbols = false);
  Operand dest(Inst& in, std::string_view text, unsigned bits, bool sign_extend = false);
  Operand vector(Inst& in, std::string_view text, unsigned elem_bits, bool is_dest, bool floating);
  // [reg], [reg+imm], [symbol], [symbol+imm], [imm] in `space`.
  Address address(Inst& in, std::string_view text, Space space);

  // ---- statements (the rows' lowering functions)

  void expect_operands(const isa::Statement& st, unsigned lo, unsigned hi);
  void guard(Inst& in, const isa::Statement& st);
  void arith(Inst& in, const isa::Statement& st);
  // The type word of a data-movement mnemonic: the last word that names a
  // type.
  isa::Type data_type(const isa::Statement& st, const Words& words);
  void mov(Inst& in, const isa::Statement& st, const Words& words);
  void load_store(Inst& in, const isa::Statement& st, const Words& words);
  void atomic(Inst& in, const isa::Statement& st, const Words& words);
  void cvta(Inst& in, const isa::Statement& st, const Words& words);
  void branch(Inst& in, const isa::Statement& st, const Words& words);
  void call(Inst& in, const isa::Statement& st, const Words& words);
  void barrier(Inst& in, const isa::Statement& st, const Words& words);
  void warp_op(Inst& in, const isa::Statement& st, const Words& words);
  // Refuses a cluster instruction below sm_90.
  void need_clusters(const isa::Statement& st);
  // barrier.cluster.arrive / .wait (from the barrier row).
  void cluster_barrier(Inst& in, const isa::Statement& st, const Words& words);
  // mapa{.shared::cluster}.u32/.u64 d, a, rank.
  void mapa(Inst& in, const isa::Statement& st, const Words& words);
  // ret, exit, fence, membar, prefetch, nanosleep: the row's kind, nothing to read.
  void nothing(Inst& in, const isa::Statement& st, const Words& words);
  // tex, suld, sust on texture and surface objects (handles in 64-bit registers).
  void texture(Inst& in, const isa::Statement& st, const Words& words);
  // "[%rd, {x, y}]": the handle into src[0], the coordinates into src[1].
  void object_operand(Inst& in, const isa::Token& tok, bool floating);
  // mma, wmma, ldmatrix, stmatrix, movmatrix (kernel/tensor_lower.cc).
  void tensor(Inst& in, const isa::Statement& st, const Words& words);
  void scaled_mma(Inst& in, const isa::Statement& st, tensor::TensorOp& t);
  Operand fragment(Inst& in, const isa::Token& tok, int count, unsigned bits, bool is_dest);
  void wmma_memory(Inst& in, const isa::Statement& st, const Words& words, const tensor::TensorOp& t);
  // wgmma.mma_async, wgmma.fence, wgmma.commit_group, wgmma.wait_group (kernel/tensor_lower.cc).
  void wgmma(Inst& in, const isa::Statement& st, const Words& words);
  int immediate(const isa::Token& tok);

 public:
  // After a function's statements (from `begin`): each wgmma.wait_group
  // reads the accumulators of the function's wgmma.mma_async, so that a
  // timing model holds it until they are written (as many as an Inst notes).
  void finish_wgmma(uint32_t begin);

 private:
  // cp.async{.ca,.cg}, commit_group, wait_group, wait_all, mbarrier.arrive;
  // mbarrier.*; elect.sync (kernel/async_lower.cc).
  void async_copy(Inst& in, const isa::Statement& st, const Words& words);
  // cp.async.bulk{.tensor}, its commit_group, wait_group and prefetch.
  void bulk_copy(Inst& in, const isa::Statement& st, const Words& words);
  // "[tensorMap, {c0, ...}]": the map's address into addr2 (a kernel
  // parameter's: in param space), the coordinates into src[0..].
  void tensor_operand(Inst& in, const isa::Token& tok);
  void mbarrier(Inst& in, const isa::Statement& st, const Words& words);
  void elect(Inst& in, const isa::Statement& st, const Words& words);
  // The qualifiers of `words` from `first` on that are not `known`, nor
  // ignored ones (scopes, semantics, cache hints): refused by name.
  void only_qualifiers(const isa::Statement& st, const Words& words, size_t first,
                       std::initializer_list<std::string_view> known);

  Kernel& k_;
  Resolver& symbols_;
};

}  // namespace ptxfu::kernel::loading
