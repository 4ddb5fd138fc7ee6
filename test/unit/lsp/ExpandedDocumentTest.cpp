//===- ExpandedDocumentTest.cpp - A dialect file as clangd sees it --------===//
#include "lsp/ExpandedDocument.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// "int a = @(n);" expanded twice: "int a = 4;" for the host pass and
/// "int a = 8;" for the first architecture, after a prelude "P\n".
ExpandedDocument twoPasses(uint64_t Pass) {
  std::string Text = "P\nint a = 4;\nint a = 8;\n";
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  for (unsigned Line : {2u, 13u}) {
    uint64_t Passes = Line == 2 ? 1 : 2;
    M.add({Line, Line + 8, {F, 1, 1, true}, Passes});
    M.add({Line + 8, Line + 9, {F, 1, 9, false}, Passes});
    M.add({Line + 9, Line + 10, {F, 1, 13, true}, Passes});
  }
  return ExpandedDocument(Text, 2, std::move(M), "/k.cu", Pass);
}

TEST(ExpandedDocumentTest, ThePreludeIsApart) {
  ExpandedDocument D = twoPasses(1);
  EXPECT_EQ(D.prelude(), "P\n");
  EXPECT_EQ(D.body().text(), "int a = 4;\nint a = 8;\n");
}

TEST(ExpandedDocumentTest, BodyBytesMapToTheUsersText) {
  ExpandedDocument D = twoPasses(1);
  auto A = D.toUser(4);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Path, "/k.cu");
  EXPECT_EQ(A->Line, 0u);
  EXPECT_EQ(A->Col, 4u);
  EXPECT_TRUE(A->Verbatim);
  auto Value = D.toUser(8);
  ASSERT_TRUE(Value);
  EXPECT_FALSE(Value->Verbatim);
  EXPECT_EQ(Value->Col, 8u);
  EXPECT_FALSE(D.toUser(10)); // the line break
}

TEST(ExpandedDocumentTest, TheUsersBytesGoToTheCopyThePassShownKeeps) {
  EXPECT_EQ(twoPasses(1).toBody(0, 4), 4u);
  EXPECT_EQ(twoPasses(2).toBody(0, 4), 15u);
  EXPECT_TRUE(twoPasses(2).live(15));
  EXPECT_FALSE(twoPasses(2).live(4));
  // Inside the splice: no copy.
  EXPECT_FALSE(twoPasses(1).toBody(0, 9));
}

TEST(ExpandedDocumentTest, ALineIsLiveWhereThePassShownKeepsACopyOfAByte) {
  // "a;" copied for both passes, "b;" only for the first architecture's,
  // "c;" (after a splice) only for the host pass, from its third byte.
  std::string Text = "a;\nb;\nX c;\n";
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  M.add({0, 2, {F, 1, 1, true}, 3});
  M.add({3, 5, {F, 2, 1, true}, 2});
  M.add({6, 8, {F, 3, 1, false}, 1});
  M.add({8, 10, {F, 3, 3, true}, 1});
  ExpandedDocument Host(Text, 0, M, "/k.cu", 1);
  EXPECT_EQ(Host.liveLines(), (llvm::DenseSet<unsigned>{0, 2}));
  ExpandedDocument Arch(Text, 0, M, "/k.cu", 2);
  EXPECT_EQ(Arch.liveLines(), (llvm::DenseSet<unsigned>{0, 1}));
  // Another file's lines are not the document's.
  EXPECT_TRUE(ExpandedDocument(Text, 0, M, "/other.cu", 1).liveLines().empty());
}

TEST(ExpandedDocumentTest, AMetaValueIsTheConstantOfThePassShown) {
  EXPECT_EQ(twoPasses(1).generatedAt(0, 8), "4");
  EXPECT_EQ(twoPasses(2).generatedAt(0, 8), "8");
  EXPECT_FALSE(twoPasses(1).generatedAt(0, 4));
}

} // namespace

