//===- Execute.cpp --------------------------------------------------------===//
#include "expand/Execute.h"
#include "expand/CompiledCopies.h"
#include "expand/PreludeCache.h"
#include "support/Diagnostic.h"
#include "support/ForkServer.h"
#include "toolchain/Invocation.h"

#include "clang/AST/Mangle.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Interpreter/IncrementalExecutor.h"
#include "clang/Interpreter/Interpreter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <mutex>
#include <optional>
#include <sys/resource.h>
#include <unistd.h>

namespace metacu {

namespace {

/// Everything the generator reports while it runs.
struct RunState {
  const SourceFile &File;
  const Generator &G;
  Expansion X;
  std::vector<std::pair<unsigned, std::string>> Errors;
  std::vector<unsigned> ProgramLineStarts;
  size_t OutputBytes = 0;
  /// A runaway '@meta while' must end in an error, not in exhausted memory.
  size_t MaxOutputBytes;
  /// Where the program says which meta statement it is running.
  volatile uint64_t *Running = nullptr;

  RunState(const SourceFile &File, const Generator &G, size_t MaxOutputBytes)
      : File(File), G(G), MaxOutputBytes(MaxOutputBytes) {
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
  llvm::Error takeErrors() {
    llvm::Error All = llvm::Error::success();
    std::vector<unsigned> Seen;
    for (auto &[Offset, Msg] : Errors) {
      if (llvm::is_contained(Seen, Offset))
        continue;
      Seen.push_back(Offset);
      All = llvm::joinErrors(std::move(All), errorAt(Offset, Msg));
    }
    Errors.clear();
    return All;
  }

  /// Counts one more event of \p N bytes of output; false once there are
  /// too many. The record counts as well as its text: a loop that emits
  /// empty blocks forever must stop too.
  bool grow(unsigned At, size_t N) {
    if (OutputBytes > MaxOutputBytes)
      return false;
    OutputBytes += N + sizeof(Event);
    if (OutputBytes <= MaxOutputBytes)
      return true;
    // The meta statement running (the runaway loop) says more than the
    // piece of output that happened to cross the limit.
    if (Running && *Running)
      At = unsigned(*Running);
    Errors.push_back(
        {At, "the expansion exceeds " + std::to_string(MaxOutputBytes >> 20) +
                 " MiB; is a meta loop running away? (--max-expansion "
                 "raises the limit)"});
    return false;
  }
};

RunState &state(void *Ctx) { return *static_cast<RunState *>(Ctx); }

extern "C" int hostText(void *Ctx, unsigned B, unsigned E) {
  RunState &S = state(Ctx);
  if (E < B || E > S.File.size())
    return 0;
  if (!S.grow(B, E - B))
    return 1;
  S.X.Events.push_back(Event::text(B, E));
  return 0;
}

extern "C" int hostCode(void *Ctx, unsigned At, const char *P, size_t N) {
  RunState &S = state(Ctx);
  if (!S.grow(At, N))
    return 1;
  S.X.Events.push_back(Event::code(At, std::string(P, N)));
  return 0;
}

extern "C" void hostDirective(void *Ctx, unsigned At,
                              metacu_directive_kind Kind, uint64_t Mask) {
  // Directives follow the code of a branch, which has been counted; one
  // past the limit is harmless.
  state(Ctx).grow(At, 0);
  state(Ctx).X.Events.push_back(Event::directive(At, Kind, Mask));
}

extern "C" void hostError(void *Ctx, unsigned At, unsigned GenLine,
                          unsigned GenCol, const char *Msg) {
  RunState &S = state(Ctx);
  if (GenLine)
    if (auto O = S.fromProgram(GenLine, GenCol))
      At = *O;
  S.Errors.push_back({At, Msg});
}

extern "C" void hostDepend(void *Ctx, const char *Path) {
  auto &Files = state(Ctx).X.DataFiles;
  if (!llvm::is_contained(Files, Path))
    Files.push_back(Path);
}

/// Where the program is cut into pieces compiled one on another, each
/// once (ExecuteOptions::KeepInterpreter): after its headers and after its
/// start (Generator::HeadersEnd, StartEnd), where it has them.
llvm::SmallVector<size_t, 2> programCuts(const Generator &G) {
  llvm::SmallVector<size_t, 2> Cuts;
  if (G.HeadersEnd && (!G.StartEnd || G.HeadersEnd < G.StartEnd))
    Cuts.push_back(G.HeadersEnd);
  if (G.StartEnd)
    Cuts.push_back(G.StartEnd);
  return Cuts;
}

/// What the interpreter parses before the program's text from \p From on,
/// compiled on its own: a #line directive keeps the lines the program's
/// own, which errors meta code throws carry (std::source_location).
std::string pieceHead(const Generator &G, size_t From) {
  if (!From)
    return "";
  return "#line " +
         std::to_string(
             llvm::count(llvm::StringRef(G.Program).take_front(From), '\n') +
             1) +
         "\n";
}

/// The offset in the input of \p L, a place in the program's own buffer:
/// the whole program, or a piece of it between two cuts compiled apart.
std::optional<unsigned> programToInput(const clang::SourceManager &SM,
                                       clang::SourceLocation L,
                                       const Generator &G) {
  if (L.isInvalid())
    return std::nullopt;
  L = SM.getExpansionLoc(L);
  // The interpreter ends its copy of a piece with a newline.
  auto Holds = [](llvm::StringRef Data, llvm::StringRef Piece) {
    return Data.starts_with(Piece) && Data.size() <= Piece.size() + 1;
  };
  llvm::StringRef Data = SM.getBufferData(SM.getFileID(L));
  unsigned Offset = SM.getFileOffset(L);
  llvm::SmallVector<size_t, 4> Bounds{0};
  llvm::append_range(Bounds, programCuts(G));
  Bounds.push_back(G.Program.size());
  for (size_t B = 0; B < Bounds.size(); ++B) {
    std::string Head = pieceHead(G, Bounds[B]);
    if (!Data.starts_with(Head) || Offset < Head.size())
      continue;
    for (size_t E = B + 1; E < Bounds.size(); ++E)
      if (Holds(Data.drop_front(Head.size()),
                llvm::StringRef(G.Program).slice(Bounds[B], Bounds[E])))
        return G.Map.toInput(Offset - Head.size() + Bounds[B]);
  }
  return std::nullopt;
}

/// Sends the interpreter's diagnostics back to the user's file. An error in
/// a header (a failed static_assert in the generator library, say) is
/// reported at the first of its notes that points into the program; one in
/// a library header in the dialect spliced into the program (metacu's
/// own), at the first note that points at the user's code, when there is
/// one (the instantiation or call that led there).
class MappingConsumer : public clang::DiagnosticConsumer {
public:
  explicit MappingConsumer(RunState &S) : S(S) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L == clang::DiagnosticsEngine::Note) {
      if (Pending && (!Pending->Mapped || inLibrary(Pending->Offset)))
        if (auto O = map(Info)) {
          if (Pending->Mapped && !inLibrary(*O)) {
            Origin Lib = S.File.origin(Pending->Offset);
            Pending->Message += " (in " + Lib.Path.str() + ":" +
                                std::to_string(Lib.Where.Line) + ")";
          }
          if (!Pending->Mapped || !inLibrary(*O))
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
    Pending = PendingError{reword(Msg), 0, false, presumed(Info)};
    if (auto O = map(Info)) {
      Pending->Offset = *O;
      Pending->Mapped = true;
    }
  }

  void flush() {
    if (!Pending)
      return;
    const std::optional<Place> &Where = Pending->Where;
    if (Pending->Mapped)
      S.Errors.push_back({Pending->Offset, Pending->Message});
    else if (Where && !optionBehindBuffer(Where->File).empty())
      Unmapped.push_back(llvm::createStringError(
          Pending->Message + " (" + optionBehindBuffer(Where->File) + ")"));
    else if (Where && !isMetacusOwn(Where->File))
      Unmapped.push_back(llvm::make_error<SourceError>(
          Where->File, Where->At, std::nullopt, Pending->Message));
    else
      // A place in metacu's own buffers or headers would mean nothing to
      // the user; what went wrong still does.
      Unmapped.push_back(llvm::createStringError(
          Pending->Message + " (in the generator program metacu wrote for "
                             "this file; --dump-generator prints it)"));
    Pending.reset();
  }

  /// Errors outside the user's code, at their place (if any).
  std::vector<llvm::Error> Unmapped;

  /// metacu's runtime headers, the generator library among them.
  std::string RuntimeInclude;

private:
  /// The lowering checks that a meta value used in ordinary code can be
  /// spelled with a static_assert; say what that failure means.
  static std::string reword(llvm::StringRef Msg) {
    llvm::StringRef Head = "static assertion failed due to requirement "
                           "'::metacu::detail::has_spelling<";
    size_t End = Msg.find(">': ");
    if (!Msg.starts_with(Head) || End == llvm::StringRef::npos)
      return Msg.str();
    llvm::StringRef Type = Msg.slice(Head.size(), End);
    return ("meta value of type '" + Type +
            "' has no constant spelling in ordinary code (only numbers, "
            "booleans, enumerators, strings and aggregates of those have "
            "one); a static_assert on it is checked at generation time if "
            "its condition names only meta variables and what meta code "
            "sees (no local, member or template parameter)")
        .str();
  }

  bool inLibrary(unsigned Offset) const {
    return S.File.origin(Offset).Library;
  }

  /// The interpreter's buffers ("input_line_2") and metacu's headers.
  bool isMetacusOwn(llvm::StringRef Path) const {
    return Path.starts_with("input_line_") ||
           (!RuntimeInclude.empty() && Path.starts_with(RuntimeInclude));
  }

  /// A diagnostic's presumed place, kept apart from the SourceManager,
  /// which may be gone when it is flushed.
  struct Place {
    std::string File;
    LineCol At;
  };
  struct PendingError {
    std::string Message;
    unsigned Offset;
    bool Mapped;
    std::optional<Place> Where;
  };

  std::optional<unsigned> map(const clang::Diagnostic &Info) {
    if (!Info.hasSourceManager())
      return std::nullopt;
    return programToInput(Info.getSourceManager(), Info.getLocation(), S.G);
  }

  static std::optional<Place> presumed(const clang::Diagnostic &Info) {
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
      return std::nullopt;
    clang::PresumedLoc P =
        Info.getSourceManager().getPresumedLoc(Info.getLocation());
    if (P.isInvalid())
      return std::nullopt;
    return Place{P.getFilename(), {P.getLine(), P.getColumn()}};
  }

  RunState &S;
  std::optional<PendingError> Pending;
};

/// The functions and variables of the input that meta code uses and that
/// nothing defines: declared only (a __device__ function defined
/// elsewhere, an extern variable), with no symbol in this process either,
/// where the JIT would look next. The JIT's link error names no place and
/// lists every symbol of the program; these errors are at the
/// declarations.
void reportUndefined(const clang::DeclContext &DC, clang::ASTContext &Ctx,
                     clang::MangleContext &Mangle, const Generator &G,
                     RunState &S) {
  for (const clang::Decl *D : DC.decls()) {
    if (const auto *Inner = llvm::dyn_cast<clang::DeclContext>(D))
      if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl,
                    clang::CXXRecordDecl>(D))
        reportUndefined(*Inner, Ctx, Mangle, G, S);
    const auto *ND = llvm::dyn_cast<clang::NamedDecl>(D);
    if (!ND || !ND->isUsed())
      continue;
    bool Defined = false;
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(ND))
      Defined = FD->isDefined() || FD->getBuiltinID() || FD->isImplicit() ||
                FD->isDependentContext();
    else if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(ND))
      Defined = !VD->hasExternalStorage() || VD->getDefinition();
    else
      continue;
    if (Defined)
      continue;
    std::optional<unsigned> At =
        programToInput(Ctx.getSourceManager(), ND->getLocation(), G);
    if (!At)
      continue;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    if (Mangle.shouldMangleDeclName(ND))
      Mangle.mangleName(clang::GlobalDecl(ND), OS);
    else
      OS << ND->getName();
    if (dlsym(RTLD_DEFAULT, Name.c_str()))
      continue;
    S.Errors.push_back(
        {*At, "'" + ND->getQualifiedNameAsString() +
                  "' is used by meta code, which runs on the host at "
                  "generation time, but has no host definition there (a "
                  "__device__ function, or one only declared): define it "
                  "in this file or a header it includes, __host__ "
                  "__device__ if device code calls it too"});
  }
}

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

