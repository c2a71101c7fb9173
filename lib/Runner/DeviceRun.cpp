//===- DeviceRun.cpp - run and time a compiled entry on a device ----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/DeviceRun.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Frees the device buffers it is given when it goes out of scope, so a
/// run or a benchmark leaves the device as it found it (an embedder may run
/// many entries on one device).
class BufferScope {
public:
  explicit BufferScope(Device &device) : device(device) {}
  ~BufferScope() {
    for (const std::vector<DevicePtr> *list : lists)
      for (DevicePtr p : *list)
        if (p)
          device.free(p);
    for (const DevicePtr *p : singlePtrs)
      if (*p)
        device.free(*p);
  }
  void add(const std::vector<DevicePtr> &list) { lists.push_back(&list); }
  void add(const DevicePtr &ptr) { singlePtrs.push_back(&ptr); }

private:
  Device &device;
  std::vector<const std::vector<DevicePtr> *> lists;
  std::vector<const DevicePtr *> singlePtrs;
};

bool isFloat(const HostBuffer &buffer) {
  Type e = buffer.type.getElementType();
  return e.isF16() || e.isBF16() || e.isF32();
}

/// The parameters of each launch of the entry for one set of argument
/// pointers and the entry's workspaces: pointers, and the tensor maps
/// encoded over them (once, outside any timing).
using BoundArgs = std::vector<std::vector<KernelArg>>;

bool bindArgs(Device &device, const CompiledEntry &kernels,
              const std::vector<DevicePtr> &ptrs,
              const std::vector<DevicePtr> &workspaces, BoundArgs &bound,
              std::string &error) {
  bound.clear();
  for (const KernelLaunch &k : kernels.launches) {
    std::vector<KernelArg> &params = bound.emplace_back();
    for (const KernelOperand &o : k.operands) {
      KernelArg arg = KernelArg::ofPointer(o.workspace ? workspaces[o.index]
                                                       : ptrs[o.index]);
      if (o.tensorMap) {
        arg.isTensorMap = true;
        if (!device.encodeTensorMap(*o.tensorMap, arg.pointer, arg.tensorMap,
                                    error))
          return false;
      }
      params.push_back(arg);
    }
  }
  return true;
}

/// Launches every kernel of the entry with its bound parameters.
bool launchAll(Device &device, const CompiledEntry &kernels,
               const BoundArgs &bound, std::string &error) {
  for (auto [k, params] : llvm::zip(kernels.launches, bound))
    if (!device.launch(k.kernel, k.grid, k.block, k.cluster,
                       k.dynamicSharedBytes, k.dependent, params, error))
      return false;
  return true;
}

/// Allocates the entry's workspaces.
bool allocWorkspaces(Device &device, const CompiledEntry &kernels,
                     std::vector<DevicePtr> &workspaces, std::string &error) {
  workspaces.assign(kernels.workspaceBytes.size(), 0);
  for (auto [i, bytes] : llvm::enumerate(kernels.workspaceBytes))
    if (!device.alloc(bytes, workspaces[i], error))
      return false;
  return true;
}

/// Uploads `args` into fresh allocations.
bool upload(Device &device, ArrayRef<HostBuffer> args,
            std::vector<DevicePtr> &ptrs, std::string &error) {
  ptrs.assign(args.size(), 0);
  for (auto [i, buffer] : llvm::enumerate(args))
    if (!device.alloc(buffer.bytes.size(), ptrs[i], error) ||
        !device.copyToDevice(ptrs[i], buffer.bytes.data(), buffer.bytes.size(),
                             error))
      return false;
  return true;
}

/// Poisons the outputs with `poison`, runs, and reads the outputs back.
bool runPoisoned(Device &device, const CompiledEntry &kernels,
                 const EntrySignature &signature,
                 const std::vector<DevicePtr> &ptrs, const BoundArgs &bound,
                 MutableArrayRef<HostBuffer> args, uint8_t poison,
                 std::string &error) {
  for (unsigned o : signature.outputs)
    if (!device.memset(ptrs[o], poison, args[o].bytes.size(), error))
      return false;
  if (!launchAll(device, kernels, bound, error) || !device.synchronize(error))
    return false;
  for (unsigned o : signature.outputs)
    if (!device.copyToHost(args[o].bytes.data(), ptrs[o], args[o].bytes.size(),
                           error))
      return false;
  return true;
}

