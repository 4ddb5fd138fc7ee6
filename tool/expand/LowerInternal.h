//===- LowerInternal.h - The parts of the lowering, for its files only ----===//
//
// The lowering is one pass over the construct tree with one state (the
// program written so far, its source map, the brace scopes), so it is one
// class; its parts live in files of their own:
//   Lower.cpp         the pass: sequences of nodes, the program's blocks
//   LowerScopes.cpp   brace scopes and the meta names they declare
//   LowerCode.cpp     ordinary code: text, meta values, directives, braces
//   LowerMeta.cpp     meta statements, loops, ifs, 'if codegen'
//   LowerReflect.cpp  describing enumerations and aggregates to the program
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_LOWERINTERNAL_H
#define METACU_EXPAND_LOWERINTERNAL_H

#include "expand/Lower.h"
#include "expand/MetaNames.h"
#include "support/RangeSet.h"
#include "support/StringLiteral.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu::lowering {

/// The program text after which a run of namespace-level code is closed
/// and a new one begun, at the next point where that is possible.
constexpr size_t MaxRunBytes = 16 << 10;

/// How ordinary code inside a brace behaves: what a meta loop body keeps
/// and whether 'if codegen' is allowed.
enum class ScopeKind {
  Namespace, // the file, a namespace or an extern "C" block
  Class,     // a class body
  Function,  // a function or lambda body, or any block inside one
  Init,      // an initializer list or enumerator list
};

struct Scope {
  ScopeKind Kind = ScopeKind::Namespace;
  /// True once inside a generator block: meta declarations become locals.
  bool InBlock = false;
  /// Meta names declared here (true), or ordinary names that hide an outer
  /// meta name (false).
  llvm::StringMap<bool> Names;
  std::vector<std::string> TemplateParams;
  /// Inside a __device__ function that is not __host__ too.
  bool DeviceOnly = false;
  /// The body of a template over an enumeration, expanded once per
  /// enumerator inside a loop of the program (LowerSpecialize.cpp).
  bool Specializations = false;
  /// ... as a chain of 'if constexpr' branches, one per enumerator.
  bool Branches = false;
  /// Offset of the '{' that opened it, for unbalanced-brace errors.
  unsigned OpenOffset = 0;
  /// Its '}' is written by a guard of the program (openGuardedBlock).
  bool GuardedEnd = false;
  /// The body of a meta construct (pushBodyScope), which its lowering
  /// closes: no '}' in it can.
  bool Body = false;
  /// An 'if codegen' branch whose braces open no scope (outside function
  /// bodies, or 'using if codegen'): its ordinary declarations are the
  /// enclosing scope's.
  bool OpensNoScope = false;
  /// A braced 'if codegen' branch in a function whose braces are not
  /// emitted, since they cannot change what it means (BranchBraces.h).
  bool Unbraced = false;
};

class Lowering {
public:
  Lowering(const SourceFile &File, const ScanResult &Scan,
           const HostSliceResult &Slice, const ArchList &Archs,
           llvm::ArrayRef<unsigned> HostDevice)
      : File(File), Scan(Scan), Toks(Scan.Tokens), Slice(Slice), Archs(Archs),
        HostDevice(HostDevice) {}

  llvm::Expected<Generator> run();

private:
  //===--- Writing the program
  //-----------------------------------------------===//

