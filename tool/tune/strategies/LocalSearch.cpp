//===- LocalSearch.cpp - Moves shared by the local-search strategies ------===//
#include "LocalSearch.h"

#include <algorithm>
#include <vector>

using namespace metacu::tune;

/// The better of \p Candidates than \p Current's cost by \p Rule, if any.
static std::optional<uint32_t> improve(Evaluator &E, double Current,
                                       std::vector<uint32_t> &Candidates,
                                       Pivot Rule) {
  std::optional<uint32_t> Best;
  double BestCost = Current;
  size_t Batch = std::max(1u, E.batchSize());
  for (size_t From = 0; From < Candidates.size() && !E.done(); From += Batch) {
    llvm::ArrayRef<uint32_t> Chunk =
        llvm::ArrayRef(Candidates).slice(From).take_front(Batch);
    std::vector<Cost> Costs = E.evaluate(Chunk);
    for (size_t I = 0; I < Chunk.size(); ++I)
      if (Costs[I].valid() && Costs[I].Value < BestCost) {
        BestCost = Costs[I].Value;
        Best = Chunk[I];
        if (Rule == Pivot::First)
          return Best;
      }
  }
  return Best;
}

std::optional<uint32_t> metacu::tune::sameStepAgain(const SearchSpace &Space,
                                                    uint32_t From,
                                                    uint32_t To) {
  Config A = Space.config(From), B = Space.config(To);
  for (size_t P = 0; P < A.size(); ++P) {
    if (A[P] == B[P])
      continue;
    int64_t Next = 2 * int64_t(B[P]) - int64_t(A[P]);
    if (Next < 0 || Next >= int64_t(Space.parameters()[P].Values.size()))
      return std::nullopt;
    B[P] = Next;
  }
  return Space.indexOf(B);
}

uint32_t metacu::tune::climb(Evaluator &E, Random &R, uint32_t Start,
                             const ClimbOptions &Options) {
  std::vector<uint32_t> Path{Start};
  uint32_t Current = Start;
  llvm::SmallVector<uint32_t, 64> Near;
  // The start and its first neighbourhood in one batch where the runner
  // takes that many: the climb scans that neighbourhood whatever the start
  // costs, and a GPU runner pays a round's fixed cost (an expansion, the
  // compiles' shared part) once instead of twice. A runner of one at a time
  // (replay) sees the order it always did.
  if (!Options.Neighbourhoods.empty() && E.batchSize() > 1) {
    E.space().neighbours(Start, Options.Neighbourhoods.front(), Near);
    if (Near.size() < E.batchSize()) {
      std::vector<uint32_t> First{Start};
      First.insert(First.end(), Near.begin(), Near.end());
      E.evaluate(First);
    }
  }
  double CurrentCost = E.evaluate(Current).Value;
  size_t K = 0;
  while (K < Options.Neighbourhoods.size() && !E.done()) {
    if (Options.Memory && Path.size() > 1)
      if (auto Known = Options.Memory->optimumFrom(Current)) {
        Options.Memory->remember(Path, *Known);
        return *Known;
      }
    E.space().neighbours(Current, Options.Neighbourhoods[K], Near);
    std::vector<uint32_t> Candidates(Near.begin(), Near.end());
    R.shuffle(Candidates);
    if (Options.FollowThrough && Path.size() > 1)
      if (auto Again = sameStepAgain(E.space(), Path.end()[-2], Current)) {
        auto It = llvm::find(Candidates, *Again);
        if (It != Candidates.end())
          std::rotate(Candidates.begin(), It, It + 1);
      }
    if (auto Next = improve(E, CurrentCost, Candidates, Options.Rule)) {
      Current = *Next;
      CurrentCost = E.cost(Current).Value;
      Path.push_back(Current);
      K = 0;
    } else {
      ++K;
    }
  }
  if (Options.Memory)
    Options.Memory->remember(Path, Current);
  return Current;
}

uint32_t metacu::tune::randomWalk(const SearchSpace &Space, Random &R,
                                  uint32_t Start, unsigned Steps,
                                  Neighbourhood N) {
  uint32_t Current = Start;
  llvm::SmallVector<uint32_t, 64> Near;
  for (unsigned I = 0; I < Steps; ++I) {
    Space.neighbours(Current, N, Near);
    if (Near.empty())
      break;
    Current = Near[R.below(Near.size())];
  }
  return Current;
}

uint32_t metacu::tune::randomUnevaluated(const Evaluator &E, Random &R) {
  size_t Size = E.space().size();
  // Sampling is uniform and fast while most of the space is unknown; a scan
  // from a random point always succeeds once it mostly is known.
  for (int Try = 0; Try < 32; ++Try) {
    uint32_t C = R.below(Size);
    if (!E.known(C))
      return C;
  }
  uint32_t From = R.below(Size);
  for (size_t I = 0; I < Size; ++I) {
    uint32_t C = (From + I) % Size;
    if (!E.known(C))
      return C;
  }
  llvm_unreachable("randomUnevaluated with every configuration evaluated");
}

void metacu::tune::iterateClimbs(Evaluator &E, Random &R,
                                 const ClimbOptions &Options,
                                 unsigned KickSteps, unsigned Patience) {
  while (!E.done()) {
    uint32_t Base = climb(E, R, randomUnevaluated(E, R), Options);
    for (unsigned Stale = 0; Stale < Patience && !E.done();) {
      uint32_t Kicked =
          randomWalk(E.space(), R, Base, KickSteps, Neighbourhood::Hamming);
      uint32_t Next = climb(E, R, Kicked, Options);
      if (E.cost(Next).valid() && E.cost(Next).Value < E.cost(Base).Value) {
        Base = Next;
        Stale = 0;
      } else {
        ++Stale;
      }
    }
  }
}
