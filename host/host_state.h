// The host API's state behind its handles (ptxfu_host.hpp): a device's
// memory as the model's buffers, a module's kernels and variables.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/ptxfu_host.hpp"
#include "kernel/kernel.h"
#include "models/config.h"
#include "models/simulator.h"

namespace ptxfu::host_detail {

// Device allocations live above the module variables (kGlobalBase, at most
// 1 GiB of them), each followed by an unmapped guard, and addresses are never
// reused: a pointer past an allocation's end or into a freed one faults.
inline constexpr uint64_t kHeapBase = kernel::kGlobalBase + (uint64_t{1} << 32);
inline constexpr uint64_t kGuardBytes = uint64_t{1} << 20;

// An allocation as its handles see it; its bytes are in DeviceState::memory.
struct Allocation {
  std::weak_ptr<DeviceState> device;
  uint64_t id = 0;
  uint64_t base = 0;
  size_t bytes = 0;
  bool freed = false;
  ~Allocation();
};

struct DeviceState : std::enable_shared_from_this<DeviceState> {
  models::ArchConfig config;
  models::TimingStyle style = models::TimingStyle::loosely_timed;
  // The allocations' bytes, by increasing base (kernel::Memory::find's
  // order); lent to each launch's memory and taken back after it.
  std::vector<kernel::Buffer> memory;
  uint64_t next_base = kHeapBase;
  uint64_t next_id = 1;
  uint64_t cycle = 0;
  std::vector<TimelineEntry> timeline;

  kernel::Buffer& buffer_of(const Allocation& a);
  DeviceBuffer allocate(std::vector<uint8_t> contents);  // placed after every earlier allocation
  // The bytes `b` covers; throws ptxfu::Error when b is freed, empty, from another device or [at, at + n) overruns it.
  uint8_t* bytes_of(const DeviceBuffer& b, size_t n, const char* what);
  void check_owned(const DeviceBuffer& b, const char* what) const;
  void release(const Allocation& a);
};

struct ModuleState {
  std::shared_ptr<DeviceState> device;
  std::string file;
  std::string text;
  std::vector<std::string> entry_names;
  std::vector<std::unique_ptr<kernel::Kernel>> kernels;  // by entry_names' index, loaded on first use
  // The module's .global variables, lent to launches like the device's memory.
  std::vector<kernel::Buffer> globals;
  struct Constant {
    std::string name;
    uint64_t offset = 0;
    size_t bytes = 0;
  };
  std::vector<Constant> constants;     // .const variables, in the bank
  std::vector<uint8_t> constant_bank;  // kConstBase onwards, what every kernel of the module reads

  const kernel::Kernel& kernel(size_t index);
};

}  // namespace ptxfu::host_detail
