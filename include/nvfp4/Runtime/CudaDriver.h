//===- CudaDriver.h - the CUDA Driver API, loaded at run time ---*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-run opens libcuda.so.1 with dlopen, so the same binary runs on a
// machine without a driver (it then compiles and runs the CPU reference).
// Only the handful of entry points the runner needs are bound.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNTIME_CUDADRIVER_H
#define NVFP4_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::nvfp4 {

/// A device pointer.
using DevicePtr = uint64_t;

/// One CUDA device with a current context, a loaded module and its kernels.
class CudaDriver {
public:
  /// Opens the driver and device 0. On failure returns null and says why in
  /// `error` (no libcuda, no device, driver error).
  static std::unique_ptr<CudaDriver> open(std::string &error);
  ~CudaDriver();

  /// "sm_90a" for compute capability 9.0, "sm_100a" for 10.0, etc.
  std::string archName() const;
  std::string deviceName() const { return name; }
  int64_t l2Bytes() const { return l2; }

  /// Loads a cubin or PTX image; kernels are then found by name.
  bool loadModule(const std::string &image, std::string &error);
  /// Allocates `bytes` of device memory.
  bool alloc(size_t bytes, DevicePtr &ptr, std::string &error);
  bool copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                    std::string &error);
  bool copyToHost(void *dst, DevicePtr src, size_t bytes, std::string &error);
  bool copyOnDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                    std::string &error);
  bool memset(DevicePtr dst, uint8_t value, size_t bytes, std::string &error);
  /// Launches `kernel` with one pointer parameter per entry of `args`.
  bool launch(const std::string &kernel, const unsigned grid[3],
              const unsigned block[3], const std::vector<DevicePtr> &args,
              std::string &error);
  bool synchronize(std::string &error);

  /// Event-based timing of `body` (which enqueues work), in milliseconds.
  template <typename Fn>
  bool time(Fn body, float &ms, std::string &error) {
    if (!recordStart(error))
      return false;
    if (!body())
      return false;
    return recordStop(ms, error);
  }

private:
  CudaDriver() = default;
  bool recordStart(std::string &error);
  bool recordStop(float &ms, std::string &error);
  bool check(int result, const char *what, std::string &error) const;

  struct Api;
  std::unique_ptr<Api> api;
  void *library = nullptr;
  void *context = nullptr;
  void *module = nullptr;
  void *startEvent = nullptr, *stopEvent = nullptr;
  /// Kernel handles by name, looked up once (not inside timed loops).
  std::map<std::string, void *> functions;
  std::vector<DevicePtr> allocations;
  int device = 0, ccMajor = 0, ccMinor = 0;
  int64_t l2 = 0;
  std::string name;
};

} // namespace mlir::nvfp4

#endif // NVFP4_RUNTIME_CUDADRIVER_H
