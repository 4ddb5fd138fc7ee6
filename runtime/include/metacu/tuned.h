// metacu/tuned.h - a tuned space's kernels on the host (docs/tune.md).
//
// The meta code's metacu::tuned_kernels emits a tuned space's kernels and
// spells their table for the host: @(kernels.host_table()) initializes a
// metacu::tuned_table<F>, F the kernels' function type. In an ordinary
// build the table holds the one kernel and its parameters for each
// architecture of the build, and config() picks those of the image the
// GPU loaded (metacu::loaded_arch, metacu::select); in a tuning build it
// holds the candidates of the batch, the tuning harness's to launch.
//
// It also brings the tuning harness (metacu/tune.h) into a tuning build,
// and makes METACU_TUNE_ARRAYS(...) empty in any other, so that a file
// states its harness once, without #ifdef METACU_TUNE around it.
#ifndef METACU_TUNED_H
#define METACU_TUNED_H

#include <metacu/runtime.h>
#include <metacu/select.h>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#ifdef METACU_TUNE
#include <metacu/tune.h>
#endif

namespace metacu {

/// A tuned_table's initializer in the source of a tuning harness that does
/// not depend on the candidates (the describe expansion, docs/tune.md): the
/// table holds the candidates of space \p space the harness is handed at
/// run time (metacu/tune.h, --table), and launches each through one kernel
/// of the table's type that the harness sends to the candidate it runs.
struct tune_harness_table {
  const char *space;
};

#ifdef METACU_TUNE
namespace detail {
/// The harness table's one kernel of type void(A...): its launches go to
/// the candidate being timed (metacu/tune.h, redirected()).
template <class... A> __global__ void tune_slot(A...) {}
template <class F> struct tune_slot_of;
template <class... A> struct tune_slot_of<void(A...)> {
  static void (*get())(A...) { return tune_slot<A...>; }
};
} // namespace detail
#endif

/// A configuration on the host: parameter names and values (a flag is 0
/// or 1), as a tuning file's entry or a candidate gives them.
class tuned_config {
public:
  tuned_config() = default;
  tuned_config(std::initializer_list<std::pair<const char *, long long>> params)
      : params_(params) {}

  /// The value of the parameter \p name; std::out_of_range when there is
  /// none (a name misspelt in host code).
  long long operator[](std::string_view name) const {
    for (const auto &p : params_)
      if (name == p.first)
        return p.second;
    throw std::out_of_range("metacu::tuned_config: no parameter '" +
                            std::string(name) + "'");
  }
  /// "block_size_x=32 block_size_y=8", for a program's output.
  std::string str() const {
    std::string s;
    for (const auto &p : params_)
      s += (s.empty() ? "" : " ") + std::string(p.first) + "=" +
           std::to_string(p.second);
    return s;
  }

  /// Adds parameter \p name (a string that outlives the configuration).
  void add(const char *name, long long value) {
    params_.emplace_back(name, value);
  }

private:
  std::vector<std::pair<const char *, long long>> params_;
};

/// A tuned space's kernels, each with its configuration by architecture.
template <class F> class tuned_table {
public:
  struct entry {
    F *kernel;
    /// Keyed by architecture number; a candidate's one entry is keyed 0.
    std::map<int, tuned_config> by_arch;
  };

  tuned_table(std::initializer_list<entry> entries) : entries_(entries) {}
#ifdef METACU_TUNE
  tuned_table(tune_harness_table t) : harness_(t.space) {
    tune::harness_slot(
        reinterpret_cast<const void *>(detail::tune_slot_of<F>::get()));
  }
#endif

  /// The kernels: the candidates of a tuning build, or the one kernel.
  size_t size() const {
#ifdef METACU_TUNE
    if (harness_)
      return tune::harness_space() == harness_ && !tune::harness_table().empty()
                 ? tune::harness_table().rbegin()->first + 1
                 : 0;
#endif
    return entries_.size();
  }
  F *kernel(size_t i = 0) const {
#ifdef METACU_TUNE
    if (harness_)
      return i < size() ? detail::tune_slot_of<F>::get()
                        : throw std::out_of_range("metacu::tuned_table");
#endif
    return entries_.at(i).kernel;
  }
  /// The configuration kernel \p i runs with: the one of the image the GPU
  /// loaded for it (a candidate has one for every architecture).
  const tuned_config &config(size_t i = 0) const {
#ifdef METACU_TUNE
    if (harness_) {
      if (i >= size())
        throw std::out_of_range("metacu::tuned_table");
      auto [it, fresh] = harness_configs_.try_emplace(i);
      if (fresh)
        for (const auto &[name, value] : tune::harness_table().at(i).params)
          it->second.add(name.c_str(), value);
      return it->second;
    }
#endif
    const std::map<int, tuned_config> &by_arch = entries_.at(i).by_arch;
    if (by_arch.size() == 1 && by_arch.begin()->first == 0)
      return by_arch.begin()->second;
    return select(by_arch, loaded_arch(kernel(i)));
  }

private:
  std::vector<entry> entries_;
#ifdef METACU_TUNE
  /// The space of a harness table; null otherwise.
  const char *harness_ = nullptr;
  /// Its configurations, made from the harness's table when first asked.
  mutable std::map<size_t, tuned_config> harness_configs_;
#endif
};

} // namespace metacu

#ifndef METACU_TUNE
// The harness is a tuning build's main only.
#define METACU_TUNE_ARRAYS(...)
#endif

#endif
