//===- CompiledCopies.cpp -------------------------------------------------===//
#include "expand/CompiledCopies.h"

#include "clang/Interpreter/Interpreter.h"
#include "llvm/IR/Module.h"
#include <dlfcn.h>

namespace metacu {

void reuseCompiledCopies(clang::Interpreter &I, llvm::Module &M) {
  for (llvm::Function &F : M) {
    if (F.isDeclaration() || !F.hasLinkOnceODRLinkage())
      continue;
    auto Compiled = I.getSymbolAddress(F.getName());
    if (!Compiled) {
      llvm::consumeError(Compiled.takeError());
      continue;
    }
    Dl_info In;
    if (dladdr(Compiled->toPtr<void *>(), &In))
      continue;
    F.deleteBody();
    F.setComdat(nullptr);
  }
}

} // namespace metacu
