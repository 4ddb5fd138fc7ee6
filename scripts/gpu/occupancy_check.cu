// Checks metacu report's occupancy against the CUDA driver on this GPU, for
// scripts/gpu-occupancy. Reads lines "CUBIN MANGLED THREADS DYNAMIC_SMEM
// OPT_IN BLOCKS_PER_SM REGISTERS" (what metacu report predicted), loads each
// cubin and asks cuOccupancyMaxActiveBlocksPerMultiprocessor for the same
// block size and dynamic shared memory, raising the kernel's dynamic shared
// memory limit first where the launch opts in, as the report assumed.
// Where metacu says a launch cannot happen and the driver's occupancy call
// still answers (it ignores __launch_bounds__), the launch itself is tried:
// refused by the driver, the two agree. Prints one line per mismatch and a
// summary; exits 1 on any mismatch.
//
//   occupancy_check EXPECTED.tsv
#include <cuda.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

static void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS)
    return;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  std::fprintf(stderr, "occupancy_check: %s: %s\n", what, name ? name : "unknown error");
  std::exit(2);
}

// One block of \p f with every parameter zero (null pointers, zero sizes):
// only whether the driver accepts the launch matters. A launch it accepts is
// waited for, so that a fault shows here and not at the next call.
static CUresult try_launch(CUfunction f, int threads, int dynamic_smem) {
  alignas(16) static unsigned char zeros[4096] = {};
  size_t size = 0, offset, param_size;
  for (size_t i = 0; cuFuncGetParamInfo(f, i, &offset, &param_size) == CUDA_SUCCESS; ++i)
    size = offset + param_size;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, zeros, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  CUresult r = cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, dynamic_smem, nullptr, nullptr, extra);
  if (r == CUDA_SUCCESS)
    check(cuCtxSynchronize(), "a launch metacu says cannot happen ran");
  return r;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: occupancy_check EXPECTED.tsv\n");
    return 2;
  }
  check(cuInit(0), "cuInit");
  CUdevice dev;
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  char name[256];
  check(cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  std::printf("device: %s (compute capability %d.%d)\n", name, major, minor);

  std::map<std::string, CUmodule> modules;
  std::ifstream in(argv[1]);
  std::string line;
  int compared = 0, mismatched = 0, cannot_launch = 0, refused_at_launch = 0;
  std::map<std::string, int> refusals; // by the launch's error
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string cubin, mangled;
    int threads, dynamic_smem, opt_in, expected_blocks, expected_regs;
    if (!(fields >> cubin >> mangled >> threads >> dynamic_smem >> opt_in >> expected_blocks >> expected_regs))
      continue;
    CUmodule& module = modules[cubin];
    if (!module)
      check(cuModuleLoad(&module, cubin.c_str()), ("cuModuleLoad " + cubin).c_str());
    CUfunction f;
    check(cuModuleGetFunction(&f, module, mangled.c_str()), ("cuModuleGetFunction " + mangled).c_str());
    int regs = 0;
    check(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), "cuFuncGetAttribute");
    // The attribute is per function and sticky: set it for every line, to
    // the opted-in size or back to the default 48 KiB ceiling.
    int limit = opt_in ? dynamic_smem : 0;
    CUresult set = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, limit);
    int blocks = 0;
    CUresult r = set == CUDA_SUCCESS
                     ? cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, threads, dynamic_smem)
                     : set;
    // The driver refuses (rather than answering 0) a launch it could never
    // make, such as an opt-in beyond the device's maximum; metacu says 0.
    if (r != CUDA_SUCCESS)
      blocks = 0;
    if (blocks == 0)
      ++cannot_launch;
    ++compared;
    if (expected_blocks == 0 && blocks != 0 && regs == expected_regs) {
      CUresult launch = try_launch(f, threads, dynamic_smem);
      if (launch != CUDA_SUCCESS) {
        const char* why = nullptr;
        cuGetErrorName(launch, &why);
        ++refusals[why ? why : "unknown"];
        ++refused_at_launch;
        ++cannot_launch;
        continue;
      }
    }
    if (blocks != expected_blocks || regs != expected_regs) {
      ++mismatched;
      std::printf("MISMATCH %s %s threads=%d dynamic_smem=%d opt_in=%d: metacu %d blocks/SM (%d regs), "
                  "driver %d (%d regs)\n",
                  cubin.c_str(), mangled.c_str(), threads, dynamic_smem, opt_in, expected_blocks,
                  expected_regs, blocks, regs);
    }
  }
  std::printf("compared %d launches (%d that cannot launch, %d of them refused only by the launch "
              "itself): %d mismatches\n",
              compared, cannot_launch, refused_at_launch, mismatched);
  for (const auto& [why, n] : refusals)
    std::printf("  %d launches refused with %s\n", n, why.c_str());
  return mismatched ? 1 : 0;
}