  void write(llvm::StringRef S) { Out += S; }
  /// Copies input [B, E) into the program, with __LINE__ and __FILE__
  /// replaced by the input's line and file where they would expand.
  void writeVerbatim(unsigned B, unsigned E);
  /// Whether token \p I is the macro a directive defines, undefines or
  /// tests (`#define __FILE__ 1`, `defined(__LINE__)`): a name there, which
  /// a literal in its place would make no directive at all.
  bool namesAMacro(unsigned I) const;
  void copyVerbatim(unsigned B, unsigned E);
  /// Everything written by \p F is attributed to input offset \p At.
  template <class F> void anchored(unsigned At, F Write) {
    unsigned Begin = Out.size();
    Write();
    Map.addAnchor(Begin, Out.size(), At);
  }
  /// Blocks are the initializers of globals, so they run in source order
  /// when the program is loaded. They must not be 'const': Clang defers
  /// const internal variables, and the interpreter then runs their
  /// initializers ahead of the others.
  void ensureRun();
  void closeRun();
  bool atNamespaceLevel() const {
    return Scopes.back().Kind == ScopeKind::Namespace && !Scopes.back().InBlock;
  }
  void emitText(unsigned B, unsigned E);
  void emitCode(unsigned At, llvm::StringRef S);
  /// Opens a block of the program (closeGuardedBlock closes it) whose end
  /// runs the program text \p WriteEnd writes: what closes an output block
  /// opened just before, written on every way out of the block, a '@meta
  /// break' or '@meta continue' of an enclosing meta loop included. Left
  /// early, the indentation of the line at \p EarlyIndent comes first (the
  /// text that holds it was skipped).
  void openGuardedBlock(llvm::function_ref<void()> WriteEnd,
                        std::optional<unsigned> EarlyIndent = std::nullopt);
  void closeGuardedBlock();
  void setLocation(unsigned At);
  std::string indentOf(unsigned Offset) const;
  /// A construct alone on its lines: the lines it occupies disappear from
  /// the output and its expansion brings its own indentation and newline.
  bool ownsLines(const Node &N) const;
  unsigned afterLineEnd(unsigned Offset) const;
  bool isMetaLoop(const Node &N) const {
    return N.Kind == NodeKind::For || N.Kind == NodeKind::ForEnum ||
           N.Kind == NodeKind::While;
  }
  /// Where the '#pragma unroll' line that ends [B, E) begins, else E: the
  /// meta loop after it is unrolled by metacu, and nvcc warns about a
  /// pragma that precedes no loop.
  unsigned unrollPragmaBefore(unsigned B, unsigned E) const;
  bool isInactive(unsigned Offset) const {
    return Slice.Inactive.contains(Offset);
  }
  std::string prelude();
  /// Notes where the statement of \p B, the unbraced body of a meta
  /// construct about to be lowered, begins.
  void noteUnbracedBody(const Branch &B);

  //===--- Sequences (Lower.cpp)
  //---------------------------------------------===//

  llvm::Error lowerSequence(const std::vector<Node> &Nodes, unsigned Begin,
                            unsigned End);
  llvm::Error lowerConstruct(const Node &N);
  llvm::Error lowerMetaConstruct(const Node &N);
  /// Whether \p N, in a function body, is the body of an ordinary 'if',
  /// 'else' or loop rather than a statement of a block (or the unbraced
  /// body of a meta construct, whose copies stand where it stands).
  bool isSubstatement(const Node &N) const;
  /// Whether the code token before \p N is a ','.
  bool followsComma(const Node &N) const;

  //===--- Names and scopes (LowerScopes.cpp)
  //--------------------------------===//

  bool isMetaName(llvm::StringRef N) const;
  bool isTemplateParam(llvm::StringRef N) const;
  void pushBodyScope();
  /// '{' opens a scope whose kind the tokens since the statement start tell.
  void openBrace(unsigned I, unsigned StmtStart);
  std::vector<std::string> templateParameters(unsigned Less) const;
  /// Whether the identifier at \p I is the name in an ordinary declaration
  /// ('int u = ...', 'float u;', '(int u)').
  bool declaresName(unsigned I) const;
  /// If the identifier at \p I is the name of a lambda's init-capture
  /// ('[n = 5]', '[&r = x]'), a name of the lambda's body: the ']' that
  /// ends the captures (their initializers still see the outer names).
  std::optional<unsigned> initCaptureAt(unsigned I) const;
  /// The ordinary declaration at \p I hides a meta name as C++ hides an
  /// outer name: for the rest of its scope, or for the body its parameter
  /// list belongs to.
  llvm::Error hideMetaName(unsigned I);

  //===--- Templates over an enumeration (LowerSpecialize.cpp)
  //----------===//

