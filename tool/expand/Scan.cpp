//===- Scan.cpp -----------------------------------------------------------===//
#include "expand/Scan.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <map>

using clang::tok::TokenKind;
namespace tok = clang::tok;

namespace metacu {

unsigned ScanResult::tokenAt(unsigned Offset) const {
  auto It =
      std::lower_bound(Tokens.begin(), Tokens.end(), Offset,
                       [](const Token &T, unsigned O) { return T.Offset < O; });
  return It - Tokens.begin();
}

llvm::ArrayRef<Token> ScanResult::tokensIn(Range R) const {
  unsigned B = tokenAt(R.Begin), E = tokenAt(R.End);
  return llvm::ArrayRef<Token>(Tokens).slice(B, E - B);
}

bool walkNodes(llvm::ArrayRef<Node> Nodes,
               llvm::function_ref<WalkNext(const Node &)> Visit) {
  for (const Node &N : Nodes) {
    WalkNext Next = Visit(N);
    if (Next == WalkNext::Stop)
      return false;
    if (Next == WalkNext::Children)
      for (const Branch &B : N.Branches)
        if (!walkNodes(B.Nodes, Visit))
          return false;
  }
  return true;
}

namespace {

/// How deep brackets and meta constructs may nest in one another. Deeper
/// input would overflow the stack here and the bracket limit of the
/// generator's compiler; real code stays far below it.
constexpr unsigned MaxNesting = 256;

/// Recursive-descent over the token stream. Each parse function takes the
/// index of the construct's first token and returns one past its last.
class Scanner {
public:
  Scanner(const SourceFile &File, llvm::ArrayRef<Range> Skipped) : File(File) {
    Result.Tokens = lexRaw(File.text(), Skipped);
    // Where the next token that breaks a bracket group is, from each token:
    // matchClose() then checks a group in constant time.
    unsigned N = toks().size();
    NextStray.assign(N + 1, N);
    NextAt.assign(N + 1, N);
    for (unsigned I = N; I-- > 0;) {
      const Token &T = toks()[I];
      // A skipped region's unpaired bracket breaks no group of the text
      // the preprocessor keeps.
      bool Code = !T.InDirective && !T.Skipped;
      NextStray[I] =
          Code && T.isCloseBracket() && !T.Partner ? I : NextStray[I + 1];
      NextAt[I] = Code && T.isAt() ? I : NextAt[I + 1];
    }
    BracketDepth.assign(N + 1, 0);
    unsigned Depth = 0;
    for (unsigned I = 0; I < N; ++I) {
      const Token &T = toks()[I];
      bool Paired = !T.InDirective && T.Partner;
      if (Paired && T.isCloseBracket())
        --Depth;
      BracketDepth[I] = Depth;
      if (Paired && T.isOpenBracket())
        ++Depth;
    }
  }

