//===- RewriteTest.cpp - clangd's messages on the user's text -------------===//
#include "lsp/Rewrite.h"
#include "../TempDir.h"

#include <gtest/gtest.h>

using namespace metacu;
namespace json = llvm::json;

namespace {

/// A dialect document "int a = @(n);\n" whose expansion clangd holds as
/// "int a = 4;\nint a = 4;\n" (two unrolled copies) after a prelude, and a
/// plain one.
struct Fixture {
  Document Dialect, Plain;
  Fixture() {
    std::string Text = "PRELUDE\nint a = 4;\nint a = 4;\n";
    OutputMap M;
    unsigned F = M.fileIndex("/k.cu");
    for (unsigned Line : {8u, 19u}) {
      M.add({Line, Line + 8, {F, 1, 1, true}, 1});
      M.add({Line + 8, Line + 9, {F, 1, 9, false}, 1});
      M.add({Line + 9, Line + 10, {F, 1, 13, true}, 1});
    }
    Dialect.Uri = "file:///k.cu";
    Dialect.Path = "/k.cu";
    Dialect.Text = std::make_shared<TextLines>("int a = @(n);\n");
    Dialect.Dialect = true;
    Dialect.Expanded =
        std::make_shared<ExpandedDocument>(Text, 8, std::move(M), "/k.cu", 1);
    Plain.Uri = "file:///p.cu";
    Plain.Path = "/p.cu";
    Plain.Text = std::make_shared<TextLines>("int b;\n");
  }
  /// A file of spliced text the dialect document's expansion includes.
  std::shared_ptr<const SplicedFile> Spliced;
  Mapper mapper() const {
    return Mapper(
        [this](llvm::StringRef Uri) -> const Document * {
          if (Uri == Dialect.Uri)
            return &Dialect;
          if (Uri == Plain.Uri)
            return &Plain;
          return nullptr;
        },
        [this](llvm::StringRef Uri) -> const SplicedFile * {
          return Spliced && Uri == pathToUri(Spliced->Path) ? Spliced.get()
                                                            : nullptr;
        },
        PositionEncoding::UTF16);
  }
};

json::Object range(unsigned L0, unsigned C0, unsigned L1, unsigned C1) {
  return json::Object{{"start", json::Object{{"line", L0}, {"character", C0}}},
                      {"end", json::Object{{"line", L1}, {"character", C1}}}};
}

json::Object diagnostic(json::Object Range, llvm::StringRef Message,
                        llvm::StringRef Code = "") {
  json::Object D{{"range", std::move(Range)}, {"message", Message.str()}};
  if (!Code.empty())
    D["code"] = Code.str();
  return D;
}

TEST(RewriteTest, DiagnosticsOfCopiesAreOneOnTheUsersLine) {
  Fixture F;
  json::Array Diags{diagnostic(range(0, 4, 0, 5), "unused a"),
                    diagnostic(range(1, 4, 1, 5), "unused a"),
                    diagnostic(range(0, 8, 0, 9), "about the value")};
  json::Array Out = F.mapper().diagnosticsToUser(F.Dialect, Diags);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(*Out[0].getAsObject()->get("range"),
            json::Value(range(0, 4, 0, 5)));
  // Generated text: the construct's token ('@' to the end of '@').
  EXPECT_EQ(*Out[1].getAsObject()->get("range"),
            json::Value(range(0, 8, 0, 9)));
}

TEST(RewriteTest, DiagnosticsOfThePreludeAndUnusedIncludesAreDropped) {
  Fixture F;
  json::Array Diags{diagnostic(range(0, 0, 0, 1), "included header unused",
                               "unused-includes")};
  EXPECT_TRUE(F.mapper().diagnosticsToUser(F.Dialect, Diags).empty());
}

TEST(RewriteTest, RequestsGoToTheFirstLiveCopy) {
  Fixture F;
  auto P = F.mapper().toClangd(F.Dialect, {0, 4});
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Line, 0u);
  EXPECT_EQ(P->Character, 4u);
  EXPECT_FALSE(F.mapper().toClangd(F.Dialect, {0, 10})); // in '@(n)'
}