namespace {

/// twoPasses()'s user text.
const TextLines Users("int a = @(n);\n");

/// The expansion after \p Old became \p New (difference()'s edit).
std::shared_ptr<ExpandedDocument>
edited(const ExpandedDocument &D, const TextLines &Old, llvm::StringRef New) {
  TextLines After(New.str());
  size_t Begin = 0, Max = std::min(Old.text().size(), New.size());
  while (Begin < Max && Old.text()[Begin] == New[Begin])
    ++Begin;
  size_t Suffix = 0;
  while (Suffix < Max - Begin && Old.text()[Old.text().size() - 1 - Suffix] ==
                                     New[New.size() - 1 - Suffix])
    ++Suffix;
  return D.withEdit(Old, After, Begin, Old.text().size() - Suffix);
}

TEST(ExpandedDocumentTest, AnEditOfCopiedBytesEditsEveryCopy) {
  // "int a = @(n);" -> "int ab = @(n);": both copies, the splice moved.
  auto E = twoPasses(1).withLineEdit(0, 5, 5, "b");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "int ab = 4;\nint ab = 8;\n");
  EXPECT_EQ(E->toBody(0, 5), 5u);
  EXPECT_EQ(E->generatedAt(0, 9), "4");
  auto Semi = E->toUser(10);
  ASSERT_TRUE(Semi);
  EXPECT_EQ(Semi->Col, 13u);
  EXPECT_EQ(E->toUser(21)->Col, 9u); // the second copy's constant
}

TEST(ExpandedDocumentTest, AnEditOfAMetaValueOrMetaCodeIsNoCopyEdit) {
  EXPECT_FALSE(twoPasses(1).withLineEdit(0, 9, 10, "m")); // in '@(n)'
  EXPECT_FALSE(twoPasses(1).withLineEdit(0, 6, 10, "x")); // across it
  EXPECT_FALSE(twoPasses(1).withLineEdit(1, 0, 0, "x"));  // no copy
}

TEST(ExpandedDocumentTest, LinesAddedAfterALineWithAMetaValueFollowEachCopy) {
  // No copy of the whole line, but each copy ends in a copy of its end.
  auto E = edited(twoPasses(2), Users, "int a = @(n);\nint b;\n");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "int a = 4;\nint b;\nint a = 8;\nint b;\n");
  EXPECT_EQ(E->toBody(1, 4), 33u); // the copy the pass shown keeps
  EXPECT_FALSE(E->live(15));
  EXPECT_FALSE(E->live(4));
  // A line break typed after the ';', then the new line's indentation.
  auto F = edited(twoPasses(1), Users, "int a = @(n);\n  \n");
  ASSERT_TRUE(F);
  EXPECT_EQ(F->body().text(), "int a = 4;\n  \nint a = 8;\n  \n");
}

TEST(ExpandedDocumentTest, ALineRemovedAfterALineWithAMetaValueLeavesEachCopy) {
  // The line of indentation LinesAddedAfterALineWithAMetaValueFollowEachCopy
  // adds, removed again where the next line starts with the same blanks.
  const TextLines Added("int a = @(n);\n  \n  b;\n");
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  std::string Text = "P\n";
  for (uint64_t Passes : {1u, 2u}) {
    unsigned Out = Text.size();
    M.add({Out, Out + 8, {F, 1, 1, true}, Passes});
    M.add({Out + 8, Out + 9, {F, 1, 9, false}, Passes});
    M.add({Out + 9, Out + 10, {F, 1, 13, true}, Passes});
    M.add({Out + 11, Out + 13, {F, 2, 1, true}, Passes});
    Text += Passes == 1 ? "int a = 4;\n  \n" : "int a = 8;\n  \n";
  }
  M.add({unsigned(Text.size()), unsigned(Text.size() + 4), {F, 3, 1, true}});
  Text += "  b;\n";
  ExpandedDocument D(Text, 2, std::move(M), "/k.cu", 1);
  const TextLines Removed("int a = @(n);\n  b;\n");
  // difference()'s edit: "\n  " after the blanks; or the ';'.
  for (unsigned Begin : {16u, 13u}) {
    auto E = D.withEdit(Added, Removed, Begin, Begin + 3);
    ASSERT_TRUE(E) << Begin;
    EXPECT_EQ(E->body().text(), "int a = 4;\nint a = 8;\n  b;\n");
    auto B = E->toUser(24);
    ASSERT_TRUE(B);
    EXPECT_EQ(B->Line, 1u); // "  b;" is on line 2 now
    EXPECT_EQ(B->Col, 2u);
    EXPECT_EQ(E->toBody(1, 2), 24u);
  }
  // Not whole lines however moved ("\n  b" removed): no copy edit.
  EXPECT_FALSE(D.withEdit(Added, TextLines("int a = @(n);\n  ;\n"), 16, 20));
}