  llvm::Expected<ScanResult> run() {
    for (unsigned I = 0; I < toks().size(); ++I)
      if (BracketDepth[I] >= MaxNesting)
        return tooDeep(I);
    auto Nodes = scanSequence(0, toks().size(), 0, File.size());
    if (!Nodes)
      return Nodes.takeError();
    Result.Nodes = std::move(*Nodes);
    return std::move(Result);
  }

private:
  const std::vector<Token> &toks() const { return Result.Tokens; }
  const Token *at(unsigned I) const {
    return I < toks().size() ? &toks()[I] : nullptr;
  }
  bool isKind(unsigned I, TokenKind K) const {
    return at(I) && !at(I)->InDirective && at(I)->is(K);
  }
  bool isIdent(unsigned I, llvm::StringRef S) const {
    return at(I) && !at(I)->InDirective && at(I)->isIdent(S);
  }
  bool isAt(unsigned I) const { return at(I) && at(I)->isAt(); }
  /// 'if codegen' starts a codegen branch (no C++ has 'if' before a name:
  /// without its '(' it is a malformed one, not ordinary code).
  bool isCodegenIf(unsigned I) const {
    return isIdent(I, "if") && isIdent(I + 1, "codegen");
  }
  /// '"x"if codegen' or '1if codegen': the lexer reads the 'if' as a
  /// literal's suffix (C++11 user-defined literals), a misplaced 'if
  /// codegen' all the same.
  bool isSuffixedCodegenIf(unsigned I) const {
    const Token *T = at(I);
    return T && !T->InDirective && isIdent(I + 1, "codegen") &&
           clang::tok::isLiteral(T->Kind) && T->Text.ends_with("if") &&
           T->Text.size() > 2;
  }
  /// 'using if codegen': a chain whose branches declare into the
  /// enclosing scope ('using' before 'if' is no C++ otherwise).
  bool isUsingCodegenIf(unsigned I) const {
    return isIdent(I, "using") && isCodegenIf(I + 1);
  }
  bool startsConstruct(unsigned I) const {
    return (isAt(I) && !at(I)->InDirective) || isCodegenIf(I) ||
           isSuffixedCodegenIf(I) || isUsingCodegenIf(I);
  }

  /// Whether token \p I, on a directive line, is part of a #define.
  bool inDefine(unsigned I) const {
    while (I > 0 && !(toks()[I].StartOfLine && toks()[I].is(tok::hash)))
      --I;
    return I + 1 < toks().size() && toks()[I + 1].isIdent("define");
  }

  /// The code token before \p I (directive lines are not code), if any.
  std::optional<unsigned> previousCode(unsigned I) const {
    while (I-- > 0)
      if (!toks()[I].InDirective)
        return I;
    return std::nullopt;
  }

  /// Whether a statement, a declaration or an entry of a braced list can
  /// begin at token \p I, as far as the tokens before it tell: after ';',
  /// '{', '}', 'else', 'do', a label or access specifier, an attribute, the
  /// ')' of an if, for, while or switch head (meta and codegen ones too), a
  /// ',' directly inside braces; and at the start of the file. Which of
  /// them it is, the lowering tells from the scope.
  bool startsStatement(unsigned I) const {
    std::optional<unsigned> P = previousCode(I);
    if (!P)
      return true;
    const Token &T = toks()[*P];
    if (T.is(tok::comma)) {
      std::optional<unsigned> Open = enclosingOpen(toks(), *P);
      return Open && toks()[*Open].is(tok::l_brace);
    }
    if (T.is(tok::semi) || T.is(tok::l_brace) || T.is(tok::r_brace) ||
        T.isIdent("else") || T.isIdent("do"))
      return true;
    if (T.is(tok::colon))
      return !inConditionalExpression(*P);
    if (T.is(tok::r_square)) {
      // '[[likely]]'
      std::optional<unsigned> Open = partnerOf(toks(), *P);
      return Open && *P > 0 && toks()[*P - 1].is(tok::r_square) &&
             partnerOf(toks(), *P - 1) == *Open + 1;
    }
    if (!T.is(tok::r_paren))
      return false;
    std::optional<unsigned> Open = partnerOf(toks(), *P);
    std::optional<unsigned> Head = Open ? previousCode(*Open) : std::nullopt;
    if (!Head)
      return false;
    const Token &H = toks()[*Head];
    if (H.isIdent("enum"))
      return *Head > 0 && isIdent(*Head - 1, "for");
    return H.isIdent("if") || H.isIdent("for") || H.isIdent("while") ||
           H.isIdent("switch") || H.isIdent("codegen") ||
           H.isIdent("constexpr");
  }

