//===- Progress.h - A progress line for long tuning runs ------------------===//
//
// A tuning run on a GPU takes minutes to hours; the user wants to see that it
// advances, how good the best configuration so far is, whether the search is
// still finding better ones, and when it will end. On a terminal one line is
// redrawn in place; in a build log (stderr not a terminal) a plain line is
// written at every tenth of the budget, so logs stay short and readable.
// It follows the run as an EvaluationListener, so strategies print nothing.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_PROGRESS_H
#define METACU_TUNE_PROGRESS_H

#include "Evaluator.h"

#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>
#include <string>

namespace metacu::tune {

class Progress : public EvaluationListener {
public:
  enum class Style {
    /// One line redrawn with '\r', at most ten times a second.
    Redraw,
    /// A line at every tenth of the budget and at the end.
    Lines,
  };

  /// Redraw when stderr is a terminal, Lines otherwise.
  static Style styleForStderr();

  Progress(llvm::raw_ostream &OS, Style S) : OS(OS), S(S) {}

  void started(const Evaluator &E) override;
  void evaluated(const Evaluator &E, const Evaluation &Last) override;
  void finished(const Evaluator &E) override;

  /// What the line says now: "120/1000 evaluations, best 0.51234 ms (at 98,
  /// 22 since), about 2m10s left".
  std::string status(const Evaluator &E) const;

  /// "45s", "2m10s", "1h05m".
  static std::string formatDuration(double Seconds);

private:
  /// How many evaluations the run can make at most: the budget's, or every
  /// configuration once.
  size_t evaluationLimit(const Evaluator &E) const;
  /// The fraction of the budget spent, from 0 to 1.
  double spent(const Evaluator &E) const;
  std::optional<double> secondsLeft(const Evaluator &E) const;
  void draw(const Evaluator &E);

  llvm::raw_ostream &OS;
  Style S;
  size_t Done = 0;
  /// Evaluations that were measured, not answered from the journal: only
  /// they took time, so only they predict how long the rest takes.
  size_t Measured = 0;
  double Elapsed = 0;
  std::optional<double> Best;
  size_t BestAt = 0;
  /// Lines: the tenths of the budget already reported.
  int TenthsShown = 0;
  bool Drawn = false;
  /// The run is over: no more estimate of what is left.
  bool Finished = false;
  std::chrono::steady_clock::time_point LastDraw;
};

} // namespace metacu::tune

#endif
