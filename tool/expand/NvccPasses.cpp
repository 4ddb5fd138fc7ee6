//===- NvccPasses.cpp -----------------------------------------------------===//
#include "expand/NvccPasses.h"
#include "expand/DialectHeaders.h"
#include "support/Diagnostic.h"
#include "support/RangeSet.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <optional>

using namespace clang;

namespace metacu {

namespace {

/// The first dialect header a pass read meta constructs of, and the
/// #include it came through.
struct Entry {
  std::string Header;
  unsigned Line = 0, Col = 0;
  /// The file holding the #include (empty: the input), where in it, and
  /// that line's text.
  std::string Includer;
  unsigned Offset = 0;
  LineCol Where;
  std::string LineText;
  /// The input's #include that leads there; none where the includer was
  /// read through -include.
  std::optional<unsigned> InputOffset;
};

/// Watches the dialect headers a pass enters. One whose meta constructs
/// all sit in regions the pass skips (a header spliced into the input
/// already, entered again and skipped whole by its include guard) is no
/// harm.
class Watch : public PPCallbacks {
public:
  Watch(SourceManager &SM, HeaderSearch &HS, const DialectScope &Scope,
        std::optional<Entry> &Found)
      : SM(SM), HS(HS), Scope(Scope), Found(Found) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID Left) override {
    if (Found)
      return;
    if (Reason == ExitFile) {
      auto It = Open.find(Left);
      if (It != Open.end()) {
        settle(Left, It->second);
        Open.erase(It);
      }
      return;
    }
    FileID FID = SM.getFileID(Loc);
    if (Reason != EnterFile || FID == SM.getMainFileID())
      return;
    auto F = SM.getFileEntryRefForID(FID);
    if (!F || !Scope.covers(*F, HS))
      return;
    std::vector<unsigned> Constructs =
        metaConstructOffsets(SM.getBufferData(FID));
    if (!Constructs.empty())
      Open[FID].Constructs = std::move(Constructs);
  }

  void SourceRangeSkipped(SourceRange Skipped, SourceLocation) override {
    SourceLocation Begin = SM.getExpansionLoc(Skipped.getBegin());
    auto It = Open.find(SM.getFileID(Begin));
    if (It != Open.end())
      It->second.Skipped.add(
          {SM.getFileOffset(Begin),
           SM.getFileOffset(SM.getExpansionLoc(Skipped.getEnd()))});
  }

private:
  struct Reading {
    std::vector<unsigned> Constructs;
    RangeSet Skipped;
  };

  void settle(FileID FID, const Reading &R) {
    auto Read = llvm::find_if(
        R.Constructs, [&](unsigned Off) { return !R.Skipped.contains(Off); });
    SourceLocation Inc = SM.getIncludeLoc(FID);
    // One read through -include is the host slice's to refuse.
    if (Read == R.Constructs.end() || Inc.isInvalid() ||
        !SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Inc))))
      return;
    Entry E;
    E.Header = SM.getFileEntryRefForID(FID)->getName().str();
    E.Line = SM.getLineNumber(FID, *Read);
    E.Col = SM.getColumnNumber(FID, *Read);
    Inc = SM.getExpansionLoc(Inc);
    FileID Includer = SM.getFileID(Inc);
    E.Offset = SM.getFileOffset(Inc);
    if (Includer == SM.getMainFileID()) {
      E.InputOffset = E.Offset;
      Found = std::move(E);
      return;
    }
    E.Includer = SM.getFileEntryRefForID(Includer)->getName().str();
    E.Where = {SM.getLineNumber(Includer, E.Offset),
               SM.getColumnNumber(Includer, E.Offset)};
    E.LineText = SourceFile(E.Includer, SM.getBufferData(Includer).str())
                     .lineText(E.Offset)
                     .str();
    while (Inc.isValid() && SM.getFileID(Inc) != SM.getMainFileID())
      Inc = SM.getIncludeLoc(SM.getFileID(Inc));
    if (Inc.isValid())
      E.InputOffset = SM.getFileOffset(SM.getExpansionLoc(Inc));
    Found = std::move(E);
  }

  SourceManager &SM;
  HeaderSearch &HS;
  const DialectScope &Scope;
  std::optional<Entry> &Found;
  /// The dialect headers entered and not yet left.
  llvm::DenseMap<FileID, Reading> Open;
};

