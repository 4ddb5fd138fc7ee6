//===- Summary.cpp - What a run found, as a table and as statistics -------===//
#include "Summary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace metacu::tune;

std::vector<size_t> metacu::tune::rankValid(llvm::ArrayRef<Evaluation> Trace,
                                            const Metric &M) {
  std::vector<size_t> Ranked;
  for (size_t I = 0; I < Trace.size(); ++I)
    if (Trace[I].M.valid())
      Ranked.push_back(I);
  std::stable_sort(Ranked.begin(), Ranked.end(), [&](size_t A, size_t B) {
    return M.better(Trace[A].M.Objective, Trace[B].M.Objective);
  });
  return Ranked;
}

std::vector<std::optional<double>>
metacu::tune::bestSoFar(llvm::ArrayRef<Evaluation> Trace, const Metric &M) {
  std::vector<std::optional<double>> Best;
  std::optional<double> Current;
  for (const Evaluation &E : Trace) {
    if (E.M.valid() && (!Current || M.better(E.M.Objective, *Current)))
      Current = E.M.Objective;
    Best.push_back(Current);
  }
  return Best;
}

std::vector<InvalidGroup>
metacu::tune::invalidGroups(llvm::ArrayRef<Evaluation> Trace) {
  std::vector<InvalidGroup> Groups;
  for (Validity V :
       {Validity::Constraints, Validity::Compile, Validity::Runtime,
        Validity::Correctness, Validity::Timeout}) {
    InvalidGroup G;
    G.Status = V;
    llvm::StringMap<size_t> Counts;
    std::vector<std::string> Order;
    for (const Evaluation &E : Trace) {
      if (E.M.Status != V)
        continue;
      ++G.Count;
      // A compiler's or driver's message can run to many lines; the first
      // says what it is.
      llvm::StringRef Reason =
          llvm::StringRef(E.M.Reason).split('\n').first.trim();
      if (Reason.empty())
        continue;
      if (Counts[Reason]++ == 0)
        Order.push_back(Reason.str());
    }
    if (!G.Count)
      continue;
    for (std::string &R : Order)
      G.Reasons.emplace_back(R, Counts[R]);
    std::stable_sort(
        G.Reasons.begin(), G.Reasons.end(),
        [](const auto &A, const auto &B) { return A.second > B.second; });
    Groups.push_back(std::move(G));
  }
  return Groups;
}

std::string metacu::tune::formatChange(double V, double Reference) {
  double Percent = (V - Reference) / Reference * 100;
  return llvm::formatv("{0}{1:f2}%", Percent < 0 ? "-" : "+",
                       std::fabs(Percent));
}

/// Columns separated by two spaces, each aligned left or right, the header
/// first.
static void printTable(llvm::raw_ostream &OS,
                       const std::vector<std::vector<std::string>> &Rows,
                       const std::vector<bool> &RightAligned) {
  std::vector<size_t> Width(Rows.front().size());
  for (const auto &Row : Rows)
    for (size_t C = 0; C < Row.size(); ++C)
      Width[C] = std::max(Width[C], Row[C].size());
  for (const auto &Row : Rows) {
    std::string Line = " ";
    for (size_t C = 0; C < Row.size(); ++C) {
      std::string Pad(Width[C] - Row[C].size(), ' ');
      Line += "  " + (RightAligned[C] ? Pad + Row[C] : Row[C] + Pad);
    }
    OS << llvm::StringRef(Line).rtrim() << '\n';
  }
}

void metacu::tune::printSummary(llvm::raw_ostream &OS, const SummaryRows &Rows,
                                const SearchSpace &Space,
                                llvm::ArrayRef<Evaluation> Trace,
                                const Metric &M, unsigned Top) {
  auto Row = [&](llvm::StringRef Label, llvm::StringRef Text) {
    OS << llvm::formatv("  {0,-22} {1}\n", Label, Text);
  };
  for (const auto &[Label, Text] : Rows)
    Row(Label, Text);
  std::vector<size_t> Ranked = rankValid(Trace, M);
  if (Ranked.empty()) {
    Row("best", "no valid configuration found");
  } else {
    const Evaluation &Best = Trace[Ranked.front()];
    Row("best configuration", Space.describe(Best.Config));
    Row("best " + M.Name, M.format(Best.M.Objective) + " (evaluation " +
                              std::to_string(Ranked.front() + 1) + ")");
  }

  if (Top && !Ranked.empty()) {
    size_t Shown = std::min<size_t>(Top, Ranked.size());
    OS << "top " << Shown << " of " << Ranked.size()
       << " valid configurations\n";
    std::vector<std::string> Header{
        "rank", M.Unit.empty() ? M.Name : M.Name + " (" + M.Unit + ")",
        "vs best", "eval"};
    std::vector<bool> Right{true, true, true, true};
    for (const Parameter &P : Space.parameters()) {
      Header.push_back(P.Name);
      Right.push_back(false);
    }
    std::vector<std::vector<std::string>> Table{Header};
    double BestObjective = Trace[Ranked.front()].M.Objective;
    for (size_t R = 0; R < Shown; ++R) {
      const Evaluation &E = Trace[Ranked[R]];
      std::string Gap = R == 0 || BestObjective == 0
                            ? ""
                            : formatChange(E.M.Objective, BestObjective);
      std::vector<std::string> Line{std::to_string(R + 1),
                                    M.format(E.M.Objective, false), Gap,
                                    std::to_string(Ranked[R] + 1)};
      for (unsigned P = 0; P < Space.parameters().size(); ++P)
        Line.push_back(Space.value(E.Config, P).str());
      Table.push_back(std::move(Line));
    }
    printTable(OS, Table, Right);
  }

  std::vector<InvalidGroup> Groups = invalidGroups(Trace);
  if (Groups.empty())
    return;
  size_t Invalid = 0;
  for (const InvalidGroup &G : Groups)
    Invalid += G.Count;
  OS << "invalid: " << Invalid << " of " << Trace.size() << " evaluations\n";
  // The most frequent reasons say what limits the space; a long tail of
  // distinct compiler messages would bury the table.
  constexpr size_t MaxReasons = 3;
  for (const InvalidGroup &G : Groups) {
    std::string Head =
        llvm::formatv("  {0,-12} {1,5}", t4Name(G.Status), G.Count);
    if (G.Reasons.empty()) {
      OS << Head << '\n';
      continue;
    }
    for (size_t I = 0; I < std::min(G.Reasons.size(), MaxReasons); ++I)
      OS << (I ? std::string(Head.size(), ' ') : Head) << "  "
         << G.Reasons[I].first << " (" << G.Reasons[I].second << ")\n";
    if (G.Reasons.size() > MaxReasons)
      OS << std::string(Head.size(), ' ') << "  and "
         << G.Reasons.size() - MaxReasons << " other reasons\n";
  }
}
