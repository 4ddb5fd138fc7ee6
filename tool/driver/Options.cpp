//===- Options.cpp --------------------------------------------------------===//
#include "driver/Options.h"
#include "support/Diagnostic.h"
#include "toolchain/StoredPch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <vector>

namespace cl = llvm::cl;

namespace metacu {

cl::OptionCategory MetacuCategory("metacu options");

static cl::SubCommand &all() { return cl::SubCommand::getAll(); }

static cl::list<std::string> IncludeDirs("I", cl::Prefix,
                                         cl::desc("Add an include directory"),
                                         cl::value_desc("dir"), cl::sub(all()),
                                         cl::cat(MetacuCategory));
static cl::list<std::string>
    SystemIncludeDirs("isystem", cl::desc("Add a system include directory"),
                      cl::value_desc("dir"), cl::sub(all()),
                      cl::cat(MetacuCategory));
static cl::list<std::string>
    PreIncludes("include", cl::desc("Include a file before the input"),
                cl::value_desc("file"), cl::sub(all()),
                cl::cat(MetacuCategory));
static cl::list<std::string> Defines("D", cl::Prefix,
                                     cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"),
                                     cl::sub(all()), cl::cat(MetacuCategory));
static cl::list<std::string> Undefines("U", cl::Prefix,
                                       cl::desc("Undefine a macro"),
                                       cl::value_desc("name"), cl::sub(all()),
                                       cl::cat(MetacuCategory));
static cl::opt<std::string>
    Standard("std",
             cl::desc("C++ standard of the ordinary code, as given to nvcc "
                      "(default: nvcc's, c++17); meta code is C++20"),
             cl::value_desc("c++17|c++20"), cl::sub(all()),
             cl::cat(MetacuCategory));
static cl::opt<std::string>
    BuildDir("p", cl::desc("Build directory with compile_commands.json"),
             cl::value_desc("dir"), cl::sub(all()), cl::cat(MetacuCategory));
cl::opt<std::string> CudaPathOption(
    "cuda-path",
    cl::desc("CUDA toolkit root (default: $CUDAToolkit_ROOT, $CUDA_PATH, "
             "the nvcc on PATH, /usr/local/cuda)"),
    cl::value_desc("dir"), cl::sub(all()), cl::cat(MetacuCategory));

static cl::opt<double> MetaTimeout(
    "meta-timeout",
    cl::desc("Seconds meta code may run before it is stopped (0: no limit)"),
    cl::value_desc("seconds"), cl::init(300), cl::sub(all()),
    cl::cat(MetacuCategory));
static cl::opt<unsigned>
    MetaMemory("meta-memory",
               cl::desc("MiB meta code may allocate; past it allocations throw "
                        "std::bad_alloc (0: no limit)"),
               cl::value_desc("MiB"), cl::init(4096), cl::sub(all()),
               cl::cat(MetacuCategory));

static cl::opt<unsigned> MaxExpansion(
    "max-expansion",
    cl::desc("MiB the expansion may grow to before metacu stops it"),
    cl::value_desc("MiB"), cl::init(256), cl::sub(all()),
    cl::cat(MetacuCategory));

static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Where to keep the precompiled generator library and the "
             "audit's precompiled toolkit prelude, with units' leading system "
             "headers (default: "
             "$METACU_CACHE_DIR, $XDG_CACHE_HOME/metacu or ~/.cache/metacu; "
             "'' to keep none; safe to delete)"),
    cl::value_desc("dir"), cl::init(defaultCacheDirectory()), cl::sub(all()),
    cl::cat(MetacuCategory));

llvm::StringRef buildDirectory() { return BuildDir; }

llvm::StringRef cacheDirectory() { return CacheDir; }

llvm::Expected<PipelineOptions> pipelineOptionsFor(llvm::StringRef File) {
  auto Flags = compileFlagsFor(File);
  if (!Flags)
    return Flags.takeError();
  // Past 1e9 s the deadline would overflow the clock; a NaN or negative
  // value means nothing.
  if (!(MetaTimeout >= 0 && MetaTimeout <= 1e9))
    return llvm::createStringError(
        "--meta-timeout " +
        llvm::formatv("{0}", llvm::format("%g", MetaTimeout.getValue())).str() +
        ": give seconds from 0 (no limit) to 1e9");
  PipelineOptions Opts;
  Opts.Flags = std::move(*Flags);
  Opts.Toolkit = CudaToolkit::find(CudaPathOption);
  Opts.RuntimeInclude = runtimeIncludeDir();
  Opts.CacheDir = CacheDir;
  Opts.Limits.TimeoutSeconds = MetaTimeout;
  Opts.Limits.MemoryBytes = uint64_t(MetaMemory) << 20;
  Opts.MaxOutputBytes = size_t(MaxExpansion) << 20;
  return Opts;
}

llvm::Expected<CompileFlags> compileFlagsFor(llvm::StringRef File) {
  CompileFlags Flags;
  if (!BuildDir.empty())
    if (auto Err = Flags.addFromDatabase(BuildDir, File))
      return std::move(Err);
  // The lists lose their interleaving; positions restore it (-DX -UX is
  // not -UX -DX).
  std::vector<std::pair<unsigned, std::string>> Given;
  auto Collect = [&](const cl::list<std::string> &L, llvm::StringRef Flag) {
    for (size_t I = 0; I < L.size(); ++I)
      Given.push_back({L.getPosition(I), Flag.str() + L[I]});
  };
  Collect(IncludeDirs, "-I");
  Collect(SystemIncludeDirs, "-isystem");
  Collect(PreIncludes, "-include");
  Collect(Defines, "-D");
  Collect(Undefines, "-U");
  llvm::stable_sort(Given, llvm::less_first());
  for (auto &[Position, Arg] : Given)
    Flags.Args.push_back(std::move(Arg));
  if (!Standard.empty())
    Flags.Standard = Standard;
  return Flags;
}

std::string runtimeIncludeDir() {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&runtimeIncludeDir));
  llvm::SmallString<256> Dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "include");
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "metacu", "detail", "generator.h");
  if (llvm::sys::fs::exists(Probe))
    return std::string(Dir);
  return METACU_SOURCE_RUNTIME_INCLUDE;
}

int reportFailure(llvm::Error Err) {
  printErrors(llvm::errs(), std::move(Err));
  return 1;
}

} // namespace metacu
