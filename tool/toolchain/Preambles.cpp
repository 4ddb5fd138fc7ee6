//===- Preambles.cpp ------------------------------------------------------===//
#include "toolchain/Preambles.h"

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
  /// The command line (and whether bodies are skipped) it serves.
  std::string Key;
  std::optional<PrecompiledPreamble> Preamble;
  std::vector<std::string> Files;
};

Preambles::Preambles(unsigned Capacity) : Capacity(Capacity) {}
Preambles::~Preambles() = default;

namespace {

/// What a preamble's build read, and whether it may be used.
class Recorder : public PreambleCallbacks, public DiagnosticConsumer {
public:
  explicit Recorder(const ClangRun &Run) : Run(Run) {}

  void BeforeExecute(CompilerInstance &CI) override { this->CI = &CI; }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return std::make_unique<Entered>(*this);
  }
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L >= DiagnosticsEngine::Error)
      Usable = false;
  }

  std::vector<std::string> Files;
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
      if (!F || !R.Seen.insert(F->getName()).second)
        return;
      R.Files.push_back(F->getName().str());
      if (FID != SM.getMainFileID() && R.Run.Excluded &&
          R.Run.Excluded(*F, R.CI->getPreprocessor()))
        R.Usable = false;
    }
    Recorder &R;
  };

  const ClangRun &Run;
  CompilerInstance *CI = nullptr;
  llvm::StringSet<> Seen;
};

} // namespace

/// Runs the action with the cache's preamble of the command line, or as
/// tooling would where there is none.
class PreambleAction : public tooling::ToolAction {
public:
  PreambleAction(const ClangRun &Run, std::unique_ptr<FrontendAction> Action,
                 Preambles &Cache, std::vector<std::string> *Files)
      : Run(Run), Action(std::move(Action)), Cache(Cache), Files(Files) {}

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
      if (Files)
        *Files = E->Files;
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
  /// The preamble of \p Inv's command line, built or rebuilt if need be;
  /// none if it cannot be used.
  Preambles::Entry *preamble(CompilerInvocation &Inv,
                             IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                             std::shared_ptr<PCHContainerOperations> PCH,
                             const llvm::MemoryBuffer &Main) {
    // Of the command line's headers only: the input is read in full.
    PreambleBounds None(0, /*PreambleEndsAtStartOfLine=*/false);
    std::string Key = Run.SkipFunctionBodies ? "skip" : "full";
    for (const std::string &A : Run.Args)
      Key += '\0' + A;
    auto &Kept = Cache.Kept;
    auto It = llvm::find_if(Kept, [&](const auto &E) { return E->Key == Key; });
    if (It != Kept.end()) {
      Kept.splice(Kept.begin(), Kept, It);
      Preambles::Entry &E = *Kept.front();
      if (E.Preamble->CanReuse(Inv, Main.getMemBufferRef(), None, *VFS))
        return &E;
      Kept.pop_front();
    }
    Recorder R(Run);
    IntrusiveRefCntPtr<DiagnosticsEngine> D =
        CompilerInstance::createDiagnostics(*VFS, Inv.getDiagnosticOpts(), &R,
                                            /*ShouldOwnClient=*/false);
    auto Built = PrecompiledPreamble::Build(Inv, &Main, None, D, VFS, PCH,
                                            /*StoreInMemory=*/true, "", R);
    if (!Built || !R.Usable)
      return nullptr;
    auto E = std::make_unique<Preambles::Entry>();
    E->Key = std::move(Key);
    E->Preamble.emplace(std::move(*Built));
    E->Files = std::move(R.Files);
    Kept.push_front(std::move(E));
    if (Kept.size() > Cache.Capacity)
      Kept.pop_back();
    return Kept.front().get();
  }

  const ClangRun &Run;
  std::unique_ptr<FrontendAction> Action;
  Preambles &Cache;
  std::vector<std::string> *Files;
};

bool runClang(const ClangRun &Run, std::unique_ptr<FrontendAction> Action,
              Preambles *Cache, std::vector<std::string> *PreambleFiles) {
  if (PreambleFiles)
    PreambleFiles->clear();
  if (!Cache) {
    tooling::ToolInvocation Invocation(Run.Args, std::move(Action), Run.Files);
    Invocation.setDiagnosticConsumer(Run.Diagnostics);
    return Invocation.run();
  }
  PreambleAction A(Run, std::move(Action), *Cache, PreambleFiles);
  tooling::ToolInvocation Invocation(
      Run.Args, &A, Run.Files, std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(Run.Diagnostics);
  return Invocation.run();
}

} // namespace metacu
