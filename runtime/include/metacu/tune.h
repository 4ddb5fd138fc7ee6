// metacu/tune.h - the timing harness of `metacu tune` (docs/tune.md).
//
// `metacu tune` expands a kernel's file with a batch of candidate
// specializations and METACU_TUNE defined; the file's tuning problem then
// supplies main() through METACU_TUNE_MAIN:
//
//   #ifdef METACU_TUNE
//   struct conv_problem {
//     explicit conv_problem(const std::vector<long long> &size); // once
//     size_t candidates() const; // the candidate kernels in this file
//     void clear();              // poison the output before a checked run
//     void launch(size_t i);     // run candidate i on the default stream
//     double error();            // largest error of the output vs reference
//   };
//   METACU_TUNE_MAIN(conv_problem)
//   #endif
//
// The harness makes the problem once and, for each candidate in turn, runs
// it once and checks the result, warms up, then times repeated runs with
// CUDA events (with --cutoff F, two only for a candidate whose two are
// both slower than F times the best median so far). It writes one JSON
// line per event on stdout, flushed, so that the runner that started it
// (metacu's run.py) keeps every result even when a candidate kills the
// process: a candidate that corrupts the context
// (illegal address) is reported and the harness exits with status 3; the
// runner starts it again for the candidates after that one.
//
// Two ways to name the candidates:
//  - `--candidates I,J,...`: the kernels compiled into this executable.
//  - `--serve`: run.py's way. The executable is built with every candidate's
//    kernel empty (METACU_TUNE_SHARD, metacu's Shards.h) and
//    METACU_TUNE_MODULES; each line on stdin names a cubin that holds some
//    candidates' kernels (a shard, compiled with nvcc -cubin) and those
//    candidates (`PATH<TAB>I:NAME<TAB>J:NAME...`). The harness loads the
//    cubin through the driver API, runs the candidates, unloads it and says
//    `{"done": true}`. So one process per GPU makes the problem once for all
//    the shards of its translation unit, and a shard's compile is device
//    code only. The problem's own launches (`kernel<<<...>>>`, which nvcc
//    turns into cudaLaunchKernel, linked with --wrap) of a kernel named by
//    the candidate (NAME or NAME_...) go to the cubin's function of the same
//    name; every other launch goes to the executable's own image. The
//    problem's device variables (`__constant__`, `__device__`) live in the
//    executable's image: they are copied into the cubin's before each
//    checked run and back after it, and cudaFuncSetAttribute calls on a
//    candidate's kernel are applied to the cubin's function too.
#ifndef METACU_TUNE_H
#define METACU_TUNE_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

// The harness's machinery (options, checking and timing, loading shards)
// does not depend on the problem: run.py compiles it once, with
// METACU_TUNE_HARNESS_OBJECT defined, into an object it keeps between runs
// (keyed by these headers, the nvcc and its flags), and compiles each
// batch's host code with METACU_TUNE_PREBUILT, which sees its declarations
// only and links with that object. Without either (a harness built by
// hand), the header defines everything inline, as one translation unit.
#ifdef METACU_TUNE_HARNESS_OBJECT
#define METACU_TUNE_FN
#else
#define METACU_TUNE_FN inline
#endif
#if !defined(METACU_TUNE_PREBUILT) || defined(METACU_TUNE_HARNESS_OBJECT)
#define METACU_TUNE_DEFINITIONS
#endif

#include <map>

#if defined(METACU_TUNE_MODULES) && defined(METACU_TUNE_DEFINITIONS)
#include <cuda.h>
#include <elf.h>
#include <fstream>
#include <iostream>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#endif