/// The pass, for messages: 0 is the host pass, else __CUDA_ARCH__ / 10.
std::string passName(unsigned CC) {
  if (!CC)
    return "nvcc's host pass (with __CUDACC__ and __NVCC__ defined)";
  return "nvcc's device pass for sm_" + std::to_string(CC) +
         " (__CUDA_ARCH__ " + std::to_string(CC * 10) + ")";
}

/// nvcc's passes for \p Archs: the host's (0), then each device pass's
/// compute capability once.
std::vector<unsigned> nvccPasses(const ArchList &Archs) {
  std::vector<unsigned> Passes = {0};
  for (const Arch &A : Archs.archs())
    if (Passes.back() != A.CC)
      Passes.push_back(A.CC);
  return Passes;
}

/// Runs \p Action over \p Path (in \p Files) as nvcc's pass \p CC
/// preprocesses it. What the pass makes of the code is nvcc's to report
/// (the toolkit's '#error' for a Clang newer than it knows among it);
/// returns whether it read all of the input: no fatal error (a header not
/// found) stopped it.
bool runPass(llvm::StringRef Path, llvm::IntrusiveRefCntPtr<FileManager> Files,
             const HostSliceOptions &Opts, unsigned CC,
             std::unique_ptr<FrontendAction> Action) {
  std::vector<std::string> Args =
      clangCommandLine(Opts.Toolkit, Opts.Flags,
                       {ClangMode::NvccPass, Opts.RuntimeInclude, CC}, Path);
  struct Fatal : public DiagnosticConsumer {
    bool Failed = false;
    void HandleDiagnostic(DiagnosticsEngine::Level L,
                          const Diagnostic &) override {
      Failed |= L == DiagnosticsEngine::Fatal;
    }
  } Errors;
  tooling::ToolInvocation Invocation(Args, std::move(Action), Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  return Invocation.run() && !Errors.Failed;
}

/// Gathers the input's ranges a pass skips.
class SkippedInInput : public PPCallbacks {
public:
  SkippedInInput(SourceManager &SM, RangeSet &Skipped)
      : SM(SM), Skipped(Skipped) {}
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
    if (SM.isWrittenInMainFile(Begin))
      Skipped.add({SM.getFileOffset(Begin),
                   SM.getFileOffset(SM.getExpansionLoc(Range.getEnd()))});
  }

private:
  SourceManager &SM;
  RangeSet &Skipped;
};

/// Watches the dialect headers a pass enters and gathers the input's
/// ranges it skips.
class ReadingAction : public PreprocessOnlyAction {
public:
  ReadingAction(const HostSliceOptions &Opts, std::optional<Entry> &Found,
                RangeSet &Skipped)
      : Scope(Opts), Found(Found), Skipped(Skipped) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(std::make_unique<Watch>(
        CI.getSourceManager(), PP.getHeaderSearchInfo(), Scope, Found));
    PP.addPPCallbacks(
        std::make_unique<SkippedInInput>(CI.getSourceManager(), Skipped));
    return true;
  }

private:
  DialectScope Scope;
  std::optional<Entry> &Found;
  RangeSet &Skipped;
};

llvm::Error refuse(const SourceFile &File, const HostSliceOptions &Opts,
                   const Entry &E, unsigned CC) {
  std::string Header =
      displayHeaderPath(File.path(), Opts.RuntimeInclude, E.Header);
  std::string Message =
      "header '" + Header + "' contains meta constructs (at " + Header + ":" +
      std::to_string(E.Line) + ":" + std::to_string(E.Col) + ") and " +
      passName(CC) +
      " reads it through this #include, which a host compiler's reading "
      "of the file, metacu's, does not take (a condition on __CUDA_ARCH__, "
      "__CUDACC__ or __NVCC__, or a header name from a macro that differs "
      "between the passes): nvcc would compile it unexpanded; include it "
      "where every pass does and select per architecture with 'if codegen "
      "(__nvvm_arch ...)'";
  if (E.Includer.empty())
    return errorAt(E.Offset, Message);
  std::string Includer =
      displayHeaderPath(File.path(), Opts.RuntimeInclude, E.Includer);
  // The input's line that reads the includer: its #include, or the one
  // that spliced in the header holding it.
  unsigned IncludedAt = 0;
  if (E.InputOffset) {
    Origin From = File.origin(*E.InputOffset);
    Message += " ('" + Includer + "' is read from " + From.Path.str() + ":" +
               std::to_string(From.Where.Line) + ")";
    IncludedAt = From.IncludedAt ? From.IncludedAt : From.Where.Line;
  } else {
    Message += " ('" + Includer + "' is read through -include)";
  }
  return llvm::make_error<SourceError>(
      displayHeaderPath(File.path(), Opts.RuntimeInclude, E.Includer), E.Where,
      E.LineText, std::move(Message), "error", IncludedAt);
}

} // namespace

