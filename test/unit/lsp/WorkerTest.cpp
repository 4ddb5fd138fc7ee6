//===- WorkerTest.cpp - One task at a time off the server's thread --------===//
#include "lsp/Worker.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <thread>

using namespace metacu;

namespace {

/// Waits until \p W's task is done, as the server's poll loop does.
bool waitDone(Worker &W) {
  pollfd P{W.doneFd(), POLLIN, 0};
  return poll(&P, 1, 10000) == 1 && W.finished();
}

TEST(WorkerTest, ATaskRunsOnAnotherThreadAndSaysWhenDone) {
  Worker W;
  EXPECT_FALSE(W.busy());
  std::thread::id Ran;
  W.run([&] { Ran = std::this_thread::get_id(); });
  EXPECT_TRUE(W.busy());
  ASSERT_TRUE(waitDone(W));
  EXPECT_FALSE(W.busy());
  EXPECT_NE(Ran, std::thread::id());
  EXPECT_NE(Ran, std::this_thread::get_id());
}

TEST(WorkerTest, NothingIsDoneBeforeTheTaskEnds) {
  Worker W;
  std::mutex Gate;
  Gate.lock();
  W.run([&] { std::lock_guard<std::mutex> G(Gate); });
  EXPECT_FALSE(W.finished());
  EXPECT_TRUE(W.busy());
  Gate.unlock();
  ASSERT_TRUE(waitDone(W));
}

TEST(WorkerTest, TasksRunOneAfterAnother) {
  Worker W;
  std::vector<int> Order;
  for (int I = 0; I < 3; ++I) {
    W.run([&Order, I] { Order.push_back(I); });
    ASSERT_TRUE(waitDone(W));
  }
  EXPECT_EQ(Order, (std::vector<int>{0, 1, 2}));
}

} // namespace
