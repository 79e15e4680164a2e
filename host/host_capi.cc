// The host API's C face (ptxfu/host.h) over its C++ objects: handles own
// them, device pointers are addresses, every exception becomes a status and
// this thread's message.
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "host/ptxfu_host.h"
#include "host/ptxfu_host.hpp"

struct ptxfuDevice_st {
  ptxfu::Device device;
  std::map<uint64_t, ptxfu::DeviceBuffer> allocations;  // by base address: what keeps them alive
};
struct ptxfuFunction_st {
  ptxfu::Kernel kernel;
};
struct ptxfuModule_st {
  ptxfuDevice device;
  ptxfu::Module module;
  std::map<std::string, ptxfuFunction_st> functions;  // the handles ptxfuModuleGetFunction gave, owned here
};

namespace {

thread_local std::string last_message;

ptxfuResult fail(ptxfuResult r, const std::string& message) {
  last_message = message;
  return r;
}

// Runs `f`; an exception becomes `code` (a KernelFault: PTXFU_ERROR_LAUNCH_FAILED) and its message.
template <typename F>
ptxfuResult guarded(ptxfuResult code, F f) {
  try {
    f();
    return PTXFU_SUCCESS;
  } catch (const ptxfu::KernelFault& e) {
    return fail(PTXFU_ERROR_LAUNCH_FAILED, e.what());
  } catch (const std::exception& e) {
    return fail(code, e.what());
  }
}

// The bytes [address, address + bytes) of one live allocation, as a DeviceBuffer.
ptxfu::DeviceBuffer at(ptxfuDevice d, ptxfuDeviceptr address, size_t bytes) {
  auto it = d->allocations.upper_bound(address);
  if (it == d->allocations.begin()) throw ptxfu::Error(fmt::format("address 0x{:x} is not in any allocation", address));
  const ptxfu::DeviceBuffer& b = std::prev(it)->second;
  const uint64_t offset = address - b.address();
  if (offset >= b.bytes() || bytes > b.bytes() - offset)
    throw ptxfu::Error(fmt::format("[0x{:x}, +{}) is not inside an allocation (the nearest below: {} bytes at 0x{:x})",
                                   address, bytes, b.bytes(), b.address()));
  return b.slice(offset, bytes);
}

}  // namespace

