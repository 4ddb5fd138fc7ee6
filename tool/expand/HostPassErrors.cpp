//===- HostPassErrors.cpp -------------------------------------------------===//
#include "expand/HostPassErrors.h"
#include "expand/DialectHeaders.h"
#include "support/Diagnostic.h"
#include "support/Tokens.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <optional>

using namespace clang;

namespace metacu {

bool isUserPreprocessorError(DiagnosticsEngine::Level L,
                             const Diagnostic &Info) {
  return L >= DiagnosticsEngine::Error &&
         Info.getID() >= diag::DIAG_START_LEX &&
         Info.getID() < diag::DIAG_START_PARSE && Info.hasSourceManager() &&
         Info.getLocation().isValid() &&
         !Info.getSourceManager().isInSystemHeader(Info.getLocation());
}

namespace {

/// Keeps the first error of the preprocessor in the user's files.
class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    if (Found ||
        !(L == DiagnosticsEngine::Fatal || isUserPreprocessorError(L, Info)))
      return;
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
      return;
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(Info.getLocation());
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Error E;
    E.Message = std::string(Msg);
    FileID FID = SM.getFileID(Loc);
    E.Offset = SM.getFileOffset(Loc);
    if (Info.getID() == diag::err_pp_unterminated_conditional)
      if (auto C = unterminatedBlockComment(SM.getBufferData(FID), E.Offset)) {
        E.Offset = *C;
        E.Message = "unterminated /* comment";
      }
    PresumedLoc P = SM.getPresumedLoc(Loc);
    E.Option = P.isValid() ? optionBehindBuffer(P.getFilename()).str() : "";
    if (FID != SM.getMainFileID()) {
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
      E.Header = FE ? FE->getName().str() : "";
      E.Where = {SM.getLineNumber(FID, E.Offset),
                 SM.getColumnNumber(FID, E.Offset)};
      E.LineText = SourceFile(E.Header, SM.getBufferData(FID).str())
                       .lineText(E.Offset)
                       .str();
      // The input's #include that leads there.
      SourceLocation Inc = SM.getIncludeLoc(FID);
      while (Inc.isValid() &&
             SM.getFileID(SM.getExpansionLoc(Inc)) != SM.getMainFileID())
        Inc = SM.getIncludeLoc(SM.getFileID(SM.getExpansionLoc(Inc)));
      if (Inc.isValid())
        E.InputOffset = SM.getFileOffset(SM.getExpansionLoc(Inc));
    }
    Found = std::move(E);
  }

  struct Error {
    std::string Message;
    /// Empty: the input.
    std::string Header;
    unsigned Offset = 0;
    LineCol Where;
    std::string LineText;
    std::optional<unsigned> InputOffset;
    /// The command-line option behind one of Clang's own buffers.
    std::string Option;
  };
  std::optional<Error> Found;
};

} // namespace

llvm::Error checkHostPassPreprocesses(const SourceFile &File,
                                      const ScanResult &Scan,
                                      const HostSliceOptions &Opts) {
  llvm::SmallString<256> Path(File.path());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  auto Files = maskedFiles(File, Scan, Path);
  std::vector<std::string> Args =
      clangCommandLine(Opts.Toolkit, Opts.Flags,
                       {ClangMode::NvccPass, Opts.RuntimeInclude, 0}, Path);
  FirstError First;
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<PreprocessOnlyAction>(), Files.get());
  Invocation.setDiagnosticConsumer(&First);
  Invocation.run();
  if (!First.Found)
    return llvm::Error::success();
  const FirstError::Error &E = *First.Found;
  if (!E.Option.empty())
    return llvm::createStringError(E.Message + " (" + E.Option + ")");
  if (E.Header.empty())
    return errorAt(E.Offset, E.Message);
  unsigned IncludedAt = 0;
  if (E.InputOffset) {
    Origin From = File.origin(*E.InputOffset);
    IncludedAt = From.IncludedAt ? From.IncludedAt : From.Where.Line;
  }
  return llvm::make_error<SourceError>(
      displayHeaderPath(File.path(), Opts.RuntimeInclude, E.Header), E.Where,
      E.LineText, E.Message, "error", IncludedAt);
}

} // namespace metacu
