//===- PreludeCache.cpp ---------------------------------------------------===//
#include "expand/PreludeCache.h"
#include "support/Output.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <cstdlib>

namespace metacu {

std::string defaultCacheDirectory() {
  if (const char *D = std::getenv("METACU_CACHE_DIR"))
    return D;
  llvm::SmallString<256> Dir;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Dir = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    llvm::sys::path::append(Dir, H, ".cache");
  else
    return "";
  llvm::sys::path::append(Dir, "metacu");
  return std::string(Dir);
}

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
  for (const char *Own : {"metacu/detail/generator.h",
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

/// Beside each precompiled header, a checksum of its bytes: Clang trusts a
/// precompiled header it loads, and a damaged one (a full disk, a crash
/// while copying a home directory) would crash every later run.
static std::string checksumPath(llvm::StringRef PCH) {
  return (PCH + ".sum").str();
}

static std::string checksumOf(llvm::StringRef Contents) {
  return llvm::utohexstr(llvm::xxh3_64bits(Contents)) + " " +
         std::to_string(Contents.size()) + "\n";
}

/// Whether \p PCH is exactly the file that was written.
static bool isIntact(llvm::StringRef PCH) {
  auto Sum = llvm::MemoryBuffer::getFile(checksumPath(PCH));
  auto Data = llvm::MemoryBuffer::getFile(PCH, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  return Sum && Data && (*Sum)->getBuffer() == checksumOf((*Data)->getBuffer());
}

/// Each is several MiB; another metacu version or CUDA path makes another.
/// Keeps the most recently used few.
static void prune(llvm::StringRef CacheDir) {
  constexpr size_t Keep = 8;
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Found;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(CacheDir, EC), End;
       !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.starts_with("generator-") || !Name.ends_with(".pch"))
      continue;
    llvm::sys::fs::file_status S;
    if (!llvm::sys::fs::status(It->path(), S))
      Found.push_back({S.getLastModificationTime(), It->path()});
  }
  if (Found.size() <= Keep)
    return;
  llvm::sort(Found, [](const auto &A, const auto &B) { return A > B; });
  for (size_t I = Keep; I < Found.size(); ++I) {
    llvm::sys::fs::remove(Found[I].second);
    llvm::sys::fs::remove(checksumPath(Found[I].second));
  }
}

std::optional<std::string>
precompiledPrelude(llvm::StringRef CacheDir, llvm::StringRef Header,
                   const std::vector<std::string> &Args) {
  if (CacheDir.empty())
    return std::nullopt;
  llvm::SmallString<256> PCH(CacheDir);
  llvm::sys::path::append(PCH, cacheKey(Header, Args));
  if (llvm::sys::fs::exists(PCH) && isIntact(PCH)) {
    // Marks it recently used, for pruning.
    int FD;
    if (!llvm::sys::fs::openFileForWrite(PCH, FD,
                                         llvm::sys::fs::CD_OpenExisting,
                                         llvm::sys::fs::OF_Append)) {
      llvm::sys::fs::setLastAccessAndModificationTime(
          FD, std::chrono::system_clock::now());
      llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    }
    return std::string(PCH);
  }
  if (llvm::sys::fs::create_directories(CacheDir))
    return std::nullopt;

  // Written under a temporary name and renamed, so that parallel builds
  // running metacu at once never read half a file.
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(PCH + ".tmp-%%%%%%", FD, Temp))
    return std::nullopt;
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);

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
  bool Ok = false;
  if (Inv) {
    Inv->getFrontendOpts().OutputFile = std::string(Temp);
    clang::CompilerInstance CI(std::move(Inv));
    CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
    clang::GeneratePCHAction Act;
    Ok = CI.ExecuteAction(Act) && !CI.getDiagnostics().hasErrorOccurred();
  }
  // The checksum is in place before the file it describes: a reader that
  // finds the new header finds its checksum too.
  auto Written = llvm::MemoryBuffer::getFile(Temp, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!Ok || !Written || (*Written)->getBufferSize() == 0 ||
      llvm::errorToBool(writeOutput(checksumPath(PCH),
                                    checksumOf((*Written)->getBuffer()))) ||
      llvm::sys::fs::rename(Temp, PCH)) {
    llvm::sys::fs::remove(Temp);
    return std::nullopt;
  }
  prune(CacheDir);
  return std::string(PCH);
}

} // namespace metacu
