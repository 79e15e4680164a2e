// The symbol resolver of the loader: a module's declarations (module and
// function variables, registers, parameters, labels, functions) become
// symbols with frame slots and addresses in a Kernel. The lowering pass
// (kernel/lower.h) asks it what a name is; the driver (kernel/load.cc) feeds
// it each function's declarations in order. Internal to src/kernel.
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

// What a name resolves to inside a function.
struct Symbol {
  enum class Kind : uint8_t { reg, var, kernel_param, frame_param, function, label };
  Kind kind = Kind::reg;
  uint32_t slot = 0;   // reg: first slot; function: index (kNoPc: no body in the module); label: instruction index
  uint32_t count = 0;  // reg: a %r<N> range when > 0
  uint8_t bits = 0;    // reg: declared width
  bool floating = false;
  Space space = Space::global;  // var
  uint64_t address = 0;  // var: address in its space (an .extern .shared array: tagged, see finish()); params: offset
  uint64_t bytes = 0;
};

// Throws KernelError "FILE:LINE:COL: error: MESSAGE".
[[noreturn]] void fail(const Kernel& k, isa::SourceLoc loc, const std::string& message);
[[noreturn]] void fail(const Kernel& k, const isa::Token& tok, const std::string& message);

class Resolver {
 public:
  Resolver(Kernel& k, const isa::Module& m) : k_(k), m_(m) {}

  // Places the module's variables and makes `entry_name` (empty: the only
  // .entry) function 0. Throws KernelError naming the entries when there is
  // no such entry.
  void start(std::string_view entry_name);

  // Functions to load: the entry and every function a lowered instruction
  // has named so far (lookup() adds them as it meets them).
  size_t functions() const { return order_.size(); }
  // The definition of function `index`.
  const isa::Function& definition(uint32_t index) const { return *order_[index]; }

  // Starts function `index`: its parameters and its labels (each names the
  // index of the instruction that follows it, counted from `first_inst`).
  void begin_function(uint32_t index, uint32_t first_inst);
  void open_scope() { scopes_.emplace_back(); }
  void close_scope();
  // A declaration inside the current function's body.
  void declare(const isa::Declaration& d);

  // What `name` is in the current scope; nullopt when nothing. Naming a
  // function adds it to the functions to load.
  std::optional<Symbol> lookup(std::string_view name);
  // The instruction a label of the current function names.
  std::optional<uint32_t> label(std::string_view name) const;

  // After every function is lowered: places the .extern .shared arrays after
  // every static .shared variable (patching the addresses that name them)
  // and stores the .const bank.
  void finish();

  // .extern .shared arrays start after every static .shared variable, whose
  // total is known once every function is loaded: until then their
  // addresses carry kExternTag.
  static constexpr uint64_t kExternTag = uint64_t{1} << 62;

 private:
  std::string entry_list() const;
  uint64_t variable_bytes(const isa::Declaration& d) const;
  // An address in a variable's initialiser, written once every variable is placed.
  struct AddressFixup {
    std::string_view symbol;
    int64_t addend = 0;
    uint64_t at = 0;      // byte offset in the variable
    size_t variable = 0;  // index in Kernel::globals, or Kernel::constants when `constant`
    bool constant = false;
    isa::SourceLoc loc;
  };
  // The initial bytes of a variable ("= {1, 2}", "= 0f3F800000"); the
  // addresses it takes ("generic($str)", "tbl+8") go to `addresses`.
  std::vector<uint8_t> initial_bytes(const isa::Declaration& d, uint64_t bytes,
                                     std::vector<AddressFixup>& addresses) const;
  void module_variables();
  // Places a variable in its space and records its symbol (in `scope`, or
  // the module's when null).
  void place_variable(const isa::Declaration& d, std::unordered_map<std::string_view, Symbol>* scope);
  uint32_t add_function(const isa::Function& f);
  void declare_reg(const isa::Declaration& d, Function& fn);
  void declare_params(const isa::Function& f, Function& fn);
  void declare_frame_param(const isa::Declaration& d, Function& fn);
  static bool tagged(uint64_t v) { return v >= kExternTag && v < kExternTag + 2 * kWindowSize; }

  Kernel& k_;
  const isa::Module& m_;
  std::unordered_map<std::string_view, const isa::Function*> function_names_;
  std::unordered_map<std::string_view, uint32_t> function_index_;
  std::vector<const isa::Function*> order_;  // functions[i]'s definition
  std::unordered_map<std::string_view, Symbol> module_symbols_;
  std::vector<std::unordered_map<std::string_view, Symbol>> scopes_;
  std::unordered_map<std::string_view, uint32_t> labels_;
  std::vector<uint8_t> constant_;
  std::vector<AddressFixup> fixups_;
  uint64_t global_end_ = 0;  // bytes of module .global variables
  uint64_t extern_align_ = 16;
  uint32_t cur_ = 0;  // the function being loaded
};

}  // namespace ptxfu::kernel::loading
