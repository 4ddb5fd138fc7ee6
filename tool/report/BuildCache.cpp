//===- BuildCache.cpp -----------------------------------------------------===//
#include "report/BuildCache.h"

#include "support/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

namespace metacu::report {

std::string buildKey(llvm::StringRef GenText, llvm::ArrayRef<Arch> Archs,
                     const NvccOptions &Opts) {
  llvm::SHA256 Hash;
  // Each field ends with a NUL, so no two lists of fields hash alike.
  auto Add = [&](llvm::StringRef Field) {
    Hash.update(Field);
    Hash.update(llvm::StringRef("\0", 1));
  };
  Add(GenText);
  Add(Opts.Nvcc);
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(Opts.Nvcc, Status)) {
    Add(std::to_string(Status.getSize()));
    Add(std::to_string(
        Status.getLastModificationTime().time_since_epoch().count()));
  }
  Add(std::to_string(Opts.Args.size()));
  for (const std::string &A : Opts.Args)
    Add(A);
  Add(Opts.PtxArch);
  for (const Arch &A : Archs)
    Add(A.name());
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

static std::string entryFile(llvm::StringRef Folder, const Arch &A,
                             llvm::StringRef Suffix) {
  llvm::SmallString<256> P(Folder);
  llvm::sys::path::append(P, A.name() + Suffix.str());
  return std::string(P);
}

std::optional<std::vector<ArchBuild>> lookupBuilds(llvm::StringRef Dir,
                                                   llvm::StringRef Key,
                                                   llvm::ArrayRef<Arch> Archs) {
  llvm::SmallString<256> Folder(Dir);
  llvm::sys::path::append(Folder, Key);
  std::vector<ArchBuild> Builds;
  for (const Arch &A : Archs) {
    auto Ptx = llvm::MemoryBuffer::getFile(entryFile(Folder, A, ".ptx"));
    auto Log = llvm::MemoryBuffer::getFile(entryFile(Folder, A, ".ptxas.log"));
    if (!Ptx || !Log)
      return std::nullopt;
    Builds.push_back({A, (*Ptx)->getBuffer().str(), (*Log)->getBuffer().str()});
  }
  return Builds;
}

llvm::Error storeBuilds(llvm::StringRef Dir, llvm::StringRef Key,
                        llvm::ArrayRef<ArchBuild> Builds) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError("cannot create the build cache " +
                                   Dir.str() + ": " + EC.message());
  llvm::SmallString<256> Aside;
  llvm::SmallString<256> Model(Dir);
  // createUniqueDirectory puts a relative model in the temporary folder.
  if (std::error_code EC = llvm::sys::fs::make_absolute(Model))
    return llvm::createStringError("cannot find the build cache " + Dir.str() +
                                   ": " + EC.message());
  llvm::sys::path::append(Model, Key + ".%%%%%%%%.tmp");
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Model, Aside))
    return llvm::createStringError("cannot write to the build cache " +
                                   Dir.str() + ": " + EC.message());
  for (const ArchBuild &B : Builds)
    for (auto [Suffix, Text] :
         {std::pair{".ptx", &B.Ptx}, std::pair{".ptxas.log", &B.PtxasLog}})
      if (llvm::Error Err =
              writeOutput(entryFile(Aside, B.Target, Suffix), *Text)) {
        llvm::sys::fs::remove_directories(Aside);
        return Err;
      }
  llvm::SmallString<256> Folder(Dir);
  llvm::sys::path::append(Folder, Key);
  // A folder renames onto a missing name atomically; where another run
  // stored the same entry first, its copy stays and this one goes.
  if (llvm::sys::fs::rename(Aside, Folder))
    llvm::sys::fs::remove_directories(Aside);
  return llvm::Error::success();
}

} // namespace metacu::report
