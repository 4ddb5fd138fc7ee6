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

namespace metacu {

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

  /// The kernels: the candidates of a tuning build, or the one kernel.
  size_t size() const { return entries_.size(); }
  F *kernel(size_t i = 0) const { return entries_.at(i).kernel; }
  /// The configuration kernel \p i runs with: the one of the image the GPU
  /// loaded for it (a candidate has one for every architecture).
  const tuned_config &config(size_t i = 0) const {
    const std::map<int, tuned_config> &by_arch = entries_.at(i).by_arch;
    if (by_arch.size() == 1 && by_arch.begin()->first == 0)
      return by_arch.begin()->second;
    return select(by_arch, loaded_arch(kernel(i)));
  }

private:
  std::vector<entry> entries_;
};

} // namespace metacu

#ifdef METACU_TUNE
#include <metacu/tune.h>
#else
// The harness is a tuning build's main only.
#define METACU_TUNE_ARRAYS(...)
#endif

#endif