void perturb(HostBuffer &output, int64_t element) {
  if (!isFloat(output)) {
    output.bytes[element] ^= 0x01;
    return;
  }
  std::vector<float> values = output.toFloats();
  float &v = values[element];
  v = std::isfinite(v) ? v * 2.0f + 1.0f : 0.0f;
  output.fromFloats(values);
}

} // namespace

bool mlir::nvfp4::runOnDevice(Device &device, const CompiledEntry &kernels,
                              const EntrySignature &signature,
                              MutableArrayRef<HostBuffer> args,
                              const DeviceRunOptions &options,
                              std::string &error) {
  if (!device.loadModules(kernels.getImages(), error))
    return false;
  std::vector<DevicePtr> ptrs, workspaces;
  BufferScope scope(device);
  scope.add(ptrs);
  scope.add(workspaces);
  BoundArgs bound;
  if (!upload(device, args, ptrs, error) ||
      !allocWorkspaces(device, kernels, workspaces, error) ||
      !bindArgs(device, kernels, ptrs, workspaces, bound, error))
    return false;
  // Two runs, poisoned with 0x00 and then 0xFF: any byte that differs was
  // not written. (A NaN poison alone does not do for float outputs: with
  // NaN scales in the inputs the reference has NaNs, which an unwritten
  // NaN would match. The kernels are deterministic, so written bytes agree.)
  SmallVector<std::vector<uint8_t>> before, first;
  for (unsigned o : signature.outputs)
    before.push_back(args[o].bytes);
  if (!runPoisoned(device, kernels, signature, ptrs, bound, args, 0x00, error))
    return false;
  for (unsigned o : signature.outputs)
    first.push_back(args[o].bytes);
  if (!runPoisoned(device, kernels, signature, ptrs, bound, args, 0xFF, error))
    return false;
  for (auto [oi, o] : llvm::enumerate(signature.outputs)) {
    std::vector<uint8_t> &a = first[oi], &b = args[o].bytes;
    // Bytes the ops leave untouched kept both poisons; then they get back
    // what they held, and count as written.
    for (const DeviceRunOptions::Untouched &u : options.untouched) {
      if (u.arg != o)
        continue;
      for (int64_t i = u.begin; i < u.end; ++i) {
        if (a[i] != 0x00 || b[i] != 0xFF) {
          error = "the kernels wrote byte " + std::to_string(i) +
                  " of argument #" + std::to_string(o) +
                  ", which its op leaves untouched";
          return false;
        }
        a[i] = b[i] = before[oi][i];
      }
    }
    int64_t unwritten = 0, firstByte = -1;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i] && unwritten++ == 0)
        firstByte = static_cast<int64_t>(i);
    if (unwritten) {
      error = "the kernels did not write " + std::to_string(unwritten) +
              " of the " + std::to_string(a.size()) + " bytes of argument #" +
              std::to_string(o) +
              " (they kept the poison of each run, or two runs wrote them "
              "differently); the first is byte " +
              std::to_string(firstByte);
      return false;
    }
  }
  if (options.perturbElement) {
    HostBuffer &out = args[signature.outputs.front()];
    int64_t n = isFloat(out) ? out.type.getNumElements()
                             : static_cast<int64_t>(out.bytes.size());
    if (*options.perturbElement < 0 || *options.perturbElement >= n) {
      error =
          "the element to perturb (" + std::to_string(*options.perturbElement) +
          ") is outside the first output (" + std::to_string(n) + " elements)";
      return false;
    }
    perturb(out, *options.perturbElement);
  }
  return true;
}

