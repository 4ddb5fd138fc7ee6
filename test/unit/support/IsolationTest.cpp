//===- IsolationTest.cpp - Running code in a child process ----------------===//
#include "support/Isolation.h"

#include <csignal>
#include <cstdlib>
#include <gtest/gtest.h>
#include <new>
#include <vector>

#ifndef __has_feature
#define __has_feature(x) 0
#endif

using namespace metacu;

namespace {

IsolationResult
run(llvm::function_ref<void(llvm::raw_ostream &, volatile uint64_t &)> Body,
    IsolationLimits Limits = {}) {
  auto R = runIsolated(Body, Limits);
  EXPECT_TRUE(bool(R)) << llvm::toString(R.takeError());
  return R ? std::move(*R) : IsolationResult{};
}

TEST(IsolationTest, ReturnsWhatAFinishedChildWrote) {
  auto R = run(
      [](llvm::raw_ostream &Out, volatile uint64_t &) { Out << "expanded"; });
  EXPECT_FALSE(R.Failure);
  EXPECT_EQ(R.Output, "expanded");
}

TEST(IsolationTest, OutputMayHoldAnyBytesAndBeLarge) {
  std::string Big(3 << 20, 'x');
  Big[17] = '\0';
  auto R =
      run([&](llvm::raw_ostream &Out, volatile uint64_t &) { Out << Big; });
  EXPECT_FALSE(R.Failure);
  EXPECT_EQ(R.Output, Big);
}

TEST(IsolationTest, ACrashIsReportedWithTheProgressMadeBeforeIt) {
  auto R = run([](llvm::raw_ostream &Out, volatile uint64_t &Progress) {
    Out << "partial";
    Progress = 42;
    std::raise(SIGSEGV);
  });
  ASSERT_TRUE(R.Failure);
  EXPECT_EQ(R.Failure->K, IsolationFailure::Signal);
  EXPECT_EQ(R.Failure->Code, SIGSEGV);
  EXPECT_EQ(R.Failure->Progress, 42u);
  EXPECT_NE(R.Failure->describe({}).find("SIGSEGV"), std::string::npos);
}

TEST(IsolationTest, AbortIsASignal) {
  auto R = run([](llvm::raw_ostream &, volatile uint64_t &) { std::abort(); });
  ASSERT_TRUE(R.Failure);
  EXPECT_EQ(R.Failure->K, IsolationFailure::Signal);
  EXPECT_EQ(R.Failure->Code, SIGABRT);
}

TEST(IsolationTest, ExitBeforeFinishingIsAFailureEvenWithStatusZero) {
  for (int Status : {0, 3}) {
    auto R = run([&](llvm::raw_ostream &Out, volatile uint64_t &) {
      Out << "half";
      Out.flush();
      std::exit(Status);
    });
    ASSERT_TRUE(R.Failure);
    EXPECT_EQ(R.Failure->K, IsolationFailure::Exit);
    EXPECT_EQ(R.Failure->Code, Status);
    EXPECT_NE(
        R.Failure->describe({}).find("exit status " + std::to_string(Status)),
        std::string::npos);
  }
}

TEST(IsolationTest, ALoopIsStoppedAtTheTimeLimit) {
  IsolationLimits L;
  L.TimeoutSeconds = 0.3;
  auto R = run(
      [](llvm::raw_ostream &, volatile uint64_t &Progress) {
        Progress = 7;
        while (true)
          Progress = Progress + 0;
      },
      L);
  ASSERT_TRUE(R.Failure);
  EXPECT_EQ(R.Failure->K, IsolationFailure::Timeout);
  EXPECT_EQ(R.Failure->Progress, 7u);
  EXPECT_NE(R.Failure->describe(L).find("--meta-timeout"), std::string::npos);
}

// AddressSanitizer's operator new reports an exhausted heap and dies instead
// of throwing, so this property only exists in builds without it.
#if !defined(__SANITIZE_ADDRESS__) && !__has_feature(address_sanitizer)
TEST(IsolationTest, AnAllocationPastTheMemoryLimitThrowsBadAlloc) {
  IsolationLimits L;
  L.MemoryBytes = 64ull << 20;
  auto R = run(
      [](llvm::raw_ostream &Out, volatile uint64_t &) {
        try {
          std::vector<char> Huge(size_t(1) << 30, 1);
          Out << "allocated " << Huge.size();
        } catch (const std::bad_alloc &) {
          Out << "caught";
        }
      },
      L);
  EXPECT_FALSE(R.Failure);
  EXPECT_EQ(R.Output, "caught");
}
#endif

} // namespace
