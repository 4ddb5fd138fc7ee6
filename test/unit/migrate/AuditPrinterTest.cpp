//===- AuditPrinterTest.cpp - The text and JSON output of audit -----------===//
#include "migrate/AuditPrinter.h"
#include "AuditFixtures.h"

#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace metacu;

namespace {

/// k.cu with a convertible conditional and a macro alias, h.cuh with a
/// redefinition.
std::vector<FileAudit> sample() {
  Site Conv;
  Conv.Category = SiteCategory::Statement;
  Conv.Line = 3;
  Conv.Column = 1;
  Conv.EndLine = 7;
  Conv.Text = "#if __CUDA_ARCH__ >= 800";
  Conv.Reason = "branch between statements of 'f'";
  SiteDirective If, Else, Endif;
  If.Line = 3;
  If.Text = Conv.Text;
  If.TakenBy = from(80);
  If.Codegen = "(int)__nvvm_arch >= 80";
  Else.Line = 5;
  Else.Text = "#else";
  Else.IsElse = true;
  Else.TakenBy = mask({0, 75});
  Endif.Line = 7;
  Endif.Text = "#endif";
  Endif.IsEndif = true;
  Conv.Directives = {If, Else, Endif};

  Site Alias;
  Alias.Kind = SiteKind::MacroAlias;
  Alias.Line = Alias.EndLine = 1;
  Alias.Column = 9;
  Alias.Text = "#define ARCH __CUDA_ARCH__";
  Alias.Via = {"BASE"};
  Alias.Reason = "macro derived from __CUDA_ARCH__";

  Site Redef;
  Redef.Kind = SiteKind::Redefinition;
  Redef.Category = SiteCategory::Hazard;
  Redef.Line = Redef.EndLine = 2;
  Redef.Column = 8;
  Redef.Text = "#undef __CUDA_ARCH__";
  Redef.Reason = "only nvcc may set it";
  return {{"k.cu", {Alias, Conv}}, {"h.cuh", {Redef}}};
}

llvm::json::Value json(llvm::ArrayRef<FileAudit> Files) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printAuditJson(OS, Files);
  EXPECT_EQ(Out.back(), '\n');
  auto J = llvm::json::parse(Out);
  if (!J) {
    ADD_FAILURE() << llvm::toString(J.takeError());
    return nullptr;
  }
  return std::move(*J);
}

std::vector<std::string> strings(const llvm::json::Array *A) {
  std::vector<std::string> S;
  for (const llvm::json::Value &V : *A)
    S.push_back(V.getAsString()->str());
  return S;
}

TEST(AuditPrinterTest, JsonNamesEveryPass) {
  llvm::json::Value J = json(sample());
  std::vector<std::string> Passes =
      strings(J.getAsObject()->getArray("passes"));
  ASSERT_EQ(Passes.size(), NumPasses);
  EXPECT_EQ(Passes.front(), "host");
  EXPECT_EQ(Passes[1], "sm_75");
  EXPECT_EQ(Passes.back(), "sm_121");
  EXPECT_EQ(J.getAsObject()->getInteger("version"), 1);
}

