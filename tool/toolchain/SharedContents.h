//===- SharedContents.h - Files read once per run -------------------------===//
//
// The audit runs Clang thirteen times and more over every file it audits
// (PreprocessorPass.h), each time with a new SourceManager that reads every
// header it enters again: the toolkit's and the C++ library's, hundreds
// of files, for every pass of every file. A file system over the real one
// reads each of them once per run and keeps its text for the rest of the
// run. A file is known by its identity, size and modification time, so an
// edited one is read again; the files a run may rewrite (the tree migrate
// writes to) are never kept.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_SHAREDCONTENTS_H
#define METACU_TOOLCHAIN_SHAREDCONTENTS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace metacu {

/// The texts of the files read so far, shared by the run's threads.
class SharedContents {
public:
  /// The text of the file \p Status describes, reading it from \p FS the
  /// first time.
  llvm::ErrorOr<llvm::MemoryBufferRef> read(llvm::vfs::FileSystem &FS,
                                            const llvm::vfs::Status &Status);

  /// The run's texts.
  static SharedContents &shared();

private:
  using Key = std::tuple<llvm::sys::fs::UniqueID, uint64_t, int64_t>;
  std::mutex Lock;
  std::map<Key, std::unique_ptr<llvm::MemoryBuffer>> Texts;
};

/// The real file system, reading the files for which \p Kept holds through
/// \p Contents.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
sharedContentsFileSystem(SharedContents &Contents,
                         std::function<bool(llvm::StringRef)> Kept);

} // namespace metacu

#endif
