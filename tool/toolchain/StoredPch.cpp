//===- StoredPch.cpp ------------------------------------------------------===//
#include "toolchain/StoredPch.h"
#include "support/Output.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
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

static std::string recordPath(llvm::StringRef PCH) {
  return (PCH + ".sum").str();
}

static std::string checksumOf(llvm::StringRef Contents) {
  return llvm::utohexstr(llvm::xxh3_64bits(Contents)) + " " +
         std::to_string(Contents.size()) + "\n";
}

/// "SIZE MTIME PATH" of \p Path as it is now, "absent PATH" if there is
/// nothing there.
static std::string stamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return "absent " + Path.str();
  return std::to_string(St.getSize()) + " " +
         std::to_string(llvm::sys::toTimeT(St.getLastModificationTime())) +
         " " + Path.str();
}

std::vector<std::string> filesRead(const clang::SourceManager &SM) {
  std::vector<std::string> Files;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    Files.push_back(It->first.getName().str());
  return Files;
}

/// The notes of \p PCH if it is exactly the file that was written and every
/// file it was built from is as it was then.
static std::optional<std::string> intactNotes(llvm::StringRef PCH) {
  auto Record = llvm::MemoryBuffer::getFile(recordPath(PCH));
  auto Data = llvm::MemoryBuffer::getFile(PCH, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!Record || !Data)
    return std::nullopt;
  auto [Checksum, Rest] = (*Record)->getBuffer().split('\n');
  auto [NotesSum, Body] = Rest.split('\n');
  size_t End = Body.find("\n\n");
  if (End == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Inputs = Body.take_front(End + 1);
  llvm::StringRef Notes = Body.drop_front(End + 2);
  if ((Checksum + "\n").str() != checksumOf((*Data)->getBuffer()) ||
      (NotesSum + "\n").str() != checksumOf(Notes))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Inputs.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    // SIZE MTIME PATH or absent PATH.
    llvm::StringRef Path = Line.starts_with("absent ")
                               ? Line.drop_front(7)
                               : Line.split(' ').second.split(' ').second;
    if (stamp(Path) != Line)
      return std::nullopt;
  }
  if (Lines.empty())
    return std::nullopt;
  return Notes.str();
}

/// Each is several MiB; another metacu version, CUDA path or set of flags
/// makes another. Keeps the \p Keep most recently used of a kind, and as
/// many of the kind's markers (NAME.pch.wanted: PreludePch.h).
static void prune(llvm::StringRef CacheDir, llvm::StringRef Kind,
                  unsigned Keep) {
  for (llvm::StringRef Suffix : {".pch", ".pch.wanted"}) {
    std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Found;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(CacheDir, EC), End;
         !EC && It != End; It.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      if (!Name.starts_with(Kind) || !Name.ends_with(Suffix))
        continue;
      llvm::sys::fs::file_status S;
      if (!llvm::sys::fs::status(It->path(), S))
        Found.push_back({S.getLastModificationTime(), It->path()});
    }
    if (Found.size() <= Keep)
      continue;
    llvm::sort(Found, [](const auto &A, const auto &B) { return A > B; });
    for (size_t I = Keep; I < Found.size(); ++I) {
      llvm::sys::fs::remove(Found[I].second);
      if (Suffix == ".pch")
        llvm::sys::fs::remove(recordPath(Found[I].second));
    }
  }
}

std::optional<StoredPch> storedPch(
    llvm::StringRef CacheDir, llvm::StringRef Name, unsigned Keep,
    llvm::function_ref<std::optional<PchBuild>(llvm::StringRef Temp)> Build) {
  if (CacheDir.empty())
    return std::nullopt;
  llvm::SmallString<256> PCH(CacheDir);
  llvm::sys::path::append(PCH, Name);
  if (llvm::sys::fs::exists(PCH))
    if (std::optional<std::string> Notes = intactNotes(PCH)) {
      // Marks it recently used, for pruning.
      int FD;
      if (!llvm::sys::fs::openFileForWrite(PCH, FD,
                                           llvm::sys::fs::CD_OpenExisting,
                                           llvm::sys::fs::OF_Append)) {
        llvm::sys::fs::setLastAccessAndModificationTime(
            FD, std::chrono::system_clock::now());
        llvm::sys::Process::SafelyCloseFileDescriptor(FD);
      }
      return StoredPch{std::string(PCH), std::move(*Notes)};
    }
  if (llvm::sys::fs::create_directories(CacheDir))
    return std::nullopt;

  // Written under a temporary name and renamed, so that parallel builds
  // running metacu at once never read half a file; made before the build,
  // so that a directory that cannot be written costs no build.
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(PCH + ".tmp-%%%%%%", FD, Temp))
    return std::nullopt;
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);

  std::optional<PchBuild> Built = Build(Temp);
  std::string Stamps;
  if (Built) {
    std::vector<std::string> Lines;
    for (const std::string &In : Built->Inputs)
      Lines.push_back(stamp(In));
    llvm::sort(Lines);
    Lines.erase(llvm::unique(Lines), Lines.end());
    for (const std::string &L : Lines)
      Stamps += L + "\n";
  }
  // The record is in place before the file it describes: a reader that
  // finds the new header finds its record too.
  auto Written = llvm::MemoryBuffer::getFile(Temp, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!Built || Stamps.empty() || !Written ||
      (*Written)->getBufferSize() == 0 ||
      llvm::errorToBool(
          writeOutput(recordPath(PCH), checksumOf((*Written)->getBuffer()) +
                                           checksumOf(Built->Notes) + Stamps +
                                           "\n" + Built->Notes)) ||
      llvm::sys::fs::rename(Temp, PCH)) {
    llvm::sys::fs::remove(Temp);
    return std::nullopt;
  }
  prune(CacheDir, Name.take_front(Name.find('-') + 1), Keep);
  return StoredPch{std::string(PCH), std::move(Built->Notes)};
}

} // namespace metacu