/// How the child process that runs the program hands its results back:
/// length-prefixed fields, in the order they are written.
class WireWriter {
public:
  explicit WireWriter(llvm::raw_ostream &OS) : OS(OS) {}
  void u64(uint64_t V) { OS.write(reinterpret_cast<const char *>(&V), 8); }
  void str(llvm::StringRef S) {
    u64(S.size());
    OS << S;
  }

private:
  llvm::raw_ostream &OS;
};

class WireReader {
public:
  explicit WireReader(llvm::StringRef Data) : Data(Data) {}
  bool u64(uint64_t &V) {
    if (Data.size() < 8)
      return false;
    std::memcpy(&V, Data.data(), 8);
    Data = Data.drop_front(8);
    return true;
  }
  bool str(std::string &S) {
    uint64_t N;
    if (!u64(N) || Data.size() < N)
      return false;
    S = Data.take_front(N).str();
    Data = Data.drop_front(N);
    return true;
  }
  bool done() const { return Data.empty(); }

private:
  llvm::StringRef Data;
};

enum WireError : uint64_t { InInput, InFile, Plain };

/// Writes what a run produced: \p Err (which it consumes), and the
/// expansion when there is no error.
void writeRun(llvm::raw_ostream &OS, const Expansion &X, llvm::Error Err) {
  WireWriter W(OS);
  std::vector<std::function<void()>> Records;
  llvm::handleAllErrors(
      std::move(Err),
      [&](const LocatedError &E) {
        Records.push_back([&W, Offset = E.offset(), Msg = E.text()] {
          W.u64(InInput);
          W.u64(Offset);
          W.str(Msg);
        });
      },
      [&](const SourceError &E) {
        Records.push_back(
            [&W, Path = E.path().str(), Where = E.where(), Msg = E.text()] {
              W.u64(InFile);
              W.str(Path);
              W.u64(Where.Line);
              W.u64(Where.Col);
              W.str(Msg);
            });
      },
      [&](const llvm::ErrorInfoBase &E) {
        Records.push_back([&W, Msg = E.message()] {
          W.u64(Plain);
          W.str(Msg);
        });
      });
  W.u64(Records.size());
  for (auto &R : Records)
    R();
  if (!Records.empty())
    return;
  W.u64(X.Events.size());
  for (const Event &E : X.Events) {
    W.u64(E.K);
    W.u64(E.Begin);
    W.u64(E.End);
    W.u64(E.DirectiveKind);
    W.u64(E.Mask);
    W.str(E.Generated);
  }
  W.u64(X.DataFiles.size());
  for (const std::string &D : X.DataFiles)
    W.str(D);
}