extern "C" {

const char* ptxfuGetErrorName(ptxfuResult r) {
  static const char* const kNames[] = {"PTXFU_SUCCESS",
                                       "PTXFU_ERROR_INVALID_VALUE",
                                       "PTXFU_ERROR_INVALID_CONFIG",
                                       "PTXFU_ERROR_INVALID_PTX",
                                       "PTXFU_ERROR_NOT_FOUND",
                                       "PTXFU_ERROR_INVALID_ADDRESS",
                                       "PTXFU_ERROR_INVALID_ARGUMENT",
                                       "PTXFU_ERROR_LAUNCH_FAILED"};
  const unsigned i = static_cast<unsigned>(r);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "PTXFU_ERROR_UNKNOWN";
}

const char* ptxfuGetLastErrorMessage(void) { return last_message.c_str(); }

ptxfuResult ptxfuDeviceCreate(ptxfuDevice* dev, const char* config) {
  if (!dev || !config) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuDeviceCreate: a NULL argument");
  return guarded(PTXFU_ERROR_INVALID_CONFIG, [&] { *dev = new ptxfuDevice_st{ptxfu::Device(config), {}}; });
}

ptxfuResult ptxfuDeviceDestroy(ptxfuDevice dev) {
  delete dev;
  return PTXFU_SUCCESS;
}

ptxfuResult ptxfuModuleLoad(ptxfuModule* mod, ptxfuDevice dev, const char* path) {
  if (!mod || !dev || !path) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuModuleLoad: a NULL argument");
  std::string text;
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(PTXFU_ERROR_NOT_FOUND, fmt::format("{}: cannot open the module", path));
  return guarded(PTXFU_ERROR_INVALID_PTX, [&] { *mod = new ptxfuModule_st{dev, dev->device.load_module(path), {}}; });
}

ptxfuResult ptxfuModuleLoadData(ptxfuModule* mod, ptxfuDevice dev, const char* ptx_text) {
  if (!mod || !dev || !ptx_text) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuModuleLoadData: a NULL argument");
  return guarded(PTXFU_ERROR_INVALID_PTX, [&] {
    *mod = new ptxfuModule_st{dev, dev->device.load_module_text(ptx_text), {}};
  });
}

ptxfuResult ptxfuModuleUnload(ptxfuModule mod) {
  delete mod;
  return PTXFU_SUCCESS;
}

ptxfuResult ptxfuModuleGetFunction(ptxfuFunction* f, ptxfuModule mod, const char* name) {
  if (!f || !mod || !name) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuModuleGetFunction: a NULL argument");
  return guarded(PTXFU_ERROR_NOT_FOUND, [&] {
    auto it = mod->functions.find(name);
    if (it == mod->functions.end())
      it = mod->functions.emplace(name, ptxfuFunction_st{mod->module.get_function(name)}).first;
    *f = &it->second;
  });
}

ptxfuResult ptxfuModuleSetGlobal(ptxfuModule mod, const char* name, const void* src, size_t bytes) {
  if (!mod || !name || !src) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuModuleSetGlobal: a NULL argument");
  return guarded(PTXFU_ERROR_NOT_FOUND, [&] { mod->module.set_global(name, src, bytes); });
}

ptxfuResult ptxfuModuleGetGlobal(ptxfuModule mod, const char* name, void* dst, size_t bytes) {
  if (!mod || !name || !dst) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuModuleGetGlobal: a NULL argument");
  return guarded(PTXFU_ERROR_NOT_FOUND, [&] {
    const std::vector<uint8_t> v = mod->module.get_global(name);
    if (bytes > v.size())
      throw ptxfu::Error(fmt::format("ptxfuModuleGetGlobal: {} bytes from '{}' ({} bytes)", bytes, name, v.size()));
    std::memcpy(dst, v.data(), bytes);
  });
}

ptxfuResult ptxfuMalloc(ptxfuDevice dev, ptxfuDeviceptr* ptr, size_t bytes) {
  if (!dev || !ptr) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuMalloc: a NULL argument");
  return guarded(PTXFU_ERROR_INVALID_VALUE, [&] {
    ptxfu::DeviceBuffer b = dev->device.malloc(bytes);
    *ptr = b.address();
    dev->allocations.emplace(b.address(), std::move(b));
  });
}

ptxfuResult ptxfuFree(ptxfuDevice dev, ptxfuDeviceptr ptr) {
  if (!dev) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuFree: a NULL device");
  const auto it = dev->allocations.find(ptr);
  if (it == dev->allocations.end())
    return fail(PTXFU_ERROR_INVALID_ADDRESS, fmt::format("ptxfuFree: 0x{:x} is not an address ptxfuMalloc gave", ptr));
  dev->device.free(it->second);
  dev->allocations.erase(it);
  return PTXFU_SUCCESS;
}

ptxfuResult ptxfuMemsetD8(ptxfuDevice dev, ptxfuDeviceptr dst, unsigned char value, size_t bytes) {
  if (!dev) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuMemsetD8: a NULL device");
  return guarded(PTXFU_ERROR_INVALID_ADDRESS, [&] { dev->device.memset(at(dev, dst, bytes), value); });
}

ptxfuResult ptxfuMemcpyHtoD(ptxfuDevice dev, ptxfuDeviceptr dst, const void* src, size_t bytes) {
  if (!dev || !src) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuMemcpyHtoD: a NULL argument");
  return guarded(PTXFU_ERROR_INVALID_ADDRESS, [&] { dev->device.copy_to_device(at(dev, dst, bytes), src, bytes); });
}

ptxfuResult ptxfuMemcpyDtoH(ptxfuDevice dev, void* dst, ptxfuDeviceptr src, size_t bytes) {
  if (!dev || !dst) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuMemcpyDtoH: a NULL argument");
  return guarded(PTXFU_ERROR_INVALID_ADDRESS, [&] { dev->device.copy_to_host(dst, at(dev, src, bytes), bytes); });
}

ptxfuResult ptxfuLaunchKernel(ptxfuFunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                              unsigned block_y, unsigned block_z, unsigned shared_bytes, void** kernel_params,
                              uint64_t* cycles) {
  return ptxfuLaunchKernelCluster(f, grid_x, grid_y, grid_z, block_x, block_y, block_z, 0, 0, 0, shared_bytes,
                                  kernel_params, cycles);
}

ptxfuResult ptxfuLaunchKernelCluster(ptxfuFunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                     unsigned block_x, unsigned block_y, unsigned block_z, unsigned cluster_x,
                                     unsigned cluster_y, unsigned cluster_z, unsigned shared_bytes,
                                     void** kernel_params, uint64_t* cycles) {
  if (!f) return fail(PTXFU_ERROR_INVALID_VALUE, "ptxfuLaunchKernel: a NULL function");
  return guarded(PTXFU_ERROR_INVALID_ARGUMENT, [&] {
    const std::vector<ptxfu::Scalar::Type> types = f->kernel.parameter_types();
    if (!types.empty() && !kernel_params)
      throw ptxfu::Error(fmt::format("{}: {} parameters and kernel_params is NULL", f->kernel.name(), types.size()));
    std::vector<ptxfu::KernelArg> args;
    for (size_t i = 0; i < types.size(); ++i) {
      ptxfu::Scalar s{types[i], 0};
      std::memcpy(&s.bits, kernel_params[i], s.bytes());  // little-endian, as the device's memory
      args.emplace_back(s);
    }
    const ptxfu::LaunchResult r = f->kernel.launch({grid_x, grid_y, grid_z}, {block_x, block_y, block_z}, args,
                                                   shared_bytes, ptxfu::Dim3(cluster_x, cluster_y, cluster_z));
    if (cycles) *cycles = r.cycles;
  });
}

}  // extern "C"