  /// Whether the ':' at \p Colon is the second half of a '?:' (else a
  /// label's, a case's or an access specifier's).
  bool inConditionalExpression(unsigned Colon) const {
    for (std::optional<unsigned> K = previousCode(Colon); K;
         K = previousCode(*K)) {
      const Token &T = toks()[*K];
      if (T.is(tok::question))
        return true;
      if (T.is(tok::semi) || T.is(tok::l_brace) || T.is(tok::r_brace) ||
          T.isOpenBracket())
        return false;
      if (T.isCloseBracket()) {
        std::optional<unsigned> Open = partnerOf(toks(), *K);
        if (!Open)
          return false;
        K = *Open;
      }
    }
    return false;
  }
  unsigned offsetOf(unsigned I) const {
    return I < toks().size() ? toks()[I].Offset : File.size();
  }
  unsigned endOf(unsigned I) const { return toks()[I].end(); }

  llvm::Error errorAtTok(unsigned I, const llvm::Twine &Msg) const {
    return errorAt(offsetOf(I), Msg);
  }

  /// Index of the token closing the bracket opened at \p Open, skipping
  /// preprocessor lines. '@' inside is an error when \p InMeta.
  llvm::Expected<unsigned> matchClose(unsigned Open, bool InMeta) const {
    std::optional<unsigned> Close = partnerOf(toks(), Open);
    // The first token inside that makes the group an error, if any.
    unsigned Bad = NextStray[Open + 1];
    if (InMeta)
      Bad = std::min(Bad, NextAt[Open + 1]);
    if (Close && Bad > *Close)
      return *Close;
    auto Unclosed = [&](unsigned O) {
      return errorAtTok(O, "expected '" +
                               llvm::Twine(closeSpelling(toks()[O].Kind)) +
                               "' to match this '" + toks()[O].Text + "'");
    };
    if (Bad == toks().size()) {
      // Never closed: the innermost bracket still open at the end.
      unsigned Last = Open;
      for (unsigned I = toks().size(); I-- > Open;)
        if (!toks()[I].InDirective && toks()[I].isOpenBracket() &&
            !toks()[I].Partner) {
          Last = I;
          break;
        }
      return Unclosed(Last);
    }
    unsigned Inner = enclosingOpen(toks(), Bad).value_or(Open);
    // An '@' inside an open bracket of meta code most likely means the
    // bracket was never closed.
    if (toks()[Bad].isAt())
      return Unclosed(Inner);
    const Token &O = toks()[Inner];
    return errorAtTok(Bad, "unbalanced '" + toks()[Bad].Text + "': expected '" +
                               closeSpelling(O.Kind) + "' to match the '" +
                               O.Text + "' at line " +
                               llvm::Twine(File.origin(O.Offset).Where.Line));
  }

  static const char *closeSpelling(TokenKind K) {
    return K == tok::l_paren ? ")" : K == tok::l_square ? "]" : "}";
  }

  /// Expects '(' at \p I and returns the index of its ')'.
  llvm::Expected<unsigned> parenGroup(unsigned I, bool InMeta,
                                      llvm::StringRef After) {
    if (!isKind(I, tok::l_paren))
      return errorAtTok(I, "expected '(' after '" + After + "'");
    auto Close = matchClose(I, InMeta);
    if (!Close)
      if (std::optional<unsigned> Brace = bodyBraceInOpenHead(I)) {
        llvm::consumeError(Close.takeError());
        return errorAtTok(
            *Brace, "expected ')' before this '{' (to match "
                    "the '(' of '" +
                        After + "' at line " +
                        llvm::Twine(File.line(offsetOf(I))) + ", column " +
                        llvm::Twine(File.lineCol(offsetOf(I)).Col) + ")");
      }
    return Close;
  }

