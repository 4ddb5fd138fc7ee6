//===- Execute.cpp --------------------------------------------------------===//
#include "expand/Execute.h"
#include "support/Diagnostic.h"
#include "expand/PreludeCache.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Interpreter/IncrementalExecutor.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "clang/Interpreter/Interpreter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <optional>
#include <unistd.h>

#include <metacu/detail/host_api.h>

namespace metacu {

namespace {

/// A runaway '@meta while' must end in an error, not in exhausted memory.
constexpr size_t MaxOutputBytes = size_t(256) << 20;

/// Everything the generator reports while it runs.
struct RunState {
  const SourceFile &File;
  const Generator &G;
  Expansion X;
  std::vector<std::pair<unsigned, std::string>> Errors;
  std::vector<unsigned> ProgramLineStarts;
  size_t OutputBytes = 0;

  RunState(const SourceFile &File, const Generator &G) : File(File), G(G) {
    ProgramLineStarts.push_back(0);
    for (unsigned I = 0; I < G.Program.size(); ++I)
      if (G.Program[I] == '\n')
        ProgramLineStarts.push_back(I + 1);
  }

  /// Input offset of a 1-based line:column of the program, if it maps.
  std::optional<unsigned> fromProgram(unsigned Line, unsigned Col) const {
    if (Line == 0 || Line > ProgramLineStarts.size())
      return std::nullopt;
    return G.Map.toInput(ProgramLineStarts[Line - 1] + Col - 1);
  }

  /// One error per location: a failed instantiation in the generator
  /// library repeats the error the lowering placed at the user's line.
  void printErrors() {
    std::vector<unsigned> Seen;
    for (auto &[Offset, Msg] : Errors) {
      if (llvm::is_contained(Seen, Offset))
        continue;
      Seen.push_back(Offset);
      printDiagnostic(llvm::errs(), File, Offset, "error", Msg);
    }
    llvm::errs().flush();
  }

  void grow(unsigned At, size_t N) {
    OutputBytes += N;
    if (OutputBytes <= MaxOutputBytes)
      return;
    Errors.push_back({At, "the expansion exceeds 256 MiB; is a meta loop "
                          "running away?"});
    printErrors();
    std::_Exit(1);
  }
};

RunState &state(void *Ctx) { return *static_cast<RunState *>(Ctx); }

extern "C" void hostText(void *Ctx, unsigned B, unsigned E) {
  RunState &S = state(Ctx);
  if (E < B || E > S.File.size())
    return;
  S.grow(B, E - B);
  Event Ev;
  Ev.K = Event::Text;
  Ev.Begin = B;
  Ev.End = E;
  S.X.Events.push_back(std::move(Ev));
}

extern "C" void hostCode(void *Ctx, unsigned At, const char *P, size_t N) {
  RunState &S = state(Ctx);
  S.grow(At, N);
  Event Ev;
  Ev.K = Event::Code;
  Ev.Begin = At;
  Ev.Generated.assign(P, N);
  S.X.Events.push_back(std::move(Ev));
}

extern "C" void hostDirective(void *Ctx, unsigned At, int Kind,
                              uint64_t Mask) {
  Event Ev;
  Ev.K = Event::Directive;
  Ev.Begin = At;
  Ev.DirectiveKind = Kind;
  Ev.Mask = Mask;
  state(Ctx).X.Events.push_back(std::move(Ev));
}

extern "C" void hostError(void *Ctx, unsigned At, unsigned GenLine,
                          unsigned GenCol, const char *Msg) {
  RunState &S = state(Ctx);
  if (GenLine)
    if (auto O = S.fromProgram(GenLine, GenCol))
      At = *O;
  S.Errors.push_back({At, Msg});
}

extern "C" void hostFatal(void *Ctx) {
  state(Ctx).printErrors();
  std::_Exit(1);
}

extern "C" void hostDepend(void *Ctx, const char *Path) {
  auto &Files = state(Ctx).X.DataFiles;
  if (!llvm::is_contained(Files, Path))
    Files.push_back(Path);
}

/// Sends the interpreter's diagnostics back to the user's file. An error in
/// a header (a failed static_assert in the generator library, say) is
/// reported at the first of its notes that points into the program.
class MappingConsumer : public clang::DiagnosticConsumer {
public:
  explicit MappingConsumer(RunState &S) : S(S) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L == clang::DiagnosticsEngine::Note) {
      if (Pending && !Pending->Mapped)
        if (auto O = map(Info)) {
          Pending->Offset = *O;
          Pending->Mapped = true;
        }
      return;
    }
    if (L < clang::DiagnosticsEngine::Error)
      return;
    flush();
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    Pending = PendingError{reword(Msg), 0, false, describe(Info)};
    if (auto O = map(Info)) {
      Pending->Offset = *O;
      Pending->Mapped = true;
    }
  }

