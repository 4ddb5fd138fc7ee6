//===- TransportTest.cpp - LSP's framing ----------------------------------===//
#include "lsp/Transport.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(TransportTest, MessagesComeWholeWhateverTheChunks) {
  std::string Two = frameMessage(llvm::json::Object{{"id", 1}}) +
                    frameMessage(llvm::json::Object{{"id", 2}});
  MessageReader R;
  std::vector<int64_t> Ids;
  for (char C : Two) {
    R.feed(llvm::StringRef(&C, 1));
    while (auto M = R.next()) {
      ASSERT_TRUE(bool(*M));
      Ids.push_back(*(*M)->getAsObject()->getInteger("id"));
    }
  }
  EXPECT_EQ(Ids, (std::vector<int64_t>{1, 2}));
}

TEST(TransportTest, AHeaderWithoutLengthIsAnErrorAndSkipped) {
  MessageReader R;
  R.feed("Content-Type: x\r\n\r\n" + frameMessage(llvm::json::Object{}));
  auto Bad = R.next();
  ASSERT_TRUE(Bad);
  EXPECT_FALSE(bool(*Bad));
  llvm::consumeError(Bad->takeError());
  auto Good = R.next();
  ASSERT_TRUE(Good);
  EXPECT_TRUE(bool(*Good));
}

TEST(TransportTest, ABodyThatIsNoJsonIsAnError) {
  MessageReader R;
  R.feed("Content-Length: 3\r\n\r\n{x}");
  auto M = R.next();
  ASSERT_TRUE(M);
  EXPECT_FALSE(bool(*M));
  llvm::consumeError(M->takeError());
  EXPECT_FALSE(R.next());
}

} // namespace