TEST(AuditPrinterTest, JsonSitesHaveTheDocumentedFields) {
  llvm::json::Value J = json(sample());
  const llvm::json::Array &Files = *J.getAsObject()->getArray("files");
  ASSERT_EQ(Files.size(), 2u);
  EXPECT_EQ(Files[0].getAsObject()->getString("path"), "k.cu");
  const llvm::json::Array &Sites = *Files[0].getAsObject()->getArray("sites");
  ASSERT_EQ(Sites.size(), 2u);
  const llvm::json::Object &Alias = *Sites[0].getAsObject();
  EXPECT_EQ(Alias.getInteger("line"), 1);
  EXPECT_EQ(Alias.getInteger("column"), 9);
  EXPECT_EQ(Alias.getInteger("end_line"), 1);
  EXPECT_EQ(Alias.getString("kind"), "macro-alias");
  EXPECT_EQ(Alias.getString("category"), "not-convertible");
  EXPECT_EQ(Alias.getBoolean("convertible"), false);
  EXPECT_EQ(Alias.getString("text"), "#define ARCH __CUDA_ARCH__");
  EXPECT_EQ(strings(Alias.getArray("via")), std::vector<std::string>{"BASE"});
  EXPECT_EQ(Alias.getString("reason"), "macro derived from __CUDA_ARCH__");
  EXPECT_TRUE(Alias.getArray("directives")->empty());
  const llvm::json::Object &Conv = *Sites[1].getAsObject();
  EXPECT_EQ(Conv.getString("category"), "statement");
  EXPECT_EQ(Conv.getBoolean("convertible"), true);
  EXPECT_EQ(Conv.getInteger("end_line"), 7);
}

TEST(AuditPrinterTest, JsonDirectivesSayWhoCompilesWhat) {
  llvm::json::Value J = json(sample());
  const llvm::json::Array &Dirs = *(*J.getAsObject()->getArray("files"))[0]
                                       .getAsObject()
                                       ->getArray("sites")
                                       ->back()
                                       .getAsObject()
                                       ->getArray("directives");
  ASSERT_EQ(Dirs.size(), 3u);
  const llvm::json::Object &If = *Dirs[0].getAsObject();
  EXPECT_EQ(If.getInteger("line"), 3);
  EXPECT_EQ(If.getString("text"), "#if __CUDA_ARCH__ >= 800");
  EXPECT_EQ(strings(If.getArray("taken_by")).front(), "sm_80");
  EXPECT_EQ(If.getString("codegen"), "(int)__nvvm_arch >= 80");
  const llvm::json::Object &Else = *Dirs[1].getAsObject();
  EXPECT_EQ(strings(Else.getArray("taken_by")),
            (std::vector<std::string>{"host", "sm_75"}));
  ASSERT_NE(Else.get("codegen"), nullptr);
  EXPECT_EQ(*Else.get("codegen"), nullptr);
  EXPECT_EQ(If.getBoolean("kept"), false);
  const llvm::json::Object &Endif = *Dirs[2].getAsObject();
  EXPECT_EQ(Endif.get("taken_by"), nullptr);
  EXPECT_EQ(Endif.get("codegen"), nullptr);
  EXPECT_EQ(Endif.get("kept"), nullptr);
}

TEST(AuditPrinterTest, JsonNamesThisBuildsConditionWhereASiteHasOne) {
  std::vector<FileAudit> Files = sample();
  Site &Conv = Files[0].Sites.back();
  auto ThisBuild = [&]() -> std::optional<std::string> {
    llvm::json::Value J = json(Files);
    std::optional<llvm::StringRef> S =
        (*(*J.getAsObject()->getArray("files"))[0].getAsObject()->getArray(
             "sites"))
            .back()
            .getAsObject()
            ->getString("this_build");
    return S ? std::optional(S->str()) : std::nullopt;
  };
  EXPECT_EQ(ThisBuild(), std::nullopt);
  Conv.ThisBuild = "!defined(GGML_USE_HIP)";
  EXPECT_EQ(ThisBuild(), "!defined(GGML_USE_HIP)");
}

TEST(AuditPrinterTest, JsonSummaryCountsEveryCategory) {
  llvm::json::Value J = json(sample());
  const llvm::json::Object &Sum = *J.getAsObject()->getObject("summary");
  EXPECT_EQ(Sum.getInteger("files"), 2);
  EXPECT_EQ(Sum.getInteger("sites"), 3);
  EXPECT_EQ(Sum.getInteger("statement"), 1);
  EXPECT_EQ(Sum.getInteger("host-device-split"), 0);
  EXPECT_EQ(Sum.getInteger("value"), 0);
  EXPECT_EQ(Sum.getInteger("not-convertible"), 1);
  EXPECT_EQ(Sum.getInteger("constant"), 0);
  EXPECT_EQ(Sum.getInteger("hazard"), 1);
}

