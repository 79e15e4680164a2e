// The host API's modules: a PTX text's .entry functions, loaded on first
// use, and its module variables, which persist across launches.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "host/host_state.h"
#include "isa/lexer.h"
#include "isa/module.h"

namespace ptxfu {
namespace host_detail {
namespace {

std::vector<std::string> entries_of(const std::string& text) {
  std::vector<isa::LexError> lex_errors;
  std::vector<isa::ModuleError> errors;
  const isa::Module m = isa::parse_module(isa::lex(text, 1u << 16, lex_errors), errors);
  std::vector<std::string> names;
  for (const isa::Function& f : m.functions)
    if (f.is_entry && f.has_body) names.emplace_back(f.name);
  return names;
}

}  // namespace

const kernel::Kernel& ModuleState::kernel(size_t index) {
  if (!kernels[index]) {
    kernel::LoadOptions o;
    o.entry = entry_names[index];
    auto k = std::make_unique<kernel::Kernel>(kernel::load_kernel(text, file, o));
    k->globals.clear();  // the module's, lent to each launch (ModuleState::globals)
    k->constant = constant_bank;
    kernels[index] = std::move(k);
  }
  return *kernels[index];
}

}  // namespace host_detail

using host_detail::ModuleState;

Module Device::load_module_text(const std::string& text, const std::string& name) {
  auto m = std::make_shared<ModuleState>();
  m->device = state_;
  m->file = name;
  m->text = text;
  m->entry_names = host_detail::entries_of(text);
  m->kernels.resize(m->entry_names.size());
  kernel::LoadOptions o;
  if (!m->entry_names.empty()) o.entry = m->entry_names[0];
  kernel::Kernel first;
  try {
    first = kernel::load_kernel(text, name, o);  // every diagnostic of a bad module
  } catch (const kernel::KernelError& e) {
    throw Error(e.what());
  }
  for (const kernel::GlobalVariable& v : first.globals)
    m->globals.push_back({v.address, v.init, -1, std::string(v.name)});
  for (const kernel::GlobalVariable& v : first.constants)
    m->constants.push_back({std::string(v.name), v.address - kernel::kConstBase, v.init.size()});
  m->constant_bank = first.constant;
  if (!m->kernels.empty()) {
    first.globals.clear();
    m->kernels[0] = std::make_unique<kernel::Kernel>(std::move(first));
  }
  Module mod;
  mod.state_ = std::move(m);
  return mod;
}

std::vector<std::string> Module::entries() const { return state_->entry_names; }

Kernel Module::get_function(const std::string& name) const {
  const auto& names = state_->entry_names;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw Error(fmt::format("{}: no kernel (.entry) named '{}'; the module has {}", state_->file, name,
                            list.empty() ? "none" : list));
  }
  Kernel k;
  k.module_ = state_;
  k.index_ = static_cast<size_t>(it - names.begin());
  try {
    state_->kernel(k.index_);
  } catch (const kernel::KernelError& e) {
    throw Error(e.what());
  }
  return k;
}

namespace {

// The bytes of module variable `name`: a .global variable's buffer or a .const variable's place in the bank.
std::pair<uint8_t*, size_t> variable(ModuleState& m, const std::string& name) {
  for (kernel::Buffer& b : m.globals)
    if (b.name == name) return {b.bytes.data(), b.bytes.size()};
  for (const ModuleState::Constant& c : m.constants)
    if (c.name == name) return {m.constant_bank.data() + c.offset, c.bytes};
  std::string list;
  for (const kernel::Buffer& b : m.globals) list += (list.empty() ? "" : ", ") + b.name;
  for (const ModuleState::Constant& c : m.constants) list += (list.empty() ? "" : ", ") + c.name;
  throw Error(fmt::format("{}: no module variable (.global or .const) named '{}'; the module has {}", m.file, name,
                          list.empty() ? "none" : list));
}

}  // namespace

void Module::set_global(const std::string& name, const void* data, size_t bytes) {
  const auto [p, size] = variable(*state_, name);
  if (bytes > size) throw Error(fmt::format("set_global: {} bytes do not fit '{}' ({} bytes)", bytes, name, size));
  std::memcpy(p, data, bytes);
  for (auto& k : state_->kernels)
    if (k) k->constant = state_->constant_bank;
}

std::vector<uint8_t> Module::get_global(const std::string& name) const {
  const auto [p, size] = variable(*state_, name);
  return std::vector<uint8_t>(p, p + size);
}

size_t Module::global_bytes(const std::string& name) const { return variable(*state_, name).second; }

}  // namespace ptxfu