/// Reads what writeRun() wrote.
llvm::Expected<Expansion> readRun(llvm::StringRef Data) {
  WireReader R(Data);
  auto Damaged = [] {
    return llvm::createStringError(
        "the process running meta code sent back damaged results");
  };
  uint64_t NErrors;
  if (!R.u64(NErrors))
    return Damaged();
  llvm::Error All = llvm::Error::success();
  for (uint64_t I = 0; I < NErrors; ++I) {
    uint64_t Kind, A = 0, B = 0;
    std::string Path, Msg;
    bool Ok = R.u64(Kind);
    if (Ok && Kind == InInput)
      Ok = R.u64(A) && R.str(Msg);
    else if (Ok && Kind == InFile)
      Ok = R.str(Path) && R.u64(A) && R.u64(B) && R.str(Msg);
    else if (Ok)
      Ok = R.str(Msg);
    if (!Ok) {
      llvm::consumeError(std::move(All));
      return Damaged();
    }
    llvm::Error E =
        Kind == InInput ? errorAt(unsigned(A), Msg)
        : Kind == InFile
            ? llvm::Error(llvm::make_error<SourceError>(
                  Path, LineCol{unsigned(A), unsigned(B)}, std::nullopt, Msg))
            : llvm::createStringError(Msg);
    All = llvm::joinErrors(std::move(All), std::move(E));
  }
  if (NErrors)
    return std::move(All);
  Expansion X;
  uint64_t NEvents;
  if (!R.u64(NEvents))
    return Damaged();
  for (uint64_t I = 0; I < NEvents; ++I) {
    Event E;
    uint64_t Kind, Begin, End, Directive;
    if (!R.u64(Kind) || !R.u64(Begin) || !R.u64(End) || !R.u64(Directive) ||
        !R.u64(E.Mask) || !R.str(E.Generated))
      return Damaged();
    E.K = Event::Kind(Kind);
    E.Begin = unsigned(Begin);
    E.End = unsigned(End);
    E.DirectiveKind = metacu_directive_kind(Directive);
    X.Events.push_back(std::move(E));
  }
  uint64_t NData;
  if (!R.u64(NData))
    return Damaged();
  X.DataFiles.resize(NData);
  for (std::string &D : X.DataFiles)
    if (!R.str(D))
      return Damaged();
  if (!R.done())
    return Damaged();
  return X;
}

