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
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace cl = llvm::cl;
using namespace metacu;

/// The version, and where this binary finds its headers (a relocated
/// package, scripts/pack, finds both beside itself).
static void printVersion(llvm::raw_ostream &OS) {
  OS << "metacu " METACU_VERSION " (LLVM " LLVM_VERSION_STRING ")\n"
     << "  runtime headers: " << runtimeIncludeDir() << "\n"
     << "  clang resource directory: " << clangResourceDir() << "\n";
}

/// llvm::cl's messages ("metacu: for the --meta-memory option: '-1' value
/// invalid for uint argument!") in the project's form: "metacu: error:
/// --meta-memory: '-1' value invalid for uint argument"; a line that does
/// not start with the program's name continues the message before it.
static void printOptionErrors(llvm::StringRef Text, llvm::StringRef Program) {
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (!Line.consume_front(Program.str() + ": ")) {
      llvm::errs() << "metacu: note: " << Line << "\n";
      continue;
    }
    llvm::StringRef Option;
    if (Line.consume_front("for the ")) {
      std::tie(Option, Line) = Line.split(" option: ");
      Option = Option.trim();
    }
    if (Line.starts_with("Did you mean")) {
      llvm::errs() << "metacu: note: " << Line << "\n";
      continue;
    }
    Line.consume_back("!");
    llvm::errs() << "metacu: error: ";
    if (!Option.empty())
      llvm::errs() << Option << ": ";
    llvm::errs() << Line << "\n";
  }
}

/// Parses the command line; false (after printing "metacu: error: ..."
/// lines) when it is not valid. llvm::cl writes a value's error (a negative
/// uint, an unknown enum value) to llvm::errs() itself, not to the stream
/// ParseCommandLineOptions is given, so standard error is captured while it
/// parses.
static bool parseOptions(int Argc, char **Argv, const char *Overview) {
  std::string Own;
  llvm::raw_string_ostream OwnStream(Own);
  std::FILE *Captured = std::tmpfile();
  int Saved = Captured ? dup(STDERR_FILENO) : -1;
  llvm::errs().flush();
  bool Redirected =
      Saved >= 0 && dup2(fileno(Captured), STDERR_FILENO) == STDERR_FILENO;
  bool Valid = cl::ParseCommandLineOptions(Argc, Argv, Overview, &OwnStream);
  llvm::errs().flush();
  std::string Text;
  if (Redirected) {
    dup2(Saved, STDERR_FILENO);
    std::rewind(Captured);
    char Buffer[4096];
    size_t N;
    while ((N = std::fread(Buffer, 1, sizeof Buffer, Captured)) > 0)
      Text.append(Buffer, N);
  }
  if (Saved >= 0)
    close(Saved);
  if (Captured)
    std::fclose(Captured);
  // The stream's messages (an unknown argument) come first: llvm::cl checks
  // the required options after reading every argument.
  Text.insert(0, Own);
  if (Valid) {
    llvm::errs() << Text;
    return true;
  }
  printOptionErrors(Text, llvm::sys::path::filename(Argv[0]));
  if (Text.empty())
    llvm::errs() << "metacu: error: invalid command line\n";
  return false;
}

static const char *const Overview =
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
    "occupancy and a predicted time per kernel (report --help for more)\n"
    "  metacu lsp               a language server on stdio: clangd on the "
    "expansion of dialect files (lsp --help for more)\n";

int main(int Argc, char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  // A write past the file size limit (ulimit -f) then fails with EFBIG and
  // is reported as a full disk is, the outputs left as they were. The
  // signal would kill the run, or reach LLVM's crash handler (installed
  // just now, over any disposition inherited), which dies writing its
  // stack trace.
  std::signal(SIGXFSZ, SIG_IGN);
  cl::HideUnrelatedOptions(MetacuCategory);
  cl::SetVersionPrinter(printVersion);
  if (!parseOptions(Argc, Argv, Overview))
    return 1;
  if (AuditSubcommand)
    return runAuditCommand();
  if (MigrateSubcommand)
    return runMigrateCommand();
  if (TuneSubcommand)
    return runTuneCommand();
  if (ReportSubcommand)
    return runReportCommand();
  if (LspSubcommand)
    return runLspCommand();
  return runExpandCommand();
}
