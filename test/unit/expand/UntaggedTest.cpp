//===- UntaggedTest.cpp - Untagged helpers that device code calls ---------===//
#include "expand/Untagged.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

struct Result {
  std::vector<unsigned> Offsets;
  std::string Error;
  unsigned ErrorOffset = 0;
};

Result helpers(const std::string &Code) {
  SourceFile File("u.cu", Code);
  auto Scan = scan(File);
  EXPECT_TRUE(bool(Scan));
  HostSliceResult Slice;
  Result R;
  auto H = untaggedDeviceHelpers(*Scan, Slice);
  if (H) {
    R.Offsets = *H;
    return R;
  }
  llvm::handleAllErrors(H.takeError(), [&](const LocatedError &E) {
    if (R.Error.empty()) {
      R.Error = E.text();
      R.ErrorOffset = E.offset();
    }
  });
  return R;
}

unsigned at(const std::string &Code, const std::string &Needle) {
  return unsigned(Code.find(Needle));
}

TEST(UntaggedTest, HelpersDeviceCodeReachesAreTaggedWithTheirDeclarations) {
  std::string C = "int sq(int x);\n"
                  "template <class T> T cube(T x) { return x * sq(x); }\n"
                  "int sq(int x) { return x * x; }\n"
                  "int unused(int x) { return x; }\n"
                  "namespace n { float half(float v) { return v / 2; } }\n"
                  "__global__ void k(int *o, float *f) {\n"
                  "  o[0] = cube(2); f[0] = n::half(f[1]);\n"
                  "}\n";
  Result R = helpers(C);
  EXPECT_TRUE(R.Error.empty()) << R.Error;
  EXPECT_EQ(R.Offsets, (std::vector<unsigned>{
                           at(C, "int sq(int x);"), at(C, "T cube"),
                           at(C, "int sq(int x) {"), at(C, "float half")}));
}

TEST(UntaggedTest, TaggedFunctionsMembersAndMacrosAreLeftAlone) {
  std::string C =
      "__host__ __device__ int a(int x) { return x; }\n"
      "struct S { int m(int x) { return x; } };\n"
      "MAKE_THING(m);\n"
      "__device__ int d(S s) { return a(1) + s.m(2) + MAKE_THING(3); }\n";
  Result R = helpers(C);
  EXPECT_TRUE(R.Error.empty()) << R.Error;
  EXPECT_TRUE(R.Offsets.empty());
}

TEST(UntaggedTest, HelperThatCannotRunOnTheDeviceIsAnErrorAtTheCall) {
  std::string C = "__host__ int cfg() { return 4; }\n"
                  "int mid(int x) { return x * cfg(); }\n"
                  "int top(int x) { return mid(x) + 1; }\n"
                  "__global__ void k(int *o) { o[0] = top(2); }\n";
  Result R = helpers(C);
  EXPECT_EQ(R.ErrorOffset, at(C, "top(2)"));
  EXPECT_EQ(R.Error, "'top' has no execution-space attribute and device code "
                     "calls it, but metacu cannot make it __host__ "
                     "__device__: it calls 'mid', which calls 'cfg', which "
                     "is declared __host__");
}

TEST(UntaggedTest, HostCodeCallingAHelperDoesNotTagIt) {
  std::string C = "int sq(int x) { return x * x; }\n"
                  "int main() { return sq(3); }\n";
  EXPECT_TRUE(helpers(C).Offsets.empty());
}

} // namespace
