//===- ExpandCommand.cpp - metacu INPUT.cu -o OUTPUT --arch LIST ----------===//
//
// The default subcommand: expands one file in the dialect into plain CUDA.
// Nothing is written unless every stage succeeds.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "expand/Emit.h"
#include "expand/Execute.h"
#include "expand/HostSlice.h"
#include "expand/Lower.h"
#include "expand/MetaNames.h"
#include "expand/PreludeCache.h"
#include "expand/Scan.h"
#include "support/Diagnostic.h"
#include "support/Output.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

namespace cl = llvm::cl;

namespace metacu {

// Options of the top-level command, which is the expansion.
static cl::opt<std::string> Input(cl::Positional, cl::desc("<input.cu>"),
                                  cl::Required, cl::cat(MetacuCategory));
static cl::opt<std::string> Output("o",
                                   cl::desc("Output file ('-' for stdout)"),
                                   cl::value_desc("file"), cl::Required,
                                   cl::cat(MetacuCategory));
static cl::opt<std::string>
    ArchSpec("arch",
             cl::desc("Target architectures as CMake writes them: 75,80,90a"),
             cl::value_desc("list"), cl::Required, cl::cat(MetacuCategory));
static cl::opt<bool> WriteDeps("MD", cl::desc("Write a dependency file"),
                               cl::cat(MetacuCategory));
static cl::opt<std::string>
    DepFile("MF", cl::desc("Dependency file name (default: <output>.d)"),
            cl::value_desc("file"), cl::cat(MetacuCategory));
static cl::opt<std::string>
    DepTarget("MT",
              cl::desc("Target of the dependency rule (default: the "
                       "output file)"),
              cl::value_desc("target"), cl::cat(MetacuCategory));
static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Where to keep the precompiled generator library (default: "
             "$METACU_CACHE_DIR, $XDG_CACHE_HOME/metacu or ~/.cache/metacu; "
             "'' to keep none)"),
    cl::value_desc("dir"), cl::init(defaultCacheDirectory()),
    cl::cat(MetacuCategory));
static cl::opt<bool>
    TimeStages("time-stages",
               cl::desc("Print how long each stage took to stderr"),
               cl::cat(MetacuCategory));
static cl::opt<bool>
    DumpGenerator("dump-generator",
                  cl::desc("Print the generator program to stderr"),
                  cl::cat(MetacuCategory));

int runExpandCommand() {
  auto Archs = ArchList::parse(ArchSpec);
  if (!Archs)
    return reportFailure(Archs.takeError());
  // Not even a successful run may overwrite the source it read.
  if (Output != "-" && llvm::sys::fs::equivalent(Input, Output))
    return reportFailure(llvm::createStringError(
        "the output '" + Output + "' is the input file; choose another -o"));
  auto File = SourceFile::load(Input);
  if (!File)
    return reportFailure(File.takeError());

  auto Flags = compileFlagsFor(Input);
  if (!Flags)
    return reportFailure(Flags.takeError());

  auto ReportLocated = [&](llvm::Error E) {
    reportError(llvm::errs(), *File, std::move(E));
    return 1;
  };

  auto Last = std::chrono::steady_clock::now();
  auto Lap = [&](const char *Stage) {
    auto Now = std::chrono::steady_clock::now();
    if (TimeStages)
      llvm::errs()
          << "metacu: " << Stage << ": "
          << std::chrono::duration<double, std::milli>(Now - Last).count()
          << " ms\n";
    Last = Now;
  };

  auto Scan = scan(*File);
  Lap("scan");
  if (!Scan)
    return ReportLocated(Scan.takeError());

  HostSliceOptions SliceOpts;
  SliceOpts.Flags = *Flags;
  SliceOpts.Toolkit = CudaToolkit::find(CudaPathOption);
  SliceOpts.RuntimeInclude = runtimeIncludeDir();
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
  ExecOpts.Flags = *Flags;
  ExecOpts.Toolkit = SliceOpts.Toolkit;
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
      return reportFailure(
          llvm::createStringError("-MD with '-o -' needs -MF"));
    DepPath = Output + ".d";
  }
  std::vector<OutputFile> Outputs{{Output, std::move(Text)}};
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
    Outputs.push_back({DepPath, dependencyRule(Target, Deps)});
  }
  // The output without its dependency file would go stale unnoticed: both
  // or neither.
  if (auto Err = writeOutputs(Outputs))
    return reportFailure(std::move(Err));
  return 0;
}

} // namespace metacu
