//===- ForkServerTest.cpp - A copy of this process kept for requests ------===//
#include "support/ForkServer.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <unistd.h>

using namespace metacu;

namespace {

TEST(ForkServerTest,
     TheCopyAnswersFromWhatItPreparedAndThisProcessKeepsItsOwn) {
  std::string State = "base";
  auto Server = ForkServer::start(
      [&] {
        State += "+start";
        return true;
      },
      [&](llvm::StringRef Request) {
        // A request changes the copy's state; the next one sees it.
        State += "+" + Request.str();
        return State + " in " + std::to_string(getpid());
      });
  ASSERT_TRUE(bool(Server)) << llvm::toString(Server.takeError());
  ASSERT_TRUE(*Server);
  std::string Pid = std::to_string(getpid());
  auto A = (*Server)->call("a");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(A->rfind("base+start+a in ", 0), 0u) << *A;
  EXPECT_EQ(A->find(" in " + Pid), std::string::npos) << *A;
  auto B = (*Server)->call(std::string(100000, 'b'));
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  EXPECT_EQ(B->rfind("base+start+a+" + std::string(100000, 'b'), 0), 0u);
  EXPECT_EQ(State, "base");
}

TEST(ForkServerTest, ACopyKeepsACopyOfItsOwn) {
  // Another server open here: the copy closes this process's end of it,
  // and its own server's sockets may get the numbers that end had.
  auto Other = ForkServer::start([] { return true; },
                                 [](llvm::StringRef) { return "other"; });
  ASSERT_TRUE(bool(Other) && *Other);
  std::unique_ptr<ForkServer> Inner;
  auto Outer = ForkServer::start(
      [] { return true; },
      [&Inner](llvm::StringRef Request) -> std::string {
        if (!Inner) {
          auto Started = ForkServer::start(
              [] { return true; },
              [](llvm::StringRef R) { return "inner " + R.str(); });
          if (!Started)
            return llvm::toString(Started.takeError());
          Inner = std::move(*Started);
        }
        auto Answer = Inner->call(Request);
        return Answer ? *Answer : llvm::toString(Answer.takeError());
      });
  ASSERT_TRUE(bool(Outer) && *Outer);
  for (const char *Request : {"a", "b"}) {
    auto Answer = (*Outer)->call(Request);
    ASSERT_TRUE(bool(Answer)) << llvm::toString(Answer.takeError());
    EXPECT_EQ(*Answer, std::string("inner ") + Request);
  }
  auto Again = (*Other)->call("x");
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(*Again, "other");
}

TEST(ForkServerTest, ACopyThatFailsToPrepareIsNone) {
  auto Server = ForkServer::start([] { return false; },
                                  [](llvm::StringRef) { return "never"; });
  ASSERT_TRUE(bool(Server)) << llvm::toString(Server.takeError());
  EXPECT_FALSE(*Server);
}

TEST(ForkServerTest, ACopyThatEndedIsAnErrorNotAnAnswer) {
  auto Server = ForkServer::start([] { return true; },
                                  [](llvm::StringRef Request) -> std::string {
                                    if (Request == "end")
                                      _exit(3);
                                    return "ok";
                                  });
  ASSERT_TRUE(bool(Server) && *Server);
  auto Ended = (*Server)->call("end");
  EXPECT_FALSE(bool(Ended));
  llvm::consumeError(Ended.takeError());
  auto After = (*Server)->call("again");
  EXPECT_FALSE(bool(After));
  llvm::consumeError(After.takeError());
}

} // namespace
