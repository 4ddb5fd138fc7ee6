//===- FileLockTest.cpp ---------------------------------------------------===//
#include "support/FileLock.h"
#include "TempDir.h"

#include <chrono>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace metacu;

// The lock is between processes (two runs of metacu), so the second holder
// is a child process.
TEST(FileLockTest, ASecondHolderWaitsForTheFirstAndNoLockFileStays) {
  TempDir Tmp;
  std::string P = Tmp.path("t.json");
  pid_t Child;
  {
    FileLock First = llvm::cantFail(FileLock::acquire(P));
    Child = fork();
    ASSERT_NE(Child, -1);
    if (Child == 0) {
      bool Held = false;
      {
        auto L = FileLock::acquire(P);
        Held = bool(L);
        if (!L)
          llvm::consumeError(L.takeError());
      }
      _exit(Held ? 0 : 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int Status = 0;
    EXPECT_EQ(waitpid(Child, &Status, WNOHANG), 0) << "took a held lock";
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  EXPECT_FALSE(llvm::sys::fs::exists(P + ".lock"));
}
