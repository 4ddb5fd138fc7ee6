//===- TuneCommand.cpp - The `metacu tune` subcommand ---------------------===//
//
// Options of `metacu tune` and what they run. For now that is replay: a
// strategy against a Kernel Tuner cache file's recorded times, with the
// outputs a GPU run will have too: the progress line, the summary, the
// tuning file and the HTML report.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"

#include "toolchain/Arch.h"
#include "tune/HtmlReport.h"
#include "tune/Progress.h"
#include "tune/Replay.h"
#include "tune/TuningFile.h"
#include "tune/strategies/Strategy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace metacu;
namespace cl = llvm::cl;

cl::SubCommand metacu::TuneSubcommand(
    "tune", "Search a kernel's tuning parameters; for now --replay runs a "
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
                                    cl::sub(TuneSubcommand),
                                    cl::cat(MetacuCategory));
static cl::opt<uint64_t> Seed("seed",
                              cl::desc("Seed of the strategy's random "
                                       "choices (default 1)"),
                              cl::init(1), cl::sub(TuneSubcommand),
                              cl::cat(MetacuCategory));
static cl::opt<unsigned>
    BudgetEvals("budget",
                cl::desc("Stop after N unique evaluations (default with "
                         "--replay and no --time-limit: 1000)"),
                cl::value_desc("N"), cl::sub(TuneSubcommand),
                cl::cat(MetacuCategory));
static cl::opt<std::string>
    TimeLimit("time-limit",
              cl::desc("Stop after this long: 90, 90s, 15m or 2h (replay "
                       "counts the recorded time of each evaluation)"),
              cl::value_desc("T"), cl::sub(TuneSubcommand),
              cl::cat(MetacuCategory));
static cl::opt<std::string>
    T4Path("t4", cl::desc("Write every evaluation, in order, in T4 format"),
           cl::value_desc("out.json"), cl::sub(TuneSubcommand),
           cl::cat(MetacuCategory));
static cl::opt<std::string>
    JournalPath("journal",
                cl::desc("Resume from and append each result to this "
                         "journal (JSON lines)"),
                cl::value_desc("file"), cl::sub(TuneSubcommand),
                cl::cat(MetacuCategory));
static cl::opt<std::string>
    TuningFilePath("tuning-file",
                   cl::desc("Record the best configuration as the --arch "
                            "entry of this JSON file, which the kernel's "
                            "meta code reads"),
                   cl::value_desc("file.json"), cl::sub(TuneSubcommand),
                   cl::cat(MetacuCategory));
static cl::opt<std::string>
    ArchName("arch",
             cl::desc("The architecture the results are for (replay: the "
                      "recorded device's), e.g. 86 or 90a"),
             cl::value_desc("arch"), cl::sub(TuneSubcommand),
             cl::cat(MetacuCategory));
static cl::opt<bool>
    Force("force",
          cl::desc("Write the tuning file's entry even when the recorded one "
                   "is better on the same device, or is for another kernel"),
          cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    ReportPath("report",
               cl::desc("Write a self-contained HTML report of the run"),
               cl::value_desc("out.html"), cl::sub(TuneSubcommand),
               cl::cat(MetacuCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Show no progress"),
                           cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<unsigned>
    TopConfigs("top",
               cl::desc("How many of the best configurations the summary "
                        "and the report list (default 10)"),
               cl::init(10), cl::value_desc("N"), cl::sub(TuneSubcommand),
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
  return reportFailure(llvm::createStringError(Message.str()));
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
  if (!ArchName.empty()) {
    auto Archs = ArchList::parse(ArchName);
    if (!Archs)
      return fail("--arch: " + llvm::toString(Archs.takeError()));
    if (Archs->archs().size() != 1)
      return fail("--arch: results are for one architecture, not " +
                  Archs->names());
    Options.Arch = Archs->archs().front().name();
  } else if (!TuningFilePath.empty()) {
    return fail("--tuning-file needs --arch: a cache records the device, "
                "not the architecture its entry is for");
  }

  std::optional<tune::Progress> Progress;
  if (!Quiet)
    Options.Listener =
        &Progress.emplace(llvm::errs(), tune::Progress::styleForStderr());
  auto Result = tune::replay(Options);
  if (!Result)
    return fail(llvm::toString(Result.takeError()));
  tune::printReplaySummary(llvm::outs(), *Result, TopConfigs);

  if (!TuningFilePath.empty()) {
    auto Entry = tune::bestEntry(Result->Info, Result->Space, Result->Run);
    if (!Entry)
      return fail(TuningFilePath + ": " + llvm::toString(Entry.takeError()));
    auto Merged =
        tune::updateTuningFile(TuningFilePath, Result->Info, *Entry, Force);
    if (!Merged)
      return fail(llvm::toString(Merged.takeError()));
    llvm::errs() << "metacu tune: " << TuningFilePath << ": "
                 << Merged->describe(Result->Info.Where.Arch, *Entry) << '\n';
  }
  if (!ReportPath.empty())
    if (llvm::Error Err = tune::writeHtmlReport(
            ReportPath, Result->Info, Result->Space, Result->Run, TopConfigs))
      return fail(llvm::toString(std::move(Err)));
  return 0;
}
