//===- LspCommand.cpp - metacu lsp ----------------------------------------===//
//
// A language server on stdio that an editor starts in place of clangd
// (lsp/Server.h); the usual options (-p, -I, -D, --cuda-path, --cache-dir)
// say how dialect files are expanded.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"
#include "lsp/ClangdProcess.h"
#include "lsp/Server.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <unistd.h>

namespace cl = llvm::cl;

namespace metacu {

cl::SubCommand LspSubcommand(
    "lsp", "A language server on stdio: clangd on the expansion of dialect "
           "files, positions mapped back to the user's text");

static cl::opt<std::string>
    Targets("arch",
            cl::desc("Architectures dialect files are expanded for, as for "
                     "the expansion (default: 75,80,90)"),
            cl::value_desc("list"), cl::init("75,80,90"),
            cl::sub(LspSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string> Pass(
    "pass",
    cl::desc("The pass the editor shows: 'host' (default), or one "
             "architecture of --arch, whose 'if codegen' branches then read "
             "as live code and the others' as inactive"),
    cl::value_desc("host|arch"), cl::init("host"), cl::sub(LspSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<std::string>
    ClangdPath("clangd",
               cl::desc("The clangd to run (default: $METACU_CLANGD, "
                        "clangd-22 on PATH, /usr/lib/llvm-22/bin/clangd)"),
               cl::value_desc("program"), cl::sub(LspSubcommand),
               cl::cat(MetacuCategory));
static cl::list<std::string>
    ClangdArgs("clangd-arg", cl::desc("An argument for clangd (repeatable)"),
               cl::value_desc("arg"), cl::sub(LspSubcommand),
               cl::cat(MetacuCategory));
static cl::opt<unsigned>
    Debounce("debounce-ms",
             cl::desc("Milliseconds after an edit before the file is "
                      "expanded again (default: 100)"),
             cl::value_desc("ms"), cl::init(100), cl::sub(LspSubcommand),
             cl::cat(MetacuCategory));

static cl::opt<bool> LspTimeStages(
    "time-stages",
    cl::desc("After each expansion, print how long each stage took (wall "
             "and CPU) to stderr"),
    cl::sub(LspSubcommand), cl::cat(MetacuCategory));

int runLspCommand() {
  ServerOptions Opts;
  auto Archs = ArchList::parse(Targets);
  if (!Archs)
    return reportFailure(Archs.takeError());
  Opts.Archs = std::move(*Archs);
  if (Pass != "host") {
    auto One = ArchList::parse(Pass);
    if (!One)
      return reportFailure(One.takeError());
    if (One->archs().size() != 1)
      return reportFailure(llvm::createStringError(
          "--pass: give 'host' or one architecture of --arch"));
    for (size_t I = 0; I < Opts.Archs.archs().size(); ++I)
      if (Opts.Archs.archs()[I] == One->archs().front())
        Opts.ShownPass = I + 1;
    if (!Opts.ShownPass)
      return reportFailure(llvm::createStringError(
          "--pass " + Pass + ": not one of --arch " + Targets));
  }
  auto Clangd = findClangd(ClangdPath);
  if (!Clangd)
    return reportFailure(Clangd.takeError());
  Opts.Clangd = *Clangd;
  if (!buildDirectory().empty())
    Opts.ClangdArgs.push_back(
        ("--compile-commands-dir=" + buildDirectory()).str());
  Opts.ClangdArgs.insert(Opts.ClangdArgs.end(), ClangdArgs.begin(),
                         ClangdArgs.end());
  Opts.OptionsFor = [](llvm::StringRef Path) {
    return pipelineOptionsFor(Path);
  };
  Opts.Debounce = std::chrono::milliseconds(Debounce);
  Opts.TimeStages = LspTimeStages;
  // The protocol owns standard output. Whatever else writes there (meta
  // code's printf in the generator's process, a library's message) goes to
  // standard error instead, where editors keep the server's log.
  int Protocol = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  if (Protocol < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return reportFailure(llvm::createStringError(
        "cannot set standard output aside for the protocol"));
  auto Status = serve(STDIN_FILENO, Protocol, Opts);
  if (!Status)
    return reportFailure(Status.takeError());
  return *Status;
}

} // namespace metacu