  void flush() {
    if (!Pending)
      return;
    if (Pending->Mapped)
      S.Errors.push_back({Pending->Offset, Pending->Message});
    else
      Unmapped.push_back(Pending->Where + "error: " + Pending->Message);
    Pending.reset();
  }

  std::vector<std::string> Unmapped;

private:
  /// The lowering checks that a meta value used in ordinary code can be
  /// spelled with a static_assert; say what that failure means.
  static std::string reword(llvm::StringRef Msg) {
    llvm::StringRef Head =
        "static assertion failed due to requirement "
        "'::metacu::detail::has_spelling<";
    size_t End = Msg.find(">': ");
    if (!Msg.starts_with(Head) || End == llvm::StringRef::npos)
      return Msg.str();
    llvm::StringRef Type = Msg.slice(Head.size(), End);
    return ("meta value of type '" + Type +
            "' has no constant spelling in ordinary code (only numbers, "
            "booleans, enumerators, strings and aggregates of those have "
            "one)")
        .str();
  }

  struct PendingError {
    std::string Message;
    unsigned Offset;
    bool Mapped;
    std::string Where;
  };

  std::optional<unsigned> map(const clang::Diagnostic &Info) {
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
      return std::nullopt;
    const clang::SourceManager &SM = Info.getSourceManager();
    clang::SourceLocation L = SM.getExpansionLoc(Info.getLocation());
    clang::FileID FID = SM.getFileID(L);
    if (FID != ProgramFID) {
      // The interpreter ends its copy of the program with a newline.
      llvm::StringRef Data = SM.getBufferData(FID);
      if (!Data.starts_with(S.G.Program) ||
          Data.size() > S.G.Program.size() + 1)
        return std::nullopt;
      ProgramFID = FID;
    }
    return S.G.Map.toInput(SM.getFileOffset(L));
  }

  std::string describe(const clang::Diagnostic &Info) const {
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
      return "metacu: ";
    clang::PresumedLoc P =
        Info.getSourceManager().getPresumedLoc(Info.getLocation());
    if (P.isInvalid())
      return "metacu: ";
    return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
           ":" + std::to_string(P.getColumn()) + ": ";
  }

  RunState &S;
  std::optional<PendingError> Pending;
  clang::FileID ProgramFID;
};

/// Meta code's stdout goes to stderr: stdout may be the generated file.
class StdoutToStderr {
public:
  StdoutToStderr() {
    std::fflush(stdout);
    Saved = dup(1);
    dup2(2, 1);
  }
  ~StdoutToStderr() {
    std::fflush(stdout);
    dup2(Saved, 1);
    close(Saved);
  }

private:
  int Saved;
};

/// An interpreter that has compiled and run \p Prelude, reporting to
/// \p Diags.
llvm::Expected<std::unique_ptr<clang::Interpreter>>
startInterpreter(const std::vector<std::string> &Args,
                 clang::DiagnosticConsumer &Diags, llvm::StringRef Prelude) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  clang::IncrementalCompilerBuilder CB;
  CB.SetCompilerArgs(Argv);
  auto CI = CB.CreateCpp();
  if (!CI)
    return CI.takeError();
  (*CI)->getDiagnostics().setClient(&Diags, /*ShouldOwnClient=*/false);
  // The large code model: the JIT places code and data wherever mmap puts
  // them, which under AddressSanitizer (and in principle anywhere) can be
  // more than 2 GiB from each other and from the C++ runtime.
  auto Executor = std::make_unique<clang::IncrementalExecutorBuilder>();
  Executor->CM = llvm::CodeModel::Large;
  auto Interp =
      clang::Interpreter::create(std::move(*CI), std::move(Executor));
  if (!Interp)
    return Interp.takeError();
  (*Interp)->getCompilerInstance()->getDiagnostics().setClient(
      &Diags, /*ShouldOwnClient=*/false);
  if (auto Err = (*Interp)->ParseAndExecute(Prelude))
    return std::move(Err);
  return std::move(*Interp);
}

