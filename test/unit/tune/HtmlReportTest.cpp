//===- HtmlReportTest.cpp - The self-contained HTML report ----------------===//
#include "tune/HtmlReport.h"
#include "TuneTestData.h"

#include "llvm/ADT/StringExtras.h"
#include <gtest/gtest.h>

using namespace metacu::tune;

namespace {

/// Whether \p Html is well-formed as XML: tags nest and close, attribute
/// values are quoted, and '&' starts one of the five XML entities or a
/// numeric one. Returns what is wrong, or "" when nothing is.
std::string wellFormed(llvm::StringRef Html) {
  std::vector<std::string> Open;
  size_t I = 0;
  while (I < Html.size()) {
    char C = Html[I];
    if (C == '&') {
      size_t End = Html.find(';', I);
      llvm::StringRef Entity = Html.slice(I, End + 1);
      if (End == llvm::StringRef::npos ||
          !(llvm::is_contained({"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"},
                               Entity) ||
            Entity.starts_with("&#")))
        return "bad entity at " + std::to_string(I);
      I = End + 1;
      continue;
    }
    if (C == '>')
      return "stray '>' at " + std::to_string(I);
    if (C != '<') {
      ++I;
      continue;
    }
    size_t End = Html.find('>', I);
    if (End == llvm::StringRef::npos)
      return "unclosed tag at " + std::to_string(I);
    llvm::StringRef Tag = Html.slice(I + 1, End);
    I = End + 1;
    if (Tag.starts_with("!DOCTYPE"))
      continue;
    if (Tag.contains('<'))
      return "'<' inside tag " + Tag.str();
    if (Tag.count('"') % 2)
      return "unbalanced quotes in " + Tag.str();
    if (Tag.consume_front("/")) {
      if (Open.empty() || Open.back() != Tag)
        return "</" + Tag.str() + "> closes " +
               (Open.empty() ? "nothing" : "<" + Open.back() + ">");
      Open.pop_back();
      continue;
    }
    if (Tag.ends_with("/"))
      continue;
    Open.push_back(Tag.take_until([](char C) { return C == ' '; }).str());
  }
  return Open.empty() ? "" : "<" + Open.back() + "> never closed";
}

struct BowlRun {
  test::Bowl B = test::bowl();
  RunInfo Info;
  TuneResult Run;
};

BowlRun bowlRun(size_t Budget) {
  BowlRun R;
  R.Info.Kernel = "bowl";
  R.Info.Where = {"sm_86", "Test GPU"};
  R.Info.Limit.Evaluations = Budget;
  R.Info.Date = "2026-11-23";
  TuneOptions O;
  O.Strategy = "brute_force";
  O.Evaluation.Limit = R.Info.Limit;
  R.Run = llvm::cantFail(runTuning(R.B.Space, *R.B.Runner, O));
  return R;
}

} // namespace

TEST(HtmlReportTest, CheckerCatchesMistakes) {
  EXPECT_EQ(wellFormed("<p><b>x</b></p>"), "");
  EXPECT_NE(wellFormed("<p><b>x</p></b>"), "");
  EXPECT_NE(wellFormed("<p>a < b</p>"), "");
  EXPECT_NE(wellFormed("<p>a & b</p>"), "");
  EXPECT_NE(wellFormed("<p>"), "");
}

