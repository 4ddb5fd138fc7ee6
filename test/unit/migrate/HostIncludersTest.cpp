//===- HostIncludersTest.cpp - Headers the host compiler reads ------------===//
#include "migrate/HostIncluders.h"
#include "TempDir.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

TEST(HostIncludersTest, HeadersACppSourceReachesThroughTheFlagsIncludes) {
  TempDir Tmp;
  // lib/api.h is found through -I lib and includes common.h beside it;
  // kernels.cuh only the .cu includes. The missing header is passed over.
  Tmp.write("src/lib/api.h", "#include \"common.h\"\n");
  Tmp.write("src/lib/common.h", "int common();\n");
  Tmp.write("src/lib/kernels.cuh", "__device__ int k();\n");
  Tmp.write("src/a.cu", "#include \"lib/kernels.cuh\"\n#include "
                        "\"lib/common.h\"\n");
  Tmp.write("src/b/host.cc", "#include <absent_config.h>\n#ifdef WITH_API\n"
                             "#include <api.h>\n#endif\n");
  Tmp.write("src/b/other.cpp", "#include \"../lib/common.h\"\n");
  auto T = SourceTree::collect({Tmp.path("src")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->hostSources().vec(),
            (std::vector<std::string>{Tmp.path("src/b/host.cc"),
                                      Tmp.path("src/b/other.cpp")}));
  auto FlagsFor = [&](llvm::StringRef) -> llvm::Expected<CompileFlags> {
    CompileFlags F;
    F.Args = {"-I" + Tmp.path("src/lib"), "-DWITH_API"};
    return F;
  };
  std::map<std::string, std::string> By =
      hostIncluders(*T, FlagsFor, CudaToolkit::find(METACU_CUDA_ROOT), 2);
  EXPECT_EQ(By,
            (std::map<std::string, std::string>{
                {Tmp.path("src/lib/api.h"), Tmp.path("src/b/host.cc")},
                {Tmp.path("src/lib/common.h"), Tmp.path("src/b/host.cc")}}));
}

TEST(HostIncludersTest, ASourceTheFlagsDoNotKnowIsReadWithNone) {
  TempDir Tmp;
  Tmp.write("src/lib/common.h", "int common();\n");
  Tmp.write("src/b/host.cc", "#include \"../lib/common.h\"\n");
  auto T = SourceTree::collect({Tmp.path("src")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  auto FlagsFor = [](llvm::StringRef File) -> llvm::Expected<CompileFlags> {
    return llvm::createStringError("no compile command for " + File.str());
  };
  std::map<std::string, std::string> By =
      hostIncluders(*T, FlagsFor, CudaToolkit::find(METACU_CUDA_ROOT), 1);
  EXPECT_EQ(By,
            (std::map<std::string, std::string>{
                {Tmp.path("src/lib/common.h"), Tmp.path("src/b/host.cc")}}));
}

} // namespace
