//===- CompileFlagsTest.cpp - The user's preprocessor flags ---------------===//
#include "toolchain/CompileFlags.h"
#include "TempDir.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <gtest/gtest.h>

using namespace metacu;
using Args = std::vector<std::string>;

namespace {

std::vector<std::string> flagsOf(std::vector<std::string> CL,
                                 llvm::StringRef Dir = "/build") {
  CompileFlags F;
  F.addFromCommandLine(CL, Dir);
  return F.Args;
}

TEST(CompileFlagsTest, IncludePathsInEverySpelling) {
  EXPECT_EQ(flagsOf({"nvcc", "-I", "/a", "-I/b", "--include-path=/c",
                     "--include-path", "/d"}),
            (Args{"-I/a", "-I/b", "-I/c", "-I/d"}));
}

TEST(CompileFlagsTest, StandardIsKeptApartFromThePreprocessorFlags) {
  for (auto CL : std::vector<Args>{{"nvcc", "-std=c++20", "-DX"},
                                   {"nvcc", "--std", "c++20", "-DX"},
                                   {"nvcc", "--std=c++20", "-DX"},
                                   {"g++", "-std", "c++20", "-DX"}}) {
    CompileFlags F;
    F.addFromCommandLine(CL, "/build");
    EXPECT_EQ(F.Standard, "c++20") << CL[1];
    EXPECT_EQ(F.Args, (Args{"-DX"})) << CL[1];
  }
  CompileFlags None;
  None.addFromCommandLine({"nvcc", "-O2"}, "/build");
  EXPECT_EQ(None.Standard, "");
}

TEST(CompileFlagsTest, SystemIncludePaths) {
  EXPECT_EQ(
      flagsOf({"gcc", "-isystem", "/s", "-isystem/t", "--system-include=/u"}),
      (Args{"-isystem/s", "-isystem/t", "-isystem/u"}));
}

TEST(CompileFlagsTest, MacroDefinitionsAndUndefinitions) {
  EXPECT_EQ(
      flagsOf({"nvcc", "-D", "X=1", "-DY", "--define-macro=Z=2",
               "--define-macro", "W", "-U", "A", "-UB", "--undefine-macro=C"}),
      (Args{"-DX=1", "-DY", "-DZ=2", "-DW", "-UA", "-UB", "-UC"}));
}

TEST(CompileFlagsTest, MacroValuesAreNotTakenForPaths) {
  EXPECT_EQ(flagsOf({"nvcc", "-DDIR=rel/path"}, "/build"),
            (Args{"-DDIR=rel/path"}));
}

TEST(CompileFlagsTest, ForcedIncludes) {
  EXPECT_EQ(
      flagsOf({"clang++", "-include", "/p/pre.h", "--pre-include=/p/q.h"}),
      (Args{"-include/p/pre.h", "-include/p/q.h"}));
}

TEST(CompileFlagsTest, RelativePathsAreMadeAbsoluteAgainstTheDirectory) {
  EXPECT_EQ(flagsOf({"nvcc", "-Iinc", "-I", "../up", "-isystem", "sys",
                     "-include", "pre.h"},
                    "/work/build"),
            (Args{"-I/work/build/inc", "-I/work/build/../up",
                  "-isystem/work/build/sys", "-include/work/build/pre.h"}));
}

TEST(CompileFlagsTest, RelativePathsStayRelativeWithoutADirectory) {
  EXPECT_EQ(flagsOf({"nvcc", "-Iinc"}, ""), (Args{"-Iinc"}));
}

TEST(CompileFlagsTest, UnrelatedFlagsAndTheCompilerAreIgnored) {
  EXPECT_EQ(flagsOf({"-Inot_a_flag_but_the_compiler", "-O2", "-std=c++17",
                     "-arch=sm_80", "-Wall", "-c", "k.cu", "-o", "k.o",
                     "--expt-relaxed-constexpr", "-DKEEP", "-lineinfo",
                     "-isysroot", "/sdk"}),
            (Args{"-DKEEP"}));
}

TEST(CompileFlagsTest, TheLanguageFlagIsNotTakenForAPreprocessorFlag) {
  // nvcc -x cu compiles a .cpp file as CUDA, which is how metacu reads
  // every input; neither the flag nor its value becomes a Clang flag.
  EXPECT_EQ(flagsOf({"nvcc", "-x", "cu", "-DA", "-c", "k.cpp"}), (Args{"-DA"}));
  EXPECT_EQ(flagsOf({"nvcc", "-xcu", "--x=cu", "--x", "cu", "-Ii"}),
            (Args{"-I/build/i"}));
}

TEST(CompileFlagsTest, AFlagMissingItsValueAtTheEndIsDropped) {
  EXPECT_EQ(flagsOf({"nvcc", "-DA", "-I"}), (Args{"-DA"}));
  EXPECT_EQ(flagsOf({"nvcc", "-D"}), (Args{}));
}

TEST(CompileFlagsTest, FlagsAccumulateInCommandLineOrder) {
  CompileFlags F;
  F.addFromCommandLine({"nvcc", "-DA"}, "/x");
  F.addFromCommandLine({"nvcc", "-UA", "-Iy"}, "/x");
  EXPECT_EQ(F.Args, (Args{"-DA", "-UA", "-I/x/y"}));
}

/// A temporary build directory with a compile_commands.json.
class CompileFlagsDatabaseTest : public ::testing::Test {
protected:
  void writeDatabase(llvm::StringRef Json) {
    Tmp.write("compile_commands.json", Json);
  }