/// The function gatherInitializers() makes of the constructors of the
/// first \p Pieces pieces of a program compiled apart (programCuts()),
/// which the next piece's run first; none where there are none.
std::string pieceInitializers(unsigned Pieces) {
  return Pieces ? "__metacu_start_initializers_" + std::to_string(Pieces) : "";
}

/// Moves the global constructors of \p M, in their order, into one function
/// named \p Name, which the program runs inside its handler (host_api.h)
/// rather than the JIT as global constructors; it calls \p First, if any,
/// before them.
void gatherInitializers(llvm::Module &M,
                        llvm::StringRef Name = METACU_INITIALIZERS,
                        llvm::StringRef First = "") {
  std::vector<std::pair<uint64_t, llvm::Function *>> Ctors;
  if (llvm::GlobalVariable *GV = M.getGlobalVariable("llvm.global_ctors")) {
    if (auto *List = llvm::dyn_cast<llvm::ConstantArray>(GV->getInitializer()))
      for (const llvm::Use &U : List->operands()) {
        auto *Entry = llvm::cast<llvm::ConstantStruct>(U.get());
        auto *Priority = llvm::cast<llvm::ConstantInt>(Entry->getOperand(0));
        if (auto *F = llvm::dyn_cast<llvm::Function>(
                Entry->getOperand(1)->stripPointerCasts()))
          Ctors.push_back({Priority->getZExtValue(), F});
      }
    GV->eraseFromParent();
  }
  llvm::stable_sort(Ctors, llvm::less_first());
  llvm::LLVMContext &Ctx = M.getContext();
  llvm::FunctionType *Type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx), false);
  llvm::Function *Init =
      llvm::Function::Create(Type, llvm::GlobalValue::ExternalLinkage, Name, M);
  // Exceptions unwind through it to the program's handler.
  Init->setUWTableKind(llvm::UWTableKind::Default);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(Ctx, "entry", Init));
  if (!First.empty())
    B.CreateCall(M.getOrInsertFunction(First, Type));
  for (auto &[Priority, F] : Ctors)
    B.CreateCall(F->getFunctionType(), F);
  B.CreateRetVoid();
}

/// The compiler an interpreter with command line \p Args is built on.
llvm::Expected<std::unique_ptr<clang::CompilerInstance>>
interpreterCompiler(const std::vector<std::string> &Args) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  clang::IncrementalCompilerBuilder CB;
  CB.SetCompilerArgs(Argv);
  return CB.CreateCpp();
}

/// Whether the input an interpreter with command line \p Args reads first
/// compiles: the predefines, with the user's -D and -U, and the files of
/// -include. Clang 22's Interpreter crashes (IncrementalAction::GenModule)
/// when it does not, so that input is compiled alone first, its errors
/// reported to \p Diags.
bool firstInputCompiles(const std::vector<std::string> &Args,
                        clang::DiagnosticConsumer &Diags) {
  auto CI = interpreterCompiler(Args);
  if (!CI) {
    llvm::consumeError(CI.takeError());
    return false;
  }
  (*CI)->getDiagnostics().setClient(&Diags, /*ShouldOwnClient=*/false);
  clang::SyntaxOnlyAction Parse;
  if (!Parse.BeginSourceFile(**CI, (*CI)->getFrontendOpts().Inputs[0]))
    return false;
  bool Ok = !Parse.Execute() && !(*CI)->getDiagnostics().hasErrorOccurred();
  Parse.EndSourceFile();
  return Ok;
}

/// An interpreter that has compiled and run \p Prelude, reporting to
/// \p Diags.
llvm::Expected<std::unique_ptr<clang::Interpreter>>
startInterpreter(const std::vector<std::string> &Args,
                 clang::DiagnosticConsumer &Diags, llvm::StringRef Prelude) {
  auto CI = interpreterCompiler(Args);
  if (!CI)
    return CI.takeError();
  (*CI)->getDiagnostics().setClient(&Diags, /*ShouldOwnClient=*/false);
  auto Host = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!Host)
    return Host.takeError();
  // The large code model: the JIT places code and data wherever mmap puts
  // them, which under AddressSanitizer (and in principle anywhere) can be
  // more than 2 GiB from each other and from the C++ runtime.
  Host->setCodeModel(llvm::CodeModel::Large);
  // The program is compiled at -O0 and runs once; making its machine code
  // was most of a run, and without the optimizing instruction selector and
  // register allocator (LLJIT's default level) takes half as long.
  Host->setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  auto Executor = std::make_unique<clang::IncrementalExecutorBuilder>();
  Executor->JITBuilder = std::make_unique<llvm::orc::LLJITBuilder>();
  Executor->JITBuilder->setJITTargetMachineBuilder(std::move(*Host));
  // As clang::Interpreter's own builder: JIT'd code a debugger can see.
  Executor->JITBuilder->setPrePlatformSetup([](llvm::orc::LLJIT &J) {
    llvm::consumeError(llvm::orc::enableDebuggerSupport(J));
    return llvm::Error::success();
  });
  auto Interp = clang::Interpreter::create(std::move(*CI), std::move(Executor));
  if (!Interp)
    return Interp.takeError();
  (*Interp)->getCompilerInstance()->getDiagnostics().setClient(
      &Diags, /*ShouldOwnClient=*/false);
  if (auto Err = (*Interp)->ParseAndExecute(Prelude))
    return std::move(Err);
  return std::move(*Interp);
}

