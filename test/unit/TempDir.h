//===- TempDir.h - A directory for the files one test writes --------------===//
#ifndef METACU_TEST_TEMPDIR_H
#define METACU_TEST_TEMPDIR_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <string>

namespace metacu {

/// Created empty, removed with everything in it when the test ends.
class TempDir {
public:
  TempDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("metacu-test", Dir));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Dir); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  llvm::StringRef dir() const { return Dir; }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }

  /// Writes \p Text to \p Name (creating its directories); returns the path.
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::string P = path(Name);
    EXPECT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << P;
    OS << Text;
    return P;
  }

  static std::string read(llvm::StringRef Path) {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : "<unreadable>";
  }

private:
  llvm::SmallString<256> Dir;
};

} // namespace metacu

#endif
