//===- Sizes.cpp - Tuning per problem size --------------------------------===//
#include "Sizes.h"
#include "Summary.h"

#include <metacu/select.h>

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <numeric>

using namespace metacu::tune;

std::vector<SizeRun> metacu::tune::sizeRuns(const BundleResults &B) {
  std::vector<SizeRun> Runs(B.Declared.Sizes.size());
  for (size_t K = 0; K < Runs.size(); ++K) {
    Runs[K].Size = B.Declared.Sizes[K];
    Runs[K].Run.Strategy = B.Options.Strategy;
  }
  double Seconds = 0;
  for (size_t I = 0; I < B.Results.size(); ++I) {
    Seconds += B.Results[I].second.totalMs() / 1000;
    for (size_t K = 0; K < Runs.size(); ++K)
      Runs[K].Run.Trace.push_back(
          {B.Results[I].first, B.PerSize[I][K], false, Seconds});
  }
  for (SizeRun &R : Runs) {
    auto Ranked = rankValid(R.Run.Trace, B.Declared.Objective);
    if (!Ranked.empty())
      R.Run.Best = R.Run.Trace[Ranked.front()].Config;
  }
  return Runs;
}

static std::vector<long long> asLongLong(llvm::ArrayRef<int64_t> Size) {
  return std::vector<long long>(Size.begin(), Size.end());
}

