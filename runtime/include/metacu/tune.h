// metacu/tune.h - the timing harness of `metacu tune` (docs/tune.md).
//
// `metacu tune` expands a kernel's file with a batch of candidate
// specializations and METACU_TUNE defined; the file's tuning problem then
// supplies main() through METACU_TUNE_MAIN:
//
//   #ifdef METACU_TUNE
//   struct conv_problem {
//     explicit conv_problem(const std::vector<long long> &size); // inputs,
//     once size_t candidates() const;  // how many candidate kernels this file
//     has void clear();               // poison the output before a checked run
//     void launch(size_t i);      // run candidate i on the default stream
//     double error();             // largest error of the output vs reference
//   };
//   METACU_TUNE_MAIN(conv_problem)
//   #endif
//
// The harness allocates the problem once and, for each candidate in turn,
// runs it once and checks the result, warms up, then times repeated runs
// with CUDA events. It writes one JSON line per event on stdout, flushed, so
// that the runner that started it (metacu's run.py) keeps every result even
// when a candidate kills the process: a candidate that corrupts the context
// (illegal address) is reported and the harness exits with status 3; the
// runner restarts it with the candidates after that one (--candidates).
// --candidates also names the candidates a shard's compile built (the others'
// kernels are empty there; metacu's Shards.h).
#ifndef METACU_TUNE_H
#define METACU_TUNE_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace metacu::tune {

/// A JSON string literal of \p s.
inline std::string quoted(const char *s) {
  std::string out = "\"";
  for (; *s; ++s) {
    unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\')
      out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else
      out += char(c);
  }
  return out + "\"";
}

struct harness_options {
  std::vector<long long> size;
  double tolerance = 0;
  /// The candidates to run, in order; empty: all of them.
  std::vector<size_t> candidates;
  int warmup = 3;
  int repeat = 11;
};

inline bool parse_options(int argc, char **argv, harness_options &o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v)
      return false;
    ++i;
    if (!std::strcmp(a, "--size")) {
      for (const char *p = v; *p;) {
        char *end;
        o.size.push_back(std::strtoll(p, &end, 10));
        if (end == p)
          return false;
        p = *end == ',' ? end + 1 : end;
      }
    } else if (!std::strcmp(a, "--candidates")) {
      for (const char *p = v; *p;) {
        char *end;
        o.candidates.push_back(std::strtoull(p, &end, 10));
        if (end == p)
          return false;
        p = *end == ',' ? end + 1 : end;
      }
    } else if (!std::strcmp(a, "--tolerance"))
      o.tolerance = std::strtod(v, nullptr);
    else if (!std::strcmp(a, "--warmup"))
      o.warmup = std::atoi(v);
    else if (!std::strcmp(a, "--repeat"))
      o.repeat = std::atoi(v);
    else
      return false;
  }
  return o.repeat > 0 && o.warmup >= 0;
}

inline double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t)
      .count();
}

/// One candidate's outcome line; \p fatal when the context is gone.
inline void report_failure(size_t i, const char *status, const std::string &why,
                           bool fatal) {
  std::printf("{\"candidate\": %zu, \"status\": \"%s\", \"reason\": %s%s}\n", i,
              status, quoted(why.c_str()).c_str(),
              fatal ? ", \"fatal\": true" : "");
  std::fflush(stdout);
}

/// A launch error (bad configuration, too many resources) leaves the
/// context usable; an error while the kernel ran (illegal address) does not.
template <class Problem>
bool run_checked(Problem &p, size_t i, const char *what, bool &fatal) {
  p.launch(i);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    report_failure(i, "runtime",
                   std::string("cannot launch: ") + cudaGetErrorString(e),
                   false);
    return false;
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    fatal = true;
    report_failure(i, "runtime",
                   std::string(what) + ": " + cudaGetErrorString(e) +
                       " (context lost)",
                   true);
    return false;
  }
  return true;
}

template <class Problem> int run(int argc, char **argv) {
  auto started = std::chrono::steady_clock::now();
  harness_options o;
  if (!parse_options(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: %s [--size N,M,...] [--tolerance T] "
                 "[--candidates I,J,...] [--warmup N] [--repeat N]\n",
                 argv[0]);
    return 2;
  }
  int dev = 0, driver = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, dev) != cudaSuccess ||
      cudaDriverGetVersion(&driver) != cudaSuccess) {
    std::fprintf(stderr, "metacu tune harness: no usable CUDA device\n");
    return 2;
  }
  std::printf("{\"device\": %s, \"driver\": \"%d.%d\", \"cc\": %d}\n",
              quoted(prop.name).c_str(), driver / 1000, driver % 1000 / 10,
              prop.major * 10 + prop.minor);
  std::fflush(stdout);

  Problem problem(o.size);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::fprintf(stderr, "metacu tune harness: problem setup failed: %s\n",
                 cudaGetErrorString(e));
    return 2;
  }
  // What starting a harness costs (context, inputs, reference), paid once
  // per process: the runner adds it up.
  std::printf("{\"setup_ms\": %.3f}\n", ms_since(started));
  std::fflush(stdout);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  if (o.candidates.empty())
    for (size_t i = 0; i < problem.candidates(); ++i)
      o.candidates.push_back(i);
  for (size_t i : o.candidates) {
    if (i >= problem.candidates()) {
      std::fprintf(stderr,
                   "metacu tune harness: no candidate %zu (the problem has "
                   "%zu)\n",
                   i, problem.candidates());
      return 2;
    }
    std::printf("{\"start\": %zu}\n", i);
    std::fflush(stdout);
    bool fatal = false;
    auto t0 = std::chrono::steady_clock::now();
    problem.clear();
    if (!run_checked(problem, i, "while checking", fatal)) {
      if (fatal)
        return 3;
      continue;
    }
    double err = problem.error();
    double verification_ms = ms_since(t0);
    if (!(err <= o.tolerance)) {
      char why[128];
      std::snprintf(why, sizeof why,
                    "largest error %.3g above the tolerance %.3g", err,
                    o.tolerance);
      report_failure(i, "correctness", why, false);
      continue;
    }
    t0 = std::chrono::steady_clock::now();
    for (int w = 0; w < o.warmup; ++w)
      problem.launch(i);
    std::vector<double> times;
    for (int r = 0; r < o.repeat; ++r) {
      cudaEventRecord(start);
      problem.launch(i);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      times.push_back(ms);
    }
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
      report_failure(i, "runtime",
                     std::string("while timing: ") + cudaGetErrorString(e) +
                         " (context lost)",
                     true);
      return 3;
    }
    double benchmark_ms = ms_since(t0);
    std::string list;
    for (double t : times) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.6g", list.empty() ? "" : ", ", t);
      list += buf;
    }
    std::printf("{\"candidate\": %zu, \"status\": \"correct\", \"times\": "
                "[%s], \"error\": %.3g, \"verification_ms\": %.3f, "
                "\"benchmark_ms\": %.3f}\n",
                i, list.c_str(), err, verification_ms, benchmark_ms);
    std::fflush(stdout);
  }
  return 0;
}

} // namespace metacu::tune

/// Defines main() as the tuning harness over \p Problem.
#define METACU_TUNE_MAIN(Problem)                                              \
  int main(int argc, char **argv) {                                            \
    return metacu::tune::run<Problem>(argc, argv);                             \
  }

#endif
