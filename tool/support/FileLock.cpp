//===- FileLock.cpp -------------------------------------------------------===//
#include "support/FileLock.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

namespace metacu {

llvm::Expected<FileLock> FileLock::acquire(llvm::StringRef Path) {
  llvm::SmallString<256> Target;
  if (llvm::sys::fs::real_path(Path, Target))
    Target = Path;
  std::string LockPath = (Target + ".lock").str();
  auto Fail = [&](std::error_code EC) {
    return llvm::createStringError(EC, "cannot lock '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  };
  while (true) {
    int FD;
    if (std::error_code EC = llvm::sys::fs::openFileForReadWrite(
            LockPath, FD, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None))
      return Fail(EC);
    if (std::error_code EC = llvm::sys::fs::lockFile(FD)) {
      llvm::sys::fs::file_t F = FD;
      llvm::sys::fs::closeFile(F);
      return Fail(EC);
    }
    // The holder before us removes the file it locked: ours counts only if
    // it is still the one at LockPath.
    llvm::sys::fs::file_status Held, Current;
    if (!llvm::sys::fs::status(FD, Held) &&
        !llvm::sys::fs::status(LockPath, Current) &&
        Held.getUniqueID() == Current.getUniqueID())
      return FileLock(std::move(LockPath), FD);
    llvm::sys::fs::unlockFile(FD);
    llvm::sys::fs::file_t F = FD;
    llvm::sys::fs::closeFile(F);
  }
}

FileLock::FileLock(FileLock &&Other)
    : LockPath(std::move(Other.LockPath)), FD(Other.FD) {
  Other.FD = -1;
}

FileLock::~FileLock() {
  if (FD == -1)
    return;
  // Removed while still locked, so a waiter that then gets the lock sees
  // its file is gone and takes a new one.
  llvm::sys::fs::remove(LockPath);
  llvm::sys::fs::unlockFile(FD);
  llvm::sys::fs::file_t F = FD;
  llvm::sys::fs::closeFile(F);
}

} // namespace metacu
