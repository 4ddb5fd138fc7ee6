//===- PresumedLines.cpp --------------------------------------------------===//
#include "expand/PresumedLines.h"
#include "support/Tokens.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace metacu {

std::optional<PresumedLine> keptLineDirective(const SourceManager &SM,
                                              SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  FileID FID = SM.getFileID(Loc);
  llvm::StringRef Text = SM.getBufferData(FID);
  // The preprocessor is at the directive's line break or past it: the
  // line after is the first that starts there or later.
  unsigned Start = SM.getFileOffset(Loc);
  auto StartsLine = [&](unsigned O) {
    return O == 0 || Text[O - 1] == '\n' ||
           (Text[O - 1] == '\r' && (O == Text.size() || Text[O] != '\n'));
  };
  while (Start < Text.size() && !StartsLine(Start))
    ++Start;
  if (Start >= Text.size())
    return std::nullopt;
  PresumedLoc After = SM.getPresumedLoc(SM.getComposedLoc(FID, Start));
  PresumedLoc Own = SM.getPresumedLoc(SM.getLocForStartOfFile(FID),
                                      /*UseLineDirectives=*/false);
  if (After.isInvalid() || Own.isInvalid() ||
      llvm::StringRef(After.getFilename()) != Own.getFilename())
    return std::nullopt;
  return PresumedLine{Start, After.getLine()};
}

namespace {

/// Whether Clang's raw lexer finds a `#line` or `# N` directive in \p
/// Text: one the preprocessor may keep.
bool mayRenumber(llvm::StringRef Text) {
  if (!Text.contains('#'))
    return false;
  std::vector<Token> Toks = lexRaw(Text);
  for (size_t I = 0; I + 1 < Toks.size(); ++I)
    if (Toks[I].is(tok::hash) && Toks[I].StartOfLine &&
        !Toks[I + 1].StartOfLine &&
        (Toks[I + 1].isIdent("line") || Toks[I + 1].is(tok::numeric_constant)))
      return true;
  return false;
}

class KeptLines : public PPCallbacks {
public:
  KeptLines(const SourceManager &SM, std::vector<PresumedLine> &Out)
      : SM(SM), Out(Out) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != RenameFile ||
        SM.getFileID(SM.getExpansionLoc(Loc)) != SM.getMainFileID())
      return;
    if (std::optional<PresumedLine> L = keptLineDirective(SM, Loc))
      Out.push_back(*L);
  }

private:
  const SourceManager &SM;
  std::vector<PresumedLine> &Out;
};

class KeptLinesAction : public PreprocessOnlyAction {
public:
  explicit KeptLinesAction(std::vector<PresumedLine> &Out) : Out(Out) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<KeptLines>(CI.getSourceManager(), Out));
    return true;
  }

private:
  std::vector<PresumedLine> &Out;
};

} // namespace

SourceFile numberAsPreprocessed(const SourceFile &File,
                                const HostSliceOptions &Opts) {
  if (!mayRenumber(File.text()))
    return File;
  // What is wrong with the input is the later stages' to report.
  std::vector<PresumedLine> Kept;
  preprocessAsNvccHostPass(File, Opts, std::make_unique<KeptLinesAction>(Kept));
  SourceFile Out = File;
  for (const PresumedLine &L : Kept)
    Out.markOrigin(L.Offset, File.path().str(), L.Line);
  return Out;
}

} // namespace metacu
