//===- PreludeCache.cpp ---------------------------------------------------===//
#include "expand/PreludeCache.h"
#include "support/Output.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Chrono.h"
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

/// Beside each precompiled header, a record of it: a checksum of its bytes,
/// then each file it was built from with its size and modification time.
/// Clang trusts a precompiled header it loads: a damaged one (a full disk,
/// a crash while copying a home directory) crashes the interpreter, and so
/// does one whose headers changed since (a toolkit or compiler upgrade),
/// where Clang's own check fails in a way the interpreter does not survive.
static std::string recordPath(llvm::StringRef PCH) {
  return (PCH + ".sum").str();
}

static std::string checksumOf(llvm::StringRef Contents) {
  return llvm::utohexstr(llvm::xxh3_64bits(Contents)) + " " +
         std::to_string(Contents.size()) + "\n";
}

/// "SIZE MTIME PATH" of \p Path as it is now; empty if it cannot be read.
static std::string stamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return "";
  return std::to_string(St.getSize()) + " " +
         std::to_string(llvm::sys::toTimeT(St.getLastModificationTime())) +
         " " + Path.str();
}

/// The stamps of every file \p SM read, sorted, one per line.
static std::string inputStamps(const clang::SourceManager &SM) {
  std::vector<std::string> Stamps;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    if (std::string S = stamp(It->first.getName()); !S.empty())
      Stamps.push_back(std::move(S));
  llvm::sort(Stamps);
  std::string Out;
  for (const std::string &S : Stamps)
    Out += S + "\n";
  return Out;
}

/// Whether \p PCH is exactly the file that was written, and every file it
/// was built from is as it was then.
static bool isIntact(llvm::StringRef PCH) {
  auto Record = llvm::MemoryBuffer::getFile(recordPath(PCH));
  auto Data = llvm::MemoryBuffer::getFile(PCH, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!Record || !Data)
    return false;
  auto [Checksum, Inputs] = (*Record)->getBuffer().split('\n');
  if ((Checksum + "\n").str() != checksumOf((*Data)->getBuffer()))
    return false;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Inputs.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    // SIZE MTIME PATH: the path is what follows the second space.
    llvm::StringRef Path = Line.split(' ').second.split(' ').second;
    if (stamp(Path) != Line)
      return false;
  }
  return !Lines.empty();
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
    llvm::sys::fs::remove(recordPath(Found[I].second));
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
  std::string Inputs;
  if (Inv) {
    Inv->getFrontendOpts().OutputFile = std::string(Temp);
    clang::CompilerInstance CI(std::move(Inv));
    CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
    clang::GeneratePCHAction Act;
    Ok = CI.ExecuteAction(Act) && !CI.getDiagnostics().hasErrorOccurred();
    if (Ok && CI.hasSourceManager())
      Inputs = inputStamps(CI.getSourceManager());
  }
  // The record is in place before the file it describes: a reader that
  // finds the new header finds its record too.
  auto Written = llvm::MemoryBuffer::getFile(Temp, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!Ok || Inputs.empty() || !Written || (*Written)->getBufferSize() == 0 ||
      llvm::errorToBool(writeOutput(
          recordPath(PCH), checksumOf((*Written)->getBuffer()) + Inputs)) ||
      llvm::sys::fs::rename(Temp, PCH)) {
    llvm::sys::fs::remove(Temp);
    return std::nullopt;
  }
  prune(CacheDir);
  return std::string(PCH);
}

} // namespace metacu
