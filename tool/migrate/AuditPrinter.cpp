//===- AuditPrinter.cpp ---------------------------------------------------===//
#include "migrate/AuditPrinter.h"
#include "migrate/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <map>

namespace metacu {

/// "3 sites: 2 statement, 1 hazard".
static std::string countLine(llvm::ArrayRef<const Site *> Sites) {
  std::string S =
      std::to_string(Sites.size()) + " site" + (Sites.size() == 1 ? "" : "s");
  std::vector<std::string> Parts;
  for (SiteCategory C : SiteCategories) {
    size_t N =
        llvm::count_if(Sites, [&](const Site *X) { return X->Category == C; });
    if (N)
      Parts.push_back(std::to_string(N) + " " + categoryName(C).str());
  }
  return Parts.empty() ? S : S + ": " + llvm::join(Parts, ", ");
}

/// A site's row, its reason and its 'if codegen' conditions.
static void printSiteRows(llvm::raw_ostream &OS, const Site &S) {
  std::string Lines = std::to_string(S.Line);
  if (S.EndLine != S.Line)
    Lines += "-" + std::to_string(S.EndLine);
  OS << llvm::formatv("  {0,-11} {1,-17} {2,-12} {3}\n", Lines,
                      categoryName(S.Category), siteKindName(S.Kind), S.Text);
  std::string Why = S.Reason;
  if (!S.Via.empty())
    Why += " (via " + llvm::join(S.Via, ", ") + ")";
  OS << llvm::formatv("  {0,-43}{1}\n", "", Why);
  for (const SiteDirective &D : S.Directives)
    if (!D.Codegen.empty())
      OS << llvm::formatv("  {0,-43}line {1}: if codegen ({2})\n", "", D.Line,
                          D.Codegen);
}

void printAuditText(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files) {
  std::vector<const Site *> All;
  for (const FileAudit &FA : Files) {
    OS << FA.Path << '\n';
    std::vector<const Site *> Mine;
    for (const Site &S : FA.Sites)
      Mine.push_back(&S);
    if (!Mine.empty())
      OS << llvm::formatv("  {0,-11} {1,-17} {2,-12} {3}\n", "LINES",
                          "CATEGORY", "KIND", "SITE / REASON");
    for (const Site *S : Mine)
      printSiteRows(OS, *S);
    OS << "  " << countLine(Mine) << "\n\n";
    llvm::append_range(All, Mine);
  }
  printSummary(OS, Files);
}

std::string reasonKind(llvm::StringRef Reason) {
  // The first clause says why; what follows a ':' or ';' explains it.
  Reason = Reason.take_front(Reason.find_first_of(":;"));
  std::string Kind;
  for (size_t I = 0; I < Reason.size(); ++I) {
    char C = Reason[I];
    if (C == '\'') {
      size_t Close = Reason.find('\'', I + 1);
      if (Close != llvm::StringRef::npos) {
        Kind += "'...'";
        I = Close;
        continue;
      }
    }
    if (llvm::isDigit(C)) {
      while (I + 1 < Reason.size() && llvm::isDigit(Reason[I + 1]))
        ++I;
      Kind += 'N';
      continue;
    }
    Kind += C;
  }
  return Kind;
}

void printSummary(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files) {
  std::vector<const Site *> All;
  std::map<std::pair<std::string, std::string>, unsigned> Stays;
  for (const FileAudit &FA : Files)
    for (const Site &S : FA.Sites) {
      All.push_back(&S);
      if (!isConvertible(S.Category))
        ++Stays[{categoryName(S.Category).str(), reasonKind(S.Reason)}];
    }
  OS << "summary: " << countLine(All) << " in " << Files.size() << " file"
     << (Files.size() == 1 ? "" : "s") << '\n';
  if (Stays.empty())
    return;
  // Most frequent first; ties in category and reason order.
  std::vector<std::pair<std::pair<std::string, std::string>, unsigned>> Rows(
      Stays.begin(), Stays.end());
  llvm::stable_sort(
      Rows, [](const auto &A, const auto &B) { return A.second > B.second; });
  OS << "what stays, by reason:\n";
  for (auto &[Key, N] : Rows)
    OS << llvm::formatv("  {0,5}  {1,-16} {2}\n", N, Key.first, Key.second);
}

namespace {

/// Writes the JSON of docs/audit-json.md, counting for the summary.
class JsonPrinter {
public:
  explicit JsonPrinter(llvm::raw_ostream &OS) : J(OS, 2) {}

  void print(llvm::ArrayRef<FileAudit> Files) {
    J.object([&] {
      J.attribute("version", 1);
      J.attributeBegin("passes");
      passes(AllPasses);
      J.attributeEnd();
      J.attributeArray("files", [&] {
        for (const FileAudit &FA : Files)
          file(FA);
      });
      J.attributeObject("summary", [&] {
        J.attribute("files", static_cast<int64_t>(Files.size()));
        J.attribute("sites", Count);
        for (SiteCategory C : SiteCategories)
          J.attribute(categoryName(C), Totals[C]);
      });
    });
  }

private:
  void passes(uint64_t Mask) {
    J.array([&] {
      for (unsigned P = 0; P < NumPasses; ++P)
        if (Mask >> P & 1)
          J.value(passName(P));
    });
  }

  void file(const FileAudit &FA) {
    J.object([&] {
      J.attribute("path", FA.Path);
      J.attributeArray("sites", [&] {
        for (const Site &S : FA.Sites)
          site(S);
      });
    });
  }

  void site(const Site &S) {
    ++Totals[S.Category];
    ++Count;
    J.object([&] {
      J.attribute("line", S.Line);
      J.attribute("column", S.Column);
      J.attribute("end_line", S.EndLine);
      J.attribute("kind", siteKindName(S.Kind));
      J.attribute("category", categoryName(S.Category));
      J.attribute("convertible", isConvertible(S.Category));
      J.attribute("text", S.Text);
      J.attributeArray("via", [&] {
        for (const std::string &V : S.Via)
          J.value(V);
      });
      J.attribute("reason", S.Reason);
      if (!S.ThisBuild.empty())
        J.attribute("this_build", S.ThisBuild);
      J.attributeArray("directives", [&] {
        for (const SiteDirective &D : S.Directives)
          directive(D);
      });
    });
  }

  void directive(const SiteDirective &D) {
    J.object([&] {
      J.attribute("line", D.Line);
      J.attribute("text", D.Text);
      if (D.IsEndif)
        return;
      J.attributeBegin("taken_by");
      passes(D.TakenBy);
      J.attributeEnd();
      if (D.Codegen.empty())
        J.attribute("codegen", nullptr);
      else
        J.attribute("codegen", D.Codegen);
      J.attribute("kept", D.Kept);
    });
  }

  llvm::json::OStream J;
  std::map<SiteCategory, unsigned> Totals;
  unsigned Count = 0;
};

} // namespace

void printAuditJson(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files) {
  JsonPrinter(OS).print(Files);
  OS << '\n';
}

} // namespace metacu