TEST(RewriteTest, LocationsInADialectFileLandOnItsText) {
  Fixture F;
  json::Value Result = json::Array{
      json::Object{{"uri", "file:///k.cu"}, {"range", range(1, 4, 1, 5)}},
      json::Object{{"uri", "file:///p.cu"}, {"range", range(0, 4, 0, 5)}}};
  F.mapper().resultToUser("textDocument/references", &F.Plain, Result);
  json::Array &A = *Result.getAsArray();
  ASSERT_EQ(A.size(), 2u);
  EXPECT_EQ(*A[0].getAsObject()->get("range"), json::Value(range(0, 4, 0, 5)));
  EXPECT_EQ(*A[1].getAsObject()->get("range"), json::Value(range(0, 4, 0, 5)));
}

TEST(RewriteTest, LocationsInASplicedFileLandOnTheHeader) {
  TempDir T;
  std::string Header = T.write("h.cuh", "// h\n\nint h() { return 1; }\n");
  // Its third line is the file's first, as an #include of it put it.
  OutputMap M;
  M.add({0, 21, {M.fileIndex(Header), 3, 1, true}});
  Fixture F;
  F.Spliced = std::make_shared<SplicedFile>(
      SplicedFile{"/t/0123.cuh", TextLines("int h() { return 1; }\n"), M});
  json::Value Result = json::Array{
      json::Object{{"uri", "file:///t/0123.cuh"}, {"range", range(0, 4, 0, 5)}},
      json::Object{{"targetUri", "file:///t/0123.cuh"},
                   {"targetRange", range(0, 0, 0, 21)},
                   {"targetSelectionRange", range(0, 4, 0, 5)}}};
  F.mapper().resultToUser("textDocument/definition", &F.Dialect, Result);
  json::Array &A = *Result.getAsArray();
  ASSERT_EQ(A.size(), 2u);
  EXPECT_EQ(A[0].getAsObject()->getString("uri"), pathToUri(Header));
  EXPECT_EQ(*A[0].getAsObject()->get("range"), json::Value(range(2, 4, 2, 5)));
  EXPECT_EQ(A[1].getAsObject()->getString("targetUri"), pathToUri(Header));
  EXPECT_EQ(*A[1].getAsObject()->get("targetRange"),
            json::Value(range(2, 0, 2, 21)));
  // Nor is an edit of it ever applied.
  json::Object Edit{
      {"changes",
       json::Object{{"file:///t/0123.cuh",
                     json::Array{json::Object{{"range", range(0, 4, 0, 5)},
                                              {"newText", "g"}}}}}}};
  F.mapper().dropDialectEdits(Edit);
  EXPECT_FALSE(Edit.getObject("changes")->get("file:///t/0123.cuh"));
}

TEST(RewriteTest, ATokenRangeAtAConstructCoversItsKeyword) {
  Fixture F;
  TextLines Text("  @meta int n;\n  p = @(n);\n");
  EXPECT_EQ(F.mapper().tokenRange(Text, 0, 2), range(0, 2, 0, 7));
  EXPECT_EQ(F.mapper().tokenRange(Text, 1, 6), range(1, 6, 1, 7));
  EXPECT_EQ(F.mapper().tokenRange(Text, 0, 8), range(0, 8, 0, 11));
}

TEST(RewriteTest, EditsOfDialectFilesAreNeverApplied) {
  Fixture F;
  json::Object Edit{
      {"changes",
       json::Object{{"file:///k.cu",
                     json::Array{json::Object{{"range", range(0, 4, 0, 5)},
                                              {"newText", "b"}}}},
                    {"file:///p.cu",
                     json::Array{json::Object{{"range", range(0, 4, 0, 5)},
                                              {"newText", "c"}}}}}}};
  F.mapper().dropDialectEdits(Edit);
  const json::Object *Changes = Edit.getObject("changes");
  EXPECT_FALSE(Changes->get("file:///k.cu"));
  EXPECT_TRUE(Changes->get("file:///p.cu"));
}

} // namespace