/// What one pass read: whether all of the input, the first dialect header
/// it entered, the input's ranges it skipped.
struct NvccPassRuns::Reading {
  bool Complete = false;
  std::optional<Entry> Found;
  RangeSet Skipped;
};

struct NvccPassRuns::State {
  const SourceFile &File;
  const ScanResult &Scan;
  const HostSliceOptions &Opts;
  std::vector<unsigned> Passes;
  std::vector<std::optional<Reading>> Read;
  llvm::SmallString<256> Path;
  llvm::IntrusiveRefCntPtr<FileManager> Files;

  /// The reading of the \p I th pass, run the first time.
  const Reading &reading(size_t I) {
    if (Read[I])
      return *Read[I];
    if (!Files) {
      Path = File.path();
      llvm::sys::fs::make_absolute(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      Files = maskedFiles(File, Scan, Path);
    }
    Reading R;
    R.Complete =
        runPass(Path, Files, Opts, Passes[I],
                std::make_unique<ReadingAction>(Opts, R.Found, R.Skipped));
    return Read[I].emplace(std::move(R));
  }
};

NvccPassRuns::NvccPassRuns(const SourceFile &File, const ScanResult &Scan,
                           const ArchList &Archs, const HostSliceOptions &Opts)
    : S(new State{File, Scan, Opts, nvccPasses(Archs), {}, {}, nullptr}) {
  S->Read.resize(S->Passes.size());
}

NvccPassRuns::~NvccPassRuns() = default;

unsigned NvccPassRuns::runs() const {
  return llvm::count_if(S->Read, [](const auto &R) { return R.has_value(); });
}

llvm::Error checkNvccPasses(NvccPassRuns &Passes) {
  NvccPassRuns::State &S = *Passes.S;
  for (size_t I = 0; I < S.Passes.size(); ++I)
    if (const std::optional<Entry> &Found = S.reading(I).Found)
      return refuse(S.File, S.Opts, *Found, S.Passes[I]);
  return llvm::Error::success();
}

void settleArchConditionals(NvccPassRuns &Passes, HostSliceResult &Slice) {
  NvccPassRuns::State &Runs = *Passes.S;
  RangeSet ArchConditional(Slice.ArchConditional);
  bool Stands = false;
  walkNodes(Runs.Scan.Nodes, [&](const Node &N) {
    if (N.Kind == NodeKind::Text)
      return WalkNext::Siblings;
    if (Slice.Inactive.contains(N.Whole.Begin))
      return WalkNext::Siblings;
    Stands = ArchConditional.contains(N.Whole.Begin);
    return Stands ? WalkNext::Stop : WalkNext::Children;
  });
  if (!Stands)
    return;
  // A region some pass skips: where the passes may part ways.
  std::vector<Range> SkippedBySome;
  for (size_t I = 0; I < Runs.Passes.size(); ++I) {
    const NvccPassRuns::Reading &R = Runs.reading(I);
    if (!R.Complete)
      return;
    llvm::append_range(SkippedBySome, R.Skipped.ranges());
  }
  RangeSet Parting(std::move(SkippedBySome));
  std::vector<Range> Narrowed;
  for (const Range &C : ArchConditional.ranges())
    for (const Range &S : Parting.ranges()) {
      Range Both{std::max(C.Begin, S.Begin), std::min(C.End, S.End)};
      if (!Both.empty())
        Narrowed.push_back(Both);
    }
  Slice.ArchConditional = std::move(Narrowed);
}

} // namespace metacu
