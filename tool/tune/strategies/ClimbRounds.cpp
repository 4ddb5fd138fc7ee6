//===- ClimbRounds.cpp - Iterated local search, a round at a time ---------===//
#include "ClimbRounds.h"

#include "llvm/ADT/DenseSet.h"
#include <algorithm>
#include <numeric>
#include <vector>

using namespace metacu::tune;

namespace {

/// One iterated local search: where its climb is, which neighbours it has
/// covered, and the optimum its kicks start from.
struct Walker {
  uint32_t Current = 0;
  std::vector<uint32_t> Path;
  /// Which of the options' neighbourhoods the climb scans.
  size_t K = 0;
  /// That neighbourhood of Current in scan order; the first Covered are
  /// measured or in the round being filled.
  std::vector<uint32_t> Scan;
  size_t Covered = 0;
  /// The best optimum of its climbs since its last restart.
  std::optional<uint32_t> Base;
  unsigned Stale = 0;
};

class Rounds {
public:
  Rounds(Evaluator &E, Random &R, const ClimbOptions &Options,
         unsigned KickSteps, unsigned Patience)
      : E(E), R(R), Options(Options), KickSteps(KickSteps), Patience(Patience) {
  }

  void search() {
    while (!E.done()) {
      fillRound();
      if (Round.empty())
        return;
      E.evaluate(Round);
    }
  }

private:
  double cost(uint32_t C) const { return E.cost(C).Value; }
  bool pending(uint32_t C) const { return E.known(C) || InRound.count(C); }

  void fillRound() {
    Round.clear();
    InRound.clear();
    size_t Target = E.roundSize();
    // The walkers nearest the best configurations first: theirs are the
    // neighbours most worth a place in the round.
    std::vector<size_t> Order(Walkers.size());
    std::iota(Order.begin(), Order.end(), 0);
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return bestOf(Walkers[A]) < bestOf(Walkers[B]);
    });
    for (size_t I : Order) {
      if (Round.size() >= Target || E.done())
        return;
      advance(Walkers[I]);
      propose(Walkers[I], Target);
    }
    // New walkers while there is room and something left to measure.
    while (Round.size() < Target && !E.done() &&
           E.evaluations() + Round.size() < E.space().size()) {
      Walkers.emplace_back();
      startClimb(Walkers.back(), randomUnproposed());
      propose(Walkers.back(), Target);
    }
  }

  double bestOf(const Walker &W) const {
    double Best = cost(W.Current);
    if (W.Base)
      Best = std::min(Best, cost(*W.Base));
    return Best;
  }

  void add(uint32_t C) {
    if (InRound.insert(C).second)
      Round.push_back(C);
  }

  /// What \p W asks to measure next, while the round has room: its climb's
  /// current configuration and the next neighbours of its scan. It stops at
  /// a measured neighbour better than the current one (advance() moves
  /// there: first improvement costs nothing more).
  void propose(Walker &W, size_t Target) {
    if (!pending(W.Current) && Round.size() < Target)
      add(W.Current);
    bool CurrentKnown = E.known(W.Current);
    while (W.Covered < W.Scan.size() && Round.size() < Target) {
      uint32_t C = W.Scan[W.Covered];
      if (CurrentKnown && E.known(C) && cost(C) < cost(W.Current))
        return;
      if (!pending(C))
        add(C);
      ++W.Covered;
    }
  }

  /// Takes every step of \p W that what is measured decides: moves to the
  /// best better covered neighbour, covers measured neighbours for free,
  /// goes on to the next neighbourhood at a local optimum of one, and at a
  /// local optimum of all ends the climb and starts the next (a kick or a
  /// restart). Stops where it needs a measurement.
  void advance(Walker &W) {
    while (!E.done()) {
      if (!E.known(W.Current))
        return;
      double Current = cost(W.Current);
      std::optional<uint32_t> Better;
      for (size_t I = 0; I < W.Covered; ++I) {
        uint32_t C = W.Scan[I];
        if (E.known(C) && cost(C) < (Better ? cost(*Better) : Current))
          Better = C;
      }
      while (!Better && W.Covered < W.Scan.size() &&
             E.known(W.Scan[W.Covered])) {
        uint32_t C = W.Scan[W.Covered++];
        if (cost(C) < Current)
          Better = C;
      }
      if (Better) {
        move(W, *Better);
        continue;
      }
      if (W.Covered < W.Scan.size())
        return;
      if (++W.K < Options.Neighbourhoods.size())
        scan(W);
      else
        endClimb(W, W.Current);
    }
  }

  void move(Walker &W, uint32_t Next) {
    W.Current = Next;
    W.Path.push_back(Next);
    W.K = 0;
    if (Options.Memory)
      if (auto Known = Options.Memory->optimumFrom(Next)) {
        endClimb(W, *Known);
        return;
      }
    scan(W);
  }

  void scan(Walker &W) {
    llvm::SmallVector<uint32_t, 64> Near;
    E.space().neighbours(W.Current, Options.Neighbourhoods[W.K], Near);
    W.Scan.assign(Near.begin(), Near.end());
    R.shuffle(W.Scan);
    if (Options.FollowThrough && W.Path.size() > 1)
      if (auto Again = sameStepAgain(E.space(), W.Path.end()[-2], W.Current)) {
        auto It = llvm::find(W.Scan, *Again);
        if (It != W.Scan.end())
          std::rotate(W.Scan.begin(), It, It + 1);
      }
    W.Covered = 0;
  }

  void startClimb(Walker &W, uint32_t Start) {
    W.Current = Start;
    W.Path = {Start};
    W.K = 0;
    scan(W);
  }

  /// The climb of \p W ended at \p Optimum: keep it as the base when it is
  /// better, then kick the base, or restart after Patience kicks in a row
  /// found nothing better.
  void endClimb(Walker &W, uint32_t Optimum) {
    if (Options.Memory)
      Options.Memory->remember(W.Path, Optimum);
    if (!W.Base || (E.cost(Optimum).valid() && cost(Optimum) < cost(*W.Base))) {
      W.Base = Optimum;
      W.Stale = 0;
    } else {
      ++W.Stale;
    }
    if (W.Stale >= Patience) {
      W.Base.reset();
      W.Stale = 0;
      startClimb(W, randomUnproposed());
      return;
    }
    startClimb(W, randomWalk(E.space(), R, *W.Base, KickSteps,
                             Neighbourhood::Hamming));
  }

  /// A random configuration neither measured nor in the round, as
  /// randomUnevaluated(); one in the round when nothing else is left.
  uint32_t randomUnproposed() {
    size_t Size = E.space().size();
    for (int Try = 0; Try < 32; ++Try) {
      uint32_t C = R.below(Size);
      if (!pending(C))
        return C;
    }
    uint32_t From = R.below(Size);
    for (size_t I = 0; I < Size; ++I) {
      uint32_t C = (From + I) % Size;
      if (!pending(C))
        return C;
    }
    return randomUnevaluated(E, R);
  }

  Evaluator &E;
  Random &R;
  const ClimbOptions &Options;
  unsigned KickSteps, Patience;
  std::vector<Walker> Walkers;
  std::vector<uint32_t> Round;
  llvm::DenseSet<uint32_t> InRound;
};

} // namespace

void metacu::tune::iterateClimbsInRounds(Evaluator &E, Random &R,
                                         const ClimbOptions &Options,
                                         unsigned KickSteps,
                                         unsigned Patience) {
  Rounds(E, R, Options, KickSteps, Patience).search();
}
