//===- Preambles.cpp ------------------------------------------------------===//
#include "toolchain/Preambles.h"
#include "support/Tokens.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

using namespace clang;

namespace metacu {

struct Preambles::Entry {
  /// The command line (and whether bodies are skipped, and the watch's key)
  /// it serves.
  std::string Key;
  std::optional<PrecompiledPreamble> Preamble;
  /// The bytes of the input it holds (0: the command line's headers only).
  unsigned Size = 0;
  /// The input's leading #include lines whose preamble met an error: while
  /// they stay, the entry holds one of the command line's headers only (or
  /// none, where that met one too).
  std::string Failed;
  PreambleUse Use;
};

Preambles::Preambles(unsigned Capacity) : Capacity(Capacity) {}
Preambles::~Preambles() = default;
PreambleNotes::~PreambleNotes() = default;

unsigned leadingIncludes(llvm::StringRef Text) {
  std::vector<Token> Toks = lexRaw(Text);
  unsigned End = 0;
  for (size_t I = 0; I < Toks.size();) {
    // '#', 'include', then "name" or <name> to the end of the line.
    if (!Toks[I].is(tok::hash) || !Toks[I].StartOfLine ||
        I + 2 >= Toks.size() || !Toks[I + 1].isIdent("include"))
      break;
    size_t Last = I + 2;
    while (Last + 1 < Toks.size() && !Toks[Last + 1].StartOfLine)
      ++Last;
    bool Quoted = Last == I + 2 && Toks[Last].is(tok::string_literal);
    bool Angled = Toks[I + 2].is(tok::less) && Toks[Last].is(tok::greater);
    if (!Quoted && !Angled)
      break;
    size_t LineEnd = Text.find('\n', Toks[Last].end());
    if (LineEnd == llvm::StringRef::npos)
      break;
    End = LineEnd + 1;
    I = Last + 1;
  }
  return End;
}

namespace {

/// What a preamble's build read, and whether it may be used.
class Recorder : public PreambleCallbacks, public DiagnosticConsumer {
public:
  explicit Recorder(const ClangRun &Run) : Run(Run) {}

  void BeforeExecute(CompilerInstance &CI) override { this->CI = &CI; }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    auto Files = std::make_unique<Entered>(*this);
    if (!Run.Watch)
      return Files;
    PreambleWatch W = Run.Watch(CI->getPreprocessor());
    Notes = std::move(W.Notes);
    return std::make_unique<PPChainedCallbacks>(std::move(W.Callbacks),
                                                std::move(Files));
  }
  bool shouldSkipFunctionBody(Decl *) override {
    return Run.SkipFunctionBodies;
  }
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L >= DiagnosticsEngine::Error && !(Run.Ignored && Run.Ignored(L, Info)))
      Usable = false;
  }

  std::vector<std::string> Files;
  std::shared_ptr<PreambleNotes> Notes;
  bool Usable = true;

private:
  struct Entered : PPCallbacks {
    explicit Entered(Recorder &R) : R(R) {}
    void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                     SrcMgr::CharacteristicKind, FileID) override {
      if (Reason != EnterFile)
        return;
      SourceManager &SM = R.CI->getSourceManager();
      FileID FID = SM.getFileID(Loc);
      auto F = SM.getFileEntryRefForID(FID);
      if (F && R.Seen.insert(F->getName()).second)
        R.Files.push_back(F->getName().str());
    }
    Recorder &R;
  };

  const ClangRun &Run;
  CompilerInstance *CI = nullptr;
  llvm::StringSet<> Seen;
};

} // namespace