  TempDir Tmp;
};

TEST_F(CompileFlagsDatabaseTest, ReadsTheEntryOfTheFile) {
  std::string D = Tmp.dir().str();
  writeDatabase("[{\"directory\": \"" + D +
                "\", \"command\": \"/usr/local/cuda/bin/nvcc -Iinc -DTUNED=1 "
                "-O3 -c " +
                D + "/k.cu -o k.o\", \"file\": \"" + D + "/k.cu\"}]");
  CompileFlags F;
  llvm::Error E = F.addFromDatabase(Tmp.dir(), Tmp.path("k.cu"));
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(F.Args, (Args{"-I" + D + "/inc", "-DTUNED=1"}));
}

TEST_F(CompileFlagsDatabaseTest, InfersFlagsForAFileNotInTheDatabase) {
  std::string D = Tmp.dir().str();
  writeDatabase("[{\"directory\": \"" + D +
                "\", \"arguments\": [\"nvcc\", \"-I\", \"include\", \"-D\", "
                "\"MODE=2\", \"-c\", \"" +
                D + "/kernel_a.cu\"], \"file\": \"" + D + "/kernel_a.cu\"}]");
  CompileFlags F;
  llvm::Error E = F.addFromDatabase(Tmp.dir(), Tmp.path("kernel_b.cu"));
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  auto Has = [&](const std::string &A) {
    return std::find(F.Args.begin(), F.Args.end(), A) != F.Args.end();
  };
  EXPECT_TRUE(Has("-I" + D + "/include")) << ::testing::PrintToString(F.Args);
  EXPECT_TRUE(Has("-DMODE=2")) << ::testing::PrintToString(F.Args);
}

TEST_F(CompileFlagsDatabaseTest, ADialectFileHasItsGeneratedFilesFlags) {
  // metacu_target_sources' map: kernel.cu is compiled as gen/kernel.gen.cu.
  // The database's closest entry to kernel.cu would be kernel.cpp's.
  std::string D = Tmp.dir().str();
  writeDatabase("[{\"directory\": \"" + D +
                "\", \"arguments\": [\"nvcc\", \"-DTARGET\", \"-c\", \"" + D +
                "/gen/kernel.gen.cu\"], \"file\": \"" + D +
                "/gen/kernel.gen.cu\"}, {\"directory\": \"" + D +
                "\", \"arguments\": [\"c++\", \"-DOTHER\", \"-c\", \"" + D +
                "/src/kernel.cpp\"], \"file\": \"" + D + "/src/kernel.cpp\"}]");
  Tmp.write("metacu_sources.json", "[{\"file\": \"" + D +
                                       "/src/kernel.cu\", \"output\": \"" + D +
                                       "/gen/kernel.gen.cu\"}]");
  CompileFlags F;
  llvm::Error E =
      F.addFromDatabase(Tmp.dir(), Tmp.path("src/../src/kernel.cu"));
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(F.Args, (Args{"-DTARGET"}));
  // A file the map does not name is found as before.
  CompileFlags Other;
  E = Other.addFromDatabase(Tmp.dir(), Tmp.path("src/kernel.cpp"));
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(Other.Args, (Args{"-DOTHER"}));
}

TEST_F(CompileFlagsDatabaseTest, ADamagedMapIsAnErrorNamingIt) {
  writeDatabase("[]");
  Tmp.write("metacu_sources.json", "{\"file\": 1}");
  CompileFlags F;
  llvm::Error E = F.addFromDatabase(Tmp.dir(), Tmp.path("k.cu"));
  ASSERT_TRUE(bool(E));
  std::string Msg = llvm::toString(std::move(E));
  EXPECT_NE(Msg.find("metacu_sources.json"), std::string::npos) << Msg;
}

TEST_F(CompileFlagsDatabaseTest, MissingDatabaseIsAnError) {
  CompileFlags F;
  llvm::Error E = F.addFromDatabase(Tmp.dir(), Tmp.path("k.cu"));
  ASSERT_TRUE(bool(E));
  std::string Msg = llvm::toString(std::move(E));
  EXPECT_NE(Msg.find("cannot load compile_commands.json"), std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find(Tmp.dir().str()), std::string::npos) << Msg;
  EXPECT_TRUE(F.Args.empty());
}

} // namespace
