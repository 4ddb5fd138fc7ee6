//===- HostIncluders.cpp --------------------------------------------------===//
#include "migrate/HostIncluders.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include <mutex>

using namespace clang;

namespace metacu {

namespace {

/// Notes every file the preprocessor enters.
class EnteredFiles : public PPCallbacks {
public:
  EnteredFiles(SourceManager &SM, std::vector<std::string> &Out)
      : SM(SM), Out(Out) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc)))
      Out.push_back(FE->getName().str());
  }

private:
  SourceManager &SM;
  std::vector<std::string> &Out;
};

/// Preprocesses the file, passing over the headers it cannot find.
class IncludesAction : public PreprocessOnlyAction {
public:
  explicit IncludesAction(std::vector<std::string> &Out) : Out(Out) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.SetSuppressIncludeNotFoundError(true);
    PP.addPPCallbacks(
        std::make_unique<EnteredFiles>(CI.getSourceManager(), Out));
    return true;
  }

private:
  std::vector<std::string> &Out;
};

/// The files \p Source includes, as the preprocessor names them.
std::vector<std::string> includedBy(llvm::StringRef Source,
                                    const CompileFlags &Flags,
                                    const CudaToolkit &Toolkit) {
  // The host compiler's view: C++, no CUDA mode, the toolkit's headers
  // where a CUDA-enabled C++ target finds them.
  std::vector<std::string> Args = {
      "clang++", "-x", "c++", "-w", "-resource-dir", clangResourceDir()};
  if (!Flags.Standard.empty())
    Args.push_back("-std=" + Flags.Standard);
  llvm::append_range(Args, Flags.Args);
  llvm::SmallString<256> Own(Toolkit.Root);
  llvm::sys::path::append(Own, "include");
  Args.insert(Args.end(), {"-isystem", std::string(Own), Source.str()});
  std::vector<std::string> Out;
  IgnoringDiagConsumer Quiet;
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions());
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<IncludesAction>(Out), Files.get());
  Invocation.setDiagnosticConsumer(&Quiet);
  Invocation.run();
  return Out;
}

} // namespace

std::map<std::string, std::string>
hostIncluders(const SourceTree &Tree,
              const std::function<llvm::Expected<CompileFlags>(llvm::StringRef)>
                  &FlagsFor,
              const CudaToolkit &Toolkit, unsigned Jobs) {
  llvm::ArrayRef<std::string> Sources = Tree.hostSources();
  std::vector<std::vector<std::string>> Included(Sources.size());
  {
    llvm::DefaultThreadPool Pool(
        llvm::hardware_concurrency(std::max(1u, Jobs)));
    std::mutex FlagsLock;
    for (size_t I = 0; I < Sources.size(); ++I)
      Pool.async([&, I] {
        CompileFlags Flags;
        {
          // compile_commands.json is read once, by one thread.
          std::lock_guard<std::mutex> Lock(FlagsLock);
          auto F = FlagsFor(Sources[I]);
          // A source the flags do not know (no entry in the compilation
          // database) is still read, with none: passing it over would let
          // migrate convert a header the host compiler reads.
          if (F)
            Flags = std::move(*F);
          else
            llvm::consumeError(F.takeError());
        }
        Included[I] = includedBy(Sources[I], Flags, Toolkit);
      });
    Pool.wait();
  }
  // The first source in the tree's order, whatever the jobs.
  std::map<std::string, std::string> By;
  for (size_t I = 0; I < Sources.size(); ++I)
    for (const std::string &File : Included[I])
      if (Tree.contains(File))
        By.try_emplace(Tree.nameOf(File), Sources[I]);
  return By;
}

} // namespace metacu