namespace metacu::tune {

/// A problem as the harness runs it (the problem's own class, or arrays),
/// behind one interface, so that the harness's machinery is compiled
/// without it.
struct problem_base {
  virtual ~problem_base() = default;
  virtual size_t candidates() const = 0;
  virtual void clear() = 0;
  virtual void launch(size_t i) = 0;
  virtual double error() = 0;
};

template <class Problem> struct problem_of final : problem_base {
  explicit problem_of(std::unique_ptr<Problem> p) : p(std::move(p)) {}
  size_t candidates() const override { return p->candidates(); }
  void clear() override { p->clear(); }
  void launch(size_t i) override { p->launch(i); }
  double error() override { return p->error(); }
  std::unique_ptr<Problem> p;
};

/// Makes the problem for one problem size.
using problem_maker = std::function<std::unique_ptr<problem_base>(
    const std::vector<long long> &)>;

/// A candidate of a harness table (metacu/tuned.h, tune_harness_table):
/// its kernel's name and its parameters, as the harness is handed them.
struct table_entry {
  std::string name;
  std::vector<std::pair<std::string, long long>> params;
};

#ifndef METACU_TUNE_DEFINITIONS
/// The candidates handed to this harness for its table (--table), by
/// index; node-based, so that a configuration's names stay put.
std::map<size_t, table_entry> &harness_table();
/// The space whose table they are (--table NAME); empty: none.
const std::string &harness_space();
/// Marks \p stub as a harness table's kernel, whose launches go to the
/// candidate being timed.
void harness_slot(const void *stub);

/// The harness: options from \p argv, the problems \p make makes (one, or
/// one per size of --sizes), then each candidate checked and timed; main()'s
/// exit status. Defined in the object run.py builds.
int run_problems(int argc, char **argv, const problem_maker &make);
#else

METACU_TUNE_FN std::map<size_t, table_entry> &harness_table() {
  static std::map<size_t, table_entry> table;
  return table;
}

METACU_TUNE_FN std::string &harness_space_name() {
  static std::string space;
  return space;
}

METACU_TUNE_FN const std::string &harness_space() {
  return harness_space_name();
}

/// A JSON string literal of \p s.
METACU_TUNE_FN std::string quoted(const char *s) {
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
  /// Several problem sizes (`--sizes 1024;2048`, a space's sizes()): the
  /// problem is made at each, and each candidate timed at each.
  std::vector<std::vector<long long>> sizes;
  double tolerance = 0;
  /// The candidates to run, in order; empty: all of them.
  std::vector<size_t> candidates;
  int warmup = 3;
  int repeat = 11;
  /// A candidate whose first two timed runs are both slower than `cutoff`
  /// times the best median this process has timed (at the same size) is
  /// timed no further: it cannot be the best, and its runs are GPU time the
  /// search waits for (`--cutoff F`; 0, the default: every run).
  double cutoff = 0;
  /// Take shards from stdin (the header's comment).
  bool serve = false;
  /// The space whose harness table the shards' candidates fill.
  std::string table;
};

METACU_TUNE_FN bool parse_options(int argc, char **argv, harness_options &o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!std::strcmp(a, "--serve")) {
      o.serve = true;
      continue;
    }
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
    } else if (!std::strcmp(a, "--sizes")) {
      std::vector<long long> one;
      for (const char *p = v;;) {
        char *end;
        one.push_back(std::strtoll(p, &end, 10));
        if (end == p)
          return false;
        if (*end == ';' || !*end) {
          o.sizes.push_back(std::move(one));
          one.clear();
        }
        if (!*end)
          break;
        p = end + 1;
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
    else if (!std::strcmp(a, "--table"))
      o.table = v;
    else if (!std::strcmp(a, "--cutoff"))
      o.cutoff = std::strtod(v, nullptr);
    else
      return false;
  }
  return o.repeat > 0 && o.warmup >= 0 && o.cutoff >= 0;
}

/// The median of \p times (the objective metacu takes from them).
METACU_TUNE_FN double median_of(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  if (n == 0)
    return 0;
  return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

/// Whether a candidate's timed runs so far, \p times, show it slower than
/// \p cutoff times \p best (the best median timed before it, 0 when none):
/// its two first runs both are (harness_options::cutoff).
METACU_TUNE_FN bool clearly_slower(const std::vector<double> &times,
                                   double best, double cutoff) {
  return cutoff > 0 && best > 0 && times.size() >= 2 &&
         std::min(times[0], times[1]) > cutoff * best;
}

/// The best median timed so far on \p problem by this process.
METACU_TUNE_FN double &best_median(const void *problem) {
  static std::map<const void *, double> best;
  return best[problem];
}

METACU_TUNE_FN double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t)
      .count();
}

/// One candidate's outcome line; \p fatal when the context is gone.
METACU_TUNE_FN void report_failure(size_t i, const char *status,
                                   const std::string &why, bool fatal) {
  std::printf("{\"candidate\": %zu, \"status\": \"%s\", \"reason\": %s%s}\n", i,
              status, quoted(why.c_str()).c_str(),
              fatal ? ", \"fatal\": true" : "");
  std::fflush(stdout);
}

/// Whether the kernel named \p kernel (as the compiler names it: plain, or
/// Itanium-mangled with its source names length-prefixed) is one of
/// candidate \p name's: named \p name or `<name>_...`, as metacu's Shards.h
/// guards them.
METACU_TUNE_FN bool names_candidate(const std::string &kernel,
                                    const std::string &name) {
  auto fits = [&](const std::string &id) {
    return id.compare(0, name.size(), name) == 0 &&
           (id.size() == name.size() || id[name.size()] == '_');
  };
  if (fits(kernel))
    return true;
  for (size_t i = 0; i < kernel.size();) {
    if (kernel[i] < '0' || kernel[i] > '9') {
      ++i;
      continue;
    }
    size_t j = i, n = 0;
    for (; j < kernel.size() && kernel[j] >= '0' && kernel[j] <= '9'; ++j)
      n = std::min(n * 10 + size_t(kernel[j] - '0'), kernel.size());
    if (n <= kernel.size() - j && fits(kernel.substr(j, n)))
      return true;
    i = j;
  }
  return false;
}

