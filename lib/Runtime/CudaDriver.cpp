//===- CudaDriver.cpp - the CUDA Driver API, loaded at run time -----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The driver's C ABI is stable: handles are opaque pointers, CUresult an int,
// CUdevice an int, CUdeviceptr a 64-bit integer. Declaring those here keeps
// the runner free of a build-time dependency on cuda.h.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runtime/CudaDriver.h"

#include <algorithm>
#include <cstddef>
#include <dlfcn.h>

using namespace mlir::nvfp4;

namespace {
using CUresult = int;
using CUdevice = int;
using Handle = void *;
constexpr int kAttrCcMajor = 75, kAttrCcMinor = 76, kAttrL2Bytes = 38;
// CUfunction_attribute values (cuda.h).
constexpr int kFuncMaxThreads = 0, kFuncSharedBytes = 1, kFuncLocalBytes = 3,
              kFuncNumRegs = 4, kFuncMaxDynamicShared = 8;
// cuLaunchKernelEx's configuration, laid out as cuda.h (CUDA 12+) declares
// CUlaunchConfig and CUlaunchAttribute (a 4-byte id, padding, a 64-byte
// value union); the attributes used are programmatic stream serialization
// (id 6, value 1: the kernel may start before the previous one in the
// stream completes) and the cluster dimension (id 4, value x, y, z).
struct LaunchAttribute {
  int id;
  char pad[4];
  union alignas(8) {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
    unsigned clusterDim[3];
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72 &&
                  offsetof(LaunchAttribute, value) == 8,
              "CUlaunchAttribute layout");
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  Handle hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(LaunchConfig) == 56 &&
                  offsetof(LaunchConfig, hStream) == 32 &&
                  offsetof(LaunchConfig, attrs) == 40 &&
                  offsetof(LaunchConfig, numAttrs) == 48,
              "CUlaunchConfig layout");
constexpr int kLaunchAttrClusterDimension = 4;
constexpr int kLaunchAttrProgrammaticStreamSerialization = 6;
} // namespace

struct CudaDriver::Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(Handle *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuModuleUnload)(Handle);
  CUresult (*cuEventDestroy)(Handle);
  CUresult (*cuCtxSetCurrent)(Handle);
  CUresult (*cuModuleLoadData)(Handle *, const void *);
  CUresult (*cuModuleGetFunction)(Handle *, Handle, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, Handle);
  CUresult (*cuFuncSetAttribute)(Handle, int, int);
  CUresult (*cuMemAlloc)(DevicePtr *, size_t);
  CUresult (*cuMemFree)(DevicePtr);
  CUresult (*cuMemcpyHtoD)(DevicePtr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, DevicePtr, size_t);
  CUresult (*cuMemcpyDtoD)(DevicePtr, DevicePtr, size_t);
  CUresult (*cuMemsetD8)(DevicePtr, unsigned char, size_t);
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, Handle, void **,
                             void **);
  /// Optional (drivers before CUDA 12 lack it): dependent launches fall
  /// back to cuLaunchKernel.
  CUresult (*cuLaunchKernelEx)(const LaunchConfig *, Handle, void **,
                               void **) = nullptr;
  /// Optional (drivers before CUDA 12 lack it): kernels with tensor maps
  /// cannot be launched without it.
  CUresult (*cuTensorMapEncodeTiled)(void *, unsigned, unsigned, void *,
                                     const uint64_t *, const uint64_t *,
                                     const unsigned *, const unsigned *,
                                     unsigned, unsigned, unsigned,
                                     unsigned) = nullptr;
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuEventCreate)(Handle *, unsigned);
  CUresult (*cuEventRecord)(Handle, Handle);
  CUresult (*cuEventSynchronize)(Handle);
  CUresult (*cuEventElapsedTime)(float *, Handle, Handle);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