/// Compiles the generator library's kept code (metacu/detail/kept_code.h)
/// into \p I, started with the prelude, to machine code, which the copies
/// of \p I that compile programs then share. It is never run.
llvm::Error compileKeptCode(clang::Interpreter &I) {
  // Its errors would be the installation's, not the user's file's.
  I.getCompilerInstance()->getDiagnostics().setClient(
      new clang::IgnoringDiagConsumer, /*ShouldOwnClient=*/true);
  if (auto Err = I.ParseAndExecute("#include <metacu/detail/kept_code.h>"))
    return Err;
  // The JIT makes a module's machine code when a symbol of it is first
  // looked up: here, not in every copy.
  return I.getSymbolAddress("__metacu_kept_code").takeError();
}

/// Compiles \p Piece, the next piece of a program (with its pieceHead()),
/// into \p I, which holds the \p Pieces pieces before it, to machine code.
llvm::Error compilePiece(clang::Interpreter &I, llvm::StringRef Piece,
                         unsigned Pieces) {
  auto PTU = I.Parse(Piece);
  if (!PTU)
    return PTU.takeError();
  gatherInitializers(*PTU->TheModule, pieceInitializers(Pieces + 1),
                     pieceInitializers(Pieces));
  reuseCompiledCopies(I, *PTU->TheModule);
  if (auto Err = I.Execute(*PTU))
    return Err;
  // The JIT makes a module's machine code when a symbol of it is first
  // looked up: here, not in every copy.
  return I.getSymbolAddress(pieceInitializers(Pieces + 1)).takeError();
}

/// One program's compilation and run: what it reports, mapped to the
/// user's file.
class ProgramRun {
public:
  ProgramRun(const SourceFile &File, const Generator &G, size_t MaxOutputBytes,
             const std::string &RuntimeInclude)
      : S(File, G, MaxOutputBytes), Diags(S) {
    Diags.RuntimeInclude = RuntimeInclude;
  }

  /// Everything the run reported, as one error; \p Cause, the
  /// interpreter's own account, only when nothing else says what went
  /// wrong.
  llvm::Error failure(llvm::Error Cause) {
    Diags.flush();
    bool Mapped = !S.Errors.empty();
    bool Any = Mapped || !Diags.Unmapped.empty();
    llvm::Error All = S.takeErrors();
    // Errors outside the user's code follow from those in it; give them
    // only when there is nothing better.
    for (llvm::Error &U : Diags.Unmapped)
      if (Mapped)
        llvm::consumeError(std::move(U));
      else
        All = llvm::joinErrors(std::move(All), std::move(U));
    Diags.Unmapped.clear();
    if (Any)
      llvm::consumeError(std::move(Cause));
    else
      All = llvm::joinErrors(std::move(All), std::move(Cause));
    return All;
  }

  /// Compiles and runs the program on \p I, started with the prelude; where
  /// \p I holds the program's first \p Pieces pieces, up to \p From, only
  /// the rest. It runs in a child process with \p Limits.
  llvm::Expected<Expansion> run(clang::Interpreter &I, size_t From,
                                unsigned Pieces, const std::vector<int> &Passes,
                                const std::string &Dir,
                                const IsolationLimits &Limits) {
    const Generator &G = S.G;
    I.getCompilerInstance()->getDiagnostics().setClient(
        &Diags, /*ShouldOwnClient=*/false);

    auto Host = I.getSymbolAddress("metacu_host");
    if (!Host)
      return Host.takeError();
    auto *API = Host->toPtr<metacu_host_api *>();
    // Until the program runs in its own process, where it gets a word the
    // two processes share.
    volatile uint64_t Running = 0;
    *API = {&S,
            hostText,
            hostCode,
            hostDirective,
            hostError,
            hostDepend,
            Dir.c_str(),
            Passes.data(),
            unsigned(Passes.size()),
            &Running};

    auto PTU = I.Parse(pieceHead(G, From) +
                       llvm::StringRef(G.Program).drop_front(From).str());
    if (!PTU)
      return failure(PTU.takeError());
    {
      clang::ASTContext &Ctx = I.getCompilerInstance()->getASTContext();
      std::unique_ptr<clang::MangleContext> Mangle(Ctx.createMangleContext());
      reportUndefined(*PTU->TUPart, Ctx, *Mangle, G, S);
      if (!S.Errors.empty())
        return failure(llvm::Error::success());
    }
    gatherInitializers(*PTU->TheModule, METACU_INITIALIZERS,
                       pieceInitializers(Pieces));
    // The program is compiled to machine code and run in a child process:
    // whatever meta code does, this process reports it.
    auto Run = [&]() -> llvm::Error {
      StdoutToStderr Redirect;
      reuseCompiledCopies(I, *PTU->TheModule);
      if (auto Err = I.Execute(*PTU))
        return failure(std::move(Err));
      auto Run = I.getSymbolAddress(METACU_RUN_INITIALIZERS);
      if (!Run)
        return failure(Run.takeError());
      auto Init = I.getSymbolAddress(METACU_INITIALIZERS);
      if (!Init)
        return failure(Init.takeError());
      Run->toPtr<void (*)(void (*)())>()(Init->toPtr<void (*)()>());
      Diags.flush();
      if (!S.Errors.empty() || !Diags.Unmapped.empty())
        return failure(llvm::Error::success());
      return llvm::Error::success();
    };
    auto Child = runIsolated(
        [&](llvm::raw_ostream &Out, volatile uint64_t &Running) {
          API->running = S.Running = &Running;
          writeRun(Out, S.X, Run());
        },
        Limits);
    if (!Child)
      return Child.takeError();
    if (Child->Failure)
      return errorAt(unsigned(Child->Failure->Progress),
                     Child->Failure->describe(Limits));
    return readRun(Child->Output);
  }