#ifdef METACU_TUNE_MODULES
/// The names of the symbols of \p type defined in the cubin \p image (the
/// variables, `__constant__` and `__device__`: STT_OBJECT; the kernels:
/// STT_FUNC) from its ELF symbol table. Anything that does not read as
/// ELF64 has none.
METACU_TUNE_FN std::vector<std::string> elf_symbols(const std::string &image,
                                                    unsigned char type) {
  std::vector<std::string> out;
  Elf64_Ehdr eh;
  if (image.size() < sizeof eh)
    return out;
  std::memcpy(&eh, image.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > image.size() ||
      eh.e_shnum > (image.size() - eh.e_shoff) / sizeof(Elf64_Shdr))
    return out;
  auto section = [&](size_t i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, image.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    return sh;
  };
  auto inside = [&](const Elf64_Shdr &sh) {
    return sh.sh_offset <= image.size() &&
           sh.sh_size <= image.size() - sh.sh_offset;
  };
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr syms = section(i);
    if (syms.sh_type != SHT_SYMTAB || syms.sh_link >= eh.e_shnum ||
        !inside(syms))
      continue;
    Elf64_Shdr names = section(syms.sh_link);
    if (!inside(names))
      continue;
    for (size_t k = 0; k + sizeof(Elf64_Sym) <= syms.sh_size;
         k += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, image.data() + syms.sh_offset + k, sizeof sym);
      if (ELF64_ST_TYPE(sym.st_info) != type || sym.st_shndx == SHN_UNDEF ||
          sym.st_name >= names.sh_size)
        continue;
      const char *n = image.data() + names.sh_offset + sym.st_name;
      size_t len = strnlen(n, names.sh_size - sym.st_name);
      if (len > 0 && len < names.sh_size - sym.st_name)
        out.emplace_back(n, len);
    }
  }
  return out;
}

/// Where the problem's launches of candidate kernels go while a shard's
/// cubin is loaded.
struct module_redirect {
  /// The loaded shard: its module, the candidates it builds, its variables.
  CUmodule module = nullptr;
  std::vector<std::string> names;
  std::vector<std::string> variables;
  /// The executable's own image, which holds the problem's variables.
  CUmodule image = nullptr;
  /// Per host stub launched: the shard's function, or null for a kernel
  /// that is no candidate's (it runs from the executable's image).
  std::unordered_map<const void *, CUfunction> functions;
  /// cudaFuncSetAttribute calls, per stub, to apply to its shard function.
  std::unordered_map<const void *, std::vector<std::pair<int, int>>> attributes;
  /// The shard's kernels (for a harness table's launches).
  std::vector<std::string> kernels;
  /// The harness tables' kernels (harness_slot()), and the candidate being
  /// timed, where their launches go: the shard's kernel it names.
  std::unordered_set<const void *> slots;
  std::string current;
  std::unordered_map<std::string, CUfunction> slot_functions;
  /// Copy the problem's variables into the shard before the next launch.
  bool copy_in = false;
  /// The first failed driver launch since the last check.
  CUresult launch_error = CUDA_SUCCESS;
};

METACU_TUNE_FN module_redirect &redirect() {
  static module_redirect r;
  return r;
}

METACU_TUNE_FN std::string driver_error(CUresult r) {
  const char *s = nullptr;
  cuGetErrorString(r, &s);
  return s ? s : "CUDA driver error " + std::to_string(int(r));
}

/// Copies every variable of \p names from \p from to \p to where both have
/// it with one size.
METACU_TUNE_FN void copy_variables(CUmodule from, CUmodule to,
                                   const std::vector<std::string> &names) {
  for (const std::string &n : names) {
    CUdeviceptr a, b;
    size_t na = 0, nb = 0;
    if (cuModuleGetGlobal(&a, &na, from, n.c_str()) == CUDA_SUCCESS &&
        cuModuleGetGlobal(&b, &nb, to, n.c_str()) == CUDA_SUCCESS && na == nb)
      cuMemcpyDtoD(b, a, na);
  }
}

/// Makes \p f, the shard's kernel for host stub \p stub, launch as the
/// program's own would: the attributes the program set on the stub's
/// kernel, and the program's image noted (where its globals are).
METACU_TUNE_FN void adopt(module_redirect &r, const void *stub, CUfunction f) {
  for (auto [attr, value] : r.attributes[stub])
    cuFuncSetAttribute(f, CUfunction_attribute(attr), value);
  cudaFunction_t own;
  if (r.image)
    return;
  if (cudaGetFuncBySymbol(&own, stub) == cudaSuccess)
    cuFuncGetModule(&r.image, reinterpret_cast<CUfunction>(own));
  else
    // A harness table's slot in a harness compiled host side only (run.py's
    // --clang) has no image: the lookup's error is not the launch's.
    cudaGetLastError();
}

