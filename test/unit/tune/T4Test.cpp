//===- T4Test.cpp - Results in the T4 format ------------------------------===//
#include "tune/T4.h"
#include "../TempDir.h"
#include "TuneTestData.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

/// The checks of T4's results-schema.json (1.0.0) for one result: the
/// required members and the types and enumeration the schema gives them.
static void expectValidResult(const llvm::json::Object &R) {
  for (const char *Required :
       {"configuration", "times", "invalidity", "correctness"})
    EXPECT_TRUE(R.get(Required)) << Required;
  EXPECT_TRUE(R.getObject("configuration"));
  EXPECT_TRUE(R.getObject("times"));
  EXPECT_TRUE(R.getNumber("correctness"));
  auto Invalidity = R.getString("invalidity");
  ASSERT_TRUE(Invalidity);
  EXPECT_TRUE(llvm::is_contained(
      std::vector<llvm::StringRef>{"timeout", "compile", "runtime",
                                   "correctness", "constraints", "correct"},
      *Invalidity));
  if (auto T = R.getString("timestamp"))
    EXPECT_FALSE(T->empty());
  if (const llvm::json::Object *Times = R.getObject("times")) {
    for (const char *Number :
         {"compilation_time", "framework", "search_algorithm", "validation"})
      if (const llvm::json::Value *V = Times->get(Number))
        EXPECT_TRUE(V->getAsNumber()) << Number;
    if (const llvm::json::Value *V = Times->get("runtimes"))
      EXPECT_TRUE(V->getAsArray());
  }
  EXPECT_TRUE(R.getArray("objectives"));
  if (const llvm::json::Array *Ms = R.getArray("measurements"))
    for (const llvm::json::Value &M : *Ms) {
      const llvm::json::Object *O = M.getAsObject();
      ASSERT_TRUE(O);
      EXPECT_TRUE(O->getString("name"));
      EXPECT_TRUE(O->getString("unit"));
    }
}

TEST(T4Test, OneResultPerEvaluationInOrderWithInvalidity) {
  test::Bowl B = test::bowl();
  std::vector<uint32_t> Order{B.index(8, 2, 0), B.optimum(), B.index(1, 8, 1),
                              B.index(2, 2, 1)};
  std::vector<Evaluation> Trace;
  for (uint32_t C : Order)
    Trace.push_back({C, B.Runner->recorded(C), false, 0});

  TempDir T;
  std::string Path = T.path("t4.json");
  ASSERT_FALSE(bool(metacu::writeOutputs(
      llvm::cantFail(t4File(Path, B.Space, Trace, "time")))));
  llvm::json::Value Doc =
      llvm::cantFail(llvm::json::parse(TempDir::read(Path)));
  const llvm::json::Object *Root = Doc.getAsObject();
  ASSERT_TRUE(Root);
  auto Version = Root->getString("schema_version");
  ASSERT_TRUE(Version);
  EXPECT_EQ(*Version, "1.0.0");
  const llvm::json::Array *Results = Root->getArray("results");
  ASSERT_TRUE(Results);
  ASSERT_EQ(Results->size(), Order.size());
  for (size_t I = 0; I < Order.size(); ++I) {
    const llvm::json::Object *R = (*Results)[I].getAsObject();
    ASSERT_TRUE(R);
    expectValidResult(*R);
    const llvm::json::Object *Config = R->getObject("configuration");
    EXPECT_EQ(llvm::json::Value(llvm::json::Object(*Config)),
              llvm::json::Value(B.Space.toJSON(Order[I])));
  }
  auto Invalidity = [&](size_t I) {
    return *(*Results)[I].getAsObject()->getString("invalidity");
  };
  EXPECT_EQ(Invalidity(0), "runtime");
  EXPECT_EQ(Invalidity(1), "correct");
  EXPECT_EQ(Invalidity(2), "compile");
  EXPECT_EQ(Invalidity(3), "correct");
  // The measured time of the optimum is its objective, in milliseconds.
  const llvm::json::Object *Best = (*Results)[1].getAsObject();
  const llvm::json::Object *M =
      (*Best->getArray("measurements"))[0].getAsObject();
  EXPECT_EQ(M->getString("name"), "time");
  EXPECT_EQ(M->getNumber("value"), test::bowlTime(5, 3, 0));
  EXPECT_EQ(M->getString("unit"), "ms");
  EXPECT_EQ(Best->getObject("times")->getNumber("compilation_time"), 1000.0);
}
