//===- CompiledCopies.cpp - A program's copies of what the JIT compiled ---===//
#include "expand/CompiledCopies.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Interpreter/Interpreter.h"
#include "clang/Interpreter/PartialTranslationUnit.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(CompiledCopiesTest, AFunctionTheJITCompiledIsNotCompiledAgain) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  clang::IncrementalCompilerBuilder B;
  B.SetCompilerArgs({"-std=c++17"});
  auto CI = B.CreateCpp();
  ASSERT_TRUE(bool(CI)) << llvm::toString(CI.takeError());
  auto I = clang::Interpreter::create(std::move(*CI));
  ASSERT_TRUE(bool(I)) << llvm::toString(I.takeError());
  ASSERT_FALSE(
      bool((*I)->ParseAndExecute("inline int twice(int x) { return 2 * x; }\n"
                                 "int first = twice(1);\n")));
  // The next module uses it again, and a function of its own.
  auto PTU = (*I)->Parse("inline int thrice(int x) { return 3 * x; }\n"
                         "int second = twice(2) + thrice(1);\n");
  ASSERT_TRUE(bool(PTU)) << llvm::toString(PTU.takeError());
  llvm::Module &M = *PTU->TheModule;
  llvm::Function *Twice = nullptr, *Thrice = nullptr;
  for (llvm::Function &F : M) {
    if (F.getName().contains("twice"))
      Twice = &F;
    if (F.getName().contains("thrice"))
      Thrice = &F;
  }
  ASSERT_NE(Twice, nullptr);
  ASSERT_NE(Thrice, nullptr);
  ASSERT_FALSE(Twice->isDeclaration());
  reuseCompiledCopies(**I, M);
  EXPECT_TRUE(Twice->isDeclaration());
  EXPECT_FALSE(Thrice->isDeclaration());
  // The module runs with the JIT's twice().
  ASSERT_FALSE(bool((*I)->Execute(*PTU)));
  auto Second = (*I)->getSymbolAddress("second");
  ASSERT_TRUE(bool(Second)) << llvm::toString(Second.takeError());
  EXPECT_EQ(*Second->toPtr<int *>(), 7);
}

} // namespace
