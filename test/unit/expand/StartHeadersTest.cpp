//===- StartHeadersTest.cpp - The headers at the head of a program's start -===//
#include "expand/StartHeaders.h"

#include <gtest/gtest.h>
#include <string>

using namespace metacu;

namespace {

/// The start's headers, as text.
std::string headersOf(llvm::StringRef Start) {
  return Start.take_front(startHeadersEnd(Start)).str();
}

TEST(StartHeadersTest, EndAfterTheLastInclude) {
  EXPECT_EQ(headersOf("#include <cstdio>\n#  include \"a.h\"\n"
                      "struct s { int n; };\n#define N 1\n"),
            "#include <cstdio>\n#  include \"a.h\"\n");
  EXPECT_EQ(headersOf("struct s;\n#include_next <b.h>\nint n;\n"),
            "struct s;\n#include_next <b.h>\n");
  EXPECT_EQ(headersOf("struct s { int n; };\n#define N 1\n"), "");
}

TEST(StartHeadersTest, EndOutsideTheConditionalsAroundTheLastInclude) {
  // Both parts compile on their own only where no conditional is open.
  EXPECT_EQ(headersOf("#ifdef A\n#if B\n#include <b.h>\n#endif\nint n;\n"
                      "#endif\nint m;\n"),
            "#ifdef A\n#if B\n#include <b.h>\n#endif\nint n;\n#endif\n");
  EXPECT_EQ(headersOf("#ifndef A\n#include <a.h>\nint n;\n"), "");
  // A directive continued on the next line is one line.
  EXPECT_EQ(headersOf("#if A \\\n  || B\n#include <a.h>\n#endif\nint n;\n"),
            "#if A \\\n  || B\n#include <a.h>\n#endif\n");
}

} // namespace
