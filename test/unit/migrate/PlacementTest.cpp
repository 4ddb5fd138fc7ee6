//===- PlacementTest.cpp - Where a conditional sits in the code -----------===//
#include "migrate/Placement.h"
#include "AuditFixtures.h"

#include "gtest/gtest.h"
#include <optional>

using namespace metacu;

namespace {

class PlacementTest : public PassTest {};

TEST_F(PlacementTest, BetweenStatementsOfADeviceFunction) {
  run(R"(__device__ int f(int x) {
  x *= 2;
#ifdef __CUDA_ARCH__
  x += 1;
#endif
  return x;
}
)",
      {0}, /*Parse=*/true);
  const Group &G = groupAt(3);
  EXPECT_EQ(G.Place, Placement::Statement);
  EXPECT_EQ(G.Function, "f");
  EXPECT_EQ(G.Space, unsigned(DeviceSpace));
}

TEST_F(PlacementTest, InsideAStatement) {
  run(R"(__device__ int f(int x) {
  int y = x
#ifndef __CUDA_ARCH__
      + 1
#endif
      ;
  return y;
}
)",
      {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(3).Place, Placement::SplitsStatement);
}

TEST_F(PlacementTest, AfterAStatementThatEndsInAMacroWithoutASemicolon) {
  run(R"(#define WRAP(...) __VA_ARGS__
#define TWICE(x) ((x) * 2)
__device__ int f(int x) {
  WRAP(x += 2;)
#if __CUDA_ARCH__ >= 800
  x += 1;
#endif
  x = TWICE(x);
#if __CUDA_ARCH__ >= 900
  x += 3;
#endif
  return x;
}
)",
      {80, 90}, /*Parse=*/true);
  EXPECT_EQ(groupAt(5).Place, Placement::AfterMacroStatement);
  EXPECT_NE(groupAt(5).PlaceDetail.find("macro 'WRAP'"), std::string::npos)
      << groupAt(5).PlaceDetail;
  // The ';' after TWICE(x) is in the text.
  EXPECT_EQ(groupAt(9).Place, Placement::Statement);
}

TEST_F(PlacementTest, BetweenDeclarationsAndMembers) {
  run(R"(#ifndef __CUDA_ARCH__
int host_only();
#endif
struct S {
#ifndef __CUDA_ARCH__
  int member;
#endif
};
namespace n {
template <class> struct T;
#ifndef __CUDA_ARCH__
template <> struct T<int> {};
#endif
}
)",
      {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(1).Place, Placement::Declarations);
  EXPECT_EQ(groupAt(5).Place, Placement::Members);
  EXPECT_EQ(groupAt(5).Function, "S");
  EXPECT_EQ(groupAt(11).Place, Placement::Declarations);
}

TEST_F(PlacementTest, InsideADeclaration) {
  run(R"(__device__ int f(int x
#ifndef __CUDA_ARCH__
                    , int y
#endif
) { return x; }
__device__ int g()
#ifndef __CUDA_ARCH__
;
#else
{ return 1; }
#endif
enum E {
  A,
#ifndef __CUDA_ARCH__
  B,
#endif
};
)",
      {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(2).Place, Placement::SplitsDeclaration);
  EXPECT_NE(groupAt(2).PlaceDetail.find(
                "its directive at line 2 is inside the declaration of 'f'"),
            std::string::npos)
      << groupAt(2).PlaceDetail;
  // The ';' that ends a declaration belongs to it.
  EXPECT_EQ(groupAt(7).Place, Placement::SplitsDeclaration);
  // Between enumerators it chooses entries.
  EXPECT_EQ(groupAt(14).Place, Placement::ListEntries);
}

TEST_F(PlacementTest, BetweenEntriesOfABracedList) {
  run(R"(__device__ int a, b;
__device__ int *t[] = {
  &a,
#ifndef __CUDA_ARCH__
  nullptr,
#else
  &b,
#endif
};
__device__ int f() {
  int u[] = {1,
#ifndef __CUDA_ARCH__
    2,
#endif
  };
  int v[] = {1
#ifndef __CUDA_ARCH__
    , 2
#endif
  };
  return u[0] + v[0];
}
)",
      {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(4).Place, Placement::ListEntries);
  EXPECT_EQ(groupAt(4).Function, "t");
  EXPECT_EQ(groupAt(12).Place, Placement::ListEntries);
  // No entry begins at the '#ifndef': 'if codegen' cannot stand there.
  EXPECT_EQ(groupAt(17).Place, Placement::SplitsStatement);
}

TEST_F(PlacementTest, DeclaringAVariableUsedAfterTheEndif) {
  run(R"(__device__ int f() {
#ifndef __CUDA_ARCH__
  int y = 1;
#else
  int y = 2;
#endif
  return y;
}
)",
      {0}, /*Parse=*/true);
  const Group &G = groupAt(2);
  EXPECT_EQ(G.Place, Placement::DeclaresNames);
  EXPECT_NE(G.PlaceDetail.find("declares 'y' in 'f', used after the #endif"),
            std::string::npos)
      << G.PlaceDetail;
}

TEST_F(PlacementTest, DeclaringAType) {
  run(R"(__device__ int f() {
#ifndef __CUDA_ARCH__
  using T = int;
#endif
  return 0;
}
)",
      {0}, /*Parse=*/true);
  const Group &G = groupAt(2);
  EXPECT_EQ(G.Place, Placement::DeclaresNames);
  EXPECT_NE(G.PlaceDetail.find(
                "declares 'T' in 'f', which 'using if codegen' keeps visible"),
            std::string::npos)
      << G.PlaceDetail;
}

