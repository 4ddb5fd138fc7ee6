//===- Output.cpp ---------------------------------------------------------===//
#include "support/Output.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
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

/// Writes \p Contents to a new temporary file beside \p Path.
static llvm::Expected<llvm::sys::fs::TempFile> stage(llvm::StringRef Path,
                                                     llvm::StringRef Contents) {
  auto Temp = llvm::sys::fs::TempFile::create(Path + ".tmp-%%%%%%");
  if (!Temp)
    return cannotWrite(Path, llvm::toString(Temp.takeError()));
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

llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files) {
  // Stage every regular file first: a failure here touches nothing.
  std::vector<std::optional<llvm::sys::fs::TempFile>> Staged(Files.size());
  auto DiscardAll = [&] {
    for (auto &T : Staged)
      if (T)
        llvm::consumeError(T->discard());
  };
  for (size_t I = 0; I < Files.size(); ++I) {
    const OutputFile &F = Files[I];
    if (F.Path == "-" || isSpecialFile(F.Path))
      continue;
    if (isReadOnlyFile(F.Path)) {
      DiscardAll();
      return cannotWrite(F.Path, "the file is read-only");
    }
    auto Temp = stage(F.Path, F.Contents);
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
      if (llvm::Error E = Staged[I]->keep(F.Path))
        Result =
            llvm::joinErrors(std::move(Result),
                             cannotWrite(F.Path, llvm::toString(std::move(E))));
    } else if (F.Path != "-") {
      Result =
          llvm::joinErrors(std::move(Result), writeThrough(F.Path, F.Contents));
    }
  }
  for (const OutputFile &F : Files)
    if (F.Path == "-" && !Result) {
      llvm::outs() << F.Contents;
      llvm::outs().flush();
    }
  return Result;
}

llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Contents) {
  return writeOutputs({OutputFile{Path.str(), Contents.str()}});
}

} // namespace metacu
