// The loader of one .entry, shared by its two halves: kernel/load.cc places
// symbols and memory and walks the functions; kernel/lower.cc reads operands
// and turns each statement into an `Inst`. Internal to src/kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "isa/lexer.h"
#include "isa/module.h"
#include "kernel/kernel.h"

namespace ptxfu::kernel::loading {

using isa::StateSpace;

// What a name resolves to inside a function.
struct Symbol {
  enum class Kind : uint8_t { reg, var, kernel_param, frame_param, function, label };
  Kind kind = Kind::reg;
  uint32_t slot = 0;   // reg: first slot; function: index; label: instruction index
  uint32_t count = 0;  // reg: a %r<N> range when > 0
  uint8_t bits = 0;    // reg: declared width
  bool floating = false;
  Space space = Space::global;  // var
  uint64_t address = 0;         // var: address in its space; params: offset
  uint64_t bytes = 0;
};

class Loader {
 public:
  Loader(Kernel& k, const isa::Module& m) : k_(k), m_(m) {}

  void load(std::string_view entry_name);

 private:
  std::string entry_list() const;

  [[noreturn]] void fail(isa::SourceLoc loc, const std::string& message) const;
  [[noreturn]] void fail(const isa::Token& tok, const std::string& message) const;

  // ---- module variables

  uint64_t variable_bytes(const isa::Declaration& d) const;

  // The initial bytes of a variable ("= {1, 2}", "= 0f3F800000").
  std::vector<uint8_t> initial_bytes(const isa::Declaration& d, uint64_t bytes) const;

  void module_variables();

  // Places a variable in its space and records its symbol (in `scope`, or
  // the module's when null).
  void place_variable(const isa::Declaration& d, uint64_t& global_end,
                      std::unordered_map<std::string_view, Symbol>* scope);

  // ---- functions

  uint32_t add_function(const isa::Function& f);

  std::optional<Symbol> lookup(std::string_view name);

  void declare_reg(const isa::Declaration& d, Function& fn);

  void declare_params(const isa::Function& f, Function& fn);

  void load_function(size_t index);

  // .extern .shared arrays start after every static .shared variable, whose
  // total is known once every function is loaded: until then their
  // addresses carry kExternTag.
  static constexpr uint64_t kExternTag = uint64_t{1} << 62;
  static bool tagged(uint64_t v) { return v >= kExternTag && v < kExternTag + 2 * kWindowSize; }

  void finish_extern_shared();

  // ---- operands

  const isa::Token* tok_ = nullptr;  // the operand being read (for messages)

  void note(uint8_t& n, uint32_t* list, uint32_t slot);

  Operand reg_operand(const Symbol& s, unsigned bits);

  // A source: register, immediate, special register, or (where `symbols`)
  // the address of a variable or function.
  Operand source(Inst& in, std::string_view text, unsigned bits, bool floating, bool symbols = false);

  Operand dest(Inst& in, std::string_view text, unsigned bits, bool sign_extend = false);

  Operand vector(Inst& in, std::string_view text, unsigned elem_bits, bool is_dest, bool floating);

  // [reg], [reg+imm], [symbol], [symbol+imm], [imm] in `space`.
  Address address(Inst& in, std::string_view text, Space space);

  // ---- instructions

  Inst instruction(const isa::Statement& st);

  void expect_operands(const isa::Statement& st, unsigned lo, unsigned hi);

  void arith(Inst& in, const isa::Statement& st);

  // The type word of a data-movement mnemonic: the last word that names a
  // type.
  isa::Type data_type(const isa::Statement& st, const std::vector<std::string_view>& words);

  void mov(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void load_store(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void atomic(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void cvta(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void branch(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void call(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void barrier(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  void warp_op(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);

  // mma, ldmatrix, stmatrix, movmatrix (kernel/tensor_lower.cc).
  void tensor(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words);
  Operand fragment(Inst& in, const isa::Token& tok, int count, unsigned bits, bool is_dest);
  void wmma_memory(Inst& in, const isa::Statement& st, const std::vector<std::string_view>& words,
                   const tensor::TensorOp& t);

  Kernel& k_;
  const isa::Module& m_;
  std::unordered_map<std::string_view, const isa::Function*> function_names_;
  std::unordered_map<std::string_view, uint32_t> function_index_;
  std::vector<const isa::Function*> order_;  // functions[i]'s definition
  std::unordered_map<std::string_view, Symbol> module_symbols_;
  std::vector<std::unordered_map<std::string_view, Symbol>> scopes_;
  std::unordered_map<std::string_view, uint32_t> labels_;
  std::vector<uint8_t> constant_;
  uint64_t extern_align_ = 16;
  uint32_t cur_ = 0;
};

}  // namespace ptxfu::kernel::loading
