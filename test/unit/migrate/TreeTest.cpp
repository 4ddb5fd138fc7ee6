//===- TreeTest.cpp - A whole source tree for audit and migrate -----------===//
#include "migrate/Tree.h"
#include "TempDir.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"
#include <atomic>
#include <map>
#include <mutex>
#include <sys/stat.h>

using namespace metacu;

namespace {

TEST(SourceTreeTest, DirectoriesGiveTheirSourcesInNameOrder) {
  TempDir Tmp;
  Tmp.write("src/kernels/b.cu", "");
  Tmp.write("src/kernels/a.cu", "");
  Tmp.write("src/common/x.cuh", "");
  Tmp.write("src/common/notes.txt", "");
  std::string Extra = Tmp.write("other/y.h", "");
  auto T = SourceTree::collect(
      {Tmp.path("src"), Extra, Tmp.path("src/kernels/a.cu")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  std::vector<std::string> Want = {Tmp.path("src/common/x.cuh"),
                                   Tmp.path("src/kernels/a.cu"),
                                   Tmp.path("src/kernels/b.cu"), Extra};
  EXPECT_EQ(std::vector<std::string>(T->files().begin(), T->files().end()),
            Want); // a.cu once, the .txt not at all
  EXPECT_EQ(T->units(),
            (std::vector<std::string>{Tmp.path("src/kernels/a.cu"),
                                      Tmp.path("src/kernels/b.cu")}));
  // However the preprocessor spells it.
  EXPECT_TRUE(T->contains(Tmp.path("src/kernels/../common/x.cuh")));
  EXPECT_EQ(T->nameOf(Tmp.path("src/kernels/../common/x.cuh")),
            Tmp.path("src/common/x.cuh"));
  EXPECT_FALSE(T->contains(Tmp.path("src/common/notes.txt")));
  // Below the common directory of every file.
  EXPECT_EQ(T->relative(Tmp.path("src/kernels/a.cu")), "src/kernels/a.cu");
  EXPECT_EQ(T->relative(Extra), "other/y.h");
}

TEST(SourceTreeTest, AMissingFileIsKeptForItsAuditToReport) {
  TempDir Tmp;
  auto T = SourceTree::collect({Tmp.path("absent.cu")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->units(), std::vector<std::string>{Tmp.path("absent.cu")});
  EXPECT_FALSE(T->contains(Tmp.path("absent.cu")));
}

TEST(SourceTreeTest, LinksAreFollowedButEachDirectoryEnteredOnce) {
  TempDir Tmp;
  Tmp.write("src/a.cu", "");
  Tmp.write("lib/b.cuh", "");
  // A link back to an ancestor, one to a sibling directory, and one to
  // nothing: the walk ends, b.cuh is found once (under its first name),
  // and the dangling link stays for its audit to report.
  ASSERT_FALSE(llvm::sys::fs::create_link(Tmp.path("src"), Tmp.path("src/up")));
  ASSERT_FALSE(
      llvm::sys::fs::create_link(Tmp.path("lib"), Tmp.path("src/lib")));
  ASSERT_FALSE(llvm::sys::fs::create_link(Tmp.path("src/none.cu"),
                                          Tmp.path("src/gone.cu")));
  auto T = SourceTree::collect({Tmp.path("src"), Tmp.path("lib")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(
      std::vector<std::string>(T->files().begin(), T->files().end()),
      (std::vector<std::string>{Tmp.path("src/a.cu"), Tmp.path("src/gone.cu"),
                                Tmp.path("src/lib/b.cuh")}));
}

TEST(SourceTreeTest, ALinkOutOfTheTreeIsReportedNotFollowed) {
  TempDir Tmp;
  Tmp.write("proj/k.cu", "");
  Tmp.write("lib/util.cuh", "");
  Tmp.write("lib/other.cuh", "");
  ASSERT_FALSE(
      llvm::sys::fs::create_link(Tmp.path("lib"), Tmp.path("proj/ext")));
  ASSERT_FALSE(llvm::sys::fs::create_link(Tmp.path("lib/other.cuh"),
                                          Tmp.path("proj/other.cuh")));
  auto T = SourceTree::collect({Tmp.path("proj")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  // The library's headers are no files of the tree: migrate never writes
  // them, however the #include reaches them.
  EXPECT_EQ(std::vector<std::string>(T->files().begin(), T->files().end()),
            std::vector<std::string>{Tmp.path("proj/k.cu")});
  EXPECT_FALSE(T->contains(Tmp.path("proj/ext/util.cuh")));
  ASSERT_EQ(T->outside().size(), 2u);
  EXPECT_EQ(T->outside()[0].Path, Tmp.path("proj/ext"));
  EXPECT_EQ(T->outside()[1].Path, Tmp.path("proj/other.cuh"));
}

TEST(SourceTreeTest, AFileUnderSeveralNamesGoesByTheOneThatIsNoLink) {
  TempDir Tmp;
  Tmp.write("src/real.cuh", "");
  ASSERT_FALSE(llvm::sys::fs::create_link(Tmp.path("src/real.cuh"),
                                          Tmp.path("src/alias.cuh")));
  auto T = SourceTree::collect({Tmp.path("src")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(std::vector<std::string>(T->files().begin(), T->files().end()),
            std::vector<std::string>{Tmp.path("src/real.cuh")});
  EXPECT_EQ(T->nameOf(Tmp.path("src/alias.cuh")), Tmp.path("src/real.cuh"));
}

TEST(SourceTreeTest, TheRootHoldingAnOutputFolder) {
  TempDir Tmp;
  Tmp.write("src/k.cu", "");
  Tmp.write("out/x", "");
  ASSERT_FALSE(llvm::sys::fs::create_link(Tmp.path("src"), Tmp.path("alias")));
  auto T = SourceTree::collect({Tmp.path("src")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_TRUE(T->rootHolding(Tmp.path("src")));
  EXPECT_TRUE(T->rootHolding(Tmp.path("src/new/deeper"))); // not there yet
  EXPECT_TRUE(T->rootHolding(Tmp.path("alias/new")));      // through a link
  EXPECT_TRUE(T->rootHolding(Tmp.path("out/../src")));
  EXPECT_FALSE(T->rootHolding(Tmp.path("out")));
  EXPECT_FALSE(T->rootHolding(Tmp.path("srcx")));
}

TEST(SourceTreeTest, APipeNamedLikeASourceIsKeptForItsAuditToRefuse) {
  TempDir Tmp;
  Tmp.write("src/a.cu", "");
  ASSERT_EQ(mkfifo(Tmp.path("src/p.cu").c_str(), 0600), 0);
  auto T = SourceTree::collect({Tmp.path("src")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->units(), (std::vector<std::string>{Tmp.path("src/a.cu"),
                                                  Tmp.path("src/p.cu")}));
}

TEST(SourceTreeTest, ExtensionlessHeadersAreFoundByTheirFirstDirective) {
  // Eigen's `Eigen/Core` and libcu++'s `cuda/std/atomic`: a library's
  // umbrella headers often have no extension, and its other headers are
  // only read through them.
  TempDir Tmp;
  std::string Core = Tmp.write("lib/Core", "// License.\n/* More. */\n"
                                           "#ifndef LIB_CORE\n#endif\n"),
              Dense = Tmp.write("lib/Dense", "#include \"Core\"\n"),
              Inner = Tmp.write("lib/src/inner.h", "");
  Tmp.write("lib/README", "A library.\n");
  Tmp.write("lib/Makefile", "# Builds the tests.\nall:\n");
  Tmp.write("lib/run", "#!/bin/sh\n");
  Tmp.write("lib/EMPTY", "");
  Tmp.write("lib/notes.txt", "#include <x>\n");
  auto T = SourceTree::collect({Tmp.path("lib")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(std::vector<std::string>(T->files().begin(), T->files().end()),
            (std::vector<std::string>{Core, Dense, Inner}));
  EXPECT_TRUE(T->units().empty());
}

/// A site at \p Offset of category \p C with one 'if codegen' condition.
Site site(unsigned Offset, SiteCategory C, std::string Codegen) {
  Site S;
  S.Offset = Offset;
  S.Line = Offset;
  S.Category = C;
  S.Reason = "why";
  SiteDirective D;
  D.Codegen = std::move(Codegen);
  S.Directives = {D, SiteDirective()};
  return S;
}

std::string same(llvm::StringRef P) { return P.str(); }

TEST(MergeAuditsTest, EachFileAndSiteOnce) {
  std::vector<std::pair<std::string, std::vector<FileAudit>>> Units = {
      {"a.cu",
       {{"a.cu", {}},
        {"h.cuh",
         {site(9, SiteCategory::Statement, "x"),
          site(3, SiteCategory::Constant, "")}}}},
      {"b.cu",
       {{"b.cu", {site(1, SiteCategory::Statement, "y")}},
        {"h.cuh", {site(9, SiteCategory::Statement, "x")}}}}};
  Units[1].second.push_back({"quiet.cuh", {}});
  std::set<std::string> Reached;
  std::vector<FileAudit> M = mergeAudits(Units, same, &Reached);
  // A header without sites is reached, not listed.
  EXPECT_EQ(Reached,
            (std::set<std::string>{"a.cu", "b.cu", "h.cuh", "quiet.cuh"}));
  ASSERT_EQ(M.size(), 3u);
  EXPECT_EQ(M[0].Path, "a.cu");
  EXPECT_EQ(M[1].Path, "h.cuh");
  EXPECT_EQ(M[2].Path, "b.cu");
  ASSERT_EQ(M[1].Sites.size(), 2u);
  EXPECT_EQ(M[1].Sites[0].Offset, 3u); // in file order
  EXPECT_EQ(M[1].Sites[1].Category, SiteCategory::Statement);
  EXPECT_EQ(M[1].Sites[1].Directives[0].Codegen, "x");
}

TEST(MergeAuditsTest, ASiteTheUnitsSeeDifferentlyStays) {
  std::vector<std::pair<std::string, std::vector<FileAudit>>> Units = {
      {"a.cu", {{"h.cuh", {site(9, SiteCategory::Statement, "x")}}}},
      {"b.cu", {{"h.cuh", {site(9, SiteCategory::Statement, "z")}}}}};
  std::vector<FileAudit> M = mergeAudits(Units, same);
  ASSERT_EQ(M.size(), 1u);
  const Site &S = M[0].Sites.front();
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S.Directives[0].Codegen, "");
  EXPECT_EQ(S.Reason.find("the files that include it see it differently: "
                          "statement in a.cu"),
            0u)
      << S.Reason;
  EXPECT_NE(S.Reason.find("statement in b.cu"), std::string::npos);
}

TEST(MergeAuditsTest, TheBranchesEveryUnitCompilesAreKept) {
  // Not convertible in both units, so the verdicts agree; the passes that
  // compile each branch are those of both.
  Site A = site(9, SiteCategory::NotConvertible, "");
  Site B = A;
  A.Directives[0].TakenBy = A.Reached = 0b10;
  B.Directives[0].TakenBy = B.Reached = 0b100;
  std::vector<std::pair<std::string, std::vector<FileAudit>>> Units = {
      {"a.cu", {{"h.cuh", {A}}}}, {"b.cu", {{"h.cuh", {B}}}}};
  std::vector<FileAudit> M = mergeAudits(Units, same);
  ASSERT_EQ(M.size(), 1u);
  EXPECT_EQ(M[0].Sites.front().Directives[0].TakenBy, 0b110u);
  EXPECT_EQ(M[0].Sites.front().Reached, 0b110u);
}

TEST(AuditUnitsTest, TheResultDoesNotDependOnTheJobs) {
  std::vector<std::string> Units = {"a.cu", "bad.cu", "c.cu", "d.cu"};
  std::atomic<unsigned> Calls{0};
  AuditOneFn One =
      [&](llvm::StringRef U) -> llvm::Expected<std::vector<FileAudit>> {
    ++Calls;
    if (U == "bad.cu")
      return llvm::createStringError("cannot read bad.cu");
    return std::vector<FileAudit>{
        {U.str(), {site(1, SiteCategory::Statement, "x")}},
        {"h.cuh", {site(2, SiteCategory::Value, "")}}};
  };
  TreeAudit One1 = auditUnits(Units, One, 1, same);
  TreeAudit Four = auditUnits(Units, One, 4, same);
  EXPECT_EQ(Calls, 8u);
  ASSERT_EQ(One1.Errors.size(), 1u);
  ASSERT_EQ(Four.Errors.size(), 1u);
  EXPECT_EQ(llvm::toString(std::move(Four.Errors[0])), "cannot read bad.cu");
  llvm::consumeError(std::move(One1.Errors[0]));
  ASSERT_EQ(Four.Files.size(), One1.Files.size());
  for (size_t I = 0; I < Four.Files.size(); ++I)
    EXPECT_EQ(Four.Files[I].Path, One1.Files[I].Path);
  EXPECT_EQ(Four.Files.size(), 4u); // a.cu, h.cuh, c.cu, d.cu
}

/// An audit that records the files it is asked for: each gives the audits
/// \p Reaches names for it (by default the file alone, with a site at 5).
struct RecordingAudit {
  std::map<std::string, std::vector<FileAudit>> Reaches;
  std::vector<std::string> Calls;
  std::mutex M;

  AuditOneFn fn() {
    return [this](llvm::StringRef F) -> llvm::Expected<std::vector<FileAudit>> {
      std::lock_guard<std::mutex> Lock(M);
      Calls.push_back(F.str());
      if (auto It = Reaches.find(F.str()); It != Reaches.end())
        return It->second;
      return std::vector<FileAudit>{
          {F.str(), {site(5, SiteCategory::Statement, "y")}}};
    };
  }
  std::vector<std::string> sortedCalls() {
    llvm::sort(Calls);
    return Calls;
  }
};

std::vector<std::string> pathsOf(const TreeAudit &A) {
  std::vector<std::string> Paths;
  for (const FileAudit &FA : A.Files)
    Paths.push_back(FA.Path);
  return Paths;
}

TEST(AuditTreeTest, AHeaderOnlyTreeIsReadHeaderByHeaderShallowFirst) {
  TempDir Tmp;
  std::string Top = Tmp.write("lib/top.cuh", ""),
              A = Tmp.write("lib/detail/a.cuh", ""),
              B = Tmp.write("lib/detail/b.cuh", ""),
              C = Tmp.write("lib/detail/c.cuh", "");
  auto T = SourceTree::collect({Tmp.path("lib")});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  // top.cuh includes a.cuh; b.cuh includes c.cuh, whose site b.cuh's
  // macros change.
  RecordingAudit R;
  R.Reaches[Top] = {{Top, {}}, {A, {}}};
  R.Reaches[B] = {{B, {}}, {C, {site(7, SiteCategory::Statement, "x")}}};
  TreeAudit Audit = auditTree(*T, R.fn(), 2);
  // a.cuh is read through top.cuh only; c.cuh, as deep as b.cuh, is read
  // alone too, and its own reading is dropped for b.cuh's.
  EXPECT_EQ(R.sortedCalls(), (std::vector<std::string>{B, C, Top}));
  EXPECT_TRUE(Audit.Errors.empty());
  EXPECT_EQ(pathsOf(Audit), (std::vector<std::string>{Top, B, C}));
  ASSERT_EQ(Audit.Files[2].Sites.size(), 1u);
  EXPECT_EQ(Audit.Files[2].Sites[0].Offset, 7u);
}

TEST(AuditTreeTest, BesideCuFilesOnlyTheHeadersNamedAreReadAlone) {
  TempDir Tmp;
  std::string Unit = Tmp.write("src/k.cu", ""),
              Used = Tmp.write("src/used.cuh", ""),
              Unused = Tmp.write("src/unused.cuh", ""),
              Named = Tmp.write("other/named.cuh", "");
  auto T = SourceTree::collect({Tmp.path("src"), Named});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  RecordingAudit R;
  R.Reaches[Unit] = {{Unit, {}}, {Used, {}}};
  TreeAudit Audit = auditTree(*T, R.fn(), 1);
  EXPECT_EQ(R.sortedCalls(), (std::vector<std::string>{Named, Unit}));
  EXPECT_EQ(pathsOf(Audit), (std::vector<std::string>{Unit, Named}));
  EXPECT_FALSE(Audit.Reached.count(Unused));
}

TEST(AuditTreeTest, TheSitesOfAFileWhereThePreprocessorStoppedAreLeftOut) {
  TempDir Tmp;
  std::string A = Tmp.write("a.cu", ""), B = Tmp.write("b.cu", ""),
              H = Tmp.write("h.cuh", "");
  auto T = SourceTree::collect({A, B, H});
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  AuditOneFn One =
      [&](llvm::StringRef F) -> llvm::Expected<std::vector<FileAudit>> {
    if (F == A)
      return llvm::make_error<SourceError>(H, LineCol{3, 2}, std::nullopt,
                                           "#else after #else");
    return std::vector<FileAudit>{{F.str(), {}},
                                  {H, {site(5, SiteCategory::Statement, "x")}}};
  };
  TreeAudit Audit = auditTree(*T, One, 1);
  ASSERT_EQ(Audit.Errors.size(), 1u);
  EXPECT_NE(llvm::toString(std::move(Audit.Errors[0])).find("h.cuh:3:2"),
            std::string::npos);
  EXPECT_EQ(Audit.Failed, std::set<std::string>{A});
  ASSERT_EQ(Audit.Files.size(), 1u);
  EXPECT_EQ(Audit.Files[0].Path, B);
}

} // namespace