TEST(ExpandedDocumentTest, NoLinesFollowALineThatEndsInGeneratedText) {
  // "x = @(n)": its copy ends in the constant.
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  M.add({2, 6, {F, 1, 1, true}, ~uint64_t(0)});
  M.add({6, 7, {F, 1, 5, false}, ~uint64_t(0)});
  ExpandedDocument D("P\nx = 4\n", 2, std::move(M), "/k.cu", 1);
  EXPECT_FALSE(edited(D, TextLines("x = @(n)\n"), "x = @(n)\ny;\n"));
}

/// "a;\nb;\n@meta m;\nc;\n" whose lines 1-2 an unrolled body copies twice
/// (for the host pass), then line 4 once, after a prelude "P\n".
ExpandedDocument unrolled() {
  std::string Text = "P\na;\nb;\na;\nb;\nc;\n";
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  for (unsigned Out : {2u, 8u}) {
    M.add({Out, Out + 2, {F, 1, 1, true}, 1});
    M.add({Out + 3, Out + 5, {F, 2, 1, true}, 1});
  }
  M.add({14, 16, {F, 4, 1, true}, ~uint64_t(0)});
  return ExpandedDocument(Text, 2, std::move(M), "/k.cu", 1);
}
const TextLines Unrolled("a;\nb;\n@meta m;\nc;\n");

TEST(ExpandedDocumentTest, ALineAddedToCopiedLinesIsAddedToEveryCopy) {
  auto E = edited(unrolled(), Unrolled, "a;\nb;\nx;\n@meta m;\nc;\n");
  // The line break after "b;" and "x;": each copy has the new line, and
  // what follows moved a line down.
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "a;\nb;\nx;\na;\nb;\nx;\nc;\n");
  EXPECT_EQ(E->toBody(2, 0), 6u);
  auto X2 = E->toUser(15);
  ASSERT_TRUE(X2);
  EXPECT_EQ(X2->Line, 2u);
  EXPECT_TRUE(X2->Verbatim);
  auto C = E->toUser(18);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Line, 4u); // "c;" is on line 5 now
  EXPECT_EQ(E->toBody(4, 0), 18u);
  // Removed again: the expansion as it was.
  auto Back = edited(*E, TextLines("a;\nb;\nx;\n@meta m;\nc;\n"),
                     "a;\nb;\n@meta m;\nc;\n");
  ASSERT_TRUE(Back);
  EXPECT_EQ(Back->body().text(), unrolled().body().text());
  EXPECT_EQ(Back->toBody(3, 1), 13u);
}

TEST(ExpandedDocumentTest, ALineAtTheEndGoesWithTheLastLine) {
  auto E = edited(unrolled(), Unrolled, "a;\nb;\n@meta m;\nc;\nd;\n");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "a;\nb;\na;\nb;\nc;\nd;\n");
  EXPECT_EQ(E->toBody(4, 0), 15u);
}

TEST(ExpandedDocumentTest, ALineAfterUncopiedLinesGoesWithTheLineAfter) {
  auto E = edited(unrolled(), Unrolled, "a;\nb;\n@meta m;\ny;\nc;\n");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "a;\nb;\na;\nb;\ny;\nc;\n");
  EXPECT_EQ(E->toUser(12)->Line, 3u);
  EXPECT_EQ(E->toUser(15)->Line, 4u);
}