/// The shard's function for the kernel whose host stub is \p stub, or null.
METACU_TUNE_FN CUfunction redirected(const void *stub) {
  module_redirect &r = redirect();
  if (!r.module)
    return nullptr;
  if (r.slots.count(stub)) {
    // A harness table's launch: the kernel of the candidate being timed.
    auto [it, fresh] = r.slot_functions.try_emplace(r.current, nullptr);
    if (!fresh)
      return it->second;
    for (const std::string &k : r.kernels) {
      CUfunction f;
      if (!names_candidate(k, r.current) ||
          cuModuleGetFunction(&f, r.module, k.c_str()) != CUDA_SUCCESS)
        continue;
      adopt(r, stub, f);
      it->second = f;
      break;
    }
    return it->second;
  }
  auto [it, fresh] = r.functions.try_emplace(stub, nullptr);
  if (!fresh)
    return it->second;
  const char *name = nullptr;
  if (cudaFuncGetName(&name, stub) != cudaSuccess || !name)
    return nullptr;
  for (const std::string &c : r.names) {
    if (!names_candidate(name, c))
      continue;
    CUfunction f;
    if (cuModuleGetFunction(&f, r.module, name) != CUDA_SUCCESS)
      break;
    adopt(r, stub, f);
    it->second = f;
    break;
  }
  return it->second;
}

/// Loads the cubin at \p path for the candidates \p names; an error says
/// why it cannot be.
METACU_TUNE_FN std::string load_shard(const std::string &path,
                                      std::vector<std::string> names) {
  // Read at once (a shard's cubin is megabytes; a character at a time
  // took milliseconds of each shard change, the GPU idle).
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::streamoff size = in ? std::streamoff(in.tellg()) : -1;
  std::string image(size_t(std::max<std::streamoff>(size, 0)), '\0');
  in.seekg(0);
  if (size < 0 || !in.read(image.data(), size))
    return "cannot read " + path;
  module_redirect &r = redirect();
  if (CUresult e = cuModuleLoadData(&r.module, image.data());
      e != CUDA_SUCCESS) {
    r.module = nullptr;
    return "cannot load " + path + ": " + driver_error(e);
  }
  r.names = std::move(names);
  r.variables = elf_symbols(image, STT_OBJECT);
  r.kernels = elf_symbols(image, STT_FUNC);
  r.functions.clear();
  r.slot_functions.clear();
  return "";
}

METACU_TUNE_FN void unload_shard() {
  module_redirect &r = redirect();
  if (r.module)
    cuModuleUnload(r.module);
  r.module = nullptr;
  r.functions.clear();
  r.slot_functions.clear();
}
#endif

METACU_TUNE_FN void harness_slot(const void *stub) {
#ifdef METACU_TUNE_MODULES
  redirect().slots.insert(stub);
#else
  (void)stub;
#endif
}

/// Takes the error of the last launch, the driver's (a shard's function)
/// or the runtime's.
METACU_TUNE_FN std::string take_launch_error() {
#ifdef METACU_TUNE_MODULES
  module_redirect &r = redirect();
  if (CUresult e = r.launch_error; e != CUDA_SUCCESS) {
    r.launch_error = CUDA_SUCCESS;
    cudaGetLastError();
    return driver_error(e);
  }
#endif
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    return cudaGetErrorString(e);
  return "";
}

/// A launch error (bad configuration, too many resources) leaves the
/// context usable; an error while the kernel ran (illegal address) does not.
METACU_TUNE_FN bool run_checked(problem_base &p, size_t i, const char *what,
                                bool &fatal, std::string &why) {
#ifdef METACU_TUNE_MODULES
  redirect().copy_in = true;
#endif
  p.launch(i);
  if (std::string e = take_launch_error(); !e.empty()) {
    why = "cannot launch: " + e;
    return false;
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    fatal = true;
    why = std::string(what) + ": " + cudaGetErrorString(e) + " (context lost)";
    return false;
  }
#ifdef METACU_TUNE_MODULES
  // What the candidate wrote to device variables, where the problem's
  // error() reads it.
  module_redirect &r = redirect();
  if (r.module && r.image && !r.copy_in)
    copy_variables(r.module, r.image, r.variables);
  r.copy_in = false;
#endif
  return true;
}

/// What checking and timing one candidate at one size gave.
struct outcome {
  /// "correct", or the failure's status.
  std::string status = "correct";
  std::string reason;
  std::vector<double> times;
  double error = 0, verification_ms = 0, benchmark_ms = 0;
  /// The context is lost: the harness must exit.
  bool fatal = false;
};

/// The times of \p o as a JSON array's elements.
METACU_TUNE_FN std::string time_list(const outcome &o) {
  std::string list;
  for (double t : o.times) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.6g", list.empty() ? "" : ", ", t);
    list += buf;
  }
  return list;
}

