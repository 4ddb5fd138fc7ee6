//===- TuneCommand.cpp - The `metacu tune` subcommand ---------------------===//
//
// Options of `metacu tune` and what they run. For now that is replay: a
// strategy against a Kernel Tuner cache file's recorded times.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"

#include "tune/Replay.h"
#include "tune/strategies/Strategy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace metacu;
namespace cl = llvm::cl;

cl::SubCommand metacu::TuneSubcommand(
    "tune",
            "Search a kernel's tuning parameters; for now --replay runs a "
            "strategy against a Kernel Tuner cache file's recorded times");

static cl::opt<std::string>
    ReplayPath("replay",
               cl::desc("Answer from this Kernel Tuner cache file's "
                        "recorded times instead of a GPU"),
               cl::value_desc("cache.json[.gz]"), cl::sub(TuneSubcommand),
               cl::cat(MetacuCategory));
static cl::opt<std::string>
    StrategyName("strategy",
                 cl::desc("Search strategy (--list-strategies; default: the "
                          "best on the recorded spaces)"),
                 cl::value_desc("name"), cl::sub(TuneSubcommand),
                 cl::cat(MetacuCategory));
static cl::opt<bool> ListStrategies("list-strategies",
                                    cl::desc("Print the strategies and exit"),
                                    cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<uint64_t> Seed("seed",
                              cl::desc("Seed of the strategy's random "
                                       "choices (default 1)"),
                              cl::init(1), cl::sub(TuneSubcommand),
                              cl::cat(MetacuCategory));
static cl::opt<unsigned>
    BudgetEvals("budget",
                cl::desc("Stop after N unique evaluations (default with "
                         "--replay and no --time-limit: 1000)"),
                cl::value_desc("N"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    TimeLimit("time-limit",
              cl::desc("Stop after this long: 90, 90s, 15m or 2h (replay "
                       "counts the recorded time of each evaluation)"),
              cl::value_desc("T"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    T4Path("t4", cl::desc("Write every evaluation, in order, in T4 format"),
           cl::value_desc("out.json"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    JournalPath("journal",
                cl::desc("Resume from and append each result to this "
                         "journal (JSON lines)"),
                cl::value_desc("file"), cl::sub(TuneSubcommand),
                cl::cat(MetacuCategory));


/// Seconds in "90", "90s", "15m" or "2h".
static std::optional<double> parseDuration(llvm::StringRef Text) {
  double Scale = 1;
  if (Text.consume_back("h"))
    Scale = 3600;
  else if (Text.consume_back("m"))
    Scale = 60;
  else
    Text.consume_back("s");
  double Value;
  if (Text.getAsDouble(Value) || !(Value > 0))
    return std::nullopt;
  return Value * Scale;
}

static int fail(const llvm::Twine &Message) {
  llvm::errs() << "metacu tune: error: " << Message << '\n';
  return 1;
}

int metacu::runTuneCommand() {
  if (ListStrategies) {
    for (const tune::StrategyInfo &S : tune::strategies())
      llvm::outs() << llvm::formatv("{0,-15} {1}\n", S.Name, S.Summary);
    return 0;
  }
  if (ReplayPath.empty())
    return fail("tuning on a GPU is not available yet; use --replay "
                "CACHE.json[.gz] to run a strategy on recorded times");

  tune::ReplayOptions Options;
  Options.CachePath = ReplayPath;
  Options.Strategy = StrategyName;
  Options.Seed = Seed;
  Options.T4Path = T4Path;
  Options.JournalPath = JournalPath;
  if (BudgetEvals.getNumOccurrences()) {
    if (BudgetEvals == 0)
      return fail("--budget must be at least 1");
    Options.Limit.Evaluations = BudgetEvals;
  }
  if (!TimeLimit.empty()) {
    auto Seconds = parseDuration(TimeLimit);
    if (!Seconds)
      return fail("--time-limit: expected a positive duration such as 90, "
                  "90s, 15m or 2h, not '" +
                  TimeLimit + "'");
    Options.Limit.Seconds = *Seconds;
  }
  if (!Options.Limit.Evaluations && !Options.Limit.Seconds)
    Options.Limit.Evaluations = 1000;

  auto Result = tune::replay(Options);
  if (!Result)
    return fail(llvm::toString(Result.takeError()));
  tune::printReplaySummary(llvm::outs(), *Result);
  return 0;
}
