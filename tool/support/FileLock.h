//===- FileLock.h - One read-modify-write of a file at a time -------------===//
//
// Two runs that update one file (two GPUs tuning into one tuning file) must
// not both read the old contents and each write back only its own change.
// The lock is an advisory lock on "<file>.lock" beside the file, not on the
// file itself: the file is replaced by a rename, and a lock on the replaced
// inode would guard nothing. The lock file is removed on release; a waiter
// that locked a removed one tries again, so at most one holds the lock.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_FILELOCK_H
#define METACU_SUPPORT_FILELOCK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace metacu {

class FileLock {
public:
  /// Waits until this process alone holds the lock of \p Path (through a
  /// symbolic link: the file it names).
  static llvm::Expected<FileLock> acquire(llvm::StringRef Path);

  FileLock(FileLock &&Other);
  FileLock &operator=(FileLock &&) = delete;
  ~FileLock();

private:
  FileLock(std::string LockPath, int FD)
      : LockPath(std::move(LockPath)), FD(FD) {}

  std::string LockPath;
  int FD = -1;
};

} // namespace metacu

#endif