TEST(AuditPrinterTest, TextIsATablePerFileThenASummary) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printAuditText(OS, sample());
  EXPECT_EQ(Out, R"(k.cu
  LINES       CATEGORY          KIND         SITE / REASON
  1           not-convertible   macro-alias  #define ARCH __CUDA_ARCH__
                                             macro derived from __CUDA_ARCH__ (via BASE)
  3-7         statement         conditional  #if __CUDA_ARCH__ >= 800
                                             branch between statements of 'f'
                                             line 3: if codegen ((int)__nvvm_arch >= 80)
  2 sites: 1 statement, 1 not-convertible

h.cuh
  LINES       CATEGORY          KIND         SITE / REASON
  2           hazard            redefinition #undef __CUDA_ARCH__
                                             only nvcc may set it
  1 site: 1 hazard

summary: 3 sites: 1 statement, 1 not-convertible, 1 hazard in 2 files
what stays, by reason:
      1  hazard           only nvcc may set it
      1  not-convertible  macro derived from __CUDA_ARCH__
)");
}

TEST(AuditPrinterTest, TheSummaryCountsWhatStaysByReason) {
  auto Stays = [](std::string Reason) {
    Site S;
    S.Category = SiteCategory::NotConvertible;
    S.Reason = std::move(Reason);
    return S;
  };
  std::vector<FileAudit> Files = {
      {"a.cu",
       {Stays("inside the conditional at line 3, which stays: why"),
        Stays("inside the conditional at line 12, which stays: why"),
        Stays("declares 'x', used after the #endif; more")}},
      {"b.cuh", {Stays("declares 'y', used after the #endif; more")}}};
  Files[0].Sites.push_back(Site());
  Files[0].Sites.back().Category = SiteCategory::Value;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printSummary(OS, Files);
  EXPECT_EQ(Out, "summary: 5 sites: 1 value, 4 not-convertible in 2 files\n"
                 "what stays, by reason:\n"
                 "      2  not-convertible  declares '...', used after the "
                 "#endif\n"
                 "      2  not-convertible  inside the conditional at line N, "
                 "which stays\n");
}

TEST(AuditPrinterTest, AFileWithoutSitesIsListedAlone) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printAuditText(OS, {FileAudit{"k.cu", {}}});
  EXPECT_EQ(Out, "k.cu\n  0 sites\n\nsummary: 0 sites in 1 file\n");
}

TEST(AuditPrinterTest, KindAndCategoryNamesAreTheDocumentedOnes) {
  EXPECT_EQ(siteKindName(SiteKind::Conditional), "conditional");
  EXPECT_EQ(siteKindName(SiteKind::MacroAlias), "macro-alias");
  EXPECT_EQ(siteKindName(SiteKind::Redefinition), "redefinition");
  EXPECT_EQ(siteKindName(SiteKind::ValueUse), "value-use");
  std::vector<std::string> Names;
  for (SiteCategory C : SiteCategories)
    Names.push_back(categoryName(C).str());
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "statement", "host-device-split", "declaration",
                       "list-entry", "local-declaration", "macro-definition",
                       "value", "not-convertible", "constant", "hazard"}));
  EXPECT_TRUE(isConvertible(SiteCategory::Statement));
  EXPECT_TRUE(isConvertible(SiteCategory::HostDeviceSplit));
  EXPECT_TRUE(isConvertible(SiteCategory::Declaration));
  EXPECT_TRUE(isConvertible(SiteCategory::ListEntry));
  EXPECT_TRUE(isConvertible(SiteCategory::LocalDeclaration));
  EXPECT_TRUE(isConvertible(SiteCategory::MacroDefinition));
  EXPECT_FALSE(isConvertible(SiteCategory::Constant));
}

} // namespace
