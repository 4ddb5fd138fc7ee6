//===- ShardsTest.cpp - Candidates' kernels guarded per shard -------------===//
#include "tune/Shards.h"

#include <gtest/gtest.h>

using namespace metacu::tune;

static size_t count(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t At = Text.find(What); At != std::string::npos;
       At = Text.find(What, At + 1))
    ++N;
  return N;
}

TEST(ShardsTest, EachCandidatesKernelBodiesAreGuardedByItsOwnMacro) {
  std::string Text = "#line 10 \"k.cu\"\n"
                     "__global__ void k_tune_1(float* x) {\n"
                     "  x[0] = 1;\n"
                     "}\n"
                     "__global__ __launch_bounds__(64) void k_tune_12(float* "
                     "x) { x[0] = 12; }\n"
                     "__global__ void k_tune_1_init(float* x) { x[1] = 0; }\n";
  GuardedBatch G = guardCandidates(Text, {"k_tune_1", "k_tune_12"});
  EXPECT_EQ(shardMacro("k_tune_12"), "METACU_TUNE_IN_SHARD_k_tune_12");
  // k_tune_1 and its own k_tune_1_init; k_tune_12 is not k_tune_1's.
  EXPECT_EQ(count(G.Text, "defined(METACU_TUNE_IN_SHARD_k_tune_1)"), 2u)
      << G.Text;
  EXPECT_EQ(count(G.Text, "defined(METACU_TUNE_IN_SHARD_k_tune_12)"), 1u);
  EXPECT_EQ(count(G.Text, "#endif"), 3u);
  EXPECT_NE(G.Text.find("void k_tune_1(float* x) {\n"
                        "#if !defined(METACU_TUNE_SHARD) || "
                        "defined(METACU_TUNE_IN_SHARD_k_tune_1)\n"
                        "#line 10 \"k.cu\"\n"
                        "\n"
                        "  x[0] = 1;\n"
                        "\n"
                        "#endif\n"
                        "#line 12 \"k.cu\"\n"
                        "}\n"),
            std::string::npos)
      << G.Text;
  // The tokens between the braces, the #line directive not counted: the
  // compile cost run.py balances.
  ASSERT_EQ(G.Weights.size(), 2u);
  EXPECT_EQ(G.Weights[0], 7u /* x [ 0 ] = 1 ; */ + 7u /* x [ 1 ] = 0 ; */);
  EXPECT_EQ(G.Weights[1], 7u);
}

TEST(ShardsTest, OnlyKernelDefinitionsAreGuarded) {
  std::string Text =
      "__global__ void k_tune_3(float* x);\n"        // a declaration
      "__device__ float k_tune_3_load(float* x) {\n" // not a kernel
      "  return x[0];\n}\n"
      "void (*table[])(float*) = {k_tune_3};\n"        // a reference
      "void host() { k_tune_3<<<1, 1>>>(nullptr); }\n" // a launch
      "int k_tune_3_count() { return 1; }\n";          // a host function
  GuardedBatch G = guardCandidates(Text, {"k_tune_3", "k_tune_4"});
  EXPECT_EQ(G.Text, Text);
  EXPECT_EQ(G.Weights, (std::vector<uint64_t>{0, 0}));
}

TEST(ShardsTest, ABodyWhoseConditionalsDoNotNestIsLeftWhole) {
  // The body's closing brace is inside an #if that opened in it: an #if
  // around the body would not nest.
  std::string Text = "__global__ void k_tune_2() {\n"
                     "#if A\n"
                     "}\n"
                     "__global__ void other() {\n"
                     "#endif\n"
                     "}\n"
                     "__global__ void k_tune_3() {\n"
                     "#if A\n"
                     "  int x;\n"
                     "#endif\n"
                     "}\n";
  GuardedBatch G = guardCandidates(Text, {"k_tune_2", "k_tune_3"});
  EXPECT_EQ(count(G.Text, "IN_SHARD_k_tune_2"), 0u) << G.Text;
  EXPECT_EQ(count(G.Text, "IN_SHARD_k_tune_3"), 1u) << G.Text;
  EXPECT_EQ(G.Weights[0], 0u);
}

TEST(ShardsTest, AnEmptyBodyIsGuardedInOrder) {
  GuardedBatch G =
      guardCandidates("__global__ void k_tune_5() {}\n", {"k_tune_5"});
  EXPECT_EQ(G.Text, "__global__ void k_tune_5() {\n"
                    "#if !defined(METACU_TUNE_SHARD) || "
                    "defined(METACU_TUNE_IN_SHARD_k_tune_5)\n"
                    "\n#endif\n}\n");
  EXPECT_EQ(G.Weights, (std::vector<uint64_t>{0}));
}

TEST(ShardsTest, WithoutLineDirectivesNoneIsAdded) {
  std::string Text = "// k_tune_0 { not code }\n"
                     "const char* s = \"__global__ void k_tune_0() {}\";\n"
                     "__global__\nvoid\nk_tune_0()\n{\n  /* } */\n}\n";
  GuardedBatch G = guardCandidates(Text, {"k_tune_0"});
  EXPECT_EQ(count(G.Text, "#if "), 1u) << G.Text;
  EXPECT_EQ(count(G.Text, "#line"), 0u) << G.Text;
  // The comment's brace did not end the body.
  EXPECT_NE(G.Text.find("/* } */\n\n#endif\n}"), std::string::npos) << G.Text;
}
