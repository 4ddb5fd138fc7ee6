//===- Pipeline.cpp -------------------------------------------------------===//
#include "expand/Pipeline.h"
#include "expand/Check.h"
#include "expand/DialectHeaders.h"
#include "expand/Emit.h"
#include "expand/Execute.h"
#include "expand/HostCopy.h"
#include "expand/HostPassErrors.h"
#include "expand/HostSlice.h"
#include "expand/Lower.h"
#include "expand/MetaMacros.h"
#include "expand/MetaNames.h"
#include "expand/NvccPasses.h"
#include "expand/PresumedLines.h"
#include "expand/Scan.h"
#include "expand/Untagged.h"
#include "expand/Verify.h"
#include "support/Diagnostic.h"
#include "support/Tokens.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include <chrono>
#include <ctime>
#include <map>
#include <sys/resource.h>

namespace metacu {

namespace {

/// The execute stage's name, which says how the program was compiled
/// (StageTime::Stage).
llvm::StringRef executeStage(Expansion::Compilation How) {
  switch (How) {
  case Expansion::Compilation::InKeptInterpreter:
    return "execute in a kept interpreter";
  case Expansion::Compilation::KeepingItsStart:
    return "execute keeping its start";
  case Expansion::Compilation::KeepingItsStartOnKeptHeaders:
    return "execute keeping its start on kept headers";
  case Expansion::Compilation::FromKeptStart:
    return "execute from a kept start";
  case Expansion::Compilation::Afresh:
    break;
  }
  return "execute";
}

/// CPU milliseconds of this thread and of the child processes waited for.
double cpuMilliseconds() {
  auto Ms = [](const timeval &T) { return T.tv_sec * 1e3 + T.tv_usec / 1e3; };
  timespec Thread{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Thread);
  rusage Children{};
  getrusage(RUSAGE_CHILDREN, &Children);
  return Thread.tv_sec * 1e3 + Thread.tv_nsec / 1e6 + Ms(Children.ru_utime) +
         Ms(Children.ru_stime);
}

/// Times the stages one after the other.
class StageClock {
public:
  explicit StageClock(std::vector<StageTime> &Out) : Out(Out) {}
  /// \p CpuElsewhere: CPU milliseconds the stage took in processes this
  /// one does not wait for.
  void lap(llvm::StringRef Stage, double CpuElsewhere = 0) {
    auto Now = std::chrono::steady_clock::now();
    double Cpu = cpuMilliseconds();
    Out.push_back(
        {Stage, std::chrono::duration<double, std::milli>(Now - Last).count(),
         Cpu - LastCpu + CpuElsewhere});
    Last = Now;
    LastCpu = Cpu;
  }

private:
  std::vector<StageTime> &Out;
  std::chrono::steady_clock::time_point Last = std::chrono::steady_clock::now();
  double LastCpu = cpuMilliseconds();
};

std::string realPath(const std::string &P) {
  llvm::SmallString<256> R;
  return llvm::sys::fs::real_path(P, R) ? P : std::string(R);
}

llvm::Expected<ExpandedFile> expandSpliced(SplicedInput Spliced,
                                           std::vector<StageTime> Before,
                                           const ArchList &Archs,
                                           const PipelineOptions &Opts);

/// Rounds of meta macro expansion before macros that expand to one
/// another without end are refused.
constexpr unsigned MaxMacroRounds = 32;

/// \p Err with each LocatedError in an expansion of \p Rounds placed at
/// the macro's use in \p Before, the text before the first round, with a
/// note at the definition of each macro it is in (the outermost last).
llvm::Error placeInMacroUses(const SourceFile &Before,
                             llvm::ArrayRef<ExpandedMacros> Rounds,
                             llvm::Error Err) {
  if (Rounds.empty())
    return Err;
  auto Back = [&](unsigned Offset, size_t From) {
    for (size_t R = From; R-- > 0;)
      Offset = Rounds[R].offsetBefore(Offset);
    return Offset;
  };
  return llvm::handleErrors(
      std::move(Err), [&](std::unique_ptr<LocatedError> E) -> llvm::Error {
        unsigned Offset = E->offset();
        llvm::Error Notes = llvm::Error::success();
        for (size_t R = Rounds.size(); R-- > 0;) {
          if (const MacroUse *U = Rounds[R].useAt(Offset); U && U->Definition)
            Notes = llvm::joinErrors(
                std::move(Notes),
                llvm::make_error<SourceError>(Before, Back(*U->Definition, R),
                                              "in the expansion of macro '" +
                                                  U->Name + "', defined here",
                                              "note"));
          Offset = Rounds[R].offsetBefore(Offset);
        }
        return llvm::joinErrors(errorAt(Offset, E->text()), std::move(Notes));
      });
}

/// The stages after the scan; \p Before: the times of what came first.
llvm::Expected<ExpandedFile>
runExpanded(const SourceFile &File, ScanResult Scanned,
            std::vector<StageTime> Before, const ArchList &Archs,
            const PipelineOptions &Opts, bool Spliced);

/// \p Spliced: \p File already has its dialect headers in place.
llvm::Expected<ExpandedFile> run(const SourceFile &File, const ArchList &Archs,
                                 const PipelineOptions &Opts, bool Spliced) {
  std::vector<StageTime> Before;
  StageClock ScanClock(Before);
  auto Scan = scan(File);
  if (!Scan)
    return Scan.takeError();
  HostSliceOptions Reading = Opts;
  Reading.AsNvccHostPass = Spliced;
  // Meta macros are expanded before anything reads the file as code.
  std::vector<ExpandedMacros> Rounds;
  auto Current = [&]() -> const SourceFile & {
    return Rounds.empty() ? File : Rounds.back().Text;
  };
  for (bool More = mayDefineMetaMacros(*Scan, declaredMetaNames(*Scan));
       More;) {
    if (Rounds.size() == MaxMacroRounds)
      return placeInMacroUses(
          File, Rounds,
          errorAt(Rounds.back().Uses.front().Expanded.Begin,
                  "meta macros expand to one another without end (" +
                      llvm::Twine(MaxMacroRounds) + " levels)"));
    auto Expanded =
        expandMetaMacros(Current(), *Scan, declaredMetaNames(*Scan), Reading);
    if (!Expanded)
      return placeInMacroUses(File, Rounds, Expanded.takeError());
    if (!*Expanded)
      break;
    More = (*Expanded)->MoreRounds;
    Rounds.push_back(std::move(**Expanded));
    Scan = scan(Current());
    if (!Scan)
      return placeInMacroUses(File, Rounds, Scan.takeError());
  }
  ScanClock.lap(Rounds.empty() ? "scan" : "scan and meta macros");
  auto Result = runExpanded(Current(), std::move(*Scan), std::move(Before),
                            Archs, Opts, Spliced);
  if (!Result)
    return placeInMacroUses(File, Rounds, Result.takeError());
  return Result;
}

llvm::Expected<ExpandedFile>
runExpanded(const SourceFile &File, ScanResult Scanned,
            std::vector<StageTime> Before, const ArchList &Archs,
            const PipelineOptions &Opts, bool Spliced) {
  ExpandedFile Result;
  Result.Timings = std::move(Before);
  StageClock Clock(Result.Timings);
  std::optional<ScanResult> Scan(std::move(Scanned));

  HostSliceOptions Reading = Opts;
  Reading.AsNvccHostPass = Spliced;
  auto Slice = sliceHost(File, *Scan, metaIdentifiers(*Scan), Reading);
  if (!Slice)
    return Slice.takeError();
  // Brackets pair as in the text the preprocessor keeps, for every stage
  // after this reading: a block opened differently in each branch of a
  // conditional is one block. Where that moves a meta construct, the
  // masked input differs and is read again.
  if (bracketsCross(Scan->Tokens, Slice->Inactive.ranges())) {
    auto Kept = scan(File, Slice->Inactive.ranges().vec());
    if (!Kept)
      return Kept.takeError();
    if (maskMetaConstructs(File, *Kept) != maskMetaConstructs(File, *Scan)) {
      Slice = sliceHost(File, *Kept, metaIdentifiers(*Kept), Reading);
      if (!Slice)
        return Slice.takeError();
    }
    Scan = std::move(*Kept);
  }
  // Only inputs that include a dialect header, or may through an #include
  // this reading skips and nvcc's host pass takes, pay for the splice.
  if (!Spliced && (!Slice->MetaHeaders.empty() || Slice->UnfollowedInclude)) {
    Clock.lap("host slice");
    auto Splice = spliceDialectHeaders(File, Opts);
    if (!Splice)
      return Splice.takeError();
    Clock.lap("dialect headers");
    if (!Splice->Headers.empty())
      return expandSpliced(std::move(*Splice), std::move(Result.Timings), Archs,
                           Opts);
    // Nothing nvcc's host pass reads is in the dialect. The dialect headers
    // this reading entered sit where nvcc defines __CUDACC__ or __NVCC__
    // and skips them, in every pass: their #include stays as written. What
    // a device pass may enter is the nvcc-pass check's.
    Slice->MetaHeaders.clear();
  }
  // Both checks below read the same runs of nvcc's passes.
  NvccPassRuns Passes(File, *Scan, Archs, Opts);
  settleArchConditionals(Passes, *Slice);
  if (auto Err = check(*Scan, *Slice))
    return std::move(Err);
  // After the checks whose errors say more (a dialect header's #include
  // cycle, '__nvvm_arch' in '#if').
  if (Slice->PreprocessorError)
    if (auto Err = checkHostPassPreprocesses(File, *Scan, Reading))
      return std::move(Err);
  Clock.lap("host slice");
  if (Slice->UnfollowedInclude) {
    if (auto Err = checkNvccPasses(Passes))
      return std::move(Err);
    Clock.lap("nvcc passes");
  }

  std::vector<unsigned> HostDevice;
  if (Opts.UntaggedHelpers) {
    auto Helpers = untaggedDeviceHelpers(File, *Scan, *Slice, Archs, Reading);
    if (!Helpers)
      return Helpers.takeError();
    HostDevice = std::move(*Helpers);
    Clock.lap("untagged helpers");
  }
  auto G = lower(File, *Scan, *Slice, Archs, HostDevice);
  if (!G)
    return G.takeError();
  Clock.lap("lower");
  if (Opts.DumpGenerator)
    *Opts.DumpGenerator << "//===--- prelude ---===//\n"
                        << G->Prelude << "//===--- program ---===//\n"
                        << G->Program;

  // The interpreter compiles for the machine it runs on.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto X = execute(File, *G, Archs, Opts);
  if (!X)
    return X.takeError();
  addHostCopies(*X, G->HostCopyChains);
  Clock.lap(executeStage(X->Compiled), X->KeptCopyCpuMilliseconds);

  EmittedFile Emitted = emitMapped(File, Archs, *X, {Opts.OutputName});
  Result.Text = std::move(Emitted.Text);
  Result.BodyOffset = Emitted.BodyOffset;
  Result.Map = std::move(Emitted.Map);
  Clock.lap("emit");
  if (Opts.Verify) {
    if (auto Err = verifyOutput(File, Result.Text, Archs, Opts))
      return std::move(Err);
    Clock.lap("verify");
  }

  Result.Dependencies.push_back(File.path().str());
  for (size_t I = 1; I < Slice->Files.size(); ++I)
    Result.Dependencies.push_back(realPath(Slice->Files[I]));
  for (const std::string &D : X->DataFiles)
    Result.Dependencies.push_back(realPath(D));
  return Result;
}

/// Whether the '{' at \p Brace opens a namespace or an 'extern "C"' block:
/// a header may well be included inside one.
bool opensNamespace(llvm::ArrayRef<Token> Toks, unsigned Brace) {
  if (Brace >= 2 && Toks[Brace - 1].is(clang::tok::string_literal) &&
      Toks[Brace - 2].isIdent("extern"))
    return true;
  for (unsigned K = Brace; K-- > 0;) {
    if (Toks[K].isIdent("namespace"))
      return true;
    if (!Toks[K].isIdent() && !Toks[K].is(clang::tok::coloncolon))
      return false;
  }
  return false;
}

/// \p Err with the errors inside a spliced header that a bracket of its
/// includer still open there explains (an unclosed '{', the header
/// included inside a function) made one error at that bracket: the parser
/// only notices in the header, but the cause is the includer's text.
llvm::Error blameOpenBrackets(const SourceFile &File, llvm::Error Err) {
  std::vector<Token> Toks;
  std::map<unsigned, std::string> Blamed;
  auto OpenAround = [&](unsigned Offset) -> std::optional<unsigned> {
    if (Toks.empty())
      Toks = lexRaw(File.text());
    llvm::StringRef In = File.origin(Offset).Path;
    auto It = llvm::lower_bound(
        Toks, Offset, [](const Token &T, unsigned O) { return T.Offset < O; });
    for (std::optional<unsigned> B = enclosingOpen(Toks, It - Toks.begin()); B;
         B = enclosingOpen(Toks, *B)) {
      if (File.origin(Toks[*B].Offset).Path == In)
        continue;
      if (Toks[*B].is(clang::tok::l_brace) && opensNamespace(Toks, *B))
        return std::nullopt;
      return *B;
    }
    return std::nullopt;
  };
  llvm::Error Kept = llvm::handleErrors(
      std::move(Err), [&](std::unique_ptr<LocatedError> E) -> llvm::Error {
        Origin At = File.origin(E->offset());
        if (At.Path == File.path())
          return llvm::Error(std::move(E));
        std::optional<unsigned> B = OpenAround(E->offset());
        if (!B)
          return llvm::Error(std::move(E));
        Blamed.try_emplace(
            *B, "this '" + Toks[*B].Text.str() + "' is still open where '" +
                    At.Path.str() +
                    "' is included, so the header is read "
                    "inside it (the first error there: " +
                    At.Path.str() + ":" + std::to_string(At.Where.Line) + ":" +
                    std::to_string(At.Where.Col) + ": " + E->text() + ")");
        return llvm::Error::success();
      });
  for (auto &[B, Message] : Blamed)
    Kept = llvm::joinErrors(errorAt(Toks[B].Offset, Message), std::move(Kept));
  return Kept;
}

llvm::Expected<ExpandedFile> runLocated(const SourceFile &File,
                                        const ArchList &Archs,
                                        const PipelineOptions &Opts,
                                        bool Spliced) {
  auto Result = run(File, Archs, Opts, Spliced);
  if (!Result)
    return locate(File, Spliced ? blameOpenBrackets(File, Result.takeError())
                                : Result.takeError());
  return Result;
}

/// Expands the input with its dialect headers spliced in (\p Before: the
/// times of the stages that found them and spliced them); errors are placed
/// in the splice, whose origin marks name the header they come from.
llvm::Expected<ExpandedFile> expandSpliced(SplicedInput Spliced,
                                           std::vector<StageTime> Before,
                                           const ArchList &Archs,
                                           const PipelineOptions &Opts) {
  auto Result = runLocated(Spliced.Text, Archs, Opts, /*Spliced=*/true);
  if (!Result)
    return Result.takeError();
  Result->Timings.insert(Result->Timings.begin(), Before.begin(), Before.end());
  Result->Dependencies.insert(Result->Dependencies.begin() + 1,
                              Spliced.Headers.begin(), Spliced.Headers.end());
  return Result;
}

} // namespace

llvm::Expected<ExpandedFile> expandFile(const SourceFile &File,
                                        const ArchList &Archs,
                                        const PipelineOptions &Opts) {
  // The stages split lines at '\n'; Clang also ends them at CRLF and a
  // lone CR, and skips a byte order mark. The output has LF line breaks.
  UnifiedText Unified(File.text());
  // Its lines numbered as nvcc's: on from each `#line N` it keeps.
  return runLocated(
      numberAsPreprocessed(Unified.changed()
                               ? SourceFile(File.path().str(), Unified.take())
                               : File,
                           Opts),
      Archs, Opts, /*Spliced=*/false);
}

llvm::Expected<ExpandedFile> expandFile(llvm::StringRef Path,
                                        const ArchList &Archs,
                                        const PipelineOptions &Opts) {
  auto File = SourceFile::load(Path);
  if (!File)
    return File.takeError();
  return expandFile(*File, Archs, Opts);
}

} // namespace metacu
