//===- PreludeCache.cpp ---------------------------------------------------===//
#include "expand/PreludeCache.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace metacu {

/// Names the precompiled header after everything that shapes it: the
/// compiler, the flags and the contents of metacu's own headers. A change
/// to a system header is caught when Clang validates the file on loading.
static std::string cacheKey(llvm::StringRef Header,
                            const std::vector<std::string> &Args) {
  llvm::SHA256 H;
  H.update(LLVM_VERSION_STRING);
  for (const std::string &A : Args) {
    H.update(A);
    H.update(llvm::ArrayRef<uint8_t>{0});
  }
  // metacu's headers the library is made of, beside it in the include tree.
  llvm::StringRef Root = llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Header)));
  for (const char *Own : {"metacu/meta.h", "metacu/detail/generator.h",
                          "metacu/detail/host_api.h", "metacu/select.h"}) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Own);
    if (auto B = llvm::MemoryBuffer::getFile(P))
      H.update((*B)->getBuffer());
  }
  auto Digest = H.final();
  std::string Hex;
  for (uint8_t B : llvm::ArrayRef<uint8_t>(Digest).take_front(12))
    Hex += llvm::utohexstr(B, /*LowerCase=*/true, /*Width=*/2);
  return "generator-" + Hex + ".pch";
}

std::optional<std::string>
precompiledPrelude(llvm::StringRef CacheDir, llvm::StringRef Header,
                   const std::vector<std::string> &Args) {
  auto Build = [&](llvm::StringRef Temp) -> std::optional<PchBuild> {
    std::vector<std::string> CommandLine = precompileCommandLine(Args, Header);
    std::vector<const char *> Argv;
    for (const std::string &A : CommandLine)
      Argv.push_back(A.c_str());

    auto DiagOpts = std::make_shared<clang::DiagnosticOptions>();
    clang::IgnoringDiagConsumer Ignore;
    auto Diags = clang::CompilerInstance::createDiagnostics(
        *llvm::vfs::getRealFileSystem(), *DiagOpts, &Ignore,
        /*ShouldOwnClient=*/false);
    clang::CreateInvocationOptions CIOpts;
    CIOpts.Diags = Diags;
    std::shared_ptr<clang::CompilerInvocation> Inv =
        clang::createInvocation(Argv, CIOpts);
    if (!Inv)
      return std::nullopt;
    Inv->getFrontendOpts().OutputFile = Temp.str();
    clang::CompilerInstance CI(std::move(Inv));
    CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
    clang::GeneratePCHAction Act;
    if (!CI.ExecuteAction(Act) || CI.getDiagnostics().hasErrorOccurred() ||
        !CI.hasSourceManager())
      return std::nullopt;
    return PchBuild{filesRead(CI.getSourceManager()), ""};
  };
  std::optional<StoredPch> Stored =
      storedPch(CacheDir, cacheKey(Header, Args), /*Keep=*/8, Build);
  if (!Stored)
    return std::nullopt;
  return Stored->Path;
}

} // namespace metacu
