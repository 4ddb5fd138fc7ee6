//===- metacu/select.h - Per-architecture lookup, tags, unrolling ---------===//
//
// The part of the metacu runtime that needs no CUDA header. metacu's
// generation-time interpreter includes it as well as the compiled program, so
// it stays pure C++17 with a handful of cheap standard headers.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SELECT_H
#define METACU_SELECT_H

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Plain host compilers (and the interpreter) know neither the execution-space
// qualifiers nor __forceinline__.
#if defined(__CUDACC__)
#define METACU_HD __host__ __device__
#define METACU_FORCEINLINE __forceinline__
#elif defined(__GNUC__)
#define METACU_HD
#define METACU_FORCEINLINE inline __attribute__((always_inline))
#else
#define METACU_HD
#define METACU_FORCEINLINE inline
#endif

// A METACU_HD template that calls a callable it is given runs a device lambda
// in kernels and a host one in host code; nvcc would reject one of the two
// unless told not to check the call's execution space.
#if defined(__NVCC__)
#define METACU_NO_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define METACU_NO_EXEC_CHECK
#endif

namespace metacu {

namespace detail {

[[noreturn]] inline void throw_no_fit(const char *who, int arch,
                                      const char *what, int first) {
  throw std::out_of_range(std::string(who) + ": no entry for sm_" +
                          std::to_string(arch) + "; the " + what +
                          " starts at sm_" + std::to_string(first));
}

} // namespace detail

/// The value for the greatest key not above \p arch: a table filled for
/// sm_75 and sm_90 serves sm_86 with the sm_75 entry, because code built for
/// an architecture runs on every later one. \p table is a sorted associative
/// container keyed by architecture number, such as std::map<int, V>.
/// Throws std::out_of_range when every key is above \p arch.
template <class Table>
const typename Table::mapped_type &select(const Table &table, int arch) {
  auto it = table.upper_bound(arch);
  if (it == table.begin()) {
    if (table.empty())
      throw std::out_of_range("metacu::select: no entry for sm_" +
                              std::to_string(arch) + "; the table is empty");
    detail::throw_no_fit("metacu::select", arch, "table", it->first);
  }
  return (--it)->second;
}

//===----------------------------------------------------------------------===//
// Problem sizes
//===----------------------------------------------------------------------===//

/// How far problem \p problem is from tuned size \p size: the sum over the
/// dimensions of |ln problem_k - ln size_k|, so that 512 is as far from 256
/// as from 1024 (a kernel's behaviour changes with the ratio of sizes, not
/// their difference). A dimension below 1 counts as 1 (an empty problem is
/// nearest the smallest size). Throws std::invalid_argument when the two
/// have a different number of dimensions.
inline double size_distance(const std::vector<long long> &size,
                            const std::vector<long long> &problem) {
  if (size.size() != problem.size())
    throw std::invalid_argument(
        "metacu: a problem of " + std::to_string(problem.size()) +
        " dimensions against sizes of " + std::to_string(size.size()));
  double d = 0;
  for (std::size_t k = 0; k < size.size(); ++k)
    d += std::fabs(std::log(double(problem[k] < 1 ? 1 : problem[k])) -
                   std::log(double(size[k] < 1 ? 1 : size[k])));
  return d;
}

/// The index in \p sizes of the tuned size nearest \p problem
/// (size_distance); a single size serves every problem. A problem exactly
/// between two sizes (512 between 256 and 1024) takes the larger, the one with
/// the greater product of dimensions, then the later in \p sizes; distances
/// within 1e-9 of each other count as equal, so that the program and metacu's
/// generator, whose logarithms may differ in the last bit, choose alike. Throws
/// std::out_of_range for no sizes, std::invalid_argument for a problem of
/// another number of dimensions.
inline std::size_t
nearest_size(const std::vector<std::vector<long long>> &sizes,
             const std::vector<long long> &problem) {
  if (sizes.empty())
    throw std::out_of_range("metacu: no tuned size to choose from");
  if (sizes.size() == 1)
    return 0;
  auto product = [](const std::vector<long long> &s) {
    double p = 1;
    for (long long n : s)
      p *= double(n);
    return p;
  };
  std::size_t best = 0;
  double best_d = size_distance(sizes[0], problem);
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    double d = size_distance(sizes[i], problem);
    bool tie = std::fabs(d - best_d) <= 1e-9;
    if ((!tie && d < best_d) ||
        (tie && product(sizes[i]) >= product(sizes[best]))) {
      best = i;
      best_d = d;
    }
  }
  return best;
}

/// One entry of a table tuned per problem size: the size it was tuned at and
/// what the program needs to run it (a kernel, its launch geometry).
template <class V> struct sized {
  std::vector<long long> size;
  V value;
};

/// The value of the entry of \p entries tuned at the size nearest
/// \p problem (nearest_size).
template <class V>
const V &select_size(const std::vector<sized<V>> &entries,
                     const std::vector<long long> &problem) {
  std::vector<std::vector<long long>> sizes;
  for (const sized<V> &e : entries)
    sizes.push_back(e.size);
  return entries[nearest_size(sizes, problem)].value;
}

/// For a table tuned per architecture and problem size, such as
/// std::map<int, std::vector<sized<V>>>: the architecture's entries as
/// select(table, arch) finds them, then the one tuned nearest \p problem.
///   const V &v = metacu::select(table, metacu::loaded_arch(kernel), {n});
template <class Table>
const auto &select(const Table &table, int arch,
                   const std::vector<long long> &problem) {
  return select_size(select(table, arch), problem);
}