  /// run() in a copy of this process, which leaves \p I as it is: what it
  /// gives, as writeRun() writes it.
  std::string runInCopy(clang::Interpreter &I, size_t From, unsigned Pieces,
                        const std::vector<int> &Passes, const std::string &Dir,
                        const IsolationLimits &Limits) {
    auto Copy = runIsolated(
        [&](llvm::raw_ostream &Out, volatile uint64_t &) {
          auto X = run(I, From, Pieces, Passes, Dir, Limits);
          if (!X)
            writeRun(Out, Expansion(), X.takeError());
          else
            writeRun(Out, *X, llvm::Error::success());
        },
        IsolationLimits());
    if (Copy && !Copy->Failure)
      return std::move(Copy->Output);
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeRun(OS, Expansion(),
             !Copy ? Copy.takeError()
                   : llvm::createStringError(
                         "the process compiling the generator program "
                         "ended: " +
                         Copy->Failure->describe(IsolationLimits())));
    return Out;
  }

  RunState S;
  MappingConsumer Diags;
};

/// What a copy of this process that holds a program's first pieces
/// (KeptCopies::Next) needs to compile and run the program:
/// written by writeProgram(), read by readProgram().
struct ProgramRequest {
  SourceFile File{"", ""};
  Generator G;
  std::vector<int> Passes;
  std::string Dir;
  IsolationLimits Limits;
  uint64_t MaxOutputBytes = 0;
  std::string RuntimeInclude;
};

std::string writeProgram(const SourceFile &File, const Generator &G,
                         const std::vector<int> &Passes, const std::string &Dir,
                         const ExecuteOptions &Opts) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  WireWriter W(OS);
  W.str(File.path());
  W.str(File.text());
  W.u64(File.marks().size());
  for (const SourceFile::Mark &M : File.marks()) {
    W.u64(M.Offset);
    W.str(M.Path);
    W.u64(M.Line);
    W.u64(M.Library);
    W.str(M.LinePath);
    W.u64(M.IncludedAt);
  }
  W.str(G.Program);
  W.u64(G.StartEnd);
  W.u64(G.HeadersEnd);
  W.u64(G.Map.pieces().size());
  for (const SourceMap::Piece &P : G.Map.pieces()) {
    W.u64(P.GenBegin);
    W.u64(P.GenEnd);
    W.u64(P.Input);
    W.u64(P.Verbatim);
  }
  W.u64(Passes.size());
  for (int P : Passes)
    W.u64(uint64_t(P));
  W.str(Dir);
  uint64_t Timeout;
  static_assert(sizeof Timeout == sizeof Opts.Limits.TimeoutSeconds);
  std::memcpy(&Timeout, &Opts.Limits.TimeoutSeconds, sizeof Timeout);
  W.u64(Timeout);
  W.u64(Opts.Limits.MemoryBytes);
  W.u64(Opts.MaxOutputBytes);
  W.str(Opts.RuntimeInclude);
  return Out;
}

std::optional<ProgramRequest> readProgram(llvm::StringRef Data) {
  WireReader R(Data);
  ProgramRequest Q;
  std::string Path, Text;
  uint64_t N;
  if (!R.str(Path) || !R.str(Text) || !R.u64(N))
    return std::nullopt;
  Q.File = SourceFile(std::move(Path), std::move(Text));
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Offset, Line, Library, IncludedAt;
    std::string MarkPath, LinePath;
    if (!R.u64(Offset) || !R.str(MarkPath) || !R.u64(Line) || !R.u64(Library) ||
        !R.str(LinePath) || !R.u64(IncludedAt))
      return std::nullopt;
    Q.File.markOrigin(unsigned(Offset), std::move(MarkPath), unsigned(Line),
                      Library, std::move(LinePath), unsigned(IncludedAt));
  }
  uint64_t StartEnd, HeadersEnd;
  if (!R.str(Q.G.Program) || !R.u64(StartEnd) || !R.u64(HeadersEnd) ||
      !R.u64(N))
    return std::nullopt;
  Q.G.StartEnd = StartEnd;
  Q.G.HeadersEnd = HeadersEnd;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Begin, End, Input, Verbatim;
    if (!R.u64(Begin) || !R.u64(End) || !R.u64(Input) || !R.u64(Verbatim))
      return std::nullopt;
    if (Verbatim)
      Q.G.Map.addVerbatim(unsigned(Begin), unsigned(Input),
                          unsigned(End - Begin));
    else
      Q.G.Map.addAnchor(unsigned(Begin), unsigned(End), unsigned(Input));
  }
  if (!R.u64(N))
    return std::nullopt;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t P;
    if (!R.u64(P))
      return std::nullopt;
    Q.Passes.push_back(int(P));
  }
  uint64_t Timeout;
  if (!R.str(Q.Dir) || !R.u64(Timeout) || !R.u64(Q.Limits.MemoryBytes) ||
      !R.u64(Q.MaxOutputBytes) || !R.str(Q.RuntimeInclude) || !R.done())
    return std::nullopt;
  std::memcpy(&Q.Limits.TimeoutSeconds, &Timeout, sizeof Timeout);
  return Q;
}

/// A process's interpreter, with the first pieces of a program compiled
/// into it (none in the interpreter kept between runs), and a copy of the
/// process kept with one more piece compiled on them.
struct KeptCopies {
  clang::Interpreter *I = nullptr;
  /// What I holds: the program up to CompiledEnd, in Pieces pieces
  /// (programCuts()).
  size_t CompiledEnd = 0;
  unsigned Pieces = 0;
  /// A copy of this process, forked from it, whose I has NextPiece (the
  /// program from CompiledEnd to a cut, with its pieceHead()) compiled on
  /// what this one's holds (to machine code, its constructors gathered
  /// into pieceInitializers(), never run there): it answers the programs
  /// that go on so, each in a copy of its own or of its own Next. I itself
  /// stays as it is: the copy for another piece is forked from it (a piece
  /// compiled in I could not be taken out again: Interpreter::Undo removes
  /// its declarations but not its macros, its headers' include guards
  /// among them). Null: none.
  std::unique_ptr<ForkServer> Next;
  std::string NextPiece;
  /// The CPU milliseconds Next and its own copies have taken, as it last
  /// said; and of those, what this process counts as its children's once it
  /// reaps Next: not what Next's own Next took, which ends when Next does,
  /// reaped by no one here.
  double NextCpu = 0, NextReapedCpu = 0;
  /// A piece that did not compile: programs with it are compiled from
  /// here, whole (which reports why) or from a later cut.
  std::string FailedPiece;
};

