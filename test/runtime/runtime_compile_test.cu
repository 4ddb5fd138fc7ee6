// metacu/runtime.h as host programs use it. Built by check_unroll_ptx.sh:
// compiled with nvcc -c everywhere, and linked and run as a self-check.
// Without a CUDA device only the device-free checks run; with one built as
// compute_80 PTX only, it also checks that loaded_arch reports the
// __CUDA_ARCH__ the running image was compiled for, not the device's.
#include <metacu/runtime.h>

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

namespace {

struct config_t {
  int nt;
  int vt;
};

const std::map<int, config_t> kernel_config{{75, {128, 4}}, {90, {256, 8}}};

__device__ constexpr int variant(metacu::sm_t<75>) { return 75; }
__device__ constexpr int variant(metacu::sm_t<90>) { return 90; }

template <int NT> __global__ void report_arch(int *out) {
#ifdef __CUDA_ARCH__
  int arch = __CUDA_ARCH__;
#else
  int arch = 0;
#endif
  int sum = 0;
  metacu::unroll_for<int, 0, NT, 32, metacu::loop_cmp::lt>(
      [&](auto i) { sum += decltype(i)::value; });
  out[0] = arch;
  out[1] = sum + variant(metacu::sm_t < NT == 256 ? 90 : 75 > {});
}

int failures = 0;

void expect(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "no exception";
}

int nt_for(int arch) {
  return metacu::dispatch_arch<75, 80, 90>(arch, [](auto sm) {
    return decltype(sm)::value == 75   ? 128
           : decltype(sm)::value == 80 ? 192
                                       : 256;
  });
}

void check_device_free() {
  expect(nt_for(75) == 128 && nt_for(86) == 192 && nt_for(89) == 192 &&
             nt_for(90) == 256 && nt_for(120) == 256,
         "dispatch_arch picks the greatest architecture not above arch");
  expect(error_of([] { nt_for(70); }) ==
             "metacu::dispatch_arch: no entry for sm_70; the list starts at "
             "sm_75",
         "dispatch_arch below the list throws out_of_range");

  int line = 0;
  std::string message;
  try {
    line = __LINE__ + 1;
    METACU_CHECK(cudaErrorInvalidValue);
  } catch (const metacu::cuda_error &e) {
    expect(e.code() == cudaErrorInvalidValue, "cuda_error carries the code");
    message = e.what();
  }
  expect(message == std::string(__FILE__) + ":" + std::to_string(line) +
                        ": CUDA error: cudaErrorInvalidValue: " +
                        cudaGetErrorString(cudaErrorInvalidValue) +
                        " in 'cudaErrorInvalidValue'",
         "METACU_CHECK message");
  METACU_CHECK(cudaSuccess);
}

void check_on_device() {
  int *out = nullptr;
  METACU_CHECK(cudaMalloc(&out, 2 * sizeof(int)));
  const int arch = metacu::loaded_arch(report_arch<128>);
  const config_t &config = metacu::select(kernel_config, arch);
  expect(metacu::loaded_arch(report_arch<128>) == arch, "cached value");

  metacu::dispatch_arch<75, 90>(report_arch<128>, [&](auto sm) {
    report_arch<decltype(sm)::value == 90 ? 256 : 128><<<1, 1>>>(out);
  });
  METACU_CHECK(cudaGetLastError());
  int host[2] = {};
  METACU_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  METACU_CHECK(cudaFree(out));

  int major = 0, minor = 0, device = 0;
  METACU_CHECK(cudaGetDevice(&device));
  METACU_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                      device));
  METACU_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                                      device));
  std::printf("device sm_%d%d, loaded_arch %d, __CUDA_ARCH__ %d, nt %d\n",
              major, minor, arch, host[0], config.nt);
  expect(host[0] == arch * 10, "loaded_arch is __CUDA_ARCH__ / 10");
#ifdef METACU_EXPECT_LOADED_ARCH
  expect(arch == METACU_EXPECT_LOADED_ARCH,
         "loaded_arch of the PTX-only build");
#endif
  const int nt = arch >= 90 ? 256 : 128;
  expect(host[1] == 16 * (nt / 32) * (nt / 32 - 1) + (arch >= 90 ? 90 : 75),
         "the variant dispatch_arch launched ran");
}

} // namespace

int main() {
  check_device_free();
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    std::printf("no CUDA device: loaded_arch not exercised\n");
  } else {
    check_on_device();
  }
  if (failures == 0)
    std::printf("PASSED\n");
  return failures == 0 ? 0 : 1;
}