/// Checks and times candidate \p i on \p problem.
METACU_TUNE_FN outcome measure_on(problem_base &problem, size_t i,
                                  const harness_options &o, cudaEvent_t start,
                                  cudaEvent_t stop) {
  outcome out;
  auto t0 = std::chrono::steady_clock::now();
  problem.clear();
  if (!run_checked(problem, i, "while checking", out.fatal, out.reason)) {
    out.status = "runtime";
    return out;
  }
  out.error = problem.error();
  out.verification_ms = ms_since(t0);
  if (!(out.error <= o.tolerance)) {
    char why[128];
    std::snprintf(why, sizeof why,
                  "largest error %.3g above the tolerance %.3g", out.error,
                  o.tolerance);
    out.status = "correctness";
    out.reason = why;
    return out;
  }
  t0 = std::chrono::steady_clock::now();
  for (int w = 0; w < o.warmup; ++w)
    problem.launch(i);
  double &best = best_median(&problem);
  for (int r = 0; r < o.repeat; ++r) {
    cudaEventRecord(start);
    problem.launch(i);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    out.times.push_back(ms);
    if (clearly_slower(out.times, best, o.cutoff))
      break;
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    out.status = "runtime";
    out.reason = std::string("while timing: ") + cudaGetErrorString(e) +
                 " (context lost)";
    out.fatal = true;
    return out;
  }
  out.benchmark_ms = ms_since(t0);
  // Only a candidate timed in full sets the best: one cut short is slower.
  double median = median_of(out.times);
  if (out.times.size() == size_t(o.repeat) && median > 0 &&
      (best == 0 || median < best))
    best = median;
  return out;
}

/// Checks and times candidate \p i on each problem (one per size) and
/// writes its line: the first size's result, and with --sizes each size's
/// under "sizes". False when the context is lost.
METACU_TUNE_FN bool
measure(std::vector<std::unique_ptr<problem_base>> &problems, size_t i,
        const harness_options &o, cudaEvent_t start, cudaEvent_t stop) {
  std::printf("{\"start\": %zu}\n", i);
  std::fflush(stdout);
  std::vector<outcome> each;
  for (auto &p : problems) {
    each.push_back(measure_on(*p, i, o, start, stop));
    if (each.back().fatal) {
      std::string at;
      if (!o.sizes.empty()) {
        for (long long n : o.sizes[each.size() - 1])
          at += (at.empty() ? "" : "x") + std::to_string(n);
        at = " (size " + at + ")";
      }
      report_failure(i, "runtime", each.back().reason + at, true);
      return false;
    }
  }
  const outcome &first = each.front();
  std::string line = "{\"candidate\": " + std::to_string(i) +
                     ", \"status\": \"" + first.status + "\"";
  auto fields = [](const outcome &x) {
    char buf[160];
    if (x.status != "correct")
      return ", \"reason\": " + quoted(x.reason.c_str());
    std::snprintf(buf, sizeof buf,
                  ", \"error\": %.3g, \"verification_ms\": %.3f, "
                  "\"benchmark_ms\": %.3f",
                  x.error, x.verification_ms, x.benchmark_ms);
    return ", \"times\": [" + time_list(x) + "]" + buf;
  };
  line += fields(first);
  if (!o.sizes.empty()) {
    line += ", \"sizes\": [";
    for (size_t k = 0; k < each.size(); ++k)
      line += (k ? ", {\"status\": \"" : "{\"status\": \"") + each[k].status +
              "\"" + fields(each[k]) + "}";
    line += "]";
  }
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
  return true;
}

/// One line of --serve: the cubin's path and its candidates (index and
/// name), tab-separated; false when it does not read so.
METACU_TUNE_FN bool
parse_shard(const std::string &line, std::string &path,
            std::vector<std::pair<size_t, std::string>> &members) {
  size_t tab = line.find('\t');
  path = line.substr(0, tab);
  while (tab != std::string::npos) {
    size_t next = line.find('\t', tab + 1);
    std::string field = line.substr(tab + 1, next - tab - 1);
    char *end;
    size_t i = std::strtoull(field.c_str(), &end, 10);
    if (end == field.c_str() || *end != ':')
      return false;
    members.emplace_back(i, end + 1);
    tab = next;
  }
  return !path.empty() && !members.empty();
}

