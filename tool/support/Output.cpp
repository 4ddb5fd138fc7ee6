//===- Output.cpp ---------------------------------------------------------===//
#include "support/Output.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <vector>

namespace metacu {

static llvm::Error cannotWrite(llvm::StringRef Path, llvm::StringRef Why) {
  return llvm::createStringError("cannot write '%s': %s", Path.str().c_str(),
                                 Why.str().c_str());
}

/// Whether \p Path names something that exists and is not a regular file.
static bool isSpecialFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return false;
  return llvm::sys::fs::exists(St) && !llvm::sys::fs::is_regular_file(St) &&
         !llvm::sys::fs::is_directory(St);
}

static llvm::Error writeThrough(llvm::StringRef Path,
                                llvm::StringRef Contents) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    return cannotWrite(Path, EC.message());
  OS << Contents;
  OS.close();
  if (OS.has_error()) {
    std::string Msg = OS.error().message();
    OS.clear_error();
    return cannotWrite(Path, Msg);
  }
  return llvm::Error::success();
}

/// A regular file its owner may not write: replacing it by a rename would
/// go around the protection the user gave it.
static bool isReadOnlyFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  return !llvm::sys::fs::status(Path, St) &&
         llvm::sys::fs::is_regular_file(St) &&
         !(St.permissions() & llvm::sys::fs::owner_write);
}

/// Writes \p Contents to a new temporary file beside \p Path. The file
/// it replaces keeps its permissions (a script's executable bit, a shared
/// tree's group write): the rename would otherwise give it the umask's.
static llvm::Expected<llvm::sys::fs::TempFile> stage(llvm::StringRef Path,
                                                     llvm::StringRef Contents) {
  auto Temp = llvm::sys::fs::TempFile::create(Path + ".tmp-%%%%%%");
  if (!Temp)
    return cannotWrite(Path, llvm::toString(Temp.takeError()));
  llvm::sys::fs::file_status Old;
  if (!llvm::sys::fs::status(Path, Old) &&
      llvm::sys::fs::is_regular_file(Old))
    if (std::error_code EC =
            llvm::sys::fs::setPermissions(Temp->FD, Old.permissions())) {
      llvm::consumeError(Temp->discard());
      return cannotWrite(Path, EC.message());
    }
  llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
  OS << Contents;
  OS.flush();
  if (OS.has_error()) {
    std::string Msg = OS.error().message();
    OS.clear_error();
    llvm::consumeError(Temp->discard());
    return cannotWrite(Path, Msg);
  }
  return std::move(*Temp);
}

namespace {

/// What a path names, to compare files however they are spelled: the
/// file's device and inode when it exists, else its folder's and its name.
struct Identity {
  llvm::sys::fs::UniqueID ID;
  std::string Name;

  bool operator==(const Identity &O) const {
    return ID == O.ID && Name == O.Name;
  }
};

} // namespace

static std::optional<Identity> identityOf(llvm::StringRef Path) {
  llvm::sys::fs::UniqueID ID;
  if (!llvm::sys::fs::getUniqueID(Path, ID))
    return Identity{ID, ""};
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (llvm::sys::fs::getUniqueID(Dir.empty() ? "." : Dir, ID))
    return std::nullopt;
  return Identity{ID, llvm::sys::path::filename(Path).str()};
}

llvm::Error checkOutputPaths(llvm::ArrayRef<std::string> Outputs,
                             llvm::ArrayRef<std::string> ReadPaths) {
  std::vector<std::pair<Identity, llvm::StringRef>> Read, Written;
  for (const std::string &P : ReadPaths)
    if (auto I = identityOf(P); I && I->Name.empty())
      Read.emplace_back(*I, P);
  for (const std::string &Out : Outputs) {
    if (Out == "-")
      continue;
    auto I = identityOf(Out);
    // A missing folder fails the write itself, with its reason; a device
    // such as /dev/null may take several outputs.
    if (!I || (I->Name.empty() && isSpecialFile(Out)))
      continue;
    for (const auto &[R, Path] : Read)
      if (R == *I)
        return cannotWrite(Out, ((Path == Out ? "" : "it is '" + Path + "', ") +
                                 "a file this run reads")
                                    .str());
    for (const auto &[W, Path] : Written)
      if (W == *I)
        return cannotWrite(Out, ("it is also the output '" + Path + "'").str());
    Written.emplace_back(*I, Out);
  }
  return llvm::Error::success();
}

/// Where \p Path's contents go: the file a symbolic link names (replacing
/// the link would cut it from the file it shares), else \p Path.
static llvm::Expected<std::string> destinationOf(llvm::StringRef Path) {
  llvm::sys::fs::file_status Link;
  if (llvm::sys::fs::status(Path, Link, /*Follow=*/false) ||
      Link.type() != llvm::sys::fs::file_type::symlink_file)
    return Path.str();
  llvm::SmallString<256> Target;
  if (llvm::sys::fs::real_path(Path, Target))
    return cannotWrite(Path, "it is a symbolic link to a missing file");
  return Target.str().str();
}

llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files,
                         llvm::ArrayRef<std::string> ReadPaths) {
  std::vector<std::string> Paths;
  for (const OutputFile &F : Files)
    Paths.push_back(F.Path);
  if (llvm::Error E = checkOutputPaths(Paths, ReadPaths))
    return E;
  // Stage every regular file first: a failure here touches nothing.
  std::vector<std::optional<llvm::sys::fs::TempFile>> Staged(Files.size());
  std::vector<std::string> Dest(Files.size());
  auto DiscardAll = [&] {
    for (auto &T : Staged)
      if (T)
        llvm::consumeError(T->discard());
  };
  for (size_t I = 0; I < Files.size(); ++I) {
    const OutputFile &F = Files[I];
    if (F.Path == "-")
      continue;
    auto D = destinationOf(F.Path);
    if (!D) {
      DiscardAll();
      return D.takeError();
    }
    Dest[I] = std::move(*D);
    if (isSpecialFile(Dest[I]))
      continue;
    if (isReadOnlyFile(Dest[I])) {
      DiscardAll();
      return cannotWrite(F.Path, "the file is read-only");
    }
    auto Temp = stage(Dest[I], F.Contents);
    if (!Temp) {
      DiscardAll();
      return Temp.takeError();
    }
    Staged[I] = std::move(*Temp);
  }
  llvm::Error Result = llvm::Error::success();
  for (size_t I = 0; I < Files.size(); ++I) {
    const OutputFile &F = Files[I];
    if (Staged[I]) {
      // keep() removes the temporary file when the rename fails.
      if (llvm::Error E = Staged[I]->keep(Dest[I]))
        Result =
            llvm::joinErrors(std::move(Result),
                             cannotWrite(F.Path, llvm::toString(std::move(E))));
    } else if (F.Path != "-") {
      Result = llvm::joinErrors(std::move(Result),
                                writeThrough(Dest[I], F.Contents));
    }
  }
  for (const OutputFile &F : Files)
    if (F.Path == "-" && !Result) {
      llvm::outs() << F.Contents;
      llvm::outs().flush();
    }
  return Result;
}

llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files) {
  return writeOutputs(Files, {});
}

llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Contents,
                        llvm::ArrayRef<std::string> ReadPaths) {
  return writeOutputs({OutputFile{Path.str(), Contents.str()}}, ReadPaths);
}

} // namespace metacu
