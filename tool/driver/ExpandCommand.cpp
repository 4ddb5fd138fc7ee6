//===- ExpandCommand.cpp - metacu INPUT.cu -o OUTPUT --arch LIST ----------===//
//
// The default subcommand: expands one file in the dialect into plain CUDA.
// Nothing is written unless every stage succeeds.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "expand/Emit.h"
#include "expand/Pipeline.h"
#include "support/Output.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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
static cl::opt<bool>
    TimeStages("time-stages",
               cl::desc("Print how long each stage took to stderr"),
               cl::cat(MetacuCategory));
static cl::opt<bool>
    DumpGenerator("dump-generator",
                  cl::desc("Print the generator program to stderr"),
                  cl::cat(MetacuCategory));

static cl::opt<bool>
    Verify("verify",
           cl::desc("Parse the output with Clang for the host and each "
                    "architecture; report its errors at the input's lines"),
           cl::cat(MetacuCategory));

static cl::opt<bool> NoUntaggedHelpers(
    "no-untagged-helpers",
    cl::desc("Leave functions without execution-space attributes as they "
             "are, even where device code calls them"),
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

  auto Opts = pipelineOptionsFor(Input);
  if (!Opts)
    return reportFailure(Opts.takeError());
  Opts->OutputName =
      Output == "-" ? "<stdout>" : llvm::sys::path::filename(Output).str();
  if (DumpGenerator)
    Opts->DumpGenerator = &llvm::errs();
  Opts->Verify = Verify;
  Opts->UntaggedHelpers = !NoUntaggedHelpers;
  auto Expanded = expandFile(*File, *Archs, *Opts);
  if (!Expanded)
    return reportFailure(Expanded.takeError());
  if (TimeStages)
    for (const StageTime &T : Expanded->Timings)
      llvm::errs() << "metacu: " << T.Stage << ": " << T.Milliseconds
                   << " ms (cpu " << T.CpuMilliseconds << " ms)\n";

  std::string DepPath = DepFile;
  if (WriteDeps && DepPath.empty()) {
    if (Output == "-")
      return reportFailure(
          llvm::createStringError("-MD with '-o -' needs -MF"));
    DepPath = Output + ".d";
  }
  std::vector<OutputFile> Outputs{{Output, std::move(Expanded->Text)}};
  if (WriteDeps || !DepFile.empty()) {
    std::string Target = DepTarget.empty() ? Output.getValue() : DepTarget;
    Outputs.push_back(
        {DepPath, dependencyRule(Target, Expanded->Dependencies)});
  }
  // The output without its dependency file would go stale unnoticed: both
  // or neither. Neither may replace a file the expansion read.
  if (auto Err = writeOutputs(Outputs, Expanded->Dependencies))
    return reportFailure(std::move(Err));
  return 0;
}

} // namespace metacu
