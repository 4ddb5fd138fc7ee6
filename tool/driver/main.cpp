//===- main.cpp - The metacu command line ---------------------------------===//
//
// Parses the command line and hands over to the subcommand it names
// (Commands.h); without one, metacu expands a file.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "toolchain/Invocation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using namespace metacu;

/// The version, and where this binary finds its headers (a relocated
/// package, scripts/pack, finds both beside itself).
static void printVersion(llvm::raw_ostream &OS) {
  OS << "metacu " METACU_VERSION " (LLVM " LLVM_VERSION_STRING ")\n"
     << "  runtime headers: " << runtimeIncludeDir() << "\n"
     << "  clang resource directory: " << clangResourceDir() << "\n";
}

int main(int Argc, char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(MetacuCategory);
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "metacu: expands @meta, @meta for, if codegen and @(...) into plain "
      "CUDA C++ for the given architectures\n\n"
      "  metacu kernel.cu -o kernel.gen.cu --arch 75,80,90 [-I dir] "
      "[-D name=value] [-MD -MF kernel.gen.cu.d]\n\n"
      "  metacu audit FILES...    lists the __CUDA_ARCH__ sites of existing "
      "code (audit --help for more)\n"
      "  metacu migrate FILES...  rewrites the convertible ones into 'if "
      "codegen' (migrate --help for more)\n"
      "  metacu tune --replay CACHE.json.gz  runs a tuning strategy on "
      "recorded times (tune --help for more)\n"
      "  metacu report kernel.cu --arch 75,90 --block 256  resources, "
      "occupancy and a predicted time per kernel (report --help for more)\n");
  if (AuditSubcommand)
    return runAuditCommand();
  if (MigrateSubcommand)
    return runMigrateCommand();
  if (TuneSubcommand)
    return runTuneCommand();
  if (ReportSubcommand)
    return runReportCommand();
  return runExpandCommand();
}
