//===- DialectHeaders.cpp -------------------------------------------------===//
#include "expand/DialectHeaders.h"
#include "expand/PresumedLines.h"
#include "support/Diagnostic.h"
#include "support/Tokens.h"
#include "toolchain/Invocation.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace metacu {

std::vector<unsigned> metaConstructOffsets(llvm::StringRef Text) {
  std::vector<unsigned> Out;
  // Most headers have neither; lexing them is not free (CCCL's are large).
  if (!Text.contains('@') && !Text.contains("codegen"))
    return Out;
  std::vector<metacu::Token> Toks = lexRaw(Text);
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    const metacu::Token &A = Toks[I], &B = Toks[I + 1];
    if ((A.isAt() && (B.isIdent("meta") || B.is(tok::l_paren))) ||
        (A.isIdent("if") && B.isIdent("codegen")))
      Out.push_back(A.Offset);
  }
  return Out;
}

std::optional<unsigned> firstMetaConstruct(llvm::StringRef Text) {
  std::vector<unsigned> All = metaConstructOffsets(Text);
  if (All.empty())
    return std::nullopt;
  return All.front();
}

namespace {

std::string realPath(llvm::StringRef P) {
  llvm::SmallString<256> R;
  if (llvm::sys::fs::real_path(P, R))
    return P.str();
  return std::string(R);
}

/// \p To as a path relative to the directory \p From (both real paths).
std::string relativePath(llvm::StringRef From, llvm::StringRef To) {
  llvm::SmallVector<llvm::StringRef> F(llvm::sys::path::begin(From),
                                       llvm::sys::path::end(From));
  llvm::SmallVector<llvm::StringRef> T(llvm::sys::path::begin(To),
                                       llvm::sys::path::end(To));
  size_t Common = 0;
  while (Common < F.size() && Common < T.size() && F[Common] == T[Common])
    ++Common;
  llvm::SmallString<256> R;
  for (size_t I = Common; I < F.size(); ++I)
    llvm::sys::path::append(R, "..");
  for (size_t I = Common; I < T.size(); ++I)
    llvm::sys::path::append(R, T[I]);
  return std::string(R);
}

/// One #include the preprocessor acted on.
struct Directive {
  /// In the including file: the '#', and the file name as written.
  unsigned Hash = 0, NameBegin = 0, NameEnd = 0;
  bool Angled = false;
  /// The file it entered (an index into the entered files), if any.
  int Child = -1;
  /// Skipped by an include guard or '#pragma once': the file's real path.
  std::string Skipped;
  /// Where it was found (real path), and the file's real path.
  std::string FoundIn, Target;
  /// The include search path finds the same file by the name as written,
  /// from any includer: nvcc, reading it in the generated file, does too.
  bool Searchable = false;
  /// The name as written, without its quotes or angle brackets.
  std::string Written;
};

/// One entry into a file: a file included twice is two of them.
struct Entered {
  FileID ID;
  std::string Real;
  /// The preprocessor's name for it: the directory it was found in as
  /// spelled joined with the include name, as nvcc's preprocessor names it.
  std::string Found;
  bool Dialect = false;
  /// It or a file it includes is a dialect header.
  bool Splice = false;
  std::vector<Directive> Directives;
  /// The first line after each `#line N` of it that the preprocessor
  /// kept, and its number (raw offsets).
  std::vector<PresumedLine> Renumbered;
};

/// What the preprocessor did with each #include, file by file.
class IncludeTree : public PPCallbacks {
public:
  IncludeTree(SourceManager &SM, HeaderSearch &HS, std::vector<Entered> &Files,
              const DialectScope &Scope)
      : SM(SM), HS(HS), Files(Files), Scope(Scope) {}