  struct Specialization {
    /// Tokens: 'template', one past the '>' of its parameter list, the
    /// function's name.
    unsigned Template, Close, Name;
    std::string Var, Type;
    /// The template's other parameters: the body becomes an 'if constexpr'
    /// chain over the enumerators, since a function template cannot be
    /// specialized partially.
    std::vector<std::string> Others;
  };
  /// The function template whose body opens at \p Open, if its one
  /// template parameter is an enumeration that its meta code reads.
  std::optional<Specialization> enumSpecialization(unsigned Open,
                                                   unsigned StmtStart) const;
  void openBranches(const Specialization &S, unsigned Open, unsigned &Pending);
  void openSpecializations(const Specialization &S, unsigned Open,
                           unsigned &Pending);

  //===--- Ordinary code (LowerCode.cpp)
  //-------------------------------------===//

  const SliceDecl *declarationAt(unsigned Offset) const;
  bool isNeededInclude(unsigned LineBegin) const;
  /// Lowers ordinary code in [B, E): text calls, with meta values replaced
  /// and braces mirrored so meta declarations are scoped like C++ ones.
  /// Whether a declaration meta code uses, or a type it describes, lies
  /// in (\p B, \p E].
  bool declaresForMeta(unsigned B, unsigned E) const;
  /// The closing brace of the block opened at \p Open if the block holds
  /// plain code only (no directive, no meta name) and is no namespace body
  /// that declares what meta code uses, so it can be copied with the text
  /// around it.
  std::optional<unsigned> plainBlockEnd(unsigned Open, unsigned StmtStart,
                                        unsigned E) const;
  llvm::Error lowerTokens(unsigned B, unsigned E);
  /// Returns the index of the first token after the directive.
  unsigned lowerDirective(unsigned I, unsigned E, unsigned &Pending);
  /// One past the postfix chain of the meta name at \p I: members,
  /// subscripts and calls ('details.nt', 'cfg[2].vt', 'table.at(sm).nt').
  unsigned chainEnd(unsigned I, unsigned E) const;
  /// The file's #define at \p NameTok (or #undef): which identifiers its
  /// body names, so that a use of it in ordinary code that would hand nvcc
  /// a meta name is refused where the macro is used.
  void recordMacro(unsigned NameTok, unsigned End, bool Define);
  std::optional<std::string> metaNameInMacro(llvm::StringRef Name,
                                             llvm::StringSet<> &Seen) const;
  llvm::Error checkMacroUse(unsigned I) const;
  /// The ordinary 'static_assert' at \p I (ending before \p E) that is
  /// meta code: its condition names a meta variable and nothing the
  /// generator cannot compile (a local, a member, a template parameter).
  /// Then its parts; the program checks it, as '@meta static_assert'.
  std::optional<StaticAssertParts> metaAssertAt(unsigned I, unsigned E) const;
  void emitValue(unsigned B, unsigned E);
  void writeDeclaration(const SliceDecl &D);

  //===--- Reflection (LowerReflect.cpp)
  //-------------------------------------===//

  /// \p Prefix is the spelling of an enumerator minus its name, or empty
  /// for meta-only enumerations.
  void writeEnumReflection(llvm::StringRef Type,
                           const std::vector<std::string> &Enumerators,
                           std::optional<std::string> Prefix);
  void describeTypesAfter(unsigned After);

  //===--- Meta constructs (LowerMeta.cpp)
  //-----------------------------------===//

