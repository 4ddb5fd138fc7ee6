//===- ReportCommand.cpp - metacu report INPUT.cu --arch LIST -------------===//
//
// Expands one file as the expand command does, compiles the result with
// nvcc for each architecture (no GPU needed), and reports per kernel and
// architecture what ptxas allocated, what one thread executes, and, given
// a launch configuration, occupancy, a predicted time and diagnoses.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "expand/Pipeline.h"
#include "report/Arguments.h"
#include "report/Printers.h"
#include "report/Report.h"
#include "support/Output.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

namespace cl = llvm::cl;

namespace metacu {

cl::SubCommand ReportSubcommand(
    "report", "registers, spills, occupancy, counts and a predicted time per "
              "kernel and architecture, from nvcc (no GPU needed)");

static cl::opt<std::string> Input(cl::Positional, cl::desc("<input.cu>"),
                                  cl::Required, cl::sub(ReportSubcommand),
                                  cl::cat(MetacuCategory));
static cl::opt<std::string>
    ArchSpec("arch",
             cl::desc("Target architectures as CMake writes them: 75,80,90a"),
             cl::value_desc("list"), cl::Required, cl::sub(ReportSubcommand),
             cl::cat(MetacuCategory));
static cl::opt<std::string> ImageSpec(
    "image",
    cl::desc("Report the code of an older image run on the one --arch GPU: "
             "compute_80 is an sm_80 build's PTX, assembled for --arch"),
    cl::value_desc("compute_N"), cl::sub(ReportSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<std::string>
    BlockSpec("block",
              cl::desc("Threads per block of every kernel: 256 or 64x8 "
                       "(default: unknown, no occupancy or time)"),
              cl::value_desc("threads"), cl::sub(ReportSubcommand),
              cl::cat(MetacuCategory));
static cl::opt<std::string>
    GridSpec("grid",
             cl::desc("Blocks per grid: 4096 or 128x32 (default: one full "
                      "wave of the device)"),
             cl::value_desc("blocks"), cl::sub(ReportSubcommand),
             cl::cat(MetacuCategory));
static cl::opt<uint64_t>
    DynamicSmem("dynamic-smem",
                cl::desc("Dynamic shared memory per block, bytes"),
                cl::value_desc("bytes"), cl::init(0), cl::sub(ReportSubcommand),
                cl::cat(MetacuCategory));
static cl::opt<bool> SmemOptIn(
    "smem-opt-in",
    cl::desc("The kernels raise cudaFuncAttributeMaxDynamicSharedMemorySize "
             "to their dynamic size"),
    cl::sub(ReportSubcommand), cl::cat(MetacuCategory));

static cl::list<std::string> Launches(
    "launch",
    cl::desc("One kernel's launch, over --block: KERNEL:BLOCK[:GRID[:ARGS]], "
             "e.g. conv:32x8:32x128, reduce:256:528:_,67108864,_ (ARGS: "
             "the arguments' values in order, _ unknown; repeatable)"),
    cl::value_desc("kernel:block[:grid[:args]]"), cl::sub(ReportSubcommand),
    cl::cat(MetacuCategory));

enum class ReportFormat { Text, Json };
static cl::opt<ReportFormat> Format(
    "format", cl::desc("Output format"),
    cl::values(clEnumValN(ReportFormat::Text, "text", "a table per kernel"),
               clEnumValN(ReportFormat::Json, "json",
                          "as docs/report.md documents")),
    cl::init(ReportFormat::Text), cl::sub(ReportSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<std::string> Output("o",
                                   cl::desc("Output file (default: stdout)"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::sub(ReportSubcommand),
                                   cl::cat(MetacuCategory));

// A launch of BLOCK threads and GRID blocks (if given) with the shared
// memory options.
static llvm::Expected<report::LaunchConfig> launchOf(llvm::StringRef Block,
                                                     llvm::StringRef Grid) {
  report::LaunchConfig L;
  auto B = report::Dim3::parse(Block, report::MaxBlock);
  if (!B)
    return B.takeError();
  L.Block = *B;
  // What cudaLaunchKernel's unsigned int carries; more would wrap.
  if (DynamicSmem > UINT32_MAX)
    return llvm::createStringError("--dynamic-smem " +
                                   std::to_string(DynamicSmem) +
                                   ": a launch takes at most 4294967295 bytes");
  L.DynamicSharedBytes = DynamicSmem;
  L.SharedOptIn = SmemOptIn;
  if (!Grid.empty()) {
    auto G = report::Dim3::parse(Grid, report::MaxGrid);
    if (!G)
      return G.takeError();
    L.Grid = *G;
  }
  return L;
}

// --launch KERNEL:BLOCK[:GRID[:ARGS]] by kernel name.
static llvm::Expected<llvm::StringMap<report::LaunchConfig>> kernelLaunches() {
  llvm::StringMap<report::LaunchConfig> ByName;
  for (llvm::StringRef Spec : Launches) {
    auto [Name, Rest] = Spec.split(':');
    auto [Block, GridArgs] = Rest.split(':');
    auto [Grid, Args] = GridArgs.split(':');
    if (Name.empty() || Block.empty())
      return llvm::createStringError("--launch " + Spec.str() +
                                     ": write KERNEL:BLOCK[:GRID[:ARGS]]");
    auto L = launchOf(Block, Grid);
    if (!L)
      return L.takeError();
    if (!Args.empty()) {
      auto Values = report::parseArguments(Args);
      if (!Values)
        return llvm::createStringError("--launch " + Spec.str() + ": " +
                                       llvm::toString(Values.takeError()));
      L->Args = std::move(*Values);
    }
    ByName[Name] = *L;
  }
  return ByName;
}

// The architectures the file is expanded for: --arch, or --image's.
static llvm::Expected<ArchList> expansionArchs(const ArchList &Targets) {
  if (ImageSpec.empty())
    return Targets;
  llvm::StringRef Number = ImageSpec;
  if (!Number.consume_front("compute_"))
    return llvm::createStringError("--image: compute_N, not '" + ImageSpec +
                                   "'");
  if (Targets.archs().size() != 1)
    return llvm::createStringError(
        "--image: the image runs on one --arch, not " + Targets.names());
  auto Image = ArchList::parse(Number);
  if (!Image)
    return llvm::createStringError("--image: " +
                                   llvm::toString(Image.takeError()));
  if (Image->archs().front().CC > Targets.archs().front().CC)
    return llvm::createStringError("--image: " + ImageSpec + " cannot run on " +
                                   Targets.names());
  return *Image;
}

int runReportCommand() {
  auto Archs = ArchList::parse(ArchSpec);
  if (!Archs)
    return reportFailure(Archs.takeError());
  auto ExpandFor = expansionArchs(*Archs);
  if (!ExpandFor)
    return reportFailure(ExpandFor.takeError());
  std::optional<report::LaunchConfig> Launch;
  if (!BlockSpec.empty()) {
    auto L = launchOf(BlockSpec, GridSpec);
    if (!L)
      return reportFailure(L.takeError());
    Launch = *L;
  } else if (!GridSpec.empty() ||
             (Launches.empty() && (DynamicSmem || SmemOptIn))) {
    return reportFailure(llvm::createStringError(
        "--grid, --dynamic-smem and --smem-opt-in need --block"));
  }
  auto ByName = kernelLaunches();
  if (!ByName)
    return reportFailure(ByName.takeError());
  auto File = SourceFile::load(Input);
  if (!File)
    return reportFailure(File.takeError());
  auto Opts = pipelineOptionsFor(Input);
  if (!Opts)
    return reportFailure(Opts.takeError());

  llvm::SmallString<256> WorkDir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("metacu-report", WorkDir))
    return reportFailure(llvm::createStringError(
        "cannot create a temporary directory: " + EC.message()));
  // Whatever happens next, the temporary files go.
  llvm::scope_exit Cleanup([&] { llvm::sys::fs::remove_directories(WorkDir); });

  // The file `metacu INPUT -o STEM.gen.cu --arch LIST` would write.
  Opts->OutputName = (llvm::sys::path::stem(Input) + ".gen.cu").str();
  auto Expanded = expandFile(*File, *ExpandFor, *Opts);
  if (!Expanded)
    return reportFailure(Expanded.takeError());
  // Before nvcc runs: the report may not replace the kernel's source, a
  // header it includes or a data file its meta code read.
  if (auto Err = checkOutputPaths({Output}, Expanded->Dependencies))
    return reportFailure(std::move(Err));
  llvm::SmallString<256> GenPath(WorkDir);
  llvm::sys::path::append(GenPath, Opts->OutputName);
  if (auto Err = writeOutput(GenPath, Expanded->Text))
    return reportFailure(std::move(Err));

  llvm::SmallString<256> InputDir(llvm::sys::path::parent_path(Input));
  llvm::sys::fs::make_absolute(InputDir);
  report::NvccOptions Nvcc;
  Nvcc.Nvcc = report::findNvcc(CudaPathOption);
  Nvcc.Args = report::nvccArgs(Opts->Flags, runtimeIncludeDir(), InputDir);
  Nvcc.WorkDir = std::string(WorkDir);
  Nvcc.PtxArch = ImageSpec;
  auto Builds = report::buildForArchs(GenPath, Archs->archs(), Nvcc);
  if (!Builds)
    return reportFailure(Builds.takeError());

  std::set<std::string> Kernels;
  auto Rows =
      report::buildReports(*Builds, [&](llvm::StringRef Name, const Arch &) {
        Kernels.insert(Name.str());
        auto It = ByName->find(Name);
        return It != ByName->end() ? It->second : Launch;
      });
  if (!Rows)
    return reportFailure(Rows.takeError());
  for (const auto &Named : *ByName)
    if (!Kernels.count(Named.getKey().str()))
      return reportFailure(llvm::createStringError(
          "--launch " + Named.getKey().str() + ": " + Input +
          " has no kernel of that name (its kernels: " +
          llvm::join(Kernels, ", ") + ")"));
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Format == ReportFormat::Json)
    report::printJson(OS, *Rows);
  else
    report::printText(OS, *Rows);
  if (auto Err = writeOutput(Output, Out, Expanded->Dependencies))
    return reportFailure(std::move(Err));
  return 0;
}

} // namespace metacu
