//===- PassSourcesTest.cpp - The source manager the passes share ----------===//
#include "migrate/PassSources.h"
#include "AuditFixtures.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "gtest/gtest.h"

using namespace metacu;

namespace {

class PassSourcesTest : public PassTest {
protected:
  /// Runs every pass over \p Code, all through one source manager if
  /// \p Share, else each through its own.
  llvm::Error runAll(llvm::StringRef Code, Facts &Into, bool Share) {
    Path = Tmp.write("k.cu", Code);
    PassSources Shared(*Files);
    for (unsigned P = 0; P < NumPasses; ++P) {
      PassSources Own(*Files);
      if (llvm::Error Err =
              runPass(Path, CudaToolkit::find(METACU_CUDA_ROOT), {}, P,
                      /*Parse=*/P == NumPasses - 1, Into, Share ? Shared : Own))
        return Err;
    }
    return llvm::Error::success();
  }
};

/// Notes the source manager of each run.
class NoteSources : public clang::PreprocessOnlyAction {
public:
  explicit NoteSources(std::vector<const clang::SourceManager *> &Seen)
      : Seen(Seen) {}
  void ExecuteAction() override {
    Seen.push_back(&getCompilerInstance().getSourceManager());
    clang::PreprocessOnlyAction::ExecuteAction();
  }

private:
  std::vector<const clang::SourceManager *> &Seen;
};

TEST_F(PassSourcesTest, EveryRunReadsThroughTheSameSourceManager) {
  std::string File = Tmp.write("k.cu", "#define X 1\n#undef X\nint x;\n");
  PassSources Sources(*Files);
  std::vector<const clang::SourceManager *> Seen;
  clang::IgnoringDiagConsumer Quiet;
  for (int Run = 0; Run < 2; ++Run)
    EXPECT_TRUE(Sources.run({"clang++", "-x", "c++", "-fsyntax-only", File},
                            std::make_unique<NoteSources>(Seen), Quiet));
  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[0], Seen[1]);
}

TEST_F(PassSourcesTest, PassesOverSharedSourcesRecordWhatTheirOwnWould) {
  llvm::StringRef Code = R"(#include <cuda_runtime.h>
#define LOCAL 1
#undef LOCAL
#if __CUDA_ARCH__ >= 800
#define FAST 1
#endif
__device__ int f(int x) {
#ifdef FAST
  return x * 2;
#else
  return x;
#endif
}
)";
  Facts Own, Shared;
  ASSERT_FALSE(llvm::errorToBool(runAll(Code, Own, /*Share=*/false)));
  ASSERT_FALSE(llvm::errorToBool(runAll(Code, Shared, /*Share=*/true)));
  ASSERT_EQ(Own.Groups.size(), Shared.Groups.size());
  for (auto &[K, G] : Own.Groups) {
    ASSERT_TRUE(Shared.Groups.count(K));
    EXPECT_EQ(G.Taken, Shared.Groups.at(K).Taken);
    EXPECT_EQ(G.Dirs, Shared.Groups.at(K).Dirs);
    EXPECT_EQ(G.Place, Shared.Groups.at(K).Place);
  }
  EXPECT_EQ(Own.Others.size(), Shared.Others.size());
  EXPECT_EQ(Own.FileOrder, Shared.FileOrder);
}

TEST_F(PassSourcesTest, AnErrorOfALaterPassKeepsItsPlace) {
  // The error comes in the sm_80 pass, after passes that read the file
  // through the same source manager.
  Facts Into;
  llvm::Error Err =
      runAll("int x;\n#if __CUDA_ARCH__ >= 800\n#error too new\n#endif\n", Into,
             /*Share=*/true);
  EXPECT_EQ(llvm::toString(std::move(Err)).substr(Path.size()),
            ":3:2: error: too new (compiling for sm_80)");
}

} // namespace