/// The harness: options from \p argv, the problems \p make makes (one, or
/// one per size of --sizes), then each candidate checked and timed; main()'s
/// exit status.
METACU_TUNE_FN int run_problems(int argc, char **argv,
                                const problem_maker &make) {
  auto started = std::chrono::steady_clock::now();
  harness_options o;
  if (!parse_options(argc, argv, o)) {
    std::fprintf(
        stderr,
        "usage: %s [--size N,M,... | --sizes N,M;N,M...] [--tolerance T] "
        "[--candidates I,J,... | --serve [--table SPACE]] [--warmup N] "
        "[--repeat N] [--cutoff F]\n",
        argv[0]);
    return 2;
  }
  harness_space_name() = o.table;
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

  // Every size's problem is made before any candidate runs, so that each
  // candidate is timed at every size while its shard is loaded. The CUDA
  // context is made meanwhile, beside the problem's first work on the CPU
  // (its inputs), which would otherwise wait for it.
  std::vector<std::unique_ptr<problem_base>> problems;
  {
    struct joined : std::thread {
      using std::thread::thread;
      ~joined() { join(); }
    } context([] { cudaFree(nullptr); });
    if (o.sizes.empty())
      problems.push_back(make(o.size));
    for (const std::vector<long long> &size : o.sizes)
      problems.push_back(make(size));
  }
  auto &problem = *problems.front();
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
  auto exists = [&](size_t i) {
    if (i < problem.candidates())
      return true;
    std::fprintf(stderr,
                 "metacu tune harness: no candidate %zu (the problem has "
                 "%zu)\n",
                 i, problem.candidates());
    return false;
  };
  if (o.serve) {
#ifdef METACU_TUNE_MODULES
    std::string line;
    while (std::getline(std::cin, line)) {
      std::string path;
      std::vector<std::pair<size_t, std::string>> members;
      if (!parse_shard(line, path, members)) {
        std::fprintf(stderr, "metacu tune harness: not a shard: %s\n",
                     line.c_str());
        return 2;
      }
      std::vector<std::string> names;
      for (auto &m : members) {
        // NAME, or NAME:P=V,... for a harness table (--table): the
        // candidate's parameters, which the table gives the problem.
        size_t colon = m.second.find(':');
        if (colon != std::string::npos) {
          table_entry e;
          for (size_t at = colon + 1; at < m.second.size();) {
            size_t comma = std::min(m.second.find(',', at), m.second.size());
            size_t eq = m.second.find('=', at);
            if (eq == std::string::npos || eq > comma) {
              std::fprintf(stderr, "metacu tune harness: not a shard: %s\n",
                           line.c_str());
              return 2;
            }
            e.params.emplace_back(
                m.second.substr(at, eq - at),
                std::strtoll(m.second.c_str() + eq + 1, nullptr, 10));
            at = comma + 1;
          }
          m.second.resize(colon);
          e.name = m.second;
          if (!o.table.empty())
            harness_table().try_emplace(m.first, std::move(e));
        }
        if (!exists(m.first))
          return 2;
        names.push_back(m.second);
      }
      std::string e = load_shard(path, names);
      if (!e.empty())
        for (const auto &m : members)
          report_failure(m.first, "runtime", e, false);
      else
        for (const auto &m : members) {
          redirect().current = m.second;
          if (!measure(problems, m.first, o, start, stop))
            return 3;
        }
      // Done before the unload, so that the runner hands over the next
      // shard while the driver unloads this one.
      std::printf("{\"done\": true}\n");
      std::fflush(stdout);
      if (e.empty())
        unload_shard();
    }
    return 0;
#else
    std::fprintf(stderr, "metacu tune harness: --serve needs the harness "
                         "built with METACU_TUNE_MODULES (run.py does)\n");
    return 2;
#endif
  }
  if (o.candidates.empty())
    for (size_t i = 0; i < problem.candidates(); ++i)
      o.candidates.push_back(i);
  for (size_t i : o.candidates)
    if (!exists(i) || !measure(problems, i, o, start, stop))
      return exists(i) ? 3 : 2;
  return 0;
}

#endif // METACU_TUNE_DEFINITIONS

/// The harness over the problems \p make makes (a unique_ptr) from a
/// problem size: one, or one per size of --sizes.
template <class Make> int run_with(int argc, char **argv, Make make) {
  return run_problems(argc, argv, [&](const std::vector<long long> &size) {
    auto p = make(size);
    using Problem = typename decltype(p)::element_type;
    return std::unique_ptr<problem_base>(
        std::make_unique<problem_of<Problem>>(std::move(p)));
  });
}

template <class Problem> int run(int argc, char **argv) {
  return run_with(argc, argv, [](const std::vector<long long> &size) {
    return std::make_unique<Problem>(size);
  });
}

/// How many parts in_parts() cuts \p n elements into: one a core, none
/// under 64 Ki elements.
inline size_t parts(size_t n) {
  return std::max<size_t>(
      1, std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                          n >> 16));
}

/// Calls \p fn(k, begin, end) for each part k of the parts(n) consecutive
/// parts of [0, n), each on a thread of its own: the arrays problem's
/// set-up on every core, which the first timing waits for.
template <class Fn> void in_parts(size_t n, Fn fn) {
  size_t k = parts(n);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < k; ++t)
    pool.emplace_back([&, t] { fn(t, t * n / k, (t + 1) * n / k); });
  fn(0, 0, n / k);
  for (std::thread &t : pool)
    t.join();
}

/// The linear congruential sequence of arrays::uniform(): state' = a *
/// state + c (mod 2^32), each state giving a value in [-1, 1).
constexpr unsigned lcg_a = 1664525u, lcg_c = 1013904223u;

/// The state \p steps steps after \p s: the step composed with itself by
/// squaring.
inline unsigned lcg_jump(unsigned s, size_t steps) {
  unsigned a = lcg_a, c = lcg_c;
  for (; steps; steps >>= 1) {
    if (steps & 1)
      s = a * s + c;
    c = a * c + c;
    a = a * a;
  }
  return s;
}

/// Fills \p v with the sequence's values after \p state, each part (in
/// parts()) from its place in the sequence, jumped to; returns the state
/// after the last.
template <class T> unsigned uniform_fill(unsigned state, std::vector<T> &v) {
  in_parts(v.size(), [&](size_t, size_t begin, size_t end) {
    unsigned s = lcg_jump(state, begin);
    for (size_t i = begin; i < end; ++i) {
      s = s * lcg_a + lcg_c;
      v[i] = T(float(s >> 8) / float(1u << 23) - 1.0f);
    }
  });
  return lcg_jump(state, v.size());
}

