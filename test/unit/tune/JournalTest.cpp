//===- JournalTest.cpp - The resumable journal ----------------------------===//
#include "tune/Journal.h"
#include "../TempDir.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

static Measurement timed(double Ms) {
  Measurement M;
  M.Objective = Ms;
  M.Times = {Ms, Ms + 0.1};
  M.CompileMs = 300;
  M.Timestamp = "2026-11-23 10:00:00.000000+00:00";
  return M;
}

static const Target H100{"sm_90", "NVIDIA H100 80GB HBM3"};

TEST(JournalTest, ReopenedJournalAnswersWhatWasAppended) {
  TempDir T;
  std::string Path = T.path("journal.jsonl");
  llvm::json::Object A{{"bx", 16}, {"by", 4}}, B{{"bx", 32}, {"by", 4}};
  Measurement Failed;
  Failed.Status = Validity::Compile;
  Failed.Reason = "ptxas: too many registers";
  {
    auto J = llvm::cantFail(Journal::open(Path));
    EXPECT_EQ(J->size(), 0u);
    ASSERT_FALSE(bool(J->append(H100, A, timed(1.5))));
    ASSERT_FALSE(bool(J->append(H100, B, Failed)));
  }
  auto J = llvm::cantFail(Journal::open(Path));
  EXPECT_EQ(J->size(), 2u);
  const Measurement *MA = J->lookup(H100, A);
  ASSERT_TRUE(MA);
  EXPECT_EQ(MA->Objective, 1.5);
  EXPECT_EQ(MA->Times, (std::vector<double>{1.5, 1.6}));
  EXPECT_EQ(MA->CompileMs, 300);
  const Measurement *MB = J->lookup(H100, B);
  ASSERT_TRUE(MB);
  EXPECT_EQ(MB->Status, Validity::Compile);
  EXPECT_EQ(MB->Reason, "ptxas: too many registers");
  // Member order does not matter, values do.
  EXPECT_TRUE(J->lookup(H100, llvm::json::Object{{"by", 4}, {"bx", 16}}));
  EXPECT_FALSE(J->lookup(H100, llvm::json::Object{{"bx", 16}, {"by", 8}}));
}

TEST(JournalTest, KeyedByArchitectureAndDeviceNotNameAlone) {
  TempDir T;
  auto J = llvm::cantFail(Journal::open(T.path("j.jsonl")));
  llvm::json::Object C{{"bx", 16}};
  ASSERT_FALSE(bool(J->append(H100, C, timed(1.0))));
  // The same GPU running the compute_80 image is another target.
  EXPECT_FALSE(J->lookup({"sm_80", H100.Device}, C));
  EXPECT_FALSE(J->lookup({"sm_90", "NVIDIA H200"}, C));
  ASSERT_FALSE(bool(J->append({"sm_80", H100.Device}, C, timed(2.0))));
  EXPECT_EQ(J->lookup(H100, C)->Objective, 1.0);
  EXPECT_EQ(J->lookup({"sm_80", H100.Device}, C)->Objective, 2.0);
}

TEST(JournalTest, TornLastLineIsDroppedAndAppendingGoesOn) {
  TempDir T;
  std::string Path = T.path("j.jsonl");
  {
    auto J = llvm::cantFail(Journal::open(Path));
    ASSERT_FALSE(
        bool(J->append(H100, llvm::json::Object{{"bx", 16}}, timed(1))));
  }
  // A crash in the middle of the second append.
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
    OS << R"({"arch": "sm_90", "device": "NVIDIA H100 80GB HBM3", "config": {"bx": 3)";
  }
  auto J = llvm::cantFail(Journal::open(Path));
  EXPECT_EQ(J->size(), 1u);
  ASSERT_FALSE(bool(J->append(H100, llvm::json::Object{{"bx", 64}}, timed(3))));
  auto Again = llvm::cantFail(Journal::open(Path));
  EXPECT_EQ(Again->size(), 2u);
  EXPECT_EQ(Again->lookup(H100, llvm::json::Object{{"bx", 64}})->Objective, 3);
}