/// An interpreter kept between runs, and the copies kept beside it.
struct KeptInterpreter {
  /// As started: the prelude and the kept code compiled.
  std::unique_ptr<clang::Interpreter> I;
  KeptCopies Copies;
};

/// The interpreters kept between runs (ExecuteOptions::KeepInterpreter),
/// by their command line and prelude, the most recently used last. Each
/// holds the precompiled library and its JIT (tens of MiB), so only a few.
struct KeptInterpreters {
  static constexpr size_t Max = 2;
  std::mutex Lock;
  std::vector<std::pair<std::string, KeptInterpreter>> List;

  KeptInterpreter *find(const std::string &Key) {
    auto It = llvm::find_if(List, [&](auto &E) { return E.first == Key; });
    if (It == List.end())
      return nullptr;
    std::rotate(It, It + 1, List.end());
    return &List.back().second;
  }
  KeptInterpreter *keep(const std::string &Key,
                        std::unique_ptr<clang::Interpreter> I) {
    // Only the copies in child processes report anything.
    I->getCompilerInstance()->getDiagnostics().setClient(
        new clang::IgnoringDiagConsumer, /*ShouldOwnClient=*/true);
    if (List.size() == Max)
      List.erase(List.begin());
    List.emplace_back(Key, KeptInterpreter{std::move(I), {}});
    KeptInterpreter &K = List.back().second;
    K.Copies.I = K.I.get();
    return &K;
  }
};

KeptInterpreters &keptInterpreters() {
  // Never destroyed: an interpreter's JIT may not outlive LLVM's own
  // globals, whose order at exit is not this file's to decide.
  static auto *Kept = new KeptInterpreters;
  return *Kept;
}

/// CPU milliseconds of this process and of the processes it waited for.
double processCpuMilliseconds() {
  auto Ms = [](const timeval &T) { return T.tv_sec * 1e3 + T.tv_usec / 1e3; };
  rusage Self{}, Children{};
  getrusage(RUSAGE_SELF, &Self);
  getrusage(RUSAGE_CHILDREN, &Children);
  return Ms(Self.ru_utime) + Ms(Self.ru_stime) + Ms(Children.ru_utime) +
         Ms(Children.ru_stime);
}

/// How a kept copy ran a program, and what it took.
struct KeptRun {
  /// As writeRun() writes it.
  std::string Run;
  Expansion::Compilation How = Expansion::Compilation::FromKeptStart;
  /// CPU milliseconds of the copies, which this process's count lacks
  /// (Expansion::KeptCopyCpuMilliseconds).
  double CopiesCpu = 0;
};

std::optional<KeptRun> runOnKeptPieces(KeptCopies &K, const Generator &G,
                                       llvm::StringRef Request);