  void InclusionDirective(SourceLocation HashLoc, const clang::Token &,
                          StringRef FileName, bool IsAngled,
                          CharSourceRange Name, OptionalFileEntryRef File,
                          StringRef SearchPath, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    Pending.reset();
    if (Cycle)
      return;
    int Includer = indexOf(SM.getFileID(HashLoc));
    if (Includer < 0 || !File || HashLoc.isMacroID())
      return;
    Directive D;
    D.Hash = SM.getFileOffset(HashLoc);
    D.NameBegin = SM.getFileOffset(SM.getExpansionLoc(Name.getBegin()));
    D.NameEnd = SM.getFileOffset(SM.getExpansionLoc(Name.getEnd()));
    D.Angled = IsAngled;
    D.FoundIn = realPath(SearchPath);
    D.Target = realPath(File->getName());
    D.Searchable = searchable(FileName, File->getName());
    D.Written = FileName.str();
    Files[Includer].Directives.push_back(std::move(D));
    Pending = Includer;
  }

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Cycle)
      return;
    if (Reason == ExitFile && !Open.empty())
      Open.pop_back();
    if (Reason == RenameFile) {
      int I = indexOf(SM.getFileID(SM.getExpansionLoc(Loc)));
      if (I >= 0)
        if (std::optional<PresumedLine> L = keptLineDirective(SM, Loc))
          Files[I].Renumbered.push_back(*L);
    }
    if (Reason != EnterFile)
      return;
    Open.push_back(-1);
    FileID ID = SM.getFileID(Loc);
    auto F = SM.getFileEntryRefForID(ID);
    bool Main = ID == SM.getMainFileID();
    if (!F || (!Main && !Pending))
      return;
    Entered E;
    E.ID = ID;
    E.Real = realPath(F->getName());
    E.Found = F->getName().str();
    // The toolkit's headers, CCCL's, the C++ library's are never in the
    // dialect; the input is the splice's base, not a header.
    E.Dialect = !Main && Scope.covers(*F, HS) &&
                hasMetaConstructs(SM.getBufferData(ID));
    Index[ID] = Files.size();
    Files.push_back(std::move(E));
    if (Pending)
      Files[*Pending].Directives.back().Child = Files.size() - 1;
    Pending.reset();
    Open.back() = Files.size() - 1;
    findCycle();
  }

  /// An include cycle through the dialect, if the preprocessor went
  /// round one: the files of one turn (the file read again first and
  /// last), and the file the input's #include of which leads there.
  struct IncludeCycle {
    std::vector<int> Turn;
    int FromInput;
  };
  std::optional<IncludeCycle> Cycle;

  void FileSkipped(const FileEntryRef &, const clang::Token &,
                   SrcMgr::CharacteristicKind) override {
    if (Pending) {
      Directive &D = Files[*Pending].Directives.back();
      D.Skipped = D.Target;
    }
    Pending.reset();
  }

private:
  /// Whether the file just entered is being read twice already: without
  /// a guard the preprocessor goes round until its nesting limit, and
  /// splicing that many copies of the dialect in one another takes time
  /// that grows with a high power of the depth. (Once is no cycle: a file
  /// under an #ifndef guard is entered again, and skipped, while it is
  /// still being read.)
  void findCycle() {
    std::vector<int> Reading;
    for (int I : Open)
      if (I >= 0)
        Reading.push_back(I);
    std::vector<size_t> Same;
    for (size_t I = 0; I < Reading.size(); ++I)
      if (Files[Reading[I]].Real == Files[Reading.back()].Real)
        Same.push_back(I);
    if (Same.size() < 3)
      return;
    std::vector<int> Turn(Reading.begin() + Same[0],
                          Reading.begin() + Same[1] + 1);
    if (llvm::any_of(Turn, [&](int I) { return I == 0 || Files[I].Dialect; }))
      Cycle = IncludeCycle{std::move(Turn), Reading[1]};
  }

  /// Whether the first search directory holding \p Name holds \p File.
  bool searchable(StringRef Name, StringRef File) const {
    if (llvm::sys::path::is_absolute(Name))
      return false;
    for (const DirectoryLookup &D : HS.search_dir_range()) {
      OptionalDirectoryEntryRef Dir = D.getDirRef();
      if (!Dir)
        continue;
      llvm::SmallString<256> P(Dir->getName());
      llvm::sys::path::append(P, Name);
      if (llvm::sys::fs::exists(P))
        return llvm::sys::fs::equivalent(P, File);
    }
    return false;
  }

  int indexOf(FileID ID) const {
    auto It = Index.find(ID);
    return It == Index.end() ? -1 : It->second;
  }

  SourceManager &SM;
  HeaderSearch &HS;
  std::vector<Entered> &Files;
  const DialectScope &Scope;
  llvm::DenseMap<FileID, int> Index;
  std::optional<int> Pending;
  /// The files being read, innermost last: indices into Files, -1 for a
  /// file not recorded (the predefines, a file -include names).
  std::vector<int> Open;
};

