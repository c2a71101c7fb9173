//===- Device.h - what the runner needs from a GPU -------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The runner (lib/Runner) launches, checks and times kernels through this
// interface. CudaDriver implements it with the CUDA Driver API; unit tests
// implement it on host memory, so the runner's logic (poisoning, checking,
// the report) is tested on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNTIME_DEVICE_H
#define NVFP4_RUNTIME_DEVICE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::nvfp4 {

using DevicePtr = uint64_t;

/// What the loaded image says about one kernel (-1: unknown).
struct KernelResources {
  int registers = -1;
  int64_t staticSharedBytes = -1;
  /// Local memory per thread: register spills and stack.
  int64_t localBytes = -1;
  int maxThreadsPerBlock = -1;
};

/// The arguments of cuTensorMapEncodeTiled for one tensor map, but the
/// buffer's address: what `!nvfp4.tensor_map` says (getTensorMapEncoding in
/// nvfp4/Runtime/TensorMap.h builds it). Values of cuda.h's enums; tiled
/// mode, dimensions innermost first.
struct TensorMapEncoding {
  /// CUtensorMapDataType.
  uint32_t dataType = 0;
  uint32_t rank = 0;
  uint64_t globalDim[5] = {};
  /// Byte strides of dimensions 1 .. rank - 1.
  uint64_t globalStrides[4] = {};
  uint32_t boxDim[5] = {};
  uint32_t elementStrides[5] = {};
  /// CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
  /// CUtensorMapFloatOOBfill.
  uint32_t interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0;
};

/// An encoded CUtensorMap (opaque; 64-byte aligned as the driver requires).
struct alignas(64) TensorMapBytes {
  uint8_t bytes[128] = {};
};

/// One kernel parameter: a device pointer, or a tensor map passed by value.
struct KernelArg {
  DevicePtr pointer = 0;
  bool isTensorMap = false;
  TensorMapBytes tensorMap;

  static KernelArg ofPointer(DevicePtr p) {
    KernelArg a;
    a.pointer = p;
    return a;
  }
};

class Device {
public:
  virtual ~Device() = default;

  /// "sm_90a" for compute capability 9.0, "sm_100a" for 10.0, etc.
  virtual std::string archName() const = 0;
  virtual std::string deviceName() const = 0;
  virtual int64_t l2Bytes() const = 0;

  /// Loads cubin or PTX images (unloading any loaded before); kernels are
  /// then found by name in any of them.
  virtual bool loadModules(const std::vector<std::string> &images,
                           std::string &error) = 0;
  virtual bool kernelResources(const std::string &kernel,
                               KernelResources &resources,
                               std::string &error) = 0;
  /// Allocates `bytes` of device memory (freed by `free`, or with the
  /// device).
  virtual bool alloc(size_t bytes, DevicePtr &ptr, std::string &error) = 0;
  /// Frees memory `alloc` returned.
  virtual void free(DevicePtr ptr) = 0;
  virtual bool copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                            std::string &error) = 0;
  virtual bool copyToHost(void *dst, DevicePtr src, size_t bytes,
                          std::string &error) = 0;
  virtual bool copyOnDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                            std::string &error) = 0;
  virtual bool memset(DevicePtr dst, uint8_t value, size_t bytes,
                      std::string &error) = 0;
  /// Encodes the tensor map `encoding` describes over the buffer at `base`
  /// (cuTensorMapEncodeTiled).
  virtual bool encodeTensorMap(const TensorMapEncoding &encoding,
                               DevicePtr base, TensorMapBytes &map,
                               std::string &error) = 0;
  /// Launches `kernel` with the parameters `args` (pointers, and tensor
  /// maps by value), `sharedBytes` of dynamic shared memory and, when
  /// `cluster` is not 1 x 1 x 1, thread-block clusters of that shape (`grid`
  /// counts CTAs). `dependent`: a programmatic
  /// dependent launch (the kernel may start while the previous one in the
  /// stream finishes, and waits for it with griddepcontrol.wait; without
  /// the feature a plain launch is equally correct).
  virtual bool launch(const std::string &kernel, const unsigned grid[3],
                      const unsigned block[3], const unsigned cluster[3],
                      unsigned sharedBytes, bool dependent,
                      const std::vector<KernelArg> &args,
                      std::string &error) = 0;
  /// Waits for the launched work; reports a failed kernel.
  virtual bool synchronize(std::string &error) = 0;

  /// Event-based timing of `body` (which enqueues work), in milliseconds.
  template <typename Fn> bool time(Fn body, float &ms, std::string &error) {
    if (!recordStart(error))
      return false;
    if (!body())
      return false;
    return recordStop(ms, error);
  }

protected:
  virtual bool recordStart(std::string &error) = 0;
  virtual bool recordStop(float &ms, std::string &error) = 0;
};

} // namespace mlir::nvfp4

#endif // NVFP4_RUNTIME_DEVICE_H
