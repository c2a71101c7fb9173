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

#include "nvfp4/Runtime/Device.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::nvfp4 {

/// Device 0 through the CUDA Driver API (libcuda.so.1, opened at run time).
class CudaDriver final : public Device {
public:
  /// Opens the driver and device 0. On failure returns null and says why in
  /// `error` (no libcuda, no device, driver error).
  static std::unique_ptr<CudaDriver> open(std::string &error);
  ~CudaDriver() override;

  std::string archName() const override;
  std::string deviceName() const override { return name; }
  int64_t l2Bytes() const override { return l2; }

  bool loadModules(const std::vector<std::string> &images,
                   std::string &error) override;
  bool kernelResources(const std::string &kernel, KernelResources &resources,
                       std::string &error) override;
  bool alloc(size_t bytes, DevicePtr &ptr, std::string &error) override;
  void free(DevicePtr ptr) override;
  bool copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                    std::string &error) override;
  bool copyToHost(void *dst, DevicePtr src, size_t bytes,
                  std::string &error) override;
  bool copyOnDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                    std::string &error) override;
  bool memset(DevicePtr dst, uint8_t value, size_t bytes,
              std::string &error) override;
  bool encodeTensorMap(const TensorMapEncoding &encoding, DevicePtr base,
                       TensorMapBytes &map, std::string &error) override;
  bool launch(const std::string &kernel, const unsigned grid[3],
              const unsigned block[3], const unsigned cluster[3],
              unsigned sharedBytes, bool dependent,
              const std::vector<KernelArg> &args, std::string &error) override;
  bool synchronize(std::string &error) override;

protected:
  bool recordStart(std::string &error) override;
  bool recordStop(float &ms, std::string &error) override;

private:
  CudaDriver() = default;
  bool check(int result, const char *what, std::string &error) const;
  /// The kernel's handle, looked up once (not inside timed loops).
  bool function(const std::string &kernel, void *&fn, std::string &error);

  struct Api;
  std::unique_ptr<Api> api;
  void *library = nullptr;
  void *context = nullptr;
  std::vector<void *> modules;
  void *startEvent = nullptr, *stopEvent = nullptr;
  std::map<std::string, void *> functions;
  /// Dynamic shared memory each kernel was opted in to.
  std::map<std::string, unsigned> sharedOptIn;
  std::vector<DevicePtr> allocations;
  int device = 0, ccMajor = 0, ccMinor = 0;
  int64_t l2 = 0;
  std::string name;
};

} // namespace mlir::nvfp4

#endif // NVFP4_RUNTIME_CUDADRIVER_H