/// Marks the files to splice, given the real paths of those spliced
/// already (\p Spliced); returns whether \p I is one.
bool markSplicesOnce(std::vector<Entered> &Files, int I,
                     const llvm::StringSet<> &Spliced) {
  Entered &E = Files[I];
  bool Splice = E.Dialect;
  for (const Directive &D : E.Directives)
    if (D.Child >= 0)
      Splice |= markSplicesOnce(Files, D.Child, Spliced);
    else if (!D.Skipped.empty() && Spliced.contains(D.Skipped))
      Splice = true;
  Files[I].Splice = Splice;
  return Splice;
}

/// Marks the files to splice: the dialect headers and every file that
/// includes one, also where the preprocessor skips that #include (a guard,
/// '#pragma once'), as a header in a subdirectory does with "../lib.h".
/// Left an #include, such a file has the host slice, then nvcc, enter the
/// dialect header again: the host slice refuses a dialect header it enters,
/// and '#pragma once', which the splice blanks, no longer keeps nvcc out.
/// Spliced, its #include of a header spliced before becomes a blank line.
/// Files that include those follow, until nothing changes.
void markSplices(std::vector<Entered> &Files) {
  llvm::StringSet<> Spliced;
  for (;;) {
    markSplicesOnce(Files, 0, Spliced);
    size_t Before = Spliced.size();
    for (const Entered &E : Files)
      if (E.Splice)
        Spliced.insert(E.Real);
    if (Spliced.size() == Before)
      return;
  }
}

/// Writes the splice of the input and its headers.
class Splicer {
public:
  Splicer(const SourceFile &File, const HostSliceOptions &Opts,
          const std::vector<Entered> &Files, const SourceManager &SM)
      : File(File), Files(Files), SM(SM), RuntimeInclude(Opts.RuntimeInclude) {
    llvm::SmallString<256> Abs(File.path());
    llvm::sys::fs::make_absolute(Abs);
    InputDir = realPath(llvm::sys::path::parent_path(Abs));
    // The input's directory as the preprocessor was given it
    // (spliceDialectHeaders).
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    GivenDir = llvm::sys::path::parent_path(Abs).str();
    if (!Opts.RuntimeInclude.empty())
      RuntimeDir = realPath(Opts.RuntimeInclude);
    for (const Entered &E : Files)
      if (E.Splice)
        SplicedPaths.insert(E.Real);
  }

  SplicedInput run() {
    write(0, {File.path().str(), File.path().str()}, 0);
    SourceFile Result(File.path().str(), std::move(Out));
    for (Mark &M : Marks)
      Result.markOrigin(M.Offset, std::move(M.Name.Shown), M.Line, M.Library,
                        std::move(M.Name.Line), M.IncludedAt);
    return {std::move(Result), std::move(Headers)};
  }

private:
  /// A file's name in messages, and in #line.
  struct Names {
    std::string Shown, Line;
  };
  struct Mark {
    unsigned Offset;
    Names Name;
    unsigned Line;
    bool Library;
    unsigned IncludedAt;
  };

  /// metacu's own headers: libraries in the dialect.
  bool inRuntimeDir(llvm::StringRef Real) const {
    return !RuntimeDir.empty() && Real.starts_with(RuntimeDir + "/");
  }