TEST(HtmlReportTest, WellFormedSelfContainedWithEveryEvaluationPlotted) {
  BowlRun R = bowlRun(40);
  std::string Html = renderHtmlReport(R.Info, R.B.Space, R.Run, 5);
  EXPECT_EQ(wellFormed(Html), "");
  EXPECT_TRUE(llvm::StringRef(Html).starts_with("<!DOCTYPE html>"));
  // Nothing to run and nothing to fetch.
  EXPECT_EQ(Html.find("<script"), std::string::npos);
  EXPECT_EQ(Html.find("src="), std::string::npos);
  EXPECT_EQ(Html.find("href="), std::string::npos);

  // One point per evaluation in the best-so-far plot, valid or not, with
  // what it was.
  for (size_t I = 0; I < R.Run.Trace.size(); ++I)
    EXPECT_NE(Html.find("<title>evaluation " + std::to_string(I + 1) + ": "),
              std::string::npos)
        << I;
  // Brute force visits x=1 y=8 (it failed to compile) within 40.
  EXPECT_NE(Html.find("compile: CompilationFailedConfig, x=1 y=8 z=0"),
            std::string::npos);
  // The staircase improves once per new best, each marked.
  auto Best = R.Run.Trace;
  size_t Improvements = 0;
  std::optional<double> Current;
  for (const Evaluation &E : Best)
    if (E.M.valid() && (!Current || E.M.Objective < *Current)) {
      Current = E.M.Objective;
      ++Improvements;
    }
  EXPECT_EQ(llvm::StringRef(Html).count("<circle class=\"improve\""),
            Improvements);
  EXPECT_EQ(llvm::StringRef(Html).count("<path class=\"best\""), 1u);
  // A plot per parameter with a best and a median per value seen.
  EXPECT_EQ(llvm::StringRef(Html).count("<figcaption>"), 3u);
  EXPECT_NE(Html.find("<title>x=1: best "), std::string::npos);
  EXPECT_NE(Html.find("<title>z=1: best "), std::string::npos);

  // The metadata and the table.
  EXPECT_NE(Html.find("<th>strategy</th><td>brute_force</td>"),
            std::string::npos);
  EXPECT_NE(Html.find("<th>architecture</th><td>sm_86</td>"),
            std::string::npos);
  EXPECT_NE(Html.find("<th>budget</th><td>40 evaluations</td>"),
            std::string::npos);
  EXPECT_NE(Html.find("<th>metacu</th><td>" + metacuVersion().str()),
            std::string::npos);
  EXPECT_EQ(llvm::StringRef(Html).count("<tr class=\"best\">"), 1u);
  EXPECT_NE(Html.find("The 5 best of "), std::string::npos);
  EXPECT_NE(Html.find("<h2>Invalid configurations</h2>"), std::string::npos);
}

TEST(HtmlReportTest, EscapesWhatItQuotes) {
  std::vector<Parameter> Params{
      {"a<b", {Value::string("x&y"), Value::string("\"q\"")}},
      {"fixed", {Value::integer(1)}}};
  SearchSpace S = llvm::cantFail(SearchSpace::restricted(
      Params, [](llvm::ArrayRef<uint32_t>) { return true; }));
  TuneResult Run;
  Run.Strategy = "ils";
  Evaluation Good;
  Good.Config = 0;
  Good.M.Objective = 2;
  Evaluation Bad;
  Bad.Config = 1;
  Bad.M.Status = Validity::Compile;
  Bad.M.Reason = "error: '<' expected \x1b[0m";
  Run.Trace = {Good, Bad};
  RunInfo Info;
  Info.Kernel = "conv<float, 'k'>";
  Info.Where.Device = "GPU & co\x01";
  std::string Html = renderHtmlReport(Info, S, Run);
  EXPECT_EQ(wellFormed(Html), "");
  // XML has no place for control characters, not even as references.
  EXPECT_EQ(Html.find_first_of("\x01\x1b"), std::string::npos);
  EXPECT_NE(Html.find("GPU &amp; co\xEF\xBF\xBD"), std::string::npos);
  EXPECT_NE(Html.find("conv&lt;float, &#39;k&#39;&gt;"), std::string::npos);
  EXPECT_NE(Html.find("GPU &amp; co"), std::string::npos);
  EXPECT_NE(Html.find("a&lt;b=x&amp;y"), std::string::npos);
  EXPECT_NE(Html.find("&quot;q&quot;"), std::string::npos);
  EXPECT_NE(Html.find("error: &#39;&lt;&#39; expected"), std::string::npos);
  // A parameter with one value has no effect to plot; it is listed.
  EXPECT_EQ(llvm::StringRef(Html).count("<figcaption>"), 1u);
  EXPECT_NE(Html.find("Fixed: <code>fixed=1</code>"), std::string::npos);
}

TEST(HtmlReportTest, NoValidConfiguration) {
  BowlRun R = bowlRun(1);
  for (Evaluation &E : R.Run.Trace)
    E.M.Status = Validity::Runtime;
  std::string Html = renderHtmlReport(R.Info, R.B.Space, R.Run);
  EXPECT_EQ(wellFormed(Html), "");
  EXPECT_NE(Html.find("No valid configuration was found in 1 evaluations."),
            std::string::npos);
  EXPECT_EQ(Html.find("<svg"), std::string::npos);
}
