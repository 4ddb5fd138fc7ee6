//===- PassSources.cpp ----------------------------------------------------===//
#include "migrate/PassSources.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Tooling.h"

namespace metacu {

PassSources::PassSources(clang::FileManager &Files)
    : Files(Files), Diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                          Options, &ToPass, /*ShouldOwnClient=*/false),
      SM(llvm::makeIntrusiveRefCnt<clang::SourceManager>(Diags, Files)) {}

class PassSources::Runner : public clang::tooling::ToolAction {
public:
  Runner(PassSources &Sources, std::unique_ptr<clang::FrontendAction> Action,
         bool Own)
      : Sources(Sources), Action(std::move(Action)), Own(Own) {}

  /// FrontendActionFactory::runInvocation, but for the source manager.
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCH,
                     clang::DiagnosticConsumer *Consumer) override {
    clang::CompilerInstance CI(std::move(Invocation), std::move(PCH));
    CI.setFileManager(Files);
    CI.createDiagnostics(Consumer, /*ShouldOwnClient=*/false);
    if (Own) {
      CI.createSourceManager();
    } else {
      Sources.SM->clearIDTables();
      CI.getDiagnostics().setSourceManager(Sources.SM.get());
      CI.setSourceManager(Sources.SM);
    }
    Sources.ToPass.To = Consumer;
    bool Ok = CI.ExecuteAction(*Action);
    Sources.ToPass.To = nullptr;
    Files->clearStatCache();
    return Ok;
  }

private:
  PassSources &Sources;
  std::unique_ptr<clang::FrontendAction> Action;
  bool Own;
};

bool PassSources::run(const std::vector<std::string> &Args,
                      std::unique_ptr<clang::FrontendAction> Action,
                      clang::DiagnosticConsumer &Diags, bool Own) {
  Runner R(*this, std::move(Action), Own);
  clang::tooling::ToolInvocation Invocation(
      Args, &R, &Files, std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Diags);
  return Invocation.run();
}

} // namespace metacu
