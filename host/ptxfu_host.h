/* ptxfu's host API for C, in the shape of the CUDA driver API: handles, a
 * status from every call, a device pointer that is an address (pointer
 * arithmetic works), and a function that turns a status into words.
 * Installed as <ptxfu/host.h>; link ptxfu::host (it brings the SystemC
 * models; the C++ objects underneath are <ptxfu/host.hpp>).
 *
 *   ptxfuDevice dev;  ptxfuModule mod;  ptxfuFunction f;  ptxfuDeviceptr x;
 *   ptxfuDeviceCreate(&dev, "sm_80");
 *   ptxfuModuleLoad(&mod, dev, "kernels.ptx");
 *   ptxfuModuleGetFunction(&f, mod, "add_one");
 *   ptxfuMalloc(dev, &x, n * 4);
 *   ptxfuMemcpyHtoD(dev, x, host, n * 4);
 *   void* params[] = {&x, &n};
 *   if (ptxfuLaunchKernel(f, n / 256, 1, 1, 256, 1, 1, 0, params, &cycles) != PTXFU_SUCCESS)
 *     puts(ptxfuGetLastErrorMessage());
 *   ptxfuMemcpyDtoH(dev, host, x, n * 4);
 *
 * Each kernelParams[i] points to the value of parameter i, as many bytes as
 * the parameter declares (a pointer: its 8-byte ptxfuDeviceptr). Not
 * thread-safe for one device; the last error message is per thread. */
#ifndef PTXFU_HOST_H
#define PTXFU_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptxfuDevice_st* ptxfuDevice;
typedef struct ptxfuModule_st* ptxfuModule;
typedef struct ptxfuFunction_st* ptxfuFunction;
typedef uint64_t ptxfuDeviceptr;

typedef enum {
  PTXFU_SUCCESS = 0,
  PTXFU_ERROR_INVALID_VALUE = 1,    /* a NULL handle or argument, 0 bytes */
  PTXFU_ERROR_INVALID_CONFIG = 2,   /* no such config, or a bad config file */
  PTXFU_ERROR_INVALID_PTX = 3,      /* the module does not load (its diagnostics in the message) */
  PTXFU_ERROR_NOT_FOUND = 4,        /* no such kernel, module variable or file */
  PTXFU_ERROR_INVALID_ADDRESS = 5,  /* not in a live allocation, or the range overruns it */
  PTXFU_ERROR_INVALID_ARGUMENT = 6, /* the grid and block, or a kernel argument, do not fit */
  PTXFU_ERROR_LAUNCH_FAILED = 7     /* the kernel faulted: the sanitizer-style message */
} ptxfuResult;

/* "PTXFU_ERROR_NOT_FOUND" and so on. */
const char* ptxfuGetErrorName(ptxfuResult r);
/* The message of this thread's last failed call (names the thing). */
const char* ptxfuGetLastErrorMessage(void);

ptxfuResult ptxfuDeviceCreate(ptxfuDevice* dev, const char* config); /* a config name or a YAML path */
ptxfuResult ptxfuDeviceDestroy(ptxfuDevice dev);
ptxfuResult ptxfuModuleLoad(ptxfuModule* mod, ptxfuDevice dev, const char* path);
ptxfuResult ptxfuModuleLoadData(ptxfuModule* mod, ptxfuDevice dev, const char* ptx_text);
ptxfuResult ptxfuModuleUnload(ptxfuModule mod);
ptxfuResult ptxfuModuleGetFunction(ptxfuFunction* f, ptxfuModule mod, const char* name);
/* A module variable (__constant__, __device__): its bytes in and out. */
ptxfuResult ptxfuModuleSetGlobal(ptxfuModule mod, const char* name, const void* src, size_t bytes);
ptxfuResult ptxfuModuleGetGlobal(ptxfuModule mod, const char* name, void* dst, size_t bytes);

ptxfuResult ptxfuMalloc(ptxfuDevice dev, ptxfuDeviceptr* ptr, size_t bytes);
ptxfuResult ptxfuFree(ptxfuDevice dev, ptxfuDeviceptr ptr); /* the address ptxfuMalloc gave */
ptxfuResult ptxfuMemsetD8(ptxfuDevice dev, ptxfuDeviceptr dst, unsigned char value, size_t bytes);
ptxfuResult ptxfuMemcpyHtoD(ptxfuDevice dev, ptxfuDeviceptr dst, const void* src, size_t bytes);
ptxfuResult ptxfuMemcpyDtoH(ptxfuDevice dev, void* dst, ptxfuDeviceptr src, size_t bytes);

/* Runs the launch to its end; `cycles` (may be NULL) receives its cycles. */
ptxfuResult ptxfuLaunchKernel(ptxfuFunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                              unsigned block_y, unsigned block_z, unsigned shared_bytes, void** kernel_params,
                              uint64_t* cycles);
/* The same with thread-block clusters (sm_90 and later), as cuLaunchKernelEx's cluster dimension attribute:
   cluster_x/y/z CTAs per cluster; cluster_x 0: the kernel's .reqnctapercluster, or none. */
ptxfuResult ptxfuLaunchKernelCluster(ptxfuFunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                     unsigned block_x, unsigned block_y, unsigned block_z, unsigned cluster_x,
                                     unsigned cluster_y, unsigned cluster_z, unsigned shared_bytes,
                                     void** kernel_params, uint64_t* cycles);

#ifdef __cplusplus
}
#endif
#endif
