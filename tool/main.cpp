//===- main.cpp - The metacu command line ---------------------------------===//
//
// Parses options and runs the stages: scan, host slice, lower, execute,
// emit. Nothing is written unless every stage succeeds.
//
//===----------------------------------------------------------------------===//
#include "Arch.h"
#include "Audit.h"
#include "CompileFlags.h"
#include "Diagnostic.h"
#include "Emit.h"
#include "Execute.h"
#include "HostSlice.h"
#include "Lower.h"
#include "MetaNames.h"
#include "PreludeCache.h"
#include "Migrate.h"
#include "Scan.h"
#include "SourceFile.h"
#include "Toolchain.h"
#include "driver/TuneCommand.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>

using namespace metacu;
namespace cl = llvm::cl;

static cl::OptionCategory Category("metacu options");

static cl::opt<std::string> Input(cl::Positional, cl::desc("<input.cu>"),
                                  cl::Required, cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Output file ('-' for stdout)"),
                                   cl::value_desc("file"), cl::Required,
                                   cl::cat(Category));
static cl::opt<std::string>
    ArchSpec("arch",
             cl::desc("Target architectures as CMake writes them: 75,80,90a"),
             cl::value_desc("list"), cl::Required, cl::cat(Category));
static cl::list<std::string> IncludeDirs("I", cl::Prefix,
                                         cl::desc("Add an include directory"),
                                         cl::value_desc("dir"),
                                         cl::cat(Category));
static cl::list<std::string> Defines("D", cl::Prefix,
                                     cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"),
                                     cl::cat(Category));
static cl::list<std::string> Undefines("U", cl::Prefix,
                                       cl::desc("Undefine a macro"),
                                       cl::value_desc("name"),
                                       cl::cat(Category));
static cl::opt<std::string>
    Standard("std",
             cl::desc("C++ standard of the ordinary code, as given to nvcc "
                      "(default: nvcc's, c++17); meta code is C++20"),
             cl::value_desc("c++17|c++20"), cl::cat(Category));
static cl::opt<bool> WriteDeps("MD", cl::desc("Write a dependency file"),
                               cl::cat(Category));
static cl::opt<std::string>
    DepFile("MF", cl::desc("Dependency file name (default: <output>.d)"),
            cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string>
    DepTarget("MT", cl::desc("Target of the dependency rule (default: the "
                             "output file)"),
              cl::value_desc("target"), cl::cat(Category));
static cl::opt<std::string>
    BuildDir("p", cl::desc("Build directory with compile_commands.json"),
             cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string>
    CudaPath("cuda-path", cl::desc("CUDA toolkit root (default: $CUDA_PATH "
                                   "or /usr/local/cuda)"),
             cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Where to keep the precompiled generator library (default: "
             "$METACU_CACHE_DIR, $XDG_CACHE_HOME/metacu or ~/.cache/metacu; "
             "'' to keep none)"),
    cl::value_desc("dir"), cl::init(defaultCacheDirectory()),
    cl::cat(Category));
static cl::opt<bool>
    TimeStages("time-stages",
               cl::desc("Print how long each stage took to stderr"),
               cl::cat(Category));
static cl::opt<bool>
    DumpGenerator("dump-generator",
                  cl::desc("Print the generator program to stderr"),
                  cl::cat(Category));

/// metacu's runtime headers: installed beside the executable
/// (<prefix>/bin/metacu, <prefix>/include/metacu), else the source tree it
/// was built from.
static std::string runtimeIncludeDir(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runtimeIncludeDir));
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "include");
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "metacu", "detail", "generator.h");
  if (llvm::sys::fs::exists(Probe))
    return std::string(Dir);
  return METACU_SOURCE_RUNTIME_INCLUDE;
}

static void printVersion(llvm::raw_ostream &OS) {
  OS << "metacu " METACU_VERSION " (LLVM " LLVM_VERSION_STRING ")\n";
}