TEST_F(PlacementTest, ALocalUsedOnlyInItsBranchKeepsItsScope) {
  run(R"(__device__ int f(int x) {
#ifndef __CUDA_ARCH__
  int y = 1;
  x += y;
#endif
  return x;
}
)",
      {0}, /*Parse=*/true);
  const Group &G = groupAt(2);
  EXPECT_EQ(G.Place, Placement::DeclaresNames);
  EXPECT_NE(G.PlaceDetail.find("declares 'y' in 'f': 'using if codegen' "
                               "keeps it in the scope the original declares "
                               "it in"),
            std::string::npos)
      << G.PlaceDetail;
}

TEST_F(PlacementTest, ExecutionSpacesOfFunctionsAndLambdas) {
  run(R"(__host__ __device__ int hd(int x) {
#ifndef __CUDA_ARCH__
  x = 0;
#endif
  return x;
}
__global__ void k(int *p) {
  auto l = [&] {
#ifndef __CUDA_ARCH__
    p[0] = 0;
#endif
  };
  l();
}
int host(int x) {
#ifndef __CUDA_ARCH__
  x = 1;
#endif
  return x;
}
)",
      {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(2).Space, unsigned(HostSpace | DeviceSpace));
  EXPECT_EQ(groupAt(9).Space, unsigned(GlobalSpace));
  EXPECT_EQ(groupAt(9).Function, "lambda");
  EXPECT_EQ(groupAt(16).Space, 0u);
  EXPECT_EQ(groupAt(16).Function, "host");
}

TEST_F(PlacementTest, OnlyParsedPassesThatReachItPlaceIt) {
  const char *Code = R"(__device__ int f(int x) {
#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 800
  x += 1;
#endif
#endif
  return x;
}
)";
  run(Code, {80});
  run(Code, {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(3).Place, Placement::Unknown);
  run(Code, {80}, /*Parse=*/true);
  EXPECT_EQ(groupAt(3).Place, Placement::Statement);
}

TEST_F(PlacementTest, ABranchThatDoesNotParseForThePassThatCompilesIt) {
  const char *Code = R"(__device__ int f(int x) {
#if __CUDA_ARCH__ >= 800
  x += ) 1;
#else
  x += 2;
#endif
  return x;
}
)";
  // The host skips the broken branch: it places the conditional.
  run(Code, {0}, /*Parse=*/true);
  EXPECT_EQ(groupAt(2).Place, Placement::Statement);
  run(Code, {80}, /*Parse=*/true);
  const Group &G = groupAt(2);
  EXPECT_EQ(G.Place, Placement::DoesNotParse);
  EXPECT_NE(G.PlaceDetail.find("compiled for sm_80"), std::string::npos)
      << G.PlaceDetail;
  EXPECT_NE(G.PlaceDetail.find("line 3:8: expected expression"),
            std::string::npos)
      << G.PlaceDetail;
}

TEST_F(PlacementTest, AnErrorOutsideBodiesCountsUntilADeclarationBegins) {
  const char *Code = R"(__device__ int f(int x) ) {
#if __CUDA_ARCH__ >= 800
  x += 2;
#endif
  return x;
}
int recovered; // Clang's recovery skips to this ';'
__device__ int g(int x) {
  x += ) 1;
#if __CUDA_ARCH__ >= 800
  x += 2;
#endif
  return x;
}
)";
  run(Code, {80}, /*Parse=*/true);
  // The broken head leaves no body: the conditional's place is unknown.
  EXPECT_EQ(groupAt(2).Place, Placement::DoesNotParse);
  EXPECT_NE(groupAt(2).PlaceDetail.find("the code before it does not parse"),
            std::string::npos)
      << groupAt(2).PlaceDetail;
  // Past a new declaration, and inside a body Clang parsed, it is known.
  EXPECT_EQ(groupAt(10).Place, Placement::Statement);
}

TEST_F(PlacementTest, BodiesOfFilesWithNothingToPlaceAreSkipped) {
  // A parse error is recorded only where Clang parsed the body.
  Tmp.write("plain.cuh", R"(__device__ int g(int x) {
  x += ) 1;
  return x;
}
)");
  // An #include after a body may be inside it: the body is parsed.
  Tmp.write("tail.cuh", R"(__device__ int h(int x) {
  x += ) 1;
#include "inner.inc"
  return x;
}
)");
  Tmp.write("inner.inc", "x += 2;\n");
  const char *Code = R"(#include "plain.cuh"
#include "tail.cuh"
__device__ int f(int x) {
#if __CUDA_ARCH__ >= 800
  x += 1;
#endif
  return x;
}
)";
  // The preprocessing of the pass tells which files hold conditionals.
  run(Code, {80});
  run(Code, {80}, /*Parse=*/true);
  EXPECT_EQ(groupAt(4).Place, Placement::Statement);
  auto ErrorsIn = [&](llvm::StringRef Name) {
    return llvm::count_if(F.ParseErrors, [&](const auto &E) {
      return llvm::StringRef(E.first.second.first).ends_with(Name);
    });
  };
  EXPECT_EQ(ErrorsIn("plain.cuh"), 0);
  EXPECT_EQ(ErrorsIn("tail.cuh"), 1);
}

TEST_F(PlacementTest, AParseInstantiatesNoTemplates) {
  // Instantiating depth<0> never ends: Clang stops at its depth limit
  // with a fatal error, which would stop the audit of the file.
  run(R"(template <int N> __device__ int depth() { return depth<N + 1>(); }
__global__ void k(int *p) {
#if __CUDA_ARCH__ >= 800
  *p = depth<0>();
#else
  *p = 0;
#endif
}
)",
      {80}, /*Parse=*/true);
  const Group &G = groupAt(3);
  EXPECT_EQ(G.Place, Placement::Statement);
  EXPECT_EQ(G.Function, "k");
}

} // namespace