std::optional<std::vector<SizeRange>>
metacu::tune::servedRanges(llvm::ArrayRef<std::vector<int64_t>> Sizes) {
  std::vector<std::vector<long long>> Tuned;
  for (const std::vector<int64_t> &S : Sizes) {
    if (S.size() != 1)
      return std::nullopt;
    Tuned.push_back(asLongLong(S));
  }
  // The smallest problem each size serves, found with the program's own
  // rule (one dimension: the choice only moves up as the problem grows).
  auto Serves = [&](long long N) { return metacu::nearest_size(Tuned, {N}); };
  std::vector<size_t> Order(Sizes.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::sort(Order, [&](size_t A, size_t B) { return Tuned[A] < Tuned[B]; });
  std::vector<SizeRange> Ranges(Sizes.size());
  for (size_t R = 1; R < Order.size(); ++R) {
    long long Lo = Tuned[Order[R - 1]][0], Hi = Tuned[Order[R]][0];
    // The first problem in (Lo, Hi] that the upper size serves.
    while (Lo + 1 < Hi) {
      long long Mid = Lo + (Hi - Lo) / 2;
      (Serves(Mid) == Order[R] ? Hi : Lo) = Mid;
    }
    Ranges[Order[R]].From = Hi;
    Ranges[Order[R - 1]].To = Hi - 1;
  }
  return Ranges;
}

/// How \p V compares with \p Best, as a fraction at most 1: the share of
/// the best rate, or the best time over this one.
static double relative(const Metric &M, double V, double Best) {
  return M.Maximize ? V / Best : Best / V;
}

SizeAnalysis metacu::tune::analyseSizes(const Metric &M,
                                        llvm::ArrayRef<SizeRun> Runs) {
  SizeAnalysis A;
  std::vector<size_t> Order(Runs.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(
      Order, [&](size_t X, size_t Y) { return Runs[X].Size < Runs[Y].Size; });
  std::vector<std::vector<int64_t>> Sizes;
  for (size_t K : Order)
    Sizes.push_back(Runs[K].Size);
  auto Ranges = servedRanges(Sizes);
  // Each size's objective of each configuration it measured validly.
  std::vector<llvm::DenseMap<uint32_t, double>> At(Order.size());
  for (size_t R = 0; R < Order.size(); ++R) {
    const SizeRun &Run = Runs[Order[R]];
    SizeRow Row;
    Row.Size = Run.Size;
    if (Ranges)
      Row.Serves = (*Ranges)[R];
    for (const Evaluation &E : Run.Run.Trace)
      if (E.M.valid())
        At[R][E.Config] = E.M.Objective;
    auto Ranked = rankValid(Run.Run.Trace, M);
    if (!Ranked.empty()) {
      Row.Best = Run.Run.Trace[Ranked.front()].Config;
      Row.BestObjective = Run.Run.Trace[Ranked.front()].M.Objective;
    }
    A.Rows.push_back(std::move(Row));
  }
  // The configuration valid at every size with the best geometric mean of
  // its results relative to each size's best; ties to the lower index.
  if (A.Rows.empty() ||
      llvm::any_of(A.Rows, [](const SizeRow &R) { return !R.Best; }))
    return A;
  std::optional<double> BestScore;
  std::vector<uint32_t> Candidates;
  for (const auto &KV : At.front())
    Candidates.push_back(KV.first);
  llvm::sort(Candidates);
  for (uint32_t C : Candidates) {
    double Score = 0;
    bool Everywhere = true;
    for (size_t R = 0; R < A.Rows.size() && Everywhere; ++R) {
      auto It = At[R].find(C);
      if (It == At[R].end())
        Everywhere = false;
      else
        Score += std::log(relative(M, It->second, A.Rows[R].BestObjective));
    }
    if (Everywhere && (!BestScore || Score > *BestScore)) {
      BestScore = Score;
      A.Single = C;
    }
  }
  if (!A.Single)
    return A;
  double Worst = 1;
  for (size_t R = 0; R < A.Rows.size(); ++R) {
    SizeRow &Row = A.Rows[R];
    Row.SingleObjective = At[R][*A.Single];
    double Rel = relative(M, *Row.SingleObjective, Row.BestObjective);
    if (Rel < Worst) {
      Worst = Rel;
      A.WorstRow = R;
    }
  }
  A.MeanLoss = 1 - std::exp(*BestScore / A.Rows.size());
  A.WorstLoss = 1 - Worst;
  return A;
}

static std::string sizeText(llvm::ArrayRef<int64_t> Size) {
  std::string S;
  for (int64_t N : Size)
    S += (S.empty() ? "" : "x") + std::to_string(N);
  return S;
}

static std::string rangeText(const std::optional<SizeRange> &R) {
  if (!R)
    return "nearest shape";
  return std::to_string(R->From) + ".." +
         (R->To ? std::to_string(*R->To) : std::string());
}

void metacu::tune::printSizeTable(llvm::raw_ostream &OS,
                                  const SearchSpace &Space, const Metric &M,
                                  const SizeAnalysis &A) {
  // A rate is its own unit ("GB/s"); a time says its own ("time (ms)").
  std::string Unit = M.Unit.empty() || M.Unit == M.Name
                         ? M.Name
                         : M.Name + " (" + M.Unit + ")";
  OS << "per problem size (each entry serves the problems nearest its size "
        "in ratio)\n";
  std::vector<std::vector<std::string>> Table{
      {"size", "serves", Unit, "one entry", "loss", "best configuration"}};
  for (const SizeRow &R : A.Rows) {
    std::vector<std::string> Line{sizeText(R.Size), rangeText(R.Serves)};
    if (!R.Best) {
      Line.insert(Line.end(), {"-", "-", "-", "no valid configuration"});
    } else {
      Line.push_back(M.format(R.BestObjective, false));
      Line.push_back(R.SingleObjective ? M.format(*R.SingleObjective, false)
                                       : "-");
      Line.push_back(R.SingleObjective
                         ? formatChange(*R.SingleObjective, R.BestObjective)
                         : "-");
      Line.push_back(Space.describe(*R.Best));
    }
    Table.push_back(std::move(Line));
  }
  std::vector<size_t> Width(Table.front().size());
  for (const auto &Row : Table)
    for (size_t C = 0; C < Row.size(); ++C)
      Width[C] = std::max(Width[C], Row[C].size());
  for (const auto &Row : Table) {
    std::string Line = " ";
    for (size_t C = 0; C < Row.size(); ++C) {
      std::string Pad(Width[C] - Row[C].size(), ' ');
      // Numbers right-aligned, text left.
      bool Right = C >= 2 && C <= 4;
      Line += "  " + (Right ? Pad + Row[C] : Row[C] + Pad);
    }
    OS << llvm::StringRef(Line).rtrim() << '\n';
  }
  if (!A.Single) {
    OS << "one entry for every size: no configuration is valid at every "
          "size\n";
    return;
  }
  OS << llvm::formatv("one entry for every size: {0}\n  loses {1:f1}% "
                      "(geometric mean over the sizes), at worst {2:f1}% "
                      "(size {3}) against an entry per size\n",
                      Space.describe(*A.Single), A.MeanLoss * 100,
                      A.WorstLoss * 100, sizeText(A.Rows[A.WorstRow].Size));
}

llvm::Expected<std::vector<std::pair<std::string, TuningEntry>>>
metacu::tune::sizeEntries(const RunInfo &Info, const SearchSpace &Space,
                          llvm::ArrayRef<SizeRun> Runs) {
  std::vector<std::pair<std::string, TuningEntry>> Out;
  for (const SizeRun &R : Runs) {
    // A size no configuration ran at gets no entry: the nearest sizes
    // serve it.
    if (rankValid(R.Run.Trace, Info.Objective).empty())
      continue;
    auto E = bestEntry(Info, Space, R.Run);
    if (!E)
      return E.takeError();
    Out.emplace_back(entryKey(Info.Where.Arch, R.Size), std::move(*E));
  }
  if (Out.empty())
    return llvm::createStringError(
        "no valid configuration was found at any size, so there is nothing "
        "to record");
  return Out;
}