  /// In a head whose '(' at \p Open is never closed, the '{' that opens the
  /// body: the first one directly inside the parenthesis that ends its line
  /// (a braced initializer or a lambda in a head rarely does). Clang
  /// reports a missing ')' there.
  std::optional<unsigned> bodyBraceInOpenHead(unsigned Open) const {
    unsigned Line = File.line(offsetOf(Open));
    for (unsigned K = Open + 1; K < toks().size();) {
      const Token &T = toks()[K];
      if (T.InDirective || T.is(tok::semi)) {
        ++K;
        continue;
      }
      // A head spans a few lines at most; past that, it is not this.
      if (File.line(T.Offset) > Line + 8 || T.isCloseBracket())
        return std::nullopt;
      if (T.is(tok::l_brace) &&
          (K + 1 == toks().size() || toks()[K + 1].StartOfLine))
        return K;
      if (T.isOpenBracket()) {
        std::optional<unsigned> C = partnerOf(toks(), K);
        if (!C)
          return std::nullopt;
        K = *C + 1;
        continue;
      }
      ++K;
    }
    return std::nullopt;
  }

  /// One past the end of the statement starting at \p I. In meta code the
  /// statement is opaque; in ordinary code nested constructs are parsed to
  /// find their extent.
  llvm::Expected<unsigned> statementEnd(unsigned I, bool InMeta) {
    // Directive lines before it ('#pragma unroll') are no part of what
    // kind of statement it is.
    while (I < toks().size() && toks()[I].InDirective)
      ++I;
    if (I >= toks().size())
      return errorAt(File.size(), "expected a statement before end of file");
    // A statement may start with a splice ('@(name)(x);'); any other
    // construct is a statement of its own.
    if (!InMeta && startsConstruct(I) && !isKind(I + 1, tok::l_paren)) {
      auto N = parseConstruct(I);
      if (!N)
        return N.takeError();
      return N->TokEnd;
    }
    if (InMeta && isAt(I))
      return errorAtTok(I, "meta constructs cannot appear inside meta code");
    // 'if (a) if (b) ...' nests as deeply as the input says.
    Nested Level(*this);
    if (nestedTooDeep(I))
      return tooDeep(I);
    const Token &T = toks()[I];
    if (T.is(tok::semi))
      return I + 1;
    if (T.is(tok::l_brace)) {
      auto C = matchClose(I, InMeta);
      if (!C)
        return C.takeError();
      return *C + 1;
    }
    if (T.isIdent("if")) {
      unsigned J = I + 1;
      if (isIdent(J, "constexpr") || isIdent(J, "consteval") ||
          isKind(J, tok::exclaim))
        ++J;
      if (isIdent(J, "consteval"))
        ++J;
      unsigned ThenStart = J;
      if (isKind(J, tok::l_paren)) {
        auto C = matchClose(J, InMeta);
        if (!C)
          return C.takeError();
        ThenStart = *C + 1;
      }
      auto E = statementEnd(ThenStart, InMeta);
      if (!E)
        return E;
      if (isIdent(*E, "else"))
        return statementEnd(*E + 1, InMeta);
      return E;
    }
    if (T.isIdent("for") || T.isIdent("while") || T.isIdent("switch")) {
      auto C = parenGroup(I + 1, InMeta, T.Text);
      if (!C)
        return C.takeError();
      return statementEnd(*C + 1, InMeta);
    }
    if (T.isIdent("do")) {
      auto E = statementEnd(I + 1, InMeta);
      if (!E)
        return E;
      if (!isIdent(*E, "while"))
        return errorAtTok(*E, "expected 'while' after 'do' body");
      auto C = parenGroup(*E + 1, InMeta, "while");
      if (!C)
        return C.takeError();
      if (!isKind(*C + 1, tok::semi))
        return errorAtTok(*C + 1, "expected ';' after 'do ... while (...)'");
      return *C + 2;
    }
    if (T.isIdent("try")) {
      auto E = statementEnd(I + 1, InMeta);
      while (E && isIdent(*E, "catch")) {
        auto C = parenGroup(*E + 1, InMeta, "catch");
        if (!C)
          return C.takeError();
        E = statementEnd(*C + 1, InMeta);
      }
      return E;
    }
    return declarationEnd(I, InMeta);
  }