int main(int Argc, char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "audit")
    return runAudit(Argc, Argv);
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "migrate")
    return runMigrate(Argc, Argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "metacu: expands @meta, @meta for, if codegen and @(...) into plain "
      "CUDA C++ for the given architectures\n\n"
      "  metacu kernel.cu -o kernel.gen.cu --arch 75,80,90 [-I dir] "
      "[-D name=value] [-MD -MF kernel.gen.cu.d]\n\n"
      "  metacu audit FILES...    lists the __CUDA_ARCH__ sites of existing "
      "code (--help for more)\n"
      "  metacu migrate FILES...  rewrites the convertible ones into 'if "
      "codegen' (--help for more)\n"
      "  metacu tune --replay CACHE.json.gz  runs a tuning strategy on "
      "recorded times (tune --help for more)\n");
  if (tuneCommandSelected())
    return runTuneCommand();

  auto Fail = [](llvm::Error E) {
    llvm::handleAllErrors(std::move(E), [](const llvm::ErrorInfoBase &I) {
      llvm::errs() << "metacu: error: " << I.message() << '\n';
    });
    return 1;
  };

  auto Archs = ArchList::parse(ArchSpec);
  if (!Archs)
    return Fail(Archs.takeError());
  auto File = SourceFile::load(Input);
  if (!File)
    return Fail(File.takeError());

  CompileFlags Flags;
  if (!BuildDir.empty())
    if (auto Err = Flags.addFromDatabase(BuildDir, Input))
      return Fail(std::move(Err));
  // Command-line flags come after the database's, so they win.
  for (const std::string &I : IncludeDirs)
    Flags.Args.push_back("-I" + I);
  for (const std::string &D : Defines)
    Flags.Args.push_back("-D" + D);
  for (const std::string &U : Undefines)
    Flags.Args.push_back("-U" + U);
  if (!Standard.empty())
    Flags.Standard = Standard;

  auto ReportLocated = [&](llvm::Error E) {
    reportError(llvm::errs(), *File, std::move(E));
    return 1;
  };

  auto Last = std::chrono::steady_clock::now();
  auto Lap = [&](const char *Stage) {
    auto Now = std::chrono::steady_clock::now();
    if (TimeStages)
      llvm::errs() << "metacu: " << Stage << ": "
                   << std::chrono::duration<double, std::milli>(Now - Last)
                          .count()
                   << " ms\n";
    Last = Now;
  };

  auto Scan = scan(*File);
  Lap("scan");
  if (!Scan)
    return ReportLocated(Scan.takeError());

  HostSliceOptions SliceOpts;
  SliceOpts.Flags = Flags;
  SliceOpts.ResourceDir = clangResourceDir();
  SliceOpts.CudaInclude = cudaIncludeDir(CudaPath);
  SliceOpts.RuntimeInclude = runtimeIncludeDir(Argv[0]);
  auto Slice = sliceHost(*File, *Scan, metaIdentifiers(*Scan), SliceOpts);
  if (!Slice)
    return ReportLocated(Slice.takeError());
  Lap("host slice");

  auto G = lower(*File, *Scan, *Slice, *Archs);
  if (!G)
    return ReportLocated(G.takeError());
  Lap("lower");
  if (DumpGenerator)
    llvm::errs() << "//===--- prelude ---===//\n"
                 << G->Prelude << "//===--- program ---===//\n"
                 << G->Program;

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecuteOptions ExecOpts;
  ExecOpts.Flags = Flags;
  ExecOpts.ResourceDir = SliceOpts.ResourceDir;
  ExecOpts.CudaInclude = SliceOpts.CudaInclude;
  ExecOpts.RuntimeInclude = SliceOpts.RuntimeInclude;
  ExecOpts.CacheDir = CacheDir;
  auto Expanded = execute(*File, *G, *Archs, ExecOpts);
  if (!Expanded)
    return ReportLocated(Expanded.takeError());
  Lap("execute");

  EmitOptions EmitOpts;
  EmitOpts.OutputName =
      Output == "-" ? "<stdout>" : llvm::sys::path::filename(Output).str();
  std::string Text = emitOutput(*File, *Archs, *Expanded, EmitOpts);
  Lap("emit");

  std::string DepPath = DepFile;
  if (WriteDeps && DepPath.empty()) {
    if (Output == "-")
      return Fail(llvm::createStringError("-MD with '-o -' needs -MF"));
    DepPath = Output + ".d";
  }
  if (auto Err = writeFileAtomically(Output, Text))
    return Fail(std::move(Err));
  if (WriteDeps || !DepFile.empty()) {
    std::vector<std::string> Deps{File->path().str()};
    // Clang can name a header through '..' after a symlink
    // (/../lib/gcc/.../../../../include/c++/12/map); Make and Ninja would
    // drop the dots without resolving the link and see a missing file.
    auto Real = [](const std::string &P) {
      llvm::SmallString<256> R;
      return llvm::sys::fs::real_path(P, R) ? P : std::string(R);
    };
    for (size_t I = 1; I < Slice->Files.size(); ++I)
      Deps.push_back(Real(Slice->Files[I]));
    for (const std::string &D : Expanded->DataFiles)
      Deps.push_back(Real(D));
    std::string Target = DepTarget.empty() ? Output.getValue() : DepTarget;
    if (auto Err = writeFileAtomically(DepPath, dependencyRule(Target, Deps))) {
      // The output without its dependency file would go stale unnoticed.
      if (Output != "-")
        llvm::sys::fs::remove(Output);
      return Fail(std::move(Err));
    }
  }
  return 0;
}