bool CudaDriver::check(int result, const char *what, std::string &error) const {
  if (result == 0)
    return true;
  const char *text = nullptr;
  if (api && api->cuGetErrorString)
    api->cuGetErrorString(result, &text);
  error = std::string(what) + " failed: " + (text ? text : "unknown error") +
          " (CUresult " + std::to_string(result) + ")";
  return false;
}

std::unique_ptr<CudaDriver> CudaDriver::open(std::string &error) {
  std::unique_ptr<CudaDriver> d(new CudaDriver());
  d->library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!d->library) {
    error = "no CUDA driver (libcuda.so.1 not found)";
    return nullptr;
  }
  d->api = std::make_unique<Api>();
  Api &a = *d->api;
  bool ok = true;
  auto bind = [&](auto &fn, const char *sym) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(d->library, sym));
    if (!fn) {
      ok = false;
      error = std::string("the CUDA driver lacks ") + sym;
    }
  };
  bind(a.cuInit, "cuInit");
  bind(a.cuDeviceGet, "cuDeviceGet");
  bind(a.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(a.cuDeviceGetName, "cuDeviceGetName");
  bind(a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(a.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  bind(a.cuModuleUnload, "cuModuleUnload");
  bind(a.cuEventDestroy, "cuEventDestroy_v2");
  bind(a.cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(a.cuModuleLoadData, "cuModuleLoadData");
  bind(a.cuModuleGetFunction, "cuModuleGetFunction");
  bind(a.cuFuncGetAttribute, "cuFuncGetAttribute");
  bind(a.cuFuncSetAttribute, "cuFuncSetAttribute");
  bind(a.cuMemAlloc, "cuMemAlloc_v2");
  bind(a.cuMemFree, "cuMemFree_v2");
  bind(a.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind(a.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind(a.cuMemcpyDtoD, "cuMemcpyDtoD_v2");
  bind(a.cuMemsetD8, "cuMemsetD8_v2");
  bind(a.cuLaunchKernel, "cuLaunchKernel");
  bind(a.cuCtxSynchronize, "cuCtxSynchronize");
  bind(a.cuEventCreate, "cuEventCreate");
  bind(a.cuEventRecord, "cuEventRecord");
  bind(a.cuEventSynchronize, "cuEventSynchronize");
  bind(a.cuEventElapsedTime, "cuEventElapsedTime");
  bind(a.cuGetErrorString, "cuGetErrorString");
  a.cuLaunchKernelEx = reinterpret_cast<decltype(a.cuLaunchKernelEx)>(
      dlsym(d->library, "cuLaunchKernelEx"));
  a.cuTensorMapEncodeTiled =
      reinterpret_cast<decltype(a.cuTensorMapEncodeTiled)>(
          dlsym(d->library, "cuTensorMapEncodeTiled"));
  if (!ok)
    return nullptr;
  CUdevice &dev = d->device;
  char name[256] = {0};
  int l2 = 0;
  if (!d->check(a.cuInit(0), "cuInit", error) ||
      !d->check(a.cuDeviceGet(&dev, 0), "cuDeviceGet", error) ||
      !d->check(a.cuDeviceGetAttribute(&d->ccMajor, kAttrCcMajor, dev),
                "cuDeviceGetAttribute", error) ||
      !d->check(a.cuDeviceGetAttribute(&d->ccMinor, kAttrCcMinor, dev),
                "cuDeviceGetAttribute", error) ||
      !d->check(a.cuDeviceGetAttribute(&l2, kAttrL2Bytes, dev),
                "cuDeviceGetAttribute", error) ||
      !d->check(a.cuDeviceGetName(name, sizeof(name) - 1, dev),
                "cuDeviceGetName", error) ||
      !d->check(a.cuDevicePrimaryCtxRetain(&d->context, dev),
                "cuDevicePrimaryCtxRetain", error) ||
      !d->check(a.cuCtxSetCurrent(d->context), "cuCtxSetCurrent", error) ||
      !d->check(a.cuEventCreate(&d->startEvent, 0), "cuEventCreate", error) ||
      !d->check(a.cuEventCreate(&d->stopEvent, 0), "cuEventCreate", error))
    return nullptr;
  d->l2 = l2;
  d->name = name;
  return d;
}

CudaDriver::~CudaDriver() {
  if (api && context) {
    for (DevicePtr p : allocations)
      api->cuMemFree(p);
    if (startEvent)
      api->cuEventDestroy(startEvent);
    if (stopEvent)
      api->cuEventDestroy(stopEvent);
    for (void *module : modules)
      api->cuModuleUnload(module);
    api->cuDevicePrimaryCtxRelease(device);
  }
  if (library)
    dlclose(library);
}

std::string CudaDriver::archName() const {
  return "sm_" + std::to_string(ccMajor * 10 + ccMinor) +
         (ccMajor >= 9 ? "a" : "");
}

bool CudaDriver::loadModules(const std::vector<std::string> &images,
                             std::string &error) {
  functions.clear();
  sharedOptIn.clear();
  for (void *module : modules)
    api->cuModuleUnload(module);
  modules.clear();
  for (const std::string &image : images) {
    void *module = nullptr;
    if (!check(api->cuModuleLoadData(&module, image.c_str()),
               "cuModuleLoadData", error))
      return false;
    modules.push_back(module);
  }
  return true;
}

bool CudaDriver::alloc(size_t bytes, DevicePtr &ptr, std::string &error) {
  if (!check(api->cuMemAlloc(&ptr, bytes ? bytes : 1), "cuMemAlloc", error))
    return false;
  allocations.push_back(ptr);
  return true;
}

void CudaDriver::free(DevicePtr ptr) {
  auto it = std::find(allocations.begin(), allocations.end(), ptr);
  if (it == allocations.end())
    return;
  api->cuMemFree(ptr);
  allocations.erase(it);
}

bool CudaDriver::copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                              std::string &error) {
  return check(api->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", error);
}

bool CudaDriver::copyToHost(void *dst, DevicePtr src, size_t bytes,
                            std::string &error) {
  return check(api->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", error);
}

bool CudaDriver::copyOnDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                              std::string &error) {
  return check(api->cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD", error);
}

bool CudaDriver::memset(DevicePtr dst, uint8_t value, size_t bytes,
                        std::string &error) {
  return check(api->cuMemsetD8(dst, value, bytes), "cuMemsetD8", error);
}

bool CudaDriver::function(const std::string &kernel, Handle &fn,
                          std::string &error) {
  Handle &cached = functions[kernel];
  if (!cached) {
    // Kernel names are unique across the images: the first that has it.
    for (void *module : modules)
      if (api->cuModuleGetFunction(&cached, module, kernel.c_str()) == 0)
        break;
    if (!cached) {
      error = "cuModuleGetFunction(" + kernel +
              ") failed: no loaded image "
              "has the kernel";
      return false;
    }
  }
  fn = cached;
  return true;
}

bool CudaDriver::kernelResources(const std::string &kernel,
                                 KernelResources &resources,
                                 std::string &error) {
  Handle fn = nullptr;
  int regs = 0, shared = 0, local = 0, threads = 0;
  if (!function(kernel, fn, error) ||
      !check(api->cuFuncGetAttribute(&regs, kFuncNumRegs, fn),
             "cuFuncGetAttribute", error) ||
      !check(api->cuFuncGetAttribute(&shared, kFuncSharedBytes, fn),
             "cuFuncGetAttribute", error) ||
      !check(api->cuFuncGetAttribute(&local, kFuncLocalBytes, fn),
             "cuFuncGetAttribute", error) ||
      !check(api->cuFuncGetAttribute(&threads, kFuncMaxThreads, fn),
             "cuFuncGetAttribute", error))
    return false;
  resources.registers = regs;
  resources.staticSharedBytes = shared;
  resources.localBytes = local;
  resources.maxThreadsPerBlock = threads;
  return true;
}

bool CudaDriver::encodeTensorMap(const TensorMapEncoding &e, DevicePtr base,
                                 TensorMapBytes &map, std::string &error) {
  if (!api->cuTensorMapEncodeTiled) {
    error = "the CUDA driver lacks cuTensorMapEncodeTiled (CUDA 12 or newer "
            "is needed for kernels with tensor maps)";
    return false;
  }
  return check(api->cuTensorMapEncodeTiled(
                   map.bytes, e.dataType, e.rank,
                   reinterpret_cast<void *>(static_cast<uintptr_t>(base)),
                   e.globalDim, e.globalStrides, e.boxDim, e.elementStrides,
                   e.interleave, e.swizzle, e.l2Promotion, e.oobFill),
               "cuTensorMapEncodeTiled", error);
}

bool CudaDriver::launch(const std::string &kernel, const unsigned grid[3],
                        const unsigned block[3], const unsigned cluster[3],
                        unsigned sharedBytes, bool dependent,
                        const std::vector<KernelArg> &args,
                        std::string &error) {
  Handle fn = nullptr;
  if (!function(kernel, fn, error))
    return false;
  // Above 48 KiB a kernel must opt in to its dynamic shared memory.
  unsigned &optIn = sharedOptIn[kernel];
  if (sharedBytes > 48 * 1024 && optIn < sharedBytes) {
    if (!check(api->cuFuncSetAttribute(fn, kFuncMaxDynamicShared,
                                       static_cast<int>(sharedBytes)),
               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", error))
      return false;
    optIn = sharedBytes;
  }
  // kernelParams[i] points at parameter i's bytes: the pointer, or the
  // 128 bytes of a by-value tensor map. The launch copies them.
  std::vector<void *> params;
  for (const KernelArg &a : args)
    params.push_back(const_cast<void *>(
        a.isTensorMap ? static_cast<const void *>(a.tensorMap.bytes)
                      : static_cast<const void *>(&a.pointer)));
  // Without cuLaunchKernelEx a plain launch is still right: a clustered
  // kernel declares its cluster shape (.reqnctapercluster), and a dependent
  // one then simply waits for its predecessor.
  const bool clustered = cluster[0] * cluster[1] * cluster[2] > 1;
  if ((dependent || clustered) && api->cuLaunchKernelEx) {
    LaunchAttribute attrs[2] = {};
    unsigned count = 0;
    if (dependent) {
      attrs[count].id = kLaunchAttrProgrammaticStreamSerialization;
      attrs[count++].value.programmaticStreamSerializationAllowed = 1;
    }
    if (clustered) {
      attrs[count].id = kLaunchAttrClusterDimension;
      for (int d = 0; d < 3; ++d)
        attrs[count].value.clusterDim[d] = cluster[d];
      ++count;
    }
    LaunchConfig config{grid[0],  grid[1],     grid[2], block[0], block[1],
                        block[2], sharedBytes, nullptr, attrs,    count};
    return check(api->cuLaunchKernelEx(&config, fn, params.data(), nullptr),
                 "cuLaunchKernelEx", error);
  }
  return check(api->cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0],
                                   block[1], block[2], sharedBytes, nullptr,
                                   params.data(), nullptr),
               "cuLaunchKernel", error);
}

bool CudaDriver::synchronize(std::string &error) {
  return check(api->cuCtxSynchronize(), "kernel execution", error);
}

bool CudaDriver::recordStart(std::string &error) {
  return check(api->cuEventRecord(startEvent, nullptr), "cuEventRecord", error);
}

bool CudaDriver::recordStop(float &ms, std::string &error) {
  return check(api->cuEventRecord(stopEvent, nullptr), "cuEventRecord",
               error) &&
         check(api->cuEventSynchronize(stopEvent), "kernel execution", error) &&
         check(api->cuEventElapsedTime(&ms, startEvent, stopEvent),
               "cuEventElapsedTime", error);
}