/// The answer of the copy that holds \p K to \p Request (writeProgram()):
/// the CPU microseconds it and the copies it reaped have taken so far (its
/// pieces' compilation too: a forked process counts from zero), those of
/// its Next and its copies, how it ran the program, then the run.
std::string answerInCopy(KeptCopies &K, llvm::StringRef Request) {
  std::string Run;
  auto How = Expansion::Compilation::FromKeptStart;
  if (std::optional<ProgramRequest> Q = readProgram(Request)) {
    if (std::optional<KeptRun> R = runOnKeptPieces(K, Q->G, Request)) {
      Run = std::move(R->Run);
      How = R->How;
    } else {
      ProgramRun P(Q->File, Q->G, Q->MaxOutputBytes, Q->RuntimeInclude);
      Run = P.runInCopy(*K.I, K.CompiledEnd, K.Pieces, Q->Passes, Q->Dir,
                        Q->Limits);
    }
  } else {
    llvm::raw_string_ostream RunOS(Run);
    writeRun(RunOS, Expansion(),
             llvm::createStringError(
                 "the program sent to the process holding its start "
                 "was damaged"));
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  WireWriter W(OS);
  W.u64(uint64_t(processCpuMilliseconds() * 1000));
  W.u64(uint64_t(K.NextCpu * 1000));
  W.u64(uint64_t(How));
  OS << Run;
  return Out;
}

/// Forks K.Next, a copy of this process that compiles \p Piece, the
/// program up to \p End, on what K.I holds; sets K.FailedPiece where it
/// does not compile.
void keepPiece(KeptCopies &K, const std::string &Piece, size_t End) {
  K.Next.reset();
  K.NextPiece.clear();
  K.NextCpu = K.NextReapedCpu = 0;
  auto Copy = std::make_shared<KeptCopies>();
  Copy->I = K.I;
  Copy->CompiledEnd = End;
  Copy->Pieces = K.Pieces + 1;
  auto Server = ForkServer::start(
      [&] {
        if (auto Err = compilePiece(*K.I, Piece, K.Pieces)) {
          llvm::consumeError(std::move(Err));
          return false;
        }
        return true;
      },
      [Copy](llvm::StringRef Request) { return answerInCopy(*Copy, Request); });
  if (!Server)
    // No process: programs are compiled from here.
    llvm::consumeError(Server.takeError());
  else if (!*Server)
    K.FailedPiece = Piece;
  else {
    K.Next = std::move(*Server);
    K.NextPiece = Piece;
  }
}

/// Runs the program \p G, whose \p Request (writeProgram()) it is, in the
/// copy that holds its next piece after what K.I holds, forking that copy
/// where the one kept holds another piece, or the piece after it where
/// that piece does not compile. None (no cut after what K.I holds, or
/// none compiles, or the copy ended): the rest is compiled from here.
std::optional<KeptRun> runOnKeptPieces(KeptCopies &K, const Generator &G,
                                       llvm::StringRef Request) {
  for (size_t Cut : programCuts(G)) {
    if (Cut <= K.CompiledEnd)
      continue;
    std::string Piece =
        pieceHead(G, K.CompiledEnd) +
        llvm::StringRef(G.Program).slice(K.CompiledEnd, Cut).str();
    if (Piece == K.FailedPiece)
      continue;
    bool New = !K.Next || K.NextPiece != Piece;
    // The CPU of the copy a new one replaces, which this process reaps and
    // so counts as its own, counted by earlier runs.
    double Reaped = 0;
    if (New) {
      Reaped = K.Next ? K.NextReapedCpu : 0;
      keepPiece(K, Piece, Cut);
      if (!K.Next)
        continue;
    }
    auto Answer = K.Next->call(Request);
    if (!Answer) {
      // The copy ended (what it runs runs in copies of its own).
      llvm::consumeError(Answer.takeError());
      K.Next.reset();
      K.NextPiece.clear();
      return std::nullopt;
    }
    uint64_t OwnMicroseconds = 0, NextMicroseconds = 0, How = 0;
    WireReader R(*Answer);
    R.u64(OwnMicroseconds);
    R.u64(NextMicroseconds);
    R.u64(How);
    KeptRun Run;
    Run.Run = llvm::StringRef(*Answer).drop_front(24).str();
    Run.How = !New ? Expansion::Compilation(How)
              : K.CompiledEnd
                  ? Expansion::Compilation::KeepingItsStartOnKeptHeaders
                  : Expansion::Compilation::KeepingItsStart;
    double Total = (OwnMicroseconds + NextMicroseconds) / 1e3;
    Run.CopiesCpu = Total - K.NextCpu - Reaped;
    K.NextCpu = Total;
    K.NextReapedCpu = OwnMicroseconds / 1e3;
    return Run;
  }
  return std::nullopt;
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

  ProgramRun P(File, G, Opts.MaxOutputBytes, Opts.RuntimeInclude);
  MappingConsumer &Diags = P.Diags;
  auto Failure = [&](llvm::Error Cause) { return P.failure(std::move(Cause)); };
  std::vector<int> Passes{0};
  for (const Arch &A : Archs.archs())
    Passes.push_back(int(A.CC));
  std::string DirStr(Dir);

  std::unique_lock<std::mutex> Keeping;
  std::string Key;
  KeptInterpreter *Kept = nullptr;
  // Whether this run started the kept interpreter.
  bool Started = false;
  if (Opts.KeepInterpreter) {
    Keeping = std::unique_lock<std::mutex>(keptInterpreters().Lock);
    for (const std::string &A : Base)
      Key += A + '\0';
    for (const std::string &A : Rest)
      Key += A + '\0';
    Key += G.Prelude;
    Kept = keptInterpreters().find(Key);
  }

  // Started here, unless kept from an earlier run.
  std::unique_ptr<clang::Interpreter> Interp;
  auto Start = [&]() -> llvm::Error {
    // Only the user's -D, -U and -include can make the first input fail.
    if (llvm::any_of(Opts.Flags.Args, [](llvm::StringRef A) {
          return A.starts_with("-D") || A.starts_with("-U") ||
                 A.starts_with("-include");
        })) {
      std::vector<std::string> Args = Base;
      llvm::append_range(Args, Rest);
      if (!firstInputCompiles(Args, Diags))
        return Failure(llvm::createStringError(
            "the -D, -U and -include options do not compile"));
    }

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
        return llvm::joinErrors(
            Failure(llvm::Error::success()),
            llvm::createStringError("cannot compile the generator library "
                                    "(metacu/detail/generator.h "
                                    "in '%s'); is the installation complete?",
                                    Opts.RuntimeInclude.c_str()));
      }
      Interp = std::move(*I);
    }
    return llvm::Error::success();
  };
  if (!Kept)
    if (auto Err = Start())
      return std::move(Err);
  if (!Opts.KeepInterpreter)
    return P.run(*Interp, 0, 0, Passes, DirStr, Opts.Limits);
  if (!Kept) {
    // A macro of the user's -include can break the kept code (one named
    // like a member it calls): the program then runs as when no
    // interpreter is kept, and the next run tries again.
    if (auto Err = compileKeptCode(*Interp)) {
      llvm::consumeError(std::move(Err));
      // What the failed parse left behind is not the prelude's state: the
      // program runs in another interpreter, started afresh.
      Interp.reset();
      if (auto Err = Start())
        return std::move(Err);
      return P.run(*Interp, 0, 0, Passes, DirStr, Opts.Limits);
    }
    Kept = keptInterpreters().keep(Key, std::move(Interp));
    Started = true;
  }
  // How the program is compiled, where no interpreter was started for it.
  auto Compiled = [&](Expansion::Compilation How) {
    return Started ? Expansion::Compilation::Afresh : How;
  };
  if (std::optional<KeptRun> R = runOnKeptPieces(
          Kept->Copies, G, writeProgram(File, G, Passes, DirStr, Opts))) {
    auto X = readRun(R->Run);
    if (X) {
      X->KeptCopyCpuMilliseconds = R->CopiesCpu;
      X->Compiled = Compiled(R->How);
    }
    return X;
  }
  // The kept interpreter stays as started: the program is compiled and
  // run in a copy of this process.
  auto X = readRun(P.runInCopy(*Kept->I, 0, 0, Passes, DirStr, Opts.Limits));
  if (X)
    X->Compiled = Compiled(Expansion::Compilation::InKeptInterpreter);
  return X;
}

} // namespace metacu
