//===- Progress.cpp - A progress line for long tuning runs ----------------===//
#include "Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace metacu::tune;

Progress::Style Progress::styleForStderr() {
  return llvm::sys::Process::StandardErrIsDisplayed() ? Style::Redraw
                                                      : Style::Lines;
}

std::string Progress::formatDuration(double Seconds) {
  long S = std::lround(std::max(0.0, Seconds));
  char Buf[32];
  if (S < 60)
    std::snprintf(Buf, sizeof(Buf), "%lds", S);
  else if (S < 3600)
    std::snprintf(Buf, sizeof(Buf), "%ldm%02lds", S / 60, S % 60);
  else
    std::snprintf(Buf, sizeof(Buf), "%ldh%02ldm", S / 3600, S / 60 % 60);
  return Buf;
}

size_t Progress::evaluationLimit(const Evaluator &E) const {
  // Every configuration once is the most any budget can buy.
  size_t Limit = E.space().size();
  if (E.options().Limit.Evaluations)
    Limit = std::min(Limit, *E.options().Limit.Evaluations);
  return Limit;
}

double Progress::spent(const Evaluator &E) const {
  double Fraction = 0;
  if (size_t Limit = evaluationLimit(E))
    Fraction = double(Done) / double(Limit);
  if (auto Seconds = E.options().Limit.Seconds)
    Fraction = std::max(Fraction, Elapsed / *Seconds);
  return std::min(Fraction, 1.0);
}

std::optional<double> Progress::secondsLeft(const Evaluator &E) const {
  std::optional<double> Left;
  if (Measured) {
    size_t Limit = evaluationLimit(E);
    Left = double(Limit - std::min(Limit, Done)) * Elapsed / double(Measured);
  }
  if (auto Seconds = E.options().Limit.Seconds)
    Left = std::min(Left.value_or(*Seconds), std::max(0.0, *Seconds - Elapsed));
  return Left;
}

std::string Progress::status(const Evaluator &E) const {
  std::string Text = std::to_string(Done) + "/" +
                     std::to_string(evaluationLimit(E)) + " evaluations";
  if (auto Seconds = E.options().Limit.Seconds)
    Text += ", " + formatDuration(Elapsed) + " of " + formatDuration(*Seconds);
  const Metric &M = E.options().Objective;
  if (Best)
    Text += llvm::formatv(", best {0} (evaluation {1}, {2} since)",
                          M.format(*Best), BestAt, Done - BestAt);
  else
    Text += ", nothing valid yet";
  if (auto Left = secondsLeft(E); Left && !Finished)
    Text += ", about " + formatDuration(*Left) + " left";
  return Text;
}

void Progress::draw(const Evaluator &E) {
  if (S == Style::Redraw)
    // Back to the start of the line, and clear what a longer line left.
    OS << "\rmetacu tune: " << status(E) << "\x1b[K";
  else
    OS << "metacu tune: " << status(E) << '\n';
  OS.flush();
  Drawn = true;
  LastDraw = std::chrono::steady_clock::now();
}

void Progress::started(const Evaluator &) {
  Done = Measured = BestAt = 0;
  Elapsed = 0;
  Best.reset();
  TenthsShown = 0;
  Drawn = Finished = false;
}

void Progress::evaluated(const Evaluator &E, const Evaluation &Last) {
  ++Done;
  Measured += !Last.Resumed;
  Elapsed = Last.Seconds;
  const Metric &M = E.options().Objective;
  if (Last.M.valid() && (!Best || M.better(Last.M.Objective, *Best))) {
    Best = Last.M.Objective;
    BestAt = Done;
  }
  if (S == Style::Redraw) {
    // A terminal cannot show more than a few updates a second, and a
    // replay evaluates thousands of configurations in a blink.
    auto Now = std::chrono::steady_clock::now();
    if (!Drawn || Now - LastDraw >= std::chrono::milliseconds(100))
      draw(E);
    return;
  }
  int Tenths = int(spent(E) * 10);
  if (Tenths > TenthsShown && Tenths < 10) {
    TenthsShown = Tenths;
    draw(E);
  }
}

void Progress::finished(const Evaluator &E) {
  Finished = true;
  draw(E);
  if (S == Style::Redraw)
    OS << '\n';
}