//===----------------------------------------------------------------------===//
// Architecture tags
//===----------------------------------------------------------------------===//

/// Root of the tag hierarchy: an overload on sm_base accepts any architecture.
struct sm_base {};

template <int N> struct sm_t;

namespace detail {

// Ascending. Each tag derives from its predecessor here.
inline constexpr int known_archs[] = {75,  80,  86,  87,  89, 90,
                                      100, 103, 110, 120, 121};

constexpr int known_arch_below(int n) {
  int below = 0;
  for (int a : known_archs)
    if (a < n)
      below = a;
  return below;
}

template <int Parent> struct sm_parent { using type = sm_t<Parent>; };
template <> struct sm_parent<0> { using type = sm_base; };

} // namespace detail

/// Tag for compute capability N/10. sm_t<N> derives from the tag of the
/// greatest known architecture below N, so given overloads f(sm_t<75>) and
/// f(sm_t<90>), f(sm_t<100>{}) picks f(sm_t<90>) — the same best fit as
/// select() — and a number newer than this header (sm_t<130>) still resolves.
template <int N>
struct sm_t : detail::sm_parent<detail::known_arch_below(N)>::type {
  static constexpr int value = N;
};

//===----------------------------------------------------------------------===//
// Compile-time unrolling
//===----------------------------------------------------------------------===//

/// The comparison of a loop condition `i CMP End`.
enum class loop_cmp { lt, le, gt, ge, ne };

namespace detail {

// No loop is unrolled this far on purpose; stopping here turns a runaway
// loop into a static_assert instead of a compiler's constexpr-limit error.
inline constexpr std::size_t max_unrolled_trips = std::size_t{1} << 16;

enum class trip_fault { none, zero_step, overflow, runaway };

struct trip_count {
  std::size_t count;
  trip_fault fault;
};

template <loop_cmp Cmp, class T> METACU_HD constexpr bool holds(T i, T end) {
  if constexpr (Cmp == loop_cmp::lt)
    return i < end;
  else if constexpr (Cmp == loop_cmp::le)
    return i <= end;
  else if constexpr (Cmp == loop_cmp::gt)
    return i > end;
  else if constexpr (Cmp == loop_cmp::ge)
    return i >= end;
  else
    return i != end;
}

// Runs the loop on the compiler, so the count is exact for every type and
// comparison, unsigned wrap-around included. Leaving a signed type's range is
// reported rather than simulated: the real loop would be undefined there.
template <loop_cmp Cmp, class T>
METACU_HD constexpr trip_count count_trips(T begin, T end, T step) {
  if (step == 0)
    return {0, trip_fault::zero_step};
  T i = begin;
  for (std::size_t n = 0;; ++n) {
    if (!holds<Cmp>(i, end))
      return {n, trip_fault::none};
    if (n == max_unrolled_trips)
      return {0, trip_fault::runaway};
    if constexpr (std::is_signed_v<T>) {
      constexpr T max = static_cast<T>(std::make_unsigned_t<T>(-1) >> 1);
      constexpr T min = -max - 1;
      if (step > 0 ? i > max - step : i < min - step)
        return {0, trip_fault::overflow};
    }
    i += step;
  }
}

// Modular arithmetic is exact here: the result is a value the loop variable
// actually takes, so it fits T.
template <class T>
METACU_HD constexpr T nth_value(T begin, T step, std::size_t n) {
  return static_cast<T>(static_cast<unsigned long long>(begin) +
                        static_cast<unsigned long long>(n) *
                            static_cast<unsigned long long>(step));
}

METACU_NO_EXEC_CHECK
template <class T, T Begin, T Step, class F, std::size_t... I>
METACU_HD METACU_FORCEINLINE constexpr void
unroll_each(F &f, std::index_sequence<I...>) {
  ((void)f(std::integral_constant<T, nth_value(Begin, Step, I)>{}), ...);
}

} // namespace detail

/// Calls f(std::integral_constant<T, i>{}) for each value i that
/// `for (T i = Begin; i CMP End; i += Step)` takes, in order, so the loop
/// body sees `i` as a constant expression. metacu lowers `@meta for` loops
/// whose bounds depend on template parameters to this; the device code it
/// gives is the same as for a loop written out by hand. A zero step, a loop
/// that leaves T's range or one of more than 65536 trips fails to compile.
template <class T, T Begin, T End, T Step, loop_cmp Cmp, class F>
METACU_HD METACU_FORCEINLINE constexpr void unroll_for(F &&f) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                "metacu::unroll_for: the loop variable must be an integer");
  constexpr detail::trip_count trips =
      detail::count_trips<Cmp>(Begin, End, Step);
  static_assert(trips.fault != detail::trip_fault::zero_step,
                "metacu::unroll_for: the step is zero");
  static_assert(trips.fault != detail::trip_fault::overflow,
                "metacu::unroll_for: the loop variable overflows its type "
                "before the condition fails");
  static_assert(trips.fault != detail::trip_fault::runaway,
                "metacu::unroll_for: the loop does not end within 65536 "
                "trips (check the condition against the step's sign)");
  detail::unroll_each<T, Begin, Step>(f,
                                      std::make_index_sequence<trips.count>{});
}

} // namespace metacu

#endif // METACU_SELECT_H