  /// A declaration or expression statement: up to ';' at depth 0, or to the
  /// closing brace of a function, namespace or linkage-spec body.
  llvm::Expected<unsigned> declarationEnd(unsigned I, bool InMeta) {
    bool SawParen = false, SawAssign = false;
    bool BraceEnds =
        isIdent(I, "namespace") ||
        (isIdent(I, "extern") && at(I + 1) &&
         at(I + 1)->is(tok::string_literal) && isKind(I + 2, tok::l_brace));
    for (unsigned J = I; J < toks().size(); ++J) {
      const Token &T = toks()[J];
      // An #include inside a meta statement is a ';' forgotten before it
      // far more often than meant: the statement would take the header's
      // declarations as its own text (and Clang's recovery from that can
      // crash the interpreter).
      if (InMeta && T.InDirective && T.is(tok::hash) && at(J + 1) &&
          at(J + 1)->InDirective &&
          (at(J + 1)->isIdent("include") ||
           at(J + 1)->isIdent("include_next") || at(J + 1)->isIdent("import")))
        return errorAtTok(I, "this meta statement runs into the #" +
                                 at(J + 1)->Text +
                                 " below it: a meta statement ends with ';' "
                                 "(is one missing?)");
      if (T.InDirective)
        continue;
      if (!InMeta && startsConstruct(J)) {
        auto N = parseConstruct(J);
        if (!N)
          return N.takeError();
        J = N->TokEnd - 1;
        continue;
      }
      if (InMeta && T.isAt())
        return errorAtTok(J, "meta constructs cannot appear inside meta code");
      if (T.is(tok::semi))
        return J + 1;
      if (T.is(tok::equal))
        SawAssign = true;
      if (T.is(tok::r_paren) || T.is(tok::r_square) || T.is(tok::r_brace))
        return errorAtTok(J, "unbalanced '" + T.Text + "'");
      if (T.is(tok::l_paren) || T.is(tok::l_square) || T.is(tok::l_brace)) {
        auto C = matchClose(J, InMeta);
        if (!C)
          return C.takeError();
        if (T.is(tok::l_paren))
          SawParen = true;
        if (T.is(tok::l_brace) && (BraceEnds || (SawParen && !SawAssign))) {
          // A function body (or namespace body) ends the declaration; a
          // stray ';' after it belongs to it.
          return isKind(*C + 1, tok::semi) ? *C + 2 : *C + 1;
        }
        J = *C;
      }
    }
    return errorAtTok(I, InMeta ? "expected ';' at the end of this meta "
                                  "statement"
                                : "expected ';' at the end of this statement");
  }

  /// Inside a braced list (an enumerator list, an initializer) an unbraced
  /// body is one element, '@(i * i),', which no ';' ends: one past its
  /// ',' when the tokens from \p I reach the list's '}' with a ',' at
  /// their level and no ';' on the way.
  std::optional<unsigned> listElementEnd(unsigned I) const {
    std::optional<unsigned> Comma;
    for (unsigned K = I; K < toks().size();) {
      const Token &T = toks()[K];
      if (T.InDirective) {
        ++K;
        continue;
      }
      if (T.isOpenBracket()) {
        std::optional<unsigned> C = partnerOf(toks(), K);
        if (!C)
          return std::nullopt;
        K = *C + 1;
        continue;
      }
      if (T.is(tok::semi))
        return std::nullopt;
      if (T.isCloseBracket())
        return T.is(tok::r_brace) && Comma ? std::optional(*Comma + 1)
                                           : std::nullopt;
      if (T.is(tok::comma) && !Comma)
        Comma = K;
      ++K;
    }
    return std::nullopt;
  }