  /// A header's names. In #line, the name nvcc's preprocessor would give
  /// it (so that __FILE__ and -lineinfo paths are the original build's),
  /// where that name opens from the directory metacu runs in, as the
  /// dependency file needs: found through an -I, relative or absolute, or
  /// from an includer's directory.
  Names namesOf(const Entered &E) const {
    Names N{displayHeaderPath(File.path(), RuntimeInclude, E.Real),
            lineHeaderPath(File.path(), RuntimeInclude, E.Real)};
    std::string Name = spelledFromInput(E.Found);
    if (!inRuntimeDir(E.Real) && llvm::sys::fs::equivalent(Name, E.Real))
      N.Line = Name;
    return N;
  }

  /// The preprocessor's name \p Found of a header with the input's
  /// directory, where it begins with it (a header found from the input's
  /// directory, or from a header's found from there: 'dir/../common/x.h'),
  /// as the user spelled it: the preprocessor was given the input's path
  /// absolute and without dots, nvcc is given the user's.
  std::string spelledFromInput(llvm::StringRef Found) const {
    llvm::StringRef Rest = Found;
    if (!Rest.consume_front(GivenDir) || Rest.empty() ||
        !llvm::sys::path::is_separator(Rest.front()))
      return Found.str();
    llvm::SmallString<256> P(llvm::sys::path::parent_path(File.path()));
    llvm::sys::path::append(P, Rest.drop_front());
    return std::string(P);
  }

  void mark(const Names &N, unsigned Line, bool Library, unsigned IncludedAt,
            size_t Ahead = 0) {
    Marks.push_back(
        {unsigned(Out.size() + Ahead), N, Line, Library, IncludedAt});
  }

  /// Appends file \p I's text, called \p Name, with its spliced headers in
  /// place; \p IncludedAt: the input's #include line that leads there (0
  /// for the input).
  void write(int I, const Names &Name, unsigned IncludedAt) {
    const Entered &E = Files[I];
    // The splice has LF line breaks and no byte order mark, as the input
    // has (expandFile); the preprocessor's offsets are in the raw text.
    UnifiedText Unified(I == 0 ? File.text() : SM.getBufferData(E.ID));
    llvm::StringRef Text = Unified.text();
    // The directives to act on, in order; null for a pragma to drop.
    std::vector<std::pair<unsigned, const Directive *>> Edits;
    for (const Directive &D : E.Directives)
      Edits.push_back({Unified.offset(D.Hash), &D});
    if (I != 0) {
      for (unsigned Offset : headerOnlyPragmas(Text))
        Edits.push_back({Offset, nullptr});
      llvm::sort(Edits, llvm::less_first());
      if (llvm::find(Headers, E.Real) == Headers.end())
        Headers.push_back(E.Real);
    }
    // Its lines as nvcc counts them: on from each `#line N` kept.
    SourceFile Lines(Name.Shown, Text.str());
    std::vector<unsigned> Renumbered;
    for (const PresumedLine &L : E.Renumbered) {
      Renumbered.push_back(Unified.offset(L.Offset));
      Lines.markOrigin(Renumbered.back(), Name.Shown, L.Line);
    }
    bool Library = I != 0 && inRuntimeDir(E.Real);
    mark(Name, 1, Library, IncludedAt);
    // Appends [From, To) of the text, and its renumbered lines' marks.
    auto Copy = [&](size_t From, size_t To) {
      for (unsigned R : Renumbered)
        if (From <= R && R < To)
          mark(Name, Lines.origin(R).Where.Line, Library, IncludedAt, R - From);
      Out += Text.slice(From, To);
    };
    std::string ParentDir = realPath(llvm::sys::path::parent_path(E.Real));
    size_t Pos = 0;
    for (auto [Hash, D] : Edits) {
      if (Hash < Pos)
        continue;
      size_t Begin = Lines.lineStart(Hash);
      size_t End = Text.find('\n', D ? Unified.offset(D->NameEnd) : Hash);
      if (End == llvm::StringRef::npos)
        End = Text.size();
      if (!D || (!D->Skipped.empty() && SplicedPaths.contains(D->Skipped))) {
        // '#pragma once' and '#pragma GCC system_header' would be ignored
        // with a warning in what is now the input; the splice honours the
        // first, and guards: a header spliced already and skipped now
        // leaves a blank line.
        Copy(Pos, Begin);
        Pos = End;
      } else if (D->Child >= 0 && Files[D->Child].Splice) {
        Copy(Pos, Begin);
        write(D->Child, namesOf(Files[D->Child]),
              I == 0 ? Lines.line(Hash) : IncludedAt);
        if (!Out.empty() && Out.back() != '\n')
          Out += '\n';
        Pos = std::min(End + 1, Text.size());
        // The line as nvcc counts it: after the file's own `#line N`.
        mark(Name, Lines.origin(Pos).Where.Line, Library, IncludedAt);
      } else if (I != 0 && !D->Angled && ParentDir != InputDir &&
                 ((D->FoundIn == ParentDir && !D->Searchable) ||
                  shadowedFromInput(*D))) {
        // Found beside the header, and not through the include path (which
        // nvcc searches for it in the generated file as written), or by a
        // name that opens another file from the input's directory (which
        // nvcc searches first from the generated file): the text now reads
        // from the input's directory.
        Copy(Pos, Unified.offset(D->NameBegin));
        Out += "\"" + relativePath(InputDir, D->Target) + "\"";
        Pos = Unified.offset(D->NameEnd);
      }
    }
    Copy(Pos, Text.size());
  }