/// The elements of [0, n) that \p checked accepts (all without it), in
/// order, each part's found on a thread of its own (a call of \p checked
/// per element: 64 million for stencil3d's output).
inline std::vector<size_t>
checked_indices(size_t n, const std::function<bool(size_t)> &checked) {
  std::vector<std::vector<size_t>> found(parts(n));
  in_parts(n, [&](size_t part, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      if (!checked || checked(i))
        found[part].push_back(i);
  });
  std::vector<size_t> all;
  for (const std::vector<size_t> &part : found)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

/// The common tuning problem without a class of its own (METACU_TUNE_ARRAYS,
/// docs/tune.md): device arrays in, arrays out, each output compared with a
/// reference made once, on the CPU or by a reference kernel. Its setup
/// function makes the inputs and outputs here and returns how to launch
/// candidate i.
class arrays {
public:
  /// \p candidates: how many kernels the problem has, asked when the
  /// harness needs to know (a harness table's grows as shards come).
  arrays(std::vector<long long> size, std::function<size_t()> candidates)
      : size(std::move(size)), count(std::move(candidates)) {}
  arrays(const arrays &) = delete;
  arrays &operator=(const arrays &) = delete;
  ~arrays() {
    for (void *p : owned)
      cudaFree(p);
    for (const check &c : outputs)
      cudaFreeHost(c.host);
  }

  /// The size this problem is made for: the space's problem_size, or one
  /// of its sizes() (the harness makes one arrays per size).
  const std::vector<long long> size;

  /// \p n values uniform in [-1, 1), the same on every run: successive
  /// calls continue one linear congruential sequence (seeded 2024). Made
  /// on every core (uniform_fill): a large input, stencil3d's 68 million
  /// floats, took about 0.1 s of CPU one step at a time.
  template <class T> std::vector<T> uniform(size_t n) {
    std::vector<T> v(n);
    state = uniform_fill(state, v);
    return v;
  }

  /// A device copy of \p host.
  template <class T> T *input(const std::vector<T> &host) {
    T *d = allocate<T>(host.size());
    METACU_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T),
                            cudaMemcpyHostToDevice));
    return d;
  }

  /// \p n elements the candidates write, set to all-ones bytes (NaN) before
  /// each checked run, then compared with \p reference(i) at each i that
  /// \p checked accepts (every one without it), computed here once, on
  /// every core: \p reference and \p checked are called from several
  /// threads at once.
  template <class T, class Reference>
  T *output(size_t n, Reference reference,
            const std::function<bool(size_t)> &checked = {}) {
    check c = {allocate<T>(n), nullptr, n * sizeof(T), nullptr, {}, {},
               &compare<T>};
    // Read back into pinned memory, made once: a pageable copy goes
    // through the driver's staging on the CPU, most of a check's time.
    METACU_CHECK(cudaMallocHost(&c.host, c.bytes));
    c.index = checked_indices(n, checked);
    // A CPU reference is often a loop per element (a matmul's row times
    // column): most of the problem's setup, which the first timing waits
    // for, so it is spread over the cores.
    c.expected.resize(c.index.size());
    size_t threads =
        std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                         c.index.size() / 4096 + 1);
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (size_t k = t; k < c.index.size(); k += threads)
          c.expected[k] = double(reference(c.index[k]));
      });
    for (std::thread &t : pool)
      t.join();
    outputs.push_back(std::move(c));
    return static_cast<T *>(outputs.back().device);
  }

  /// A device copy of \p host that the candidates update in place (y = a *
  /// x + y): restored from \p host before each checked run, then compared
  /// as output() compares.
  template <class T, class Reference>
  T *inout(const std::vector<T> &host, Reference reference,
           const std::function<bool(size_t)> &checked = {}) {
    T *initial = input(host);
    T *d = output<T>(host.size(), reference, checked);
    outputs.back().initial = initial;
    return d;
  }

  /// \p n elements compared, all of them, with what \p reference_kernel
  /// (a function that launches a reference kernel writing \p n elements to
  /// the pointer it is given) writes, run here once.
  template <class T, class Launch>
  T *output_from_kernel(size_t n, Launch reference_kernel) {
    T *ref = allocate<T>(n);
    reference_kernel(ref);
    METACU_CHECK(cudaGetLastError());
    std::vector<T> host(n);
    METACU_CHECK(
        cudaMemcpy(host.data(), ref, n * sizeof(T), cudaMemcpyDeviceToHost));
    return output<T>(n, [&](size_t i) { return host[i]; });
  }

  // The problem as the harness runs it.
  size_t candidates() const { return count(); }
  void clear() {
    for (const check &c : outputs)
      if (c.initial)
        METACU_CHECK(
            cudaMemcpy(c.device, c.initial, c.bytes, cudaMemcpyDeviceToDevice));
      else
        METACU_CHECK(cudaMemset(c.device, 0xff, c.bytes));
  }
  void launch(size_t i) { launcher(i); }
  double error() {
    double e = 0;
    for (const check &c : outputs) {
      double d = c.compare(c);
      if (!(d <= e))
        e = d;
    }
    return e;
  }

  std::function<void(size_t)> launcher;