  /// Parses a loop body or branch starting at token \p I.
  llvm::Error parseBody(unsigned I, Branch &B, unsigned &End) {
    if (I >= toks().size())
      return errorAt(File.size(), "expected a statement before end of file");
    if (isKind(I, tok::l_brace)) {
      auto C = matchClose(I, /*InMeta=*/false);
      if (!C)
        return C.takeError();
      B.Braced = true;
      B.Body = {offsetOf(I), endOf(*C)};
      B.Inner = {endOf(I), offsetOf(*C)};
      auto Nodes = scanSequence(I + 1, *C, B.Inner.Begin, B.Inner.End);
      if (!Nodes)
        return Nodes.takeError();
      B.Nodes = std::move(*Nodes);
      End = *C + 1;
      return llvm::Error::success();
    }
    std::optional<unsigned> Element = listElementEnd(I);
    auto E = Element ? llvm::Expected<unsigned>(*Element)
                     : statementEnd(I, /*InMeta=*/false);
    if (!E)
      return E.takeError();
    B.Body = {offsetOf(I), endOf(*E - 1)};
    auto Nodes = scanSequence(I, *E, B.Body.Begin, B.Body.End);
    if (!Nodes)
      return Nodes.takeError();
    B.Nodes = std::move(*Nodes);
    End = *E;
    return llvm::Error::success();
  }

  /// The head between the parentheses at \p Open and \p Close of a meta
  /// loop, and the body after them.
  llvm::Error parseLoopBody(unsigned Open, unsigned Close, Node &N) {
    N.Head = {endOf(Open), offsetOf(Close)};
    Branch B;
    unsigned End;
    if (auto Err = parseBody(Close + 1, B, End))
      return Err;
    N.Branches.push_back(std::move(B));
    N.TokEnd = End;
    return llvm::Error::success();
  }

  /// Parses an if chain whose first condition's '(' is at \p Paren.
  /// \p Codegen selects 'else if codegen' chaining, else 'else if' (meta).
  llvm::Error parseIfChain(unsigned Paren, Node &N, bool Codegen) {
    unsigned I = Paren;
    while (true) {
      auto C =
          parenGroup(I, /*InMeta=*/true, Codegen ? "if codegen" : "@meta if");
      if (!C)
        return C.takeError();
      Branch B;
      B.Cond = {endOf(I), offsetOf(*C)};
      unsigned End;
      if (auto Err = parseBody(*C + 1, B, End))
        return Err;
      N.Branches.push_back(std::move(B));
      N.TokEnd = End;
      if (!isIdent(End, "else"))
        return llvm::Error::success();
      unsigned Next = End + 1;
      if (Codegen && isCodegenIf(Next)) {
        I = Next + 2;
        continue;
      }
      if (!Codegen && isIdent(Next, "if") && isKind(Next + 1, tok::l_paren)) {
        I = Next + 1;
        continue;
      }
      if (!Codegen && isAt(Next) && isIdent(Next + 1, "meta") &&
          isIdent(Next + 2, "if")) {
        I = Next + 3;
        continue;
      }
      Branch Else;
      Else.IsElse = true;
      if (auto Err = parseBody(Next, Else, End))
        return Err;
      N.Branches.push_back(std::move(Else));
      N.TokEnd = End;
      return llvm::Error::success();
    }
  }

  /// A construct is parsed once: an unbraced body is measured (to find
  /// where it ends) and then scanned, and each nested construct would
  /// otherwise be parsed twice per level of nesting above it.
  llvm::Expected<Node> parseConstruct(unsigned I) {
    if (auto It = Parsed.find(I); It != Parsed.end())
      return It->second;
    if (auto It = Failed.find(I); It != Failed.end())
      return errorAt(It->second.first, It->second.second);
    Nested Level(*this);
    if (nestedTooDeep(I))
      return tooDeep(I);
    auto N = parseConstructOnce(I);
    if (N) {
      Parsed.emplace(I, *N);
      return N;
    }
    llvm::Error Kept = llvm::handleErrors(
        N.takeError(), [&](std::unique_ptr<LocatedError> E) -> llvm::Error {
          Failed.try_emplace(I, E->offset(), E->text());
          return llvm::Error(std::move(E));
        });
    return std::move(Kept);
  }