/// Runs the action with the cache's preamble of the command line and the
/// input's leading #include lines, or as tooling would where there is none.
class PreambleAction : public tooling::ToolAction {
public:
  PreambleAction(const ClangRun &Run, std::unique_ptr<FrontendAction> Action,
                 Preambles &Cache, PreambleUse *Used)
      : Run(Run), Action(std::move(Action)), Cache(Cache), Used(Used) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv, FileManager *FM,
                     std::shared_ptr<PCHContainerOperations> PCH,
                     DiagnosticConsumer *Diags) override {
    if (Run.SkipFunctionBodies)
      Inv->getFrontendOpts().SkipFunctionBodies = true;
    IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS =
        FM->getVirtualFileSystemPtr();
    IntrusiveRefCntPtr<FileManager> Using(FM);
    std::unique_ptr<llvm::MemoryBuffer> Main;
    if (Inv->getFrontendOpts().Inputs.size() == 1)
      if (auto B =
              VFS->getBufferForFile(Inv->getFrontendOpts().Inputs[0].getFile()))
        Main = std::move(*B);
    if (Preambles::Entry *E =
            Main ? preamble(*Inv, VFS, PCH, *Main) : nullptr) {
      E->Preamble->AddImplicitPreamble(*Inv, VFS, Main.get());
      // The input's text is the compiler's now (its remapped file).
      Main.release();
      Using =
          llvm::makeIntrusiveRefCnt<FileManager>(FM->getFileSystemOpts(), VFS);
      if (Used)
        *Used = E->Use;
    }
    CompilerInstance Compiler(std::move(Inv), std::move(PCH));
    Compiler.setVirtualFileSystem(VFS);
    Compiler.setFileManager(Using);
    Compiler.createDiagnostics(Diags, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager();
    // The action may hold on to the compiler's parts: it goes first.
    std::unique_ptr<FrontendAction> Running = std::move(Action);
    bool Ran = Compiler.ExecuteAction(*Running);
    FM->clearStatCache();
    return Ran;
  }

private:
  /// The preamble for \p Inv and the input \p Main, built or rebuilt if
  /// need be; none if it cannot be used.
  Preambles::Entry *preamble(CompilerInvocation &Inv,
                             IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                             std::shared_ptr<PCHContainerOperations> PCH,
                             const llvm::MemoryBuffer &Main) {
    llvm::StringRef Text = Main.getBuffer();
    llvm::StringRef Leading = Text.take_front(leadingIncludes(Text));
    std::string Key = Run.SkipFunctionBodies ? "skip" : "full";
    Key += '\0' + Run.WatchKey;
    for (const std::string &A : Run.Args)
      Key += '\0' + A;
    auto &Kept = Cache.Kept;
    std::string Failed;
    auto It = llvm::find_if(Kept, [&](const auto &E) { return E->Key == Key; });
    if (It != Kept.end()) {
      Kept.splice(Kept.begin(), Kept, It);
      Preambles::Entry &E = *Kept.front();
      // No preamble of the command line's headers either: not tried again
      // while the lines stay.
      if (!E.Preamble && Leading == E.Failed)
        return nullptr;
      unsigned Size = Leading == E.Failed ? 0 : Leading.size();
      if (E.Size == Size &&
          E.Preamble->CanReuse(Inv, Main.getMemBufferRef(), bounds(Size), *VFS))
        return &E;
      if (Leading == E.Failed)
        Failed = E.Failed;
      Kept.pop_front();
    }
    auto E = std::make_unique<Preambles::Entry>();
    E->Key = std::move(Key);
    E->Failed = std::move(Failed);
    if (E->Failed.empty() && !Leading.empty() &&
        !build(Inv, VFS, PCH, Main, Leading.size(), *E))
      E->Failed = Leading.str();
    if (!E->Preamble && !build(Inv, VFS, PCH, Main, 0, *E))
      E->Failed = Leading.str();
    Kept.push_front(std::move(E));
    if (Kept.size() > Cache.Capacity)
      Kept.pop_back();
    return Kept.front()->Preamble ? Kept.front().get() : nullptr;
  }

  static PreambleBounds bounds(unsigned Size) {
    return PreambleBounds(Size, /*PreambleEndsAtStartOfLine=*/Size > 0);
  }

  /// Builds into \p E a preamble of the command line's headers and the
  /// input's first \p Size bytes; whether it can be used.
  bool build(CompilerInvocation &Inv,
             IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
             std::shared_ptr<PCHContainerOperations> PCH,
             const llvm::MemoryBuffer &Main, unsigned Size,
             Preambles::Entry &E) {
    Recorder R(Run);
    IntrusiveRefCntPtr<DiagnosticsEngine> D =
        CompilerInstance::createDiagnostics(*VFS, Inv.getDiagnosticOpts(), &R,
                                            /*ShouldOwnClient=*/false);
    auto Built = PrecompiledPreamble::Build(Inv, &Main, bounds(Size), D, VFS,
                                            PCH, /*StoreInMemory=*/true, "", R);
    if (!Built || !R.Usable)
      return false;
    E.Preamble.emplace(std::move(*Built));
    E.Size = Size;
    E.Use.Files = std::move(R.Files);
    E.Use.Notes = std::move(R.Notes);
    return true;
  }

  const ClangRun &Run;
  std::unique_ptr<FrontendAction> Action;
  Preambles &Cache;
  PreambleUse *Used;
};

bool runClang(const ClangRun &Run, std::unique_ptr<FrontendAction> Action,
              Preambles *Cache, PreambleUse *Used) {
  if (Used)
    *Used = PreambleUse();
  if (!Cache) {
    tooling::ToolInvocation Invocation(Run.Args, std::move(Action), Run.Files);
    Invocation.setDiagnosticConsumer(Run.Diagnostics);
    return Invocation.run();
  }
  PreambleAction A(Run, std::move(Action), *Cache, Used);
  tooling::ToolInvocation Invocation(
      Run.Args, &A, Run.Files, std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(Run.Diagnostics);
  return Invocation.run();
}

} // namespace metacu