llvm::Error failed() {
  return llvm::make_error<llvm::StringError>("", llvm::inconvertibleErrorCode());
}

} // namespace

llvm::Expected<Expansion> execute(const SourceFile &File, const Generator &G,
                                  const ArchList &Archs,
                                  const ExecuteOptions &Opts) {
  llvm::SmallString<256> Dir(File.path());
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);

  // The flags that shape the generator library, and so its precompiled
  // form; the user's flags and the input's directory come after.
  auto [Base, Rest] =
      generatorArgs(Opts.Toolkit, Opts.Flags, Opts.RuntimeInclude, Dir);

  RunState S(File, G);
  MappingConsumer Diags(S);
  auto Report = [&]() -> llvm::Error {
    Diags.flush();
    S.printErrors();
    // Errors outside the user's code follow from those in it; show them
    // only when there is nothing better.
    if (S.Errors.empty())
      for (const std::string &U : Diags.Unmapped)
        llvm::errs() << U << '\n';
    return failed();
  };

  std::unique_ptr<clang::Interpreter> Interp;
  llvm::SmallString<256> Header(Opts.RuntimeInclude);
  llvm::sys::path::append(Header, "metacu", "detail", "generator.h");
  if (auto PCH = precompiledPrelude(Opts.CacheDir, Header, Base)) {
    std::vector<std::string> Args = Base;
    Args.insert(Args.end(), {"-include-pch", *PCH});
    llvm::append_range(Args, Rest);
    clang::IgnoringDiagConsumer Ignore;
    auto I = startInterpreter(Args, Ignore, G.Prelude);
    if (I) {
      Interp = std::move(*I);
    } else {
      // Stale (a system header changed since): rebuilt on the next run.
      llvm::consumeError(I.takeError());
      llvm::sys::fs::remove(*PCH);
    }
  }
  if (!Interp) {
    std::vector<std::string> Args = Base;
    llvm::append_range(Args, Rest);
    auto I = startInterpreter(Args, Diags, G.Prelude);
    if (!I) {
      llvm::consumeError(I.takeError());
      llvm::consumeError(Report());
      return llvm::createStringError(
          "cannot compile the generator library (metacu/detail/generator.h "
          "in '%s'); is the installation complete?",
          Opts.RuntimeInclude.c_str());
    }
    Interp = std::move(*I);
  }
  Interp->getCompilerInstance()->getDiagnostics().setClient(
      &Diags, /*ShouldOwnClient=*/false);

  auto Host = Interp->getSymbolAddress("metacu_host");
  if (!Host)
    return Host.takeError();
  std::vector<int> Passes{0};
  for (const Arch &A : Archs.archs())
    Passes.push_back(int(A.CC));
  std::string DirStr(Dir);
  auto *API = Host->toPtr<metacu_host_api *>();
  *API = {&S,      hostText,       hostCode,      hostDirective,
          hostError, hostFatal,    hostDepend,    DirStr.c_str(),
          Passes.data(), unsigned(Passes.size())};

  auto PTU = Interp->Parse(G.Program);
  if (!PTU) {
    llvm::consumeError(PTU.takeError());
    return Report();
  }
  {
    StdoutToStderr Redirect;
    if (auto Err = Interp->Execute(*PTU)) {
      llvm::consumeError(std::move(Err));
      return Report();
    }
  }
  Diags.flush();
  if (!S.Errors.empty() || !Diags.Unmapped.empty())
    return Report();
  return std::move(S.X);
}

} // namespace metacu