  llvm::Expected<Node> parseConstructOnce(unsigned I) {
    Node N;
    N.TokBegin = I;
    if (isUsingCodegenIf(I)) {
      N.Using = true;
      ++I;
      if (!startsStatement(I - 1))
        return errorAtTok(I - 1, "'using if codegen' chooses statements and "
                                 "declarations: it can only begin one, not "
                                 "continue an expression or declaration");
    }
    if (isSuffixedCodegenIf(I) ||
        (isCodegenIf(I) && !N.Using && !startsStatement(I))) {
      // Anywhere else its branches would replace part of an expression.
      unsigned If = isCodegenIf(I) ? offsetOf(I) : endOf(I) - 2;
      return errorAt(If, "'if codegen' chooses statements, declarations, "
                         "members or entries of a braced list: it can only "
                         "begin one, not continue an expression or "
                         "declaration");
    }
    if (isCodegenIf(I)) {
      N.Kind = NodeKind::Codegen;
      if (auto Err = parseIfChain(I + 2, N, /*Codegen=*/true))
        return std::move(Err);
    } else if (isKind(I + 1, tok::l_paren)) {
      N.Kind = NodeKind::Splice;
      auto C = matchClose(I + 1, /*InMeta=*/true);
      if (!C)
        return C.takeError();
      N.Head = {endOf(I + 1), offsetOf(*C)};
      if (N.Head.empty() ||
          File.text().slice(N.Head.Begin, N.Head.End).trim().empty())
        return errorAtTok(I, "empty splice '@()'");
      N.TokEnd = *C + 1;
    } else if (isIdent(I + 1, "meta")) {
      unsigned K = I + 2;
      if (isIdent(K, "for")) {
        bool IsEnum = isIdent(K + 1, "enum");
        N.Kind = IsEnum ? NodeKind::ForEnum : NodeKind::For;
        unsigned Paren = K + 1 + IsEnum;
        auto C = parenGroup(Paren, /*InMeta=*/true,
                            IsEnum ? "@meta for enum" : "@meta for");
        if (!C)
          return C.takeError();
        if (auto Err = parseLoopBody(Paren, *C, N))
          return std::move(Err);
      } else if (isIdent(K, "while")) {
        N.Kind = NodeKind::While;
        auto C = parenGroup(K + 1, /*InMeta=*/true, "@meta while");
        if (!C)
          return C.takeError();
        if (auto Err = parseLoopBody(K + 1, *C, N))
          return std::move(Err);
      } else if (isIdent(K, "if")) {
        N.Kind = NodeKind::If;
        if (auto Err = parseIfChain(K + 1, N, /*Codegen=*/false))
          return std::move(Err);
        N.Head = N.Branches.front().Cond;
      } else {
        N.Kind = NodeKind::Stmt;
        if (K >= toks().size() || at(K)->InDirective)
          return errorAtTok(I, "expected a statement after '@meta'");
        // '@meta #include <x>' is no directive ('#' does not start the
        // line) and would take the code up to the next ';' as meta code.
        if (at(K)->is(tok::hash) || at(K)->is(tok::hashhash))
          return errorAtTok(K, "a preprocessor directive cannot be a meta "
                               "statement: write it on a line of its own "
                               "(meta code sees the file's #include and "
                               "#define lines)");
        auto E = statementEnd(K, /*InMeta=*/true);
        if (!E)
          return E.takeError();
        N.Head = {offsetOf(K), endOf(*E - 1)};
        N.TokEnd = *E;
      }
    } else {
      return errorAtTok(I, "expected 'meta' or '(' after '@'");
    }
    N.Whole = {offsetOf(N.TokBegin), endOf(N.TokEnd - 1)};
    return N;
  }