private:
  struct check {
    void *device;
    /// What an updated-in-place output starts from; null: NaN.
    const void *initial;
    size_t bytes;
    /// Where each check copies the output to: \p bytes, made once,
    /// page-locked. A vector made per check (its pages faulted in and
    /// zeroed each time) made the check of stencil3d's 256 MB output 190 ms
    /// a candidate on an H100, against 47 ms for the problem class it
    /// replaced, which kept its buffer: most of a candidate's time.
    void *host;
    std::vector<size_t> index;
    std::vector<double> expected;
    double (*compare)(const check &);
  };
  /// The largest difference of the output from its reference (infinite
  /// for a NaN, an element not written).
  template <class T> static double compare(const check &c) {
    const T *out = static_cast<const T *>(c.host);
    METACU_CHECK(cudaMemcpy(c.host, c.device, c.bytes, cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t k = 0; k < c.index.size(); ++k) {
      double d = std::fabs(double(out[c.index[k]]) - c.expected[k]);
      if (!(d <= e))
        e = std::isnan(d) ? INFINITY : d;
    }
    return e;
  }
  template <class T> T *allocate(size_t n) {
    void *p = nullptr;
    METACU_CHECK(cudaMalloc(&p, n * sizeof(T)));
    owned.push_back(p);
    return static_cast<T *>(p);
  }

  std::function<size_t()> count;
  unsigned state = 2024u;
  std::vector<void *> owned;
  std::vector<check> outputs;
};

/// The harness over an arrays problem of \p candidates() kernels, set up
/// by \p setup(arrays &), which returns the launch of candidate i.
template <class Setup>
int run_arrays(int argc, char **argv, std::function<size_t()> candidates,
               Setup setup) {
  return run_with(argc, argv, [&](const std::vector<long long> &size) {
    auto a = std::make_unique<arrays>(size, candidates);
    a->launcher = setup(*a);
    return a;
  });
}

} // namespace metacu::tune

#if defined(METACU_TUNE_MODULES) && defined(METACU_TUNE_DEFINITIONS)
// The harness is linked with --wrap=cudaLaunchKernel and
// --wrap=cudaFuncSetAttribute (run.py), and built with __NV_LEGACY_LAUNCH so
// that nvcc's `<<<...>>>` calls cudaLaunchKernel with the kernel's stub.
extern "C" cudaError_t __real_cudaLaunchKernel(const void *, dim3, dim3,
                                               void **, size_t, cudaStream_t);
extern "C" cudaError_t __real_cudaFuncSetAttribute(const void *,
                                                   cudaFuncAttribute, int);

extern "C" cudaError_t __wrap_cudaLaunchKernel(const void *stub, dim3 grid,
                                               dim3 block, void **args,
                                               size_t shared,
                                               cudaStream_t stream) {
  namespace t = metacu::tune;
  CUfunction f = t::redirected(stub);
  if (!f)
    return __real_cudaLaunchKernel(stub, grid, block, args, shared, stream);
  t::module_redirect &r = t::redirect();
  if (r.copy_in && r.image)
    t::copy_variables(r.image, r.module, r.variables);
  r.copy_in = false;
  CUresult e = cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y,
                              block.z, unsigned(shared), stream, args, nullptr);
  if (e != CUDA_SUCCESS && r.launch_error == CUDA_SUCCESS)
    r.launch_error = e;
  return e == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
}

extern "C" cudaError_t __wrap_cudaFuncSetAttribute(const void *stub,
                                                   cudaFuncAttribute attr,
                                                   int value) {
  // cudaFuncAttribute's values are CUfunction_attribute's.
  metacu::tune::module_redirect &r = metacu::tune::redirect();
  r.attributes[stub].emplace_back(int(attr), value);
  // A harness table's slot is never run itself, and a harness compiled
  // host side only (run.py's --clang) has no kernel of it to set.
  if (r.slots.count(stub))
    return cudaSuccess;
  return __real_cudaFuncSetAttribute(stub, attr, value);
}
#endif

/// Defines main() as the tuning harness over \p Problem.
#define METACU_TUNE_MAIN(Problem)                                              \
  int main(int argc, char **argv) {                                            \
    return metacu::tune::run<Problem>(argc, argv);                             \
  }

/// Defines main() as the tuning harness over a metacu::tune::arrays
/// problem of \p Candidates kernels (a tuned_table's size()), set up by
/// \p ... (a function of metacu::tune::arrays & that returns the launch of
/// candidate i; variadic, for the commas of a lambda).
#define METACU_TUNE_ARRAYS(Candidates, ...)                                    \
  int main(int argc, char **argv) {                                            \
    return metacu::tune::run_arrays(                                           \
        argc, argv, [] { return size_t(Candidates); }, __VA_ARGS__);           \
  }

#endif