  /// Whether the quote-include \p D's name as written, looked up first
  /// where the generated file is (the input's directory), opens another
  /// file than the header's include did.
  bool shadowedFromInput(const Directive &D) const {
    if (llvm::sys::path::is_absolute(D.Written))
      return false;
    llvm::SmallString<256> P(InputDir);
    llvm::sys::path::append(P, D.Written);
    return llvm::sys::fs::exists(P) && !llvm::sys::fs::equivalent(P, D.Target);
  }

  /// Offsets of the pragmas of \p Text that mean something in a header
  /// only: '#pragma once', '#pragma GCC system_header' and Clang's
  /// spelling of the latter.
  static std::vector<unsigned> headerOnlyPragmas(llvm::StringRef Text) {
    std::vector<unsigned> Out;
    std::vector<metacu::Token> Toks = lexRaw(Text);
    for (size_t I = 0; I + 2 < Toks.size(); ++I) {
      if (!Toks[I].is(tok::hash) || !Toks[I].StartOfLine ||
          !Toks[I + 1].isIdent("pragma"))
        continue;
      const metacu::Token &Name = Toks[I + 2];
      if (Name.isIdent("once") ||
          ((Name.isIdent("GCC") || Name.isIdent("clang")) &&
           I + 3 < Toks.size() && Toks[I + 3].isIdent("system_header")))
        Out.push_back(Toks[I].Offset);
    }
    return Out;
  }

  const SourceFile &File;
  const std::vector<Entered> &Files;
  const SourceManager &SM;
  std::string InputDir, GivenDir, RuntimeDir, RuntimeInclude;
  llvm::StringSet<> SplicedPaths;
  std::string Out;
  std::vector<Mark> Marks;
  std::vector<std::string> Headers;
};

class SpliceAction : public PreprocessOnlyAction {
public:
  /// \p Failure: why there is no \p Result, if not that the preprocessor
  /// could not run.
  SpliceAction(const SourceFile &File, const HostSliceOptions &Opts,
               std::optional<SplicedInput> &Result,
               std::optional<llvm::Error> &Failure)
      : File(File), Opts(Opts), Scope(Opts), Result(Result), Failure(Failure) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    auto Tree = std::make_unique<IncludeTree>(
        CI.getSourceManager(), PP.getHeaderSearchInfo(), Files, Scope);
    this->Tree = Tree.get();
    PP.addPPCallbacks(std::move(Tree));
    return true;
  }

  void EndSourceFileAction() override {
    if (Files.empty())
      return;
    if (Tree->Cycle) {
      Failure = cycleError(*Tree->Cycle);
      return;
    }
    markSplices(Files);
    Result =
        Splicer(File, Opts, Files, getCompilerInstance().getSourceManager())
            .run();
  }

