//===- metacu/runtime.h - Host side of the metacu runtime -----------------===//
//
// Error checking, the architecture of the kernel image the driver loaded, and
// dispatch on it. CUDA runtime API only; header-only.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_RUNTIME_H
#define METACU_RUNTIME_H

#include "select.h"

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

/// Evaluates \p call, a cudaError_t expression, once; anything but
/// cudaSuccess throws metacu::cuda_error naming this file and line, the error
/// and the call's text. Host code only.
#define METACU_CHECK(call)                                                     \
  ::metacu::detail::check((call), #call, __FILE__, __LINE__)

namespace metacu {

/// A failed CUDA runtime call, as thrown by METACU_CHECK. what() reads
/// "file:line: CUDA error: cudaErrorX: description in 'call'".
class cuda_error : public std::runtime_error {
public:
  cuda_error(cudaError_t code, const std::string &what)
      : std::runtime_error(what), code_(code) {}

  cudaError_t code() const noexcept { return code_; }

private:
  cudaError_t code_;
};

namespace detail {

inline void check(cudaError_t err, const char *call, const char *file,
                  int line) {
  if (err == cudaSuccess)
    return;
  // Once reported, a non-sticky error must not resurface at the next,
  // unrelated cudaGetLastError() of a program that handled the exception.
  (void)cudaGetLastError();
  throw cuda_error(err, std::string(file) + ":" + std::to_string(line) +
                            ": CUDA error: " + cudaGetErrorName(err) + ": " +
                            cudaGetErrorString(err) + " in '" + call + "'");
}

inline int loaded_arch(const void *kernel) {
  int device = 0;
  METACU_CHECK(cudaGetDevice(&device));
  const std::pair<const void *, int> key(kernel, device);

  static std::mutex mutex;
  static std::map<std::pair<const void *, int>, int> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end())
      return it->second;
  }
  // Unlocked: the first query loads the module and may JIT-compile its PTX,
  // which takes long enough to stall every other thread's lookup.
  cudaFuncAttributes attributes{};
  METACU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(key, attributes.ptxVersion).first->second;
}

} // namespace detail

/// The architecture the driver's loaded image of \p kernel was compiled for,
/// as __CUDA_ARCH__ / 10 (80 for an image built from compute_80 PTX even on
/// a 9.0 device). Host configuration must key on this, not on the device's
/// compute capability, or it can pick settings for a variant that is not the
/// one running. Cached per kernel and current device; thread-safe. Throws
/// cuda_error like METACU_CHECK.
template <class... Args> int loaded_arch(void (*kernel)(Args...)) {
  return detail::loaded_arch(reinterpret_cast<const void *>(kernel));
}

namespace detail {

template <class R, int Arch, int... Higher, class F>
R dispatch_from(int arch, F &f) {
  if constexpr (sizeof...(Higher) > 0) {
    constexpr int higher[] = {Higher...};
    if (arch >= higher[0])
      return dispatch_from<R, Higher...>(arch, f);
  }
  return f(sm_t<Arch>{});
}

template <std::size_t N> constexpr bool strictly_ascending(const int (&a)[N]) {
  for (std::size_t i = 1; i < N; ++i)
    if (a[i - 1] >= a[i])
      return false;
  return true;
}

} // namespace detail

/// Calls f(sm_t<K>{}) for the greatest K in the (ascending) list not above
/// \p arch, the same best fit as select(); throws std::out_of_range when all
/// are above it. Every branch must return the same type.
template <int First, int... Rest, class F>
auto dispatch_arch(int arch, F &&f) -> std::invoke_result_t<F &, sm_t<First>> {
  static_assert(detail::strictly_ascending({First, Rest...}),
                "metacu::dispatch_arch: list the architectures ascending");
  using R = std::invoke_result_t<F &, sm_t<First>>;
  static_assert(
      (std::is_same_v<R, std::invoke_result_t<F &, sm_t<Rest>>> && ...),
      "metacu::dispatch_arch: f must return the same type for "
      "every architecture");
  if (arch < First)
    detail::throw_no_fit("metacu::dispatch_arch", arch, "list", First);
  return detail::dispatch_from<R, First, Rest...>(arch, f);
}

/// dispatch_arch on loaded_arch(kernel): the variant matching the code that
/// actually runs.
template <int First, int... Rest, class... Args, class F>
auto dispatch_arch(void (*kernel)(Args...), F &&f)
    -> std::invoke_result_t<F &, sm_t<First>> {
  return dispatch_arch<First, Rest...>(loaded_arch(kernel), std::forward<F>(f));
}

} // namespace metacu

#endif // METACU_RUNTIME_H
