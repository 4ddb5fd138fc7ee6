//===- HostCopyTest.cpp - The host pass's copy of device-only branches ----===//
#include "expand/HostCopy.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

Event dir(unsigned At, metacu_directive_kind K, uint64_t Mask) {
  return Event::directive(At, K, Mask);
}
Event code(unsigned At, std::string S) { return Event::code(At, std::move(S)); }

/// The events as text: code as it is, directives as "#if(mask)" etc.
std::string render(const Expansion &X) {
  std::string S;
  for (const Event &E : X.Events) {
    if (E.K == Event::Code) {
      S += E.Generated;
      continue;
    }
    static const char *Names[] = {"#if", "#elif", "#else", "#endif"};
    S += std::string("[") + Names[E.DirectiveKind] + " " +
         std::to_string(E.Mask) + "]";
  }
  return S;
}

// Passes: bit 0 the host, bits 1 and 2 two architectures.
Expansion deviceOnlyChain() {
  Expansion X;
  X.Events = {code(0, "f{"),
              dir(5, METACU_DIRECTIVE_IF, 0b100),
              code(9, "  "),
              code(9, "{ return 2; }"),
              dir(5, METACU_DIRECTIVE_ELIF, 0b010),
              code(20, "{ return 1; }"),
              dir(5, METACU_DIRECTIVE_ENDIF, 0),
              code(30, "}")};
  return X;
}

TEST(HostCopyTest, ChainWithoutHostBranchIsCopiedUnderIfFalse) {
  Expansion X = deviceOnlyChain();
  addHostCopies(X, {5});
  EXPECT_EQ(render(X), "f{[#if 4]  { return 2; }[#elif 2]{ return 1; }"
                       "[#endif 0][#if 1]  if (false) { { return 2; }\n}\n"
                       "if (false) { { return 1; }\n}\n[#endif 0]}");
}

// The device passes' branches may have lost their braces (BranchBraces.h):
// the copy's block holds the whole branch, a '//' comment at its end too.
TEST(HostCopyTest, BranchesWithoutBracesAreCopiedInABlock) {
  Expansion X;
  X.Events = {dir(5, METACU_DIRECTIVE_IF, 0b100),
              code(9, "int y = 2; return y; // two"),
              dir(5, METACU_DIRECTIVE_ELSE, 0b010), code(20, "return 1;"),
              dir(5, METACU_DIRECTIVE_ENDIF, 0)};
  addHostCopies(X, {5});
  EXPECT_EQ(render(X), "[#if 4]int y = 2; return y; // two[#else 2]return 1;"
                       "[#endif 0][#if 1]if (false) { int y = 2; return y; "
                       "// two\n}\nif (false) { return 1;\n}\n[#endif 0]");
}

TEST(HostCopyTest, ChainsNotListedAreLeftAlone) {
  Expansion X = deviceOnlyChain();
  std::string Before = render(X);
  addHostCopies(X, {6});
  EXPECT_EQ(render(X), Before);
}

TEST(HostCopyTest, ChainTheHostTakesIsLeftAlone) {
  Expansion X;
  X.Events = {dir(5, METACU_DIRECTIVE_IF, 0b100), code(9, "{ return 2; }"),
              dir(5, METACU_DIRECTIVE_ELSE, 0b011), code(20, "{ return 1; }"),
              dir(5, METACU_DIRECTIVE_ENDIF, 0)};
  std::string Before = render(X);
  addHostCopies(X, {5});
  EXPECT_EQ(render(X), Before);
}

TEST(HostCopyTest, NestedChainTravelsInsideTheOuterBranch) {
  Expansion X;
  X.Events = {dir(5, METACU_DIRECTIVE_IF, 0b110),  code(9, "{"),
              dir(12, METACU_DIRECTIVE_IF, 0b100), code(14, "a;"),
              dir(12, METACU_DIRECTIVE_ENDIF, 0),  code(16, "return 1; }"),
              dir(5, METACU_DIRECTIVE_ENDIF, 0)};
  addHostCopies(X, {5});
  EXPECT_EQ(render(X), "[#if 6]{[#if 4]a;[#endif 0]return 1; }[#endif 0]"
                       "[#if 1]if (false) { {[#if 4]a;[#endif 0]return 1; }"
                       "\n}\n[#endif 0]");
}

} // namespace
