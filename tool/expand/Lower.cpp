//===- Lower.cpp ----------------------------------------------------------===//
#include "expand/Lower.h"
#include "support/Diagnostic.h"
#include "expand/MetaNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <functional>
#include <optional>

namespace tok = clang::tok;

namespace metacu {

namespace {

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
  /// Offset of the '{' that opened it, for unbalanced-brace errors.
  unsigned OpenOffset = 0;
};

std::string cppString(llvm::StringRef S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': Out += "\\\""; break;
    case '\\': Out += "\\\\"; break;
    case '\n': Out += "\\n"; break;
    case '\t': Out += "\\t"; break;
    default:
      if (C < 0x20 || C >= 0x7f) {
        char Buf[8];
        snprintf(Buf, sizeof Buf, "\\%03o", C);
        Out += Buf;
      } else {
        Out += char(C);
      }
    }
  }
  return Out + "\"";
}

class Lowering {
public:
  Lowering(const SourceFile &File, const ScanResult &Scan,
           const HostSliceResult &Slice, const ArchList &Archs)
      : File(File), Scan(Scan), Toks(Scan.Tokens), Slice(Slice),
        Archs(Archs) {}

  llvm::Expected<Generator> run() {
    for (const MetaHeader &H : Slice.MetaHeaders)
      return errorAt(H.IncludeOffset,
                     "header '" + H.Path + "' contains meta constructs (at " +
                         H.Path + ":" + llvm::Twine(H.Line) + ":" +
                         llvm::Twine(H.Col) +
                         "); metacu expands only the file it is given, so "
                         "move them into this file");
    Scopes.push_back(Scope());
    if (Slice.NeedsCudaRuntime)
      write("#include <cuda_runtime.h>\n");
    if (auto Err = lowerSequence(Scan.Nodes, 0, File.size()))
      return std::move(Err);
    if (Scopes.size() != 1)
      return errorAt(Scopes.back().OpenOffset,
                     "this '{' is never closed (metacu tracks braces to scope "
                     "meta declarations)");
    closeRun();
    Generator G;
    G.Prelude = prelude();
    G.Program = std::move(Out);
    G.Map = std::move(Map);
    return G;
  }

private:
  //===--- Writing the program --------------------------------------------===//

  void write(llvm::StringRef S) { Out += S; }
  void writeVerbatim(unsigned B, unsigned E) {
    if (E <= B)
      return;
    Map.addVerbatim(Out.size(), B, E - B);
    Out += File.text().slice(B, E);
  }
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
  void ensureRun() {
    if (InRun)
      return;
    write("static bool __metacu_run_" + std::to_string(Counter++) +
          " = ::metacu::detail::run([] {\n");
    InRun = true;
  }
  void closeRun() {
    if (!InRun)
      return;
    write("});\n");
    InRun = false;
  }
  bool atNamespaceLevel() const {
    return Scopes.back().Kind == ScopeKind::Namespace && !Scopes.back().InBlock;
  }

  void emitText(unsigned B, unsigned E) {
    if (E <= B)
      return;
    ensureRun();
    write("::metacu::detail::text(" + std::to_string(B) + ", " +
          std::to_string(E) + ");\n");
  }
  void emitCode(unsigned At, llvm::StringRef S) {
    if (S.empty())
      return;
    ensureRun();
    write("::metacu::detail::code(" + std::to_string(At) + ", " +
          cppString(S) + ");\n");
  }
  void setLocation(unsigned At) {
    write("::metacu::detail::at(" + std::to_string(At) + ");\n");
  }

  //===--- Names and scopes -----------------------------------------------===//