TEST(JournalTest, ACorruptCompleteLineIsAnErrorWithItsLine) {
  TempDir T;
  std::string Path = T.write("j.jsonl", "\n{\"arch\": 1}\n");
  auto J = Journal::open(Path);
  ASSERT_FALSE(bool(J));
  std::string Message = llvm::toString(J.takeError());
  EXPECT_NE(Message.find("j.jsonl:2"), std::string::npos) << Message;
}

TEST(JournalTest, AFileThatIsNoJournalIsLeftAsItWas) {
  TempDir T;
  for (llvm::StringRef Text :
       {"line one\nline two", "only line", "__global__ void k() {}\n", "{"}) {
    std::string Path = T.write("notes.txt", Text);
    auto J = Journal::open(Path);
    ASSERT_FALSE(bool(J)) << Text.str();
    EXPECT_NE(llvm::toString(J.takeError()).find(Path + ":1:"),
              std::string::npos);
    EXPECT_EQ(TempDir::read(Path), Text);
  }
}

TEST(JournalTest, AppendsThroughALinkAndRefusesAReadOnlyJournal) {
  TempDir T;
  std::string Real = T.path("real.jsonl"), Link = T.path("link.jsonl");
  ASSERT_FALSE(llvm::sys::fs::create_link("real.jsonl", Link));
  {
    auto J = llvm::cantFail(Journal::open(Link));
    ASSERT_FALSE(
        bool(J->append(H100, llvm::json::Object{{"bx", 16}}, timed(1))));
  }
  // A torn entry is cut from the target, in place.
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Real, EC, llvm::sys::fs::OF_Append);
    OS << R"({"arch": "sm_9)";
  }
  {
    auto J = llvm::cantFail(Journal::open(Link));
    ASSERT_FALSE(
        bool(J->append(H100, llvm::json::Object{{"bx", 32}}, timed(2))));
  }
  llvm::sys::fs::file_status St;
  ASSERT_FALSE(llvm::sys::fs::status(Link, St, /*Follow=*/false));
  EXPECT_EQ(St.type(), llvm::sys::fs::file_type::symlink_file);
  EXPECT_EQ(llvm::cantFail(Journal::open(Real))->size(), 2u);

  ASSERT_FALSE(llvm::sys::fs::setPermissions(Real, llvm::sys::fs::all_read));
  std::string Before = TempDir::read(Real);
  auto RO = Journal::open(Link);
  ASSERT_FALSE(bool(RO));
  EXPECT_EQ(llvm::toString(RO.takeError()), "cannot append to the journal '" +
                                                Link +
                                                "': the file is read-only");
  EXPECT_EQ(TempDir::read(Real), Before);
}

TEST(JournalTest, AWrongValueIsAnErrorAtItsLineAndPath) {
  TempDir T;
  std::string Good = R"({"arch":"sm_90","config":{"x":1},"device":"D",)"
                     R"("objective":1,"status":"correct"})";
  auto Check = [&](const std::string &Second, const std::string &Message) {
    std::string Path = T.write("j.jsonl", Good + "\n" + Second + "\n");
    auto C = Journal::open(Path);
    ASSERT_FALSE(bool(C)) << Second;
    EXPECT_EQ(llvm::toString(C.takeError()), Path + ":2:" + Message);
  };
  Check(R"({"arch":"sm_90","config":{"x":1},"device":"D","objective":1,)"
        R"("status":"correct","times":[1,"2"]})",
        "91: times[1]: expected number");
  // A negative duration would run a replay's clock backwards.
  Check(R"({"arch":"sm_90","config":{"x":1},"device":"D","objective":1,)"
        R"("status":"correct","benchmark_ms":-0.5})",
        "95: benchmark_ms: a duration cannot be negative");
  Check(R"({"arch":"sm_90","config":{"x":1},"objective":1,"status":"correct"})",
        "1: device: missing value");
  Check(R"({"arch":"sm_90","config":1,"device":"D","status":"correct"})",
        "26: config: expected an object of parameter values");
  Check(R"({"arch":"sm_90","config":{"x":1},"device":"D","status":"fine"})",
        "56: status: unknown status 'fine'");
}