  llvm::Error lowerStatement(const Node &N);
  llvm::Error lowerStaticAssert(const Node &N, llvm::ArrayRef<Token> HT);
  /// The program checks the static_assert \p P of \p T when it runs; a
  /// failure is reported at input offset \p At.
  void writeMetaAssert(llvm::ArrayRef<Token> T, const StaticAssertParts &P,
                       unsigned At);
  /// Emits one iteration of a loop body or one taken branch.
  llvm::Error emitBody(const Node &N, const Branch &B, bool IsLoop);
  llvm::Error lowerLoop(const Node &N);
  llvm::Error lowerMetaIf(const Node &N);
  llvm::Error lowerCodegen(const Node &N);
  /// Per branch of the chain \p N, whether it is lowered without its
  /// braces (BranchBraces.h).
  std::vector<bool> bracesCanGo(const Node &N) const;
  bool isTemplateDependent(llvm::ArrayRef<Token> HT) const;
  /// 'for (T i = A; i OP B; STEP)' whose bounds use template parameters:
  /// only the C++ compiler can count it, so it becomes a fold over an index
  /// sequence (metacu::unroll_for) with 'i' a constant expression.
  llvm::Error lowerTemplateFor(const Node &N, llvm::ArrayRef<Token> HT);
  /// The body of a template-dependent loop runs as a lambda, once per index:
  /// it cannot leave the loop. Its index is a constant of the template, as
  /// a template parameter is.
  llvm::Error checkTemplateBody(const Branch &B, llvm::StringRef Var);
  /// Whether \p Toks name a template parameter or a constant derived from
  /// one (other than \p Except).
  bool mentionsTemplateParam(llvm::ArrayRef<Token> Toks,
                             llvm::ArrayRef<std::string> Except = {}) const;
  /// Meta code that reads template parameters can only run per
  /// instantiation: a declaration becomes a 'constexpr' one of the
  /// template, a '@meta if' an 'if constexpr'.
  llvm::Error lowerDependentStatement(const Node &N, llvm::ArrayRef<Token> HT);
  llvm::Error lowerDependentIf(const Node &N);
  llvm::Error lowerBracedBody(const Branch &B);

  const SourceFile &File;
  const ScanResult &Scan;
  const std::vector<Token> &Toks;
  const HostSliceResult &Slice;
  const ArchList &Archs;
  llvm::ArrayRef<unsigned> HostDevice;
  std::string Out;
  SourceMap Map;
  std::vector<Scope> Scopes;
  /// Where the statement of the last unbraced meta body lowered begins: an
  /// 'if codegen' chain there is no substatement, since each copy of the
  /// body stands where the meta construct stands.
  std::optional<unsigned> UnbracedMetaBody;
  std::vector<std::string> PendingTemplateParams;
  /// Meta names hidden by ordinary declarations inside parentheses, not
  /// yet given to the body they belong to.
  std::vector<std::string> PendingParams;
  /// Init-captures seen, with the ']' after which they join PendingParams.
  std::vector<std::pair<std::string, unsigned>> PendingCaptures;
  struct Macro {
    unsigned Offset;
    std::vector<std::string> Identifiers;
  };
  llvm::StringMap<Macro> Macros;
  /// Parentheses open in ordinary code.
  unsigned ParenDepth = 0;
  bool InRun = false;
  /// Generator::StartEnd, once the file's first meta construct is lowered.
  std::optional<size_t> StartEnd;
  /// The program's length when the file's first meta construct was
  /// reached, at namespace level or not: its headers come before.
  size_t BeforeFirstConstruct = 0;
  /// Before the first meta construct: whether the program has code of a
  /// header (a dialect header's splice) that the file's own code has not
  /// followed yet at the file's level, and where the file's own code last
  /// followed such code there.
  bool AfterHeaderCode = false;
  size_t AfterSplices = 0;
  /// Keeps AfterHeaderCode and AfterSplices up to date with input [B, E)
  /// about to be lowered, in a run that opens here where \p RunOpensHere.
  void noteOrigin(unsigned B, unsigned E, bool RunOpensHere);
  /// Ends the program's start before \p N, a meta construct about to be
  /// lowered, if it is the first of the file's own.
  void markStart(const Node &N);
  /// Where the open run's body starts in the program.
  size_t RunBegin = 0;
  unsigned Counter = 0;
  std::vector<unsigned> HostCopyChains;
  /// Bodies of '@meta if' and '@meta for' that depend on template
  /// parameters, open around the code being lowered.
  unsigned DependentDepth = 0;
};

} // namespace metacu::lowering

#endif