private:
  /// An error at the input's #include that leads into \p Cycle, with the
  /// chain of #include lines that goes round.
  llvm::Error cycleError(const IncludeTree::IncludeCycle &Cycle) {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    auto Name = [&](int I) {
      return I == 0 ? File.path().str()
                    : displayHeaderPath(File.path(), Opts.RuntimeInclude,
                                        Files[I].Real);
    };
    // The #include of file I that enters file Next.
    auto Include = [&](int I, int Next) {
      return llvm::find_if(Files[I].Directives,
                           [&](const Directive &D) { return D.Child == Next; });
    };
    const std::vector<int> &R = Cycle.Turn;
    std::string Chain;
    for (size_t K = 0; K + 1 < R.size(); ++K)
      Chain += Name(R[K]) + ":" +
               std::to_string(SM.getLineNumber(Files[R[K]].ID,
                                               Include(R[K], R[K + 1])->Hash)) +
               " includes " + Name(R[K + 1]) + (K + 2 < R.size() ? ", " : "");
    return errorAt(Include(0, Cycle.FromInput)->Hash,
                   "#include cycle through the dialect: " + Chain +
                       ", which is being read already; a header cannot "
                       "include what includes it (without a guard the "
                       "preprocessor goes round until its nesting limit)");
  }

  const SourceFile &File;
  const HostSliceOptions &Opts;
  DialectScope Scope;
  std::optional<SplicedInput> &Result;
  std::optional<llvm::Error> &Failure;
  std::vector<Entered> Files;
  IncludeTree *Tree = nullptr;
};

} // namespace

/// \p Real's path under metacu's runtime include directory, if it is there.
static std::optional<std::string> runtimeName(llvm::StringRef RuntimeInclude,
                                              llvm::StringRef Real) {
  if (RuntimeInclude.empty())
    return std::nullopt;
  std::string RuntimeDir = realPath(RuntimeInclude);
  if (!Real.starts_with(RuntimeDir + "/"))
    return std::nullopt;
  return Real.substr(RuntimeDir.size() + 1).str();
}

std::string displayHeaderPath(llvm::StringRef InputPath,
                              llvm::StringRef RuntimeInclude,
                              llvm::StringRef Path) {
  std::string Real = realPath(Path);
  if (auto Name = runtimeName(RuntimeInclude, Real))
    return *Name;
  llvm::SmallString<256> Abs(InputPath);
  llvm::sys::fs::make_absolute(Abs);
  std::string InputDir = realPath(llvm::sys::path::parent_path(Abs));
  llvm::SmallString<256> P(llvm::sys::path::parent_path(InputPath));
  llvm::sys::path::append(P, relativePath(InputDir, Real));
  return std::string(P);
}

std::string lineHeaderPath(llvm::StringRef InputPath,
                           llvm::StringRef RuntimeInclude,
                           llvm::StringRef Path) {
  std::string Real = realPath(Path);
  if (runtimeName(RuntimeInclude, Real))
    return Real;
  return displayHeaderPath(InputPath, RuntimeInclude, Real);
}

llvm::Expected<SplicedInput>
spliceDialectHeaders(const SourceFile &File, const HostSliceOptions &Opts) {
  // What nvcc compiles decides what is spliced: its host pass, which
  // defines __CUDACC__ and __NVCC__, takes an #include under '#ifdef
  // __CUDACC__' that a host compiler's reading would skip.
  std::optional<SplicedInput> Result;
  std::optional<llvm::Error> Failure;
  preprocessAsNvccHostPass(
      File, Opts, std::make_unique<SpliceAction>(File, Opts, Result, Failure));
  if (Failure)
    return std::move(*Failure);
  if (!Result)
    return llvm::createStringError("cannot preprocess '%s' for its dialect "
                                   "headers",
                                   File.path().str().c_str());
  return std::move(*Result);
}

} // namespace metacu