bool mlir::nvfp4::benchmarkOnDevice(Device &device,
                                    const CompiledEntry &kernels,
                                    const EntrySignature &signature,
                                    ArrayRef<HostBuffer> args, unsigned iters,
                                    BenchResult &result, std::string &error) {
  if (iters == 0) {
    error = "the benchmark needs at least one timed launch";
    return false;
  }
  size_t allBytes = 0;
  for (unsigned i : signature.inputs)
    allBytes += args[i].bytes.size();
  for (unsigned o : signature.outputs)
    allBytes += args[o].bytes.size();
  allBytes = std::max<size_t>(allBytes, 1);
  // Rotate over enough copies of the arguments to exceed L2 twice.
  size_t sets = std::clamp<size_t>(
      (2 * static_cast<size_t>(device.l2Bytes()) + allBytes - 1) / allBytes + 1,
      2, 64);
  std::vector<std::vector<DevicePtr>> copies(sets);
  BufferScope scope(device);
  for (const std::vector<DevicePtr> &set : copies)
    scope.add(set);
  for (size_t s = 0; s < sets; ++s)
    if (!upload(device, args, copies[s], error))
      return false;
  // One set of workspaces: the launches run in stream order.
  std::vector<DevicePtr> workspaces;
  scope.add(workspaces);
  if (!allocWorkspaces(device, kernels, workspaces, error))
    return false;
  std::vector<BoundArgs> bound(sets);
  for (size_t s = 0; s < sets; ++s)
    if (!bindArgs(device, kernels, copies[s], workspaces, bound[s], error))
      return false;
  // The floor: a device-to-device copy of 1 GiB, bytes read + written.
  const size_t copyBytes = size_t(1) << 30;
  DevicePtr src = 0, dst = 0;
  scope.add(src);
  scope.add(dst);
  float copyMs = 0;
  if (!device.alloc(copyBytes, src, error) ||
      !device.alloc(copyBytes, dst, error) ||
      !device.copyOnDevice(dst, src, copyBytes, error) ||
      !device.time(
          [&] {
            for (int r = 0; r < 5; ++r)
              if (!device.copyOnDevice(dst, src, copyBytes, error))
                return false;
            return true;
          },
          copyMs, error))
    return false;
  // Warm-up over every set.
  for (size_t w = 0; w < 2 * sets; ++w)
    if (!launchAll(device, kernels, bound[w % sets], error))
      return false;
  // Two timings, both over rotating buffer sets: (a) each launch between
  // its own pair of events (includes the launch latency, several
  // microseconds for short kernels), and (b) batches of back-to-back
  // launches, one event pair per batch, divided by the batch size: the
  // kernel's throughput as a caller issuing a stream of them sees it. The
  // floor comparison uses (b). (b) also records the host's wall time spent
  // in the launch calls of each batch.
  std::vector<float> single, batched;
  for (unsigned r = 0; r < iters; ++r) {
    float t = 0;
    if (!device.time(
            [&] { return launchAll(device, kernels, bound[r % sets], error); },
            t, error))
      return false;
    single.push_back(t * 1000.0f);
  }
  const unsigned batch = 10;
  std::vector<float> issue;
  for (unsigned r = 0; r < std::max(5u, iters / batch); ++r) {
    float t = 0;
    if (!device.time(
            [&] {
              auto start = std::chrono::steady_clock::now();
              for (unsigned i = 0; i < batch; ++i)
                if (!launchAll(device, kernels, bound[(r * batch + i) % sets],
                               error))
                  return false;
              std::chrono::duration<float, std::micro> host =
                  std::chrono::steady_clock::now() - start;
              issue.push_back(host.count() / batch);
              return true;
            },
            t, error))
      return false;
    batched.push_back(t * 1000.0f / batch);
  }
  if (!device.synchronize(error))
    return false;
  auto median = [](std::vector<float> &v) {
    std::sort(v.begin(), v.end());
    return static_cast<double>(v[v.size() / 2]);
  };
  result.backToBackUs = median(batched);
  result.aloneUs = median(single);
  result.hostIssueUs = median(issue);
  result.batches = batched.size();
  result.batchSize = batch;
  result.singles = single.size();
  result.bufferSets = sets;
  result.bytes = allBytes;
  result.copyTBs = 5.0 * 2.0 * copyBytes / (copyMs * 1e-3) / 1e12;
  result.floorUs = allBytes / (result.copyTBs * 1e12) * 1e6;
  return true;
}