  /// Splits tokens [TokBegin, TokEnd) spanning bytes [Begin, End) into text
  /// and constructs.
  llvm::Expected<std::vector<Node>> scanSequence(unsigned TokBegin,
                                                 unsigned TokEnd,
                                                 unsigned Begin, unsigned End) {
    std::vector<Node> Nodes;
    unsigned TextBegin = Begin, TextTok = TokBegin;
    auto FlushText = [&](unsigned Upto, unsigned UptoTok) {
      if (Upto > TextBegin) {
        Node T;
        T.Kind = NodeKind::Text;
        T.Whole = {TextBegin, Upto};
        T.TokBegin = TextTok;
        T.TokEnd = UptoTok;
        Nodes.push_back(std::move(T));
      }
    };
    for (unsigned I = TokBegin; I < TokEnd;) {
      const Token &T = toks()[I];
      // A #define's body is expanded where the macro is used
      // (expand/MetaMacros.h); one the preprocessor skips is never read.
      if (T.InDirective && inDefine(I)) {
        ++I;
        continue;
      }
      if (T.InDirective && (T.isAt() || (T.isIdent("if") && I + 1 < TokEnd &&
                                         toks()[I + 1].InDirective &&
                                         toks()[I + 1].isIdent("codegen"))))
        return errorAtTok(
            I, "meta constructs cannot appear inside preprocessor "
               "directives other than #define: metacu expands the file "
               "before the preprocessor does, so a condition or #include "
               "never sees meta values; compute the value with meta code "
               "and use it in ordinary code");
      if (!startsConstruct(I)) {
        ++I;
        continue;
      }
      FlushText(T.Offset, I);
      auto N = parseConstruct(I);
      if (!N) {
        // Keep scanning after the '@' (or 'if'): the rest may be fine, and
        // this construct may sit in a region the preprocessor skips.
        Node M;
        M.Kind = NodeKind::Malformed;
        M.TokBegin = I;
        M.TokEnd = I + 1;
        M.Whole = {T.Offset, T.end()};
        llvm::handleAllErrors(N.takeError(), [&](const LocatedError &E) {
          M.Error = E.text();
          M.ErrorOffset = E.offset();
        });
        Nodes.push_back(std::move(M));
        I = I + 1;
        TextBegin = T.end();
        TextTok = I;
        continue;
      }
      if (N->TokEnd > TokEnd)
        return errorAtTok(I, "meta construct extends past the end of its "
                             "enclosing body");
      I = N->TokEnd;
      TextBegin = N->Whole.End;
      TextTok = I;
      Nodes.push_back(std::move(*N));
    }
    FlushText(End, TokEnd);
    return Nodes;
  }

  /// Counts the levels of parsing that hold one another, for as long as
  /// it lives.
  struct Nested {
    explicit Nested(Scanner &S) : S(S) { ++S.Nesting; }
    ~Nested() { --S.Nesting; }
    Scanner &S;
  };
  bool nestedTooDeep(unsigned I) const {
    return Nesting + BracketDepth[std::min<size_t>(I, toks().size())] >
           MaxNesting;
  }
  llvm::Error tooDeep(unsigned I) const {
    return errorAtTok(I, "nesting too deep: more than " +
                             llvm::Twine(MaxNesting) +
                             " levels of brackets and meta constructs "
                             "(metacu's limit, as Clang's -fbracket-depth)");
  }

  const SourceFile &File;
  ScanResult Result;
  /// Levels of constructs and statements being parsed, one in another.
  unsigned Nesting = 0;
  /// How many bracket groups hold each token.
  std::vector<unsigned> BracketDepth;
  std::map<unsigned, Node> Parsed;
  std::map<unsigned, std::pair<unsigned, std::string>> Failed;
  /// For each token index, the first unpaired closing bracket and the
  /// first '@' at or after it, outside directive lines (size() if none).
  std::vector<unsigned> NextStray, NextAt;
};

} // namespace

llvm::Expected<ScanResult> scan(const SourceFile &File,
                                std::vector<Range> Skipped) {
  std::sort(Skipped.begin(), Skipped.end(),
            [](const Range &A, const Range &B) { return A.Begin < B.Begin; });
  return Scanner(File, Skipped).run();
}

} // namespace metacu
