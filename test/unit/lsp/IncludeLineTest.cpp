//===- IncludeLineTest.cpp - The #include through which a header is read ===//
#include "lsp/IncludeLine.h"
#include "TempDir.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(IncludeLineTest, TheIncludeThatNamesTheHeader) {
  TempDir Dir;
  std::string Header = Dir.write("arch.cuh", "@meta int w = 1;\n");
  Dir.write("other.h", "int x;\n");
  std::string Text = "#include <cstdio>\n"
                     "#include \"other.h\"\n"
                     "  #  include \"arch.cuh\" // the dialect header\n"
                     "int y;\n";
  EXPECT_EQ(includeLineOf(Dir.path("k.cu"), Text, Header, {}),
            std::optional<unsigned>(2));
}

TEST(IncludeLineTest, TheIncludeOfAUserHeaderThatIncludesIt) {
  TempDir Dir;
  std::string Header = Dir.write("inc/arch.cuh", "@meta int w = 1;\n");
  Dir.write("lib/all.h", "#pragma once\n#include <arch.cuh>\n");
  CompileFlags Flags;
  Flags.Args = {"-I" + Dir.path("inc"), "-I" + Dir.path("lib")};
  std::string Text = "#include \"missing.h\"\n"
                     "#include <all.h>\n";
  EXPECT_EQ(includeLineOf(Dir.path("k.cu"), Text, Header, Flags),
            std::optional<unsigned>(1));
  // Without the directories, no #include leads there.
  EXPECT_EQ(includeLineOf(Dir.path("k.cu"), Text, Header, {}), std::nullopt);
}

TEST(IncludeLineTest, HeadersThatIncludeOneAnotherEnd) {
  TempDir Dir;
  std::string Header = Dir.write("arch.cuh", "@meta int w = 1;\n");
  Dir.write("a.h", "#include \"b.h\"\n");
  Dir.write("b.h", "#include \"a.h\"\n");
  EXPECT_EQ(includeLineOf(Dir.path("k.cu"), "#include \"a.h\"\n", Header, {}),
            std::nullopt);
}

} // namespace