/// "int a;\n\n@meta m;\n@meta n;\nint b;\n" expanded: "int a;", the
/// blank line, and "int b;" after a '#line' (the meta lines have no
/// output), after a prelude "P\n".
ExpandedDocument metaLinesBetween() {
  std::string Text = "P\n#line 1 \"/k.cu\"\nint a;\n\n#line 5 \"/k.cu\"\n";
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  M.add({unsigned(Text.size()) - 24,
         unsigned(Text.size()) - 18,
         {F, 1, 1, true}});
  M.add({unsigned(Text.size()), unsigned(Text.size()) + 6, {F, 5, 1, true}});
  Text += "int b;\n";
  return ExpandedDocument(Text, 2, std::move(M), "/k.cu", 1);
}
const TextLines MetaLines("int a;\n\n@meta m;\n@meta n;\nint b;\n");

TEST(ExpandedDocumentTest, ALineAddedAfterBlankLinesRenumbersTheLinesAfter) {
  // A directive added before the meta lines: after the blank line that
  // follows "int a;"'s copy, and the '#line' of "int b;" names its line
  // now, as the emit stage writes it; the first '#line' stays.
  ExpandedDocument D = metaLinesBetween();
  ASSERT_EQ(D.toUser(40)->Line, 4u);
  auto E = edited(D, MetaLines,
                  "int a;\n\n#define X 1\n@meta m;\n@meta n;\n"
                  "int b;\n");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "#line 1 \"/k.cu\"\nint a;\n\n#define X 1\n"
                              "#line 6 \"/k.cu\"\nint b;\n");
  auto Define = E->toUser(24);
  ASSERT_TRUE(Define);
  EXPECT_EQ(Define->Line, 2u);
  auto B = E->toUser(52);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Line, 5u);
  EXPECT_EQ(E->toBody(5, 0), 52u);
  // Removed again: the expansion as it was, byte for byte.
  auto Back = edited(*E,
                     TextLines("int a;\n\n#define X 1\n@meta m;\n"
                               "@meta n;\nint b;\n"),
                     MetaLines.text());
  ASSERT_TRUE(Back);
  EXPECT_EQ(Back->body().text(), D.body().text());
  EXPECT_EQ(Back->toBody(4, 0), 40u);
}

TEST(ExpandedDocumentTest, LinesRenumberedPastAPowerOfTenMoveWhatFollows) {
  // "int b;" on line 9 of the user's text, 10 once a line is added above:
  // its '#line' one byte longer, the pieces after it one byte later.
  std::string User = "int a;\n\n@meta m;\n";
  for (int I = 0; I < 5; ++I)
    User += "@meta m;\n";
  User += "int b;\n";
  std::string Text = "P\nint a;\n\n#line 9 \"/k.cu\"\n";
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  M.add({2, 8, {F, 1, 1, true}});
  M.add({unsigned(Text.size()), unsigned(Text.size()) + 6, {F, 9, 1, true}});
  Text += "int b;\n";
  ExpandedDocument D(Text, 2, std::move(M), "/k.cu", 1);
  TextLines Old(User);
  std::string New = User;
  New.insert(8, "// x\n");
  auto E = edited(D, Old, New);
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "int a;\n\n// x\n#line 10 \"/k.cu\"\nint b;\n");
  auto B = E->toUser(30);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Line, 9u);
  EXPECT_EQ(B->Col, 0u);
}

TEST(ExpandedDocumentTest, LinesCopiedInPartOrNotAtAllAreNoCopyEdit) {
  // Joining "b;" to the meta line; an edit across both.
  EXPECT_FALSE(edited(unrolled(), Unrolled, "a;\nb;@meta m;\nc;\n"));
  EXPECT_FALSE(edited(unrolled(), Unrolled, "a;\nb2;\n@meta m2;\nc;\n"));
}

} // namespace