  bool isMetaName(llvm::StringRef N) const {
    for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
      auto F = It->Names.find(N);
      if (F != It->Names.end())
        return F->second;
    }
    return false;
  }
  bool isTemplateParam(llvm::StringRef N) const {
    for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
      if (It->Names.count(N))
        return false;
      if (llvm::is_contained(It->TemplateParams, N.str()))
        return true;
    }
    return false;
  }
  void pushBodyScope() {
    Scope S;
    S.Kind = Scopes.back().Kind;
    S.InBlock = true;
    Scopes.push_back(std::move(S));
  }

  //===--- Token helpers --------------------------------------------------===//

  llvm::ArrayRef<Token> tokensIn(Range R) const {
    unsigned B = Scan.tokenAt(R.Begin), E = Scan.tokenAt(R.End);
    return llvm::ArrayRef<Token>(Toks).slice(B, E - B);
  }
  bool isInactive(unsigned Offset) const {
    return anyContains(Slice.Inactive, Offset);
  }
  std::string indentOf(unsigned Offset) const {
    unsigned B = File.lineStart(Offset);
    std::string S;
    for (unsigned I = B; I < Offset; ++I) {
      char C = File.text()[I];
      if (C != ' ' && C != '\t')
        break;
      S += C;
    }
    return S;
  }
  /// A construct alone on its lines: the lines it occupies disappear from
  /// the output and its expansion brings its own indentation and newline.
  bool ownsLines(const Node &N) const {
    if (N.Kind == NodeKind::Splice || N.Kind == NodeKind::Malformed ||
        isInactive(N.Whole.Begin))
      return false;
    return Toks[N.TokBegin].StartOfLine &&
           (N.TokEnd >= Toks.size() || Toks[N.TokEnd].StartOfLine);
  }
  unsigned afterLineEnd(unsigned Offset) const {
    size_t NL = File.text().find('\n', Offset);
    return NL == llvm::StringRef::npos ? File.size() : unsigned(NL + 1);
  }

  //===--- Sequences ------------------------------------------------------===//

  llvm::Error lowerSequence(const std::vector<Node> &Nodes, unsigned Begin,
                            unsigned End) {
    for (size_t I = 0; I < Nodes.size(); ++I) {
      const Node &N = Nodes[I];
      if (N.Kind == NodeKind::Text) {
        unsigned B = std::max(N.Whole.Begin, Begin);
        unsigned E = std::min(N.Whole.End, End);
        if (I > 0 && ownsLines(Nodes[I - 1]))
          B = std::max(B, std::min(afterLineEnd(Nodes[I - 1].Whole.End),
                                   N.Whole.End));
        if (I + 1 < Nodes.size() && ownsLines(Nodes[I + 1]))
          E = std::min(E, std::max(File.lineStart(Nodes[I + 1].Whole.Begin),
                                   N.Whole.Begin));
        if (auto Err = lowerTokens(B, E))
          return Err;
        continue;
      }
      if (N.Kind == NodeKind::Malformed) {
        if (!isInactive(N.Whole.Begin))
          return errorAt(N.ErrorOffset, N.Error);
        emitText(N.Whole.Begin, N.Whole.End);
        continue;
      }
      if (anyContains(Slice.ArchConditional, N.Whole.Begin))
        return errorAt(N.Whole.Begin,
                       "meta construct inside a preprocessor conditional that "
                       "tests __CUDA_ARCH__; metacu sees the file once, not "
                       "once per architecture, so select per-architecture "
                       "code with 'if codegen (__nvvm_arch ...)'");
      if (anyContains(Slice.CompilerConditional, N.Whole.Begin))
        return errorAt(N.Whole.Begin,
                       "meta construct inside a preprocessor conditional that "
                       "tests __CUDACC__ or __NVCC__; metacu reads the file as "
                       "a host C++ compiler does, without them, so it cannot "
                       "tell whether nvcc compiles this region: move the "
                       "construct out of the conditional");
      if (isInactive(N.Whole.Begin)) {
        // nvcc skips this region too; leave it as written.
        emitText(N.Whole.Begin, N.Whole.End);
        continue;
      }
      if (auto Err = lowerConstruct(N))
        return Err;
    }
    return llvm::Error::success();
  }

  llvm::Error lowerConstruct(const Node &N) {
    switch (N.Kind) {
    case NodeKind::Stmt:
      return lowerStatement(N);
    case NodeKind::For:
    case NodeKind::ForEnum:
    case NodeKind::While:
      return lowerLoop(N);
    case NodeKind::If:
      return lowerMetaIf(N);
    case NodeKind::Codegen:
      return lowerCodegen(N);
    case NodeKind::Splice:
      ensureRun();
      setLocation(N.Whole.Begin);
      anchored(N.Whole.Begin, [&] {
        write("::metacu::detail::splice(" + std::to_string(N.Whole.Begin) +
              ", (");
        writeVerbatim(N.Head.Begin, N.Head.End);
        write("));\n");
      });
      return llvm::Error::success();
    case NodeKind::Text:
    case NodeKind::Malformed:
      break;
    }
    return llvm::Error::success();
  }

  //===--- Ordinary code --------------------------------------------------===//

  const SliceDecl *declarationAt(unsigned Offset) const {
    for (const SliceDecl &D : Slice.Declarations)
      if (D.Text.Begin == Offset)
        return &D;
    return nullptr;
  }
  bool isNeededInclude(unsigned LineBegin) const {
    for (const Range &R : Slice.NeededIncludes)
      if (R.Begin == LineBegin)
        return true;
    return false;
  }

  /// Lowers ordinary code in [B, E): text calls, with meta values replaced
  /// and braces mirrored so meta declarations are scoped like C++ ones.
  llvm::Error lowerTokens(unsigned B, unsigned E) {
    unsigned Pending = B;
    unsigned StmtStart = Scan.tokenAt(B);
    for (unsigned I = Scan.tokenAt(B); I < Toks.size() && Toks[I].Offset < E;
         ++I) {
      const Token &T = Toks[I];
      if (isInactive(T.Offset))
        continue;
      if (T.InDirective) {
        if (T.is(tok::hash) && T.StartOfLine)
          I = lowerDirective(I, E, Pending) - 1;
        StmtStart = I + 1;
        continue;
      }
      if (atNamespaceLevel())
        if (const SliceDecl *D = declarationAt(T.Offset)) {
          if (D->Text.End > E)
            return errorAt(T.Offset,
                           "this declaration is used by meta code, so it must "
                           "not contain meta constructs itself");
          emitText(Pending, T.Offset);
          Pending = T.Offset;
          closeRun();
          writeDeclaration(*D);
        }
      if (T.is(tok::l_brace)) {
        emitText(Pending, T.end());
        Pending = T.end();
        openBrace(I, StmtStart);
        StmtStart = I + 1;
        continue;
      }
      if (T.is(tok::r_brace)) {
        if (Scopes.size() == 1)
          return errorAt(T.Offset, "unbalanced '}'");
        emitText(Pending, T.end());
        Pending = T.end();
        Scope S = std::move(Scopes.back());
        Scopes.pop_back();
        if (S.Kind == ScopeKind::Namespace && !S.InBlock)
          closeRun();
        write("}\n");
        StmtStart = I + 1;
        continue;
      }
      if (T.is(tok::semi)) {
        PendingTemplateParams.clear();
        StmtStart = I + 1;
        continue;
      }
      if (T.isIdent("template") && I + 1 < Toks.size() &&
          Toks[I + 1].is(tok::less)) {
        PendingTemplateParams = templateParameters(I + 1);
        continue;
      }
      if (!T.isIdent() || !isMetaName(T.Text))
        continue;
      const Token *Prev = I > 0 ? &Toks[I - 1] : nullptr;
      if (Prev && (Prev->is(tok::period) || Prev->is(tok::arrow) ||
                   Prev->is(tok::coloncolon)))
        continue;
      if (I + 1 < Toks.size() && Toks[I + 1].is(tok::coloncolon))
        continue;
      if (declaresName(I))
        return errorAt(T.Offset, "declaration of '" + T.Text +
                                     "' in ordinary code shadows the meta "
                                     "variable '" +
                                     T.Text + "'; rename one of them");
      unsigned J = chainEnd(I, E);
      emitText(Pending, T.Offset);
      emitValue(T.Offset, Toks[J - 1].end());
      Pending = Toks[J - 1].end();
      I = J - 1;
    }
    emitText(Pending, E);
    return llvm::Error::success();
  }

  /// Returns the index of the first token after the directive.
  unsigned lowerDirective(unsigned I, unsigned E, unsigned &Pending) {
    unsigned J = I + 1;
    while (J < Toks.size() && !Toks[J].StartOfLine && Toks[J].Offset < E)
      ++J;
    llvm::StringRef Name = I + 1 < J ? Toks[I + 1].Text : "";
    Range Line{Toks[I].Offset, Toks[J - 1].end()};
    if (Name == "define" || Name == "undef") {
      // Meta code may use the file's macros.
      write("\n");
      writeVerbatim(Line.Begin, Line.End);
      write("\n");
    } else if (Name == "include" && atNamespaceLevel() &&
               isNeededInclude(File.lineStart(Line.Begin))) {
      emitText(Pending, Line.Begin);
      Pending = Line.Begin;
      closeRun();
      write("\n");
      writeVerbatim(Line.Begin, Line.End);
      write("\n");
      describeTypesAfter(File.lineStart(Line.Begin));
    }
    return J;
  }

  /// '{' opens a scope whose kind the tokens since the statement start tell.
  void openBrace(unsigned I, unsigned StmtStart) {
    Scope S;
    S.OpenOffset = Toks[I].Offset;
    S.InBlock = Scopes.back().InBlock;
    ScopeKind Outer = Scopes.back().Kind;
    auto Any = [&](llvm::StringRef W) {
      for (unsigned K = StmtStart; K < I; ++K)
        if (Toks[K].isIdent(W))
          return true;
      return false;
    };
    const Token *Before = I > StmtStart ? &Toks[I - 1] : nullptr;
    bool AfterParen =
        Before && (Before->is(tok::r_paren) || Before->isIdent("const") ||
                   Before->isIdent("noexcept") ||
                   Before->isIdent("override") || Before->isIdent("mutable"));
    bool HasArrow = false;
    for (unsigned K = StmtStart; K < I; ++K)
      HasArrow |= Toks[K].is(tok::arrow);
    unsigned HeaderBegin = I;
    if (Outer == ScopeKind::Function) {
      S.Kind = ScopeKind::Function;
    } else if (Outer == ScopeKind::Namespace && Any("namespace")) {
      S.Kind = ScopeKind::Namespace;
      for (unsigned K = StmtStart; K < I; ++K)
        if (Toks[K].isIdent("namespace") || Toks[K].isIdent("inline")) {
          HeaderBegin = K;
          break;
        }
    } else if (Outer == ScopeKind::Namespace && Before &&
               Before->is(tok::string_literal) && I >= 2 &&
               Toks[I - 2].isIdent("extern")) {
      S.Kind = ScopeKind::Namespace;
      HeaderBegin = I - 2;
    } else if (AfterParen || HasArrow || Any("try")) {
      S.Kind = ScopeKind::Function;
    } else if (Any("enum")) {
      S.Kind = ScopeKind::Init;
    } else if (Any("struct") || Any("class") || Any("union")) {
      S.Kind = ScopeKind::Class;
    } else {
      S.Kind = ScopeKind::Init;
    }
    if (S.Kind == ScopeKind::Function || S.Kind == ScopeKind::Class) {
      S.TemplateParams = std::move(PendingTemplateParams);
      PendingTemplateParams.clear();
    }
    if (S.Kind == ScopeKind::Namespace && !S.InBlock) {
      // Mirror the namespace so meta code sees qualified names as C++ does.
      closeRun();
      writeVerbatim(Toks[HeaderBegin].Offset, Toks[I].end());
      write("\n");
    } else {
      ensureRun();
      write("{\n");
    }
    Scopes.push_back(std::move(S));
  }

  std::vector<std::string> templateParameters(unsigned Less) const {
    std::vector<std::string> Names;
    int Depth = 0;
    std::string Last;
    bool SawDefault = false;
    for (unsigned K = Less; K < Toks.size(); ++K) {
      const Token &T = Toks[K];
      if (T.is(tok::less) || T.is(tok::l_paren)) {
        ++Depth;
        if (Depth == 1)
          continue;
      }
      if (T.is(tok::greater) || T.is(tok::r_paren) ||
          T.is(tok::greatergreater)) {
        Depth -= T.is(tok::greatergreater) ? 2 : 1;
        if (Depth <= 0) {
          if (!Last.empty())
            Names.push_back(Last);
          return Names;
        }
        continue;
      }
      if (Depth != 1)
        continue;
      if (T.is(tok::comma)) {
        if (!Last.empty())
          Names.push_back(Last);
        Last.clear();
        SawDefault = false;
      } else if (T.is(tok::equal)) {
        SawDefault = true;
      } else if (!SawDefault && T.isIdent() && !isKeyword(T.Text)) {
        Last = T.Text.str();
      }
    }
    return Names;
  }

  /// Whether the identifier at \p I is the name in an ordinary declaration
  /// ('int u = ...', 'float u;', '(int u)').
  bool declaresName(unsigned I) const {
    if (I == 0 || I + 1 >= Toks.size())
      return false;
    const Token &P = Toks[I - 1], &N = Toks[I + 1];
    bool TypeBefore =
        P.isIdent() && (!isKeyword(P.Text) ||
                        llvm::is_contained({"int", "float", "double", "char",
                                            "bool", "auto", "long", "short",
                                            "unsigned", "signed"},
                                           P.Text));
    return TypeBefore && (N.is(tok::equal) || N.is(tok::semi) ||
                          N.is(tok::comma) || N.is(tok::l_square) ||
                          N.is(tok::l_brace) || N.is(tok::r_paren));
  }

  /// One past the postfix chain of the meta name at \p I: members,
  /// subscripts and calls ('details.nt', 'cfg[2].vt', 'table.at(sm).nt').
  unsigned chainEnd(unsigned I, unsigned E) const {
    unsigned J = I + 1;
    while (J < Toks.size() && Toks[J].Offset < E) {
      if ((Toks[J].is(tok::period) || Toks[J].is(tok::arrow)) &&
          J + 1 < Toks.size() && Toks[J + 1].isIdent()) {
        J += 2;
        continue;
      }
      if (Toks[J].is(tok::l_square) || Toks[J].is(tok::l_paren)) {
        int Depth = 0;
        unsigned K = J;
        for (; K < Toks.size() && Toks[K].Offset < E; ++K) {
          if (Toks[K].is(tok::l_square) || Toks[K].is(tok::l_paren))
            ++Depth;
          else if (Toks[K].is(tok::r_square) || Toks[K].is(tok::r_paren))
            if (--Depth == 0)
              break;
        }
        if (Depth != 0 || K >= Toks.size() || Toks[K].Offset >= E)
          return J;
        J = K + 1;
        continue;
      }
      break;
    }
    return J;
  }

  void emitValue(unsigned B, unsigned E) {
    ensureRun();
    setLocation(B);
    anchored(B, [&] {
      write("static_assert(::metacu::detail::has_spelling<std::remove_cvref_t<"
            "decltype(");
      writeVerbatim(B, E);
      write(")>>, \"no constant spelling\");\n");
      write("::metacu::detail::value(" + std::to_string(B) + ", (");
      writeVerbatim(B, E);
      write("));\n");
    });
  }

  void writeDeclaration(const SliceDecl &D) {
    write("\n");
    if (D.BodyBegin) {
      writeVerbatim(D.Text.Begin, D.BodyBegin);
      write(";\n");
    } else {
      writeVerbatim(D.Text.Begin, D.Text.End);
      write("\n");
    }
    describeTypesAfter(D.Text.End);
  }

  //===--- Reflection -----------------------------------------------------===//

  static std::pair<std::string, std::string>
  splitQualified(llvm::StringRef Q) {
    size_t P = Q.rfind("::");
    if (P == llvm::StringRef::npos)
      return {"", Q.str()};
    return {Q.substr(0, P).str(), Q.substr(P + 2).str()};
  }

  /// \p Prefix is the spelling of an enumerator minus its name, or empty
  /// for meta-only enumerations.
  void writeEnumReflection(llvm::StringRef Type,
                           const std::vector<std::string> &Enumerators,
                           std::optional<std::string> Prefix) {
    std::string T = Type.str();
    write("inline const ::metacu::detail::enum_table<" + T +
          "> &__metacu_reflect(" + T + " *) {\n  static const "
          "::metacu::detail::enum_table<" +
          T + "> t{" + (Prefix ? cppString(*Prefix) : "nullptr") + ", {");
    for (size_t I = 0; I < Enumerators.size(); ++I)
      write(std::string(I ? ", " : "") + "{" + T + "::" + Enumerators[I] +
            ", " + cppString(Enumerators[I]) + "}");
    write("}};\n  return t;\n}\n");
  }

  void describeTypesAfter(unsigned After) {
    for (const EnumInfo &E : Slice.Enums) {
      if (E.After != After)
        continue;
      auto [NS, Name] = splitQualified(E.QualifiedName);
      std::string Prefix =
          E.Scoped ? E.QualifiedName + "::" : (NS.empty() ? "" : NS + "::");
      if (E.FromHeader && !NS.empty())
        write("namespace " + NS + " {\n");
      writeEnumReflection("::" + E.QualifiedName, E.Enumerators, Prefix);
      if (E.FromHeader && !NS.empty())
        write("}\n");
    }
    for (const RecordInfo &R : Slice.Records) {
      if (R.After != After)
        continue;
      auto [NS, Name] = splitQualified(R.QualifiedName);
      if (R.FromHeader && !NS.empty())
        write("namespace " + NS + " {\n");
      write("inline void __metacu_spell(std::string &o, const ::" +
            R.QualifiedName + " &v) {\n  o += " +
            cppString(R.QualifiedName + "{") + ";\n");
      for (size_t I = 0; I < R.Fields.size(); ++I) {
        if (I)
          write("  o += \", \";\n");
        write("  ::metacu::detail::spell(o, v." + R.Fields[I] + ");\n");
      }
      write("  o += \"}\";\n}\n");
      if (R.FromHeader && !NS.empty())
        write("}\n");
    }
  }

  //===--- Meta statements ------------------------------------------------===//

  llvm::Error lowerStatement(const Node &N) {
    llvm::ArrayRef<Token> HT = tokensIn(N.Head);
    if (!HT.empty() && HT.front().isIdent("static_assert"))
      return lowerStaticAssert(N, HT);
    llvm::ArrayRef<Token> Decl = HT;
    if (!Decl.empty() && Decl.back().is(tok::semi))
      Decl = Decl.drop_back();
    DeclaredNames D = declaredNames(Decl);
    if (D.IsDeclaration && atNamespaceLevel()) {
      closeRun();
      write("static bool __metacu_at_" + std::to_string(Counter++) +
            " = (::metacu::detail::at(" + std::to_string(N.Whole.Begin) +
            "), true);\n");
      writeVerbatim(N.Head.Begin, N.Head.End);
      write("\n");
      if (!D.Enumerators.empty() && !D.Types.empty())
        writeEnumReflection(D.Types.front(), D.Enumerators, std::nullopt);
    } else {
      ensureRun();
      setLocation(N.Whole.Begin);
      writeVerbatim(N.Head.Begin, N.Head.End);
      write("\n");
    }
    for (const std::string &V : D.Values)
      Scopes.back().Names[V] = true;
    return llvm::Error::success();
  }

  llvm::Error lowerStaticAssert(const Node &N, llvm::ArrayRef<Token> HT) {
    if (HT.size() < 3 || !HT[1].is(tok::l_paren))
      return errorAt(N.Head.Begin, "expected '(' after 'static_assert'");
    // The closing parenthesis of the argument list.
    unsigned Close = 0;
    int Depth = 0;
    for (unsigned K = 1; K < HT.size(); ++K) {
      if (HT[K].is(tok::l_paren) || HT[K].is(tok::l_square) ||
          HT[K].is(tok::l_brace))
        ++Depth;
      else if (HT[K].is(tok::r_paren) || HT[K].is(tok::r_square) ||
               HT[K].is(tok::r_brace))
        if (--Depth == 0) {
          Close = K;
          break;
        }
    }
    if (!Close)
      return errorAt(N.Head.Begin, "malformed static_assert");
    // The message is a trailing run of string literals after a comma.
    unsigned MsgBegin = Close;
    while (MsgBegin > 2 && HT[MsgBegin - 1].is(tok::string_literal))
      --MsgBegin;
    bool HasMsg = MsgBegin < Close && HT[MsgBegin - 1].is(tok::comma);
    unsigned CondEnd = HasMsg ? MsgBegin - 1 : Close;
    Range Cond{HT[2].Offset, HT[CondEnd - 1].end()};
    ensureRun();
    setLocation(N.Whole.Begin);
    write("::metacu::detail::meta_assert(static_cast<bool>(");
    writeVerbatim(Cond.Begin, Cond.End);
    write("), ");
    if (HasMsg)
      writeVerbatim(HT[MsgBegin].Offset, HT[Close - 1].end());
    else
      write("nullptr");
    write(", " + cppString(File.text().slice(Cond.Begin, Cond.End)) + ");\n");
    return llvm::Error::success();
  }

  //===--- Loops and ifs --------------------------------------------------===//

  llvm::Error lowerLoop(const Node &N) {
    llvm::ArrayRef<Token> HT = tokensIn(N.Head);
    if (N.Kind == NodeKind::For && isTemplateDependent(HT))
      return lowerTemplateFor(N, HT);
    ensureRun();
    setLocation(N.Whole.Begin);
    std::vector<std::string> Vars;
    if (N.Kind == NodeKind::ForEnum) {
      unsigned Colon = 0;
      int Depth = 0;
      for (unsigned K = 0; K < HT.size(); ++K) {
        if (HT[K].is(tok::l_paren) || HT[K].is(tok::l_square) ||
            HT[K].is(tok::less))
          ++Depth;
        else if (HT[K].is(tok::r_paren) || HT[K].is(tok::r_square) ||
                 HT[K].is(tok::greater))
          --Depth;
        else if (Depth == 0 && HT[K].is(tok::colon)) {
          Colon = K;
          break;
        }
      }
      if (!Colon || Colon + 1 >= HT.size())
        return errorAt(N.Head.Begin, "expected '@meta for enum (DECLARATION "
                                     ": ENUMERATION_TYPE)'");
      Range TypeR{HT[Colon + 1].Offset, HT.back().end()};
      anchored(TypeR.Begin, [&] {
        write("static_assert(std::is_enum_v<");
        writeVerbatim(TypeR.Begin, TypeR.End);
        write(">, \"'@meta for enum' needs an enumeration type\");\n");
      });
      write("for (");
      writeVerbatim(N.Head.Begin, HT[Colon].Offset);
      write(" : ::metacu::enum_values<");
      writeVerbatim(TypeR.Begin, TypeR.End);
      write(">()) {\n");
      Vars = loopVariables(HT);
    } else {
      write(N.Kind == NodeKind::While ? "while (" : "for (");
      writeVerbatim(N.Head.Begin, N.Head.End);
      write(") {\n");
      if (N.Kind == NodeKind::For)
        Vars = loopVariables(HT);
    }
    pushBodyScope();
    for (const std::string &V : Vars)
      Scopes.back().Names[V] = true;
    auto Err = emitBody(N, N.Branches[0], /*IsLoop=*/true);
    Scopes.pop_back();
    write("}\n");
    return Err;
  }

  llvm::Error lowerMetaIf(const Node &N) {
    ensureRun();
    setLocation(N.Whole.Begin);
    for (size_t I = 0; I < N.Branches.size(); ++I) {
      const Branch &B = N.Branches[I];
      if (B.IsElse) {
        write("} else {\n");
      } else {
        write(I == 0 ? "if (" : "} else if (");
        writeVerbatim(B.Cond.Begin, B.Cond.End);
        write(") {\n");
      }
      pushBodyScope();
      auto Err = emitBody(N, B, /*IsLoop=*/false);
      Scopes.pop_back();
      if (Err)
        return Err;
    }
    write("}\n");
    return llvm::Error::success();
  }

  llvm::Error lowerCodegen(const Node &N) {
    if (Scopes.back().Kind != ScopeKind::Function)
      return errorAt(N.Whole.Begin,
                     "'if codegen' can only appear inside a function body");
    ensureRun();
    write("{\n");
    setLocation(N.Whole.Begin);
    write("::metacu::detail::codegen_chain __metacu_cg(" +
          std::to_string(N.Whole.Begin) + ");\n");
    for (const Branch &B : N.Branches) {
      if (B.IsElse) {
        write("__metacu_cg.otherwise();\n");
        continue;
      }
      write("__metacu_cg.branch([&](nvvm_arch_t __nvvm_arch) -> bool { "
            "(void)__nvvm_arch; return static_cast<bool>(");
      writeVerbatim(B.Cond.Begin, B.Cond.End);
      write("); });\n");
    }
    for (size_t I = 0; I < N.Branches.size(); ++I) {
      write("if (__metacu_cg.open(" + std::to_string(I) + ")) {\n");
      pushBodyScope();
      auto Err = emitBody(N, N.Branches[I], /*IsLoop=*/false);
      Scopes.pop_back();
      if (Err)
        return Err;
      write("}\n");
    }
    write("__metacu_cg.close();\n}\n");
    return llvm::Error::success();
  }

  /// Emits one iteration of a loop body or one taken branch.
  llvm::Error emitBody(const Node &N, const Branch &B, bool IsLoop) {
    bool Owns = ownsLines(N);
    std::string Indent = Owns ? indentOf(N.Whole.Begin) : "";
    unsigned BB = B.Body.Begin, BE = B.Body.End;
    if (Scopes.back().Kind == ScopeKind::Function) {
      if (B.Braced) {
        emitCode(BB, Indent);
        emitText(BB, BB + 1);
        if (auto Err = lowerSequence(B.Nodes, BB + 1, BE - 1))
          return Err;
        emitText(BE - 1, BE);
        emitCode(BE, Owns ? "\n" : " ");
        return llvm::Error::success();
      }
      bool NestedOwner = B.Nodes.size() == 1 &&
                         B.Nodes[0].Kind != NodeKind::Text &&
                         ownsLines(B.Nodes[0]);
      if (NestedOwner) {
        if (IsLoop && Owns)
          emitCode(BB, Indent + "{\n");
        if (auto Err = lowerSequence(B.Nodes, BB, BE))
          return Err;
        if (IsLoop && Owns)
          emitCode(BE, Indent + "}\n");
        return llvm::Error::success();
      }
      emitCode(BB, Indent + (IsLoop ? "{ " : ""));
      if (auto Err = lowerSequence(B.Nodes, BB, BE))
        return Err;
      emitCode(BE, std::string(IsLoop ? " }" : "") + (Owns ? "\n" : " "));
      return llvm::Error::success();
    }
    // Namespace, class and initializer scope: the braces are not emitted, so
    // a loop can generate declarations.
    if (B.Braced) {
      unsigned IB = BB + 1, IE = BE - 1;
      llvm::StringRef Inner = File.text().slice(IB, IE);
      size_t FirstNL = Inner.find('\n');
      if (FirstNL != llvm::StringRef::npos &&
          Inner.take_front(FirstNL).trim().empty())
        IB += FirstNL + 1;
      size_t LastNL = File.text().slice(IB, IE).rfind('\n');
      bool EndsLine = false;
      if (LastNL != llvm::StringRef::npos &&
          File.text().slice(IB + LastNL + 1, IE).trim().empty()) {
        IE = IB + LastNL + 1;
        EndsLine = true;
      }
      if (auto Err = lowerSequence(B.Nodes, IB, IE))
        return Err;
      if (!EndsLine)
        emitCode(BE, Owns ? "\n" : " ");
      return llvm::Error::success();
    }
    emitCode(BB, Indent);
    if (auto Err = lowerSequence(B.Nodes, BB, BE))
      return Err;
    emitCode(BE, Owns ? "\n" : " ");
    return llvm::Error::success();
  }

  //===--- Template-dependent loops ---------------------------------------===//

  bool isTemplateDependent(llvm::ArrayRef<Token> HT) const {
    bool Classic = llvm::any_of(HT, [](const Token &T) {
      return T.is(tok::semi);
    });
    if (!Classic)
      return false;
    std::vector<std::string> Vars = loopVariables(HT);
    for (const Token &T : HT)
      if (T.isIdent() && !llvm::is_contained(Vars, T.Text.str()) &&
          isTemplateParam(T.Text))
        return true;
    return false;
  }

  /// 'for (T i = A; i OP B; STEP)' whose bounds use template parameters:
  /// only the C++ compiler can count it, so it becomes a fold over an index
  /// sequence (metacu::unroll_for) with 'i' a constant expression.
  llvm::Error lowerTemplateFor(const Node &N, llvm::ArrayRef<Token> HT) {
    const char *Form =
        "a '@meta for' whose bounds depend on template parameters must read "
        "'for (T i = A; i < B; ++i)' (also <=, >, >=, != and i++, --i, "
        "i--, i += S, i -= S)";
    unsigned Semi1 = 0, Semi2 = 0;
    for (unsigned K = 0; K < HT.size(); ++K)
      if (HT[K].is(tok::semi))
        (Semi1 ? Semi2 : Semi1) = K;
    if (!Semi1 || !Semi2)
      return errorAt(N.Head.Begin, Form);
    unsigned Eq = 0;
    for (unsigned K = 0; K < Semi1; ++K)
      if (HT[K].is(tok::equal)) {
        Eq = K;
        break;
      }
    if (Eq < 2 || !HT[Eq - 1].isIdent() || Eq + 1 >= Semi1)
      return errorAt(N.Head.Begin, Form);
    llvm::StringRef Var = HT[Eq - 1].Text;
    Range TypeR{HT[0].Offset, HT[Eq - 2].end()};
    Range A{HT[Eq + 1].Offset, HT[Semi1 - 1].end()};
    // Condition: VAR OP B.
    if (Semi1 + 3 > Semi2 || !HT[Semi1 + 1].isIdent(Var))
      return errorAt(HT[Semi1].Offset, Form);
    const Token &Op = HT[Semi1 + 2];
    const char *Cmp = Op.is(tok::less)           ? "lt"
                      : Op.is(tok::lessequal)    ? "le"
                      : Op.is(tok::greater)      ? "gt"
                      : Op.is(tok::greaterequal) ? "ge"
                      : Op.is(tok::exclaimequal) ? "ne"
                                                 : nullptr;
    if (!Cmp || Semi1 + 3 >= Semi2)
      return errorAt(Op.Offset, Form);
    Range Bound{HT[Semi1 + 3].Offset, HT[Semi2 - 1].end()};
    // Step.
    llvm::ArrayRef<Token> S = HT.drop_front(Semi2 + 1);
    std::string StepSign;
    std::optional<Range> StepExpr;
    if (S.size() == 2 && ((S[0].is(tok::plusplus) && S[1].isIdent(Var)) ||
                          (S[0].isIdent(Var) && S[1].is(tok::plusplus))))
      StepSign = "1";
    else if (S.size() == 2 &&
             ((S[0].is(tok::minusminus) && S[1].isIdent(Var)) ||
              (S[0].isIdent(Var) && S[1].is(tok::minusminus))))
      StepSign = "-1";
    else if (S.size() >= 3 && S[0].isIdent(Var) &&
             (S[1].is(tok::plusequal) || S[1].is(tok::minusequal))) {
      StepSign = S[1].is(tok::plusequal) ? "+" : "-";
      StepExpr = Range{S[2].Offset, S.back().end()};
    } else {
      return errorAt(S.empty() ? N.Head.End : S[0].Offset, Form);
    }
    if (auto Err = checkTemplateBody(N.Branches[0], Var))
      return Err;

    bool Owns = ownsLines(N);
    std::string Indent = Owns ? indentOf(N.Whole.Begin) : "";
    std::string Type = File.text().slice(TypeR.Begin, TypeR.End).str();
    unsigned At = N.Whole.Begin;
    emitCode(At, Indent + "::metacu::unroll_for<" + Type + ", ");
    if (auto Err = lowerTokens(A.Begin, A.End))
      return Err;
    emitCode(At, ", ");
    if (auto Err = lowerTokens(Bound.Begin, Bound.End))
      return Err;
    emitCode(At, ", ");
    if (StepExpr) {
      emitCode(At, StepSign + "(");
      if (auto Err = lowerTokens(StepExpr->Begin, StepExpr->End))
        return Err;
      emitCode(At, ")");
    } else {
      emitCode(At, StepSign);
    }
    std::string Param = "metacu_" + Var.str() + "_";
    emitCode(At, std::string(", ::metacu::loop_cmp::") + Cmp +
                     ">([&](auto " + Param + ") { constexpr " + Type + " " +
                     Var.str() + " = decltype(" + Param + ")::value; (void)" +
                     Var.str() + ";");
    // The lambda's braces stand in for the body's own.
    const Branch &B = N.Branches[0];
    pushBodyScope();
    Scopes.back().Names[Var] = false;
    llvm::Error Err = llvm::Error::success();
    if (B.Braced) {
      Err = lowerSequence(B.Nodes, B.Body.Begin + 1, B.Body.End - 1);
      emitText(B.Body.End - 1, B.Body.End);
      emitCode(B.Body.End, std::string(");") + (Owns ? "\n" : " "));
    } else {
      emitCode(B.Body.Begin, " ");
      Err = lowerSequence(B.Nodes, B.Body.Begin, B.Body.End);
      emitCode(B.Body.End, std::string(" });") + (Owns ? "\n" : " "));
    }
    Scopes.pop_back();
    return Err;
  }

  /// The body of a template-dependent loop runs as a lambda, once per index:
  /// it cannot leave the loop, and meta code in it cannot see the index.
  llvm::Error checkTemplateBody(const Branch &B, llvm::StringRef Var) {
    llvm::ArrayRef<Token> BT = tokensIn(B.Body);
    bool InnerLoop = false;
    for (const Token &T : BT) {
      if (T.isIdent("for") || T.isIdent("while") || T.isIdent("do") ||
          T.isIdent("switch"))
        InnerLoop = true;
      if (T.isIdent("return") ||
          (!InnerLoop && (T.isIdent("break") || T.isIdent("continue"))))
        return errorAt(T.Offset,
                       "'" + T.Text +
                           "' cannot appear in a '@meta for' whose bounds "
                           "depend on template parameters: its body is "
                           "instantiated once per index");
    }
    std::function<llvm::Error(const std::vector<Node> &)> Check =
        [&](const std::vector<Node> &Nodes) -> llvm::Error {
      for (const Node &M : Nodes) {
        if (M.Kind == NodeKind::Text)
          continue;
        std::vector<Range> Meta{M.Head};
        for (const Branch &MB : M.Branches)
          Meta.push_back(MB.Cond);
        for (const Range &R : Meta)
          for (const Token &T : tokensIn(R))
            if (T.isIdent(Var))
              return errorAt(T.Offset,
                             "'" + Var +
                                 "' is the index of a '@meta for' whose "
                                 "bounds depend on template parameters; it "
                                 "is not known at generation time");
        for (const Branch &MB : M.Branches)
          if (auto Err = Check(MB.Nodes))
            return Err;
      }
      return llvm::Error::success();
    };
    return Check(B.Nodes);
  }

  //===--- Prelude --------------------------------------------------------===//

  std::string prelude() {
    std::string P = "#include <metacu/detail/generator.h>\n"
                    "metacu_host_api metacu_host;\n";
    P += Archs.enumDefinition() + "\n";
    std::vector<std::string> Names;
    for (const Arch &A : Archs.archs())
      Names.push_back(A.name());
    std::swap(Out, P);
    writeEnumReflection("nvvm_arch_t", Names, std::string("nvvm_arch_t::"));
    std::swap(Out, P);
    // An exception escaping a namespace-scope meta declaration's initializer
    // has no enclosing handler; report it instead of aborting silently.
    P += "static bool __metacu_terminate = (std::set_terminate([] {\n"
         "  ::metacu::detail::report_current_exception();\n"
         "  metacu_host.fatal(metacu_host.ctx);\n"
         "  std::abort();\n"
         "}), true);\n";
    return P;
  }

  const SourceFile &File;
  const ScanResult &Scan;
  const std::vector<Token> &Toks;
  const HostSliceResult &Slice;
  const ArchList &Archs;
  std::string Out;
  SourceMap Map;
  std::vector<Scope> Scopes;
  std::vector<std::string> PendingTemplateParams;
  bool InRun = false;
  unsigned Counter = 0;
};

} // namespace

llvm::Expected<Generator> lower(const SourceFile &File, const ScanResult &Scan,
                                const HostSliceResult &Slice,
                                const ArchList &Archs) {
  return Lowering(File, Scan, Slice, Archs).run();
}

} // namespace metacu
