//===- Verify.cpp ---------------------------------------------------------===//
#include "expand/Verify.h"
#include "support/Diagnostic.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace metacu {

namespace {

/// One error, wherever the #line map puts it, with the passes it came from.
struct Found {
  std::string Path;
  LineCol Where;
  std::string Message;
  std::vector<std::string> Passes;
};

class Collector : public clang::DiagnosticConsumer {
public:
  Collector(std::vector<Found> &Errors, std::string Pass)
      : Errors(Errors), Pass(std::move(Pass)) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    if (L < clang::DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    Found F{"", {0, 0}, std::string(Msg), {Pass}};
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      clang::PresumedLoc P =
          SM.getPresumedLoc(SM.getExpansionLoc(Info.getLocation()));
      if (P.isValid()) {
        F.Path = P.getFilename();
        F.Where = {P.getLine(), P.getColumn()};
      }
    }
    // The same error in several passes is one error of those passes.
    for (Found &E : Errors)
      if (E.Path == F.Path && E.Where.Line == F.Where.Line &&
          E.Where.Col == F.Where.Col && E.Message == F.Message) {
        if (E.Passes.back() != Pass)
          E.Passes.push_back(Pass);
        return;
      }
    Errors.push_back(std::move(F));
  }

private:
  std::vector<Found> &Errors;
  std::string Pass;
};

} // namespace

llvm::Error verifyOutput(const SourceFile &Input, llvm::StringRef Generated,
                         const ArchList &Archs, const HostSliceOptions &Opts) {
  // Beside the input, so that its relative #includes resolve; in memory
  // only.
  llvm::SmallString<256> Path(Input.path());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  Path += ".metacu-verify.cu";
  auto Files = filesWith(Generated, Path);

  std::vector<Found> Errors;
  // The host pass, then each architecture's device pass.
  for (size_t I = 0; I <= Archs.archs().size(); ++I) {
    std::string Name = I ? Archs.archs()[I - 1].name() : "host";
    InvocationOptions IO;
    IO.Mode = ClangMode::Verify;
    IO.RuntimeInclude = Opts.RuntimeInclude;
    if (I)
      IO.GpuArch = Name;
    std::vector<std::string> Args =
        clangCommandLine(Opts.Toolkit, Opts.Flags, IO, Path);
    Collector C(Errors, Name);
    clang::tooling::ToolInvocation Invocation(
        Args, std::make_unique<clang::SyntaxOnlyAction>(), Files.get());
    Invocation.setDiagnosticConsumer(&C);
    if (!Invocation.run() && Errors.empty())
      return llvm::createStringError("--verify: Clang could not parse the "
                                     "generated file for the " +
                                     Name + " pass");
  }
  llvm::Error All = llvm::Error::success();
  for (const Found &F : Errors) {
    std::string Msg =
        F.Message + " [--verify: " + llvm::join(F.Passes, ", ") + "]";
    std::optional<std::string> LineText;
    if (F.Path == Input.path() && F.Where.Line)
      LineText = Input.lineText(Input.offsetOfLine(F.Where.Line)).str();
    All = llvm::joinErrors(
        std::move(All), F.Path.empty() ? llvm::createStringError(Msg)
                                       : llvm::make_error<SourceError>(
                                             F.Path, F.Where, LineText, Msg));
  }
  return All;
}

} // namespace metacu
