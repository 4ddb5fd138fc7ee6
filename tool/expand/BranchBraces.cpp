//===- BranchBraces.cpp - When an 'if codegen' branch can lose its braces -===//
#include "expand/BranchBraces.h"
#include "expand/MetaNames.h"

#include "llvm/ADT/StringSwitch.h"

namespace tok = clang::tok;

namespace metacu {

std::optional<unsigned> previousCode(llvm::ArrayRef<Token> Toks, unsigned I) {
  while (I-- > 0)
    if (!Toks[I].InDirective)
      return I;
  return std::nullopt;
}

namespace {

std::optional<unsigned> nextCode(llvm::ArrayRef<Token> Toks, unsigned I) {
  for (++I; I < Toks.size(); ++I)
    if (!Toks[I].InDirective)
      return I;
  return std::nullopt;
}

/// Words after which an identifier is an operand, never a declared name.
bool precedesOperand(llvm::StringRef W) {
  return llvm::StringSwitch<bool>(W)
      .Cases({"return", "case", "goto", "throw", "delete", "new"}, true)
      .Cases({"else", "do", "if", "for", "while", "switch"}, true)
      .Cases({"co_return", "co_yield", "co_await", "sizeof", "alignof"}, true)
      .Cases({"typeid", "operator", "break", "continue", "default"}, true)
      .Default(false);
}

/// Whether the identifier at \p I may be a name a declaration introduces
/// (the over-approximation both sides of the check share): before what may
/// end a declarator name, and after a type's
/// last word, a '*', '&' or '&&' of a declarator, a '>' of a template
/// argument list, a '}' of a class definition, a ',' after a declarator
/// (outside parentheses), but never in an initializer (after a '='); a '(' of a
/// parenthesized declarator ('int
/// (*f)(int)'), a structured binding's '[' or ','; or the first word of a
/// statement alone ('NAME;') and each lone identifier argument of a
/// statement that is a call ('NAME(a, b);'), which a macro may turn into
/// declarations. (A macro that declares a name spelled nowhere in its call
/// is not seen.)
class Candidates {
public:
  Candidates(llvm::ArrayRef<Token> Toks) : Toks(Toks) {}

  /// Adds those of [B, E) at brace depth 0 (\p TopOnly; then also at
  /// parenthesis depth 0 but for declarators), or at any depth.
  void collect(unsigned B, unsigned E, bool TopOnly) {
    // Per open brace: the statement being read, and the parentheses open
    // in it.
    struct Statement {
      bool Start = true;
      /// Past a '=' (or another assignment, a '?'): an expression, until a
      /// ',' begins the next declarator of a declaration.
      bool InInit = false;
      bool HasDeclarator = false;
      int Parens = 0;
    };
    std::vector<Statement> Open(1);
    // The '[' of a structured binding open around the token.
    std::optional<unsigned> Binding;
    for (unsigned I = B; I < E; ++I) {
      const Token &T = Toks[I];
      if (T.InDirective)
        continue;
      Statement &S = Open.back();
      if (T.is(tok::l_brace)) {
        Open.emplace_back();
        continue;
      }
      if (T.is(tok::r_brace)) {
        if (Open.size() > 1)
          Open.pop_back();
        // A block ends a statement; a class body or a lambda does not.
        if (Open.back().Parens == 0 && !Open.back().HasDeclarator)
          Open.back() = Statement();
        continue;
      }
      if (T.is(tok::l_paren) || T.is(tok::r_paren)) {
        S.Parens += T.is(tok::l_paren) ? 1 : -1;
        continue;
      }
      if (T.is(tok::l_square)) {
        std::optional<unsigned> P = previousCode(Toks, I);
        if (P && (Toks[*P].isIdent("auto") || Toks[*P].is(tok::amp) ||
                  Toks[*P].is(tok::ampamp)))
          Binding = I;
        S.Start = false;
        continue;
      }
      if (T.is(tok::r_square)) {
        Binding.reset();
        continue;
      }
      if (S.Parens == 0 && T.is(tok::semi)) {
        S = Statement();
        continue;
      }
      if (S.Parens == 0 && isAssignment(T))
        S.InInit = true;
      if (S.Parens == 0 && T.is(tok::comma) && S.HasDeclarator)
        S.InInit = false;
      bool Top = !TopOnly || Open.size() == 1;
      if (T.isIdent() && Top) {
        bool Start = S.Start && S.Parens == 0;
        S.Start = false;
        bool Alone = Start && I + 1 < E && Toks[I + 1].is(tok::semi);
        if (!S.InInit && (Binding || declarator(I, S, TopOnly))) {
          S.HasDeclarator = true;
          Names.insert(T.Text);
        } else if (Alone) {
          Names.insert(T.Text);
        }
        if (Start && !precedesOperand(T.Text))
          callArguments(I);
        continue;
      }
      if (!T.is(tok::colon))
        S.Start = false;
    }
  }

  bool sawScopeLeak() const { return Leak; }
  void noteLeaks(unsigned B, unsigned E) {
    int Braces = 0;
    for (unsigned I = B; I < E; ++I) {
      const Token &T = Toks[I];
      if (T.InDirective)
        continue;
      Braces += T.is(tok::l_brace) ? 1 : T.is(tok::r_brace) ? -1 : 0;
      // Unscoped enumerators and an anonymous union's members are names of
      // the scope around their braces.
      if (Braces == 0 && (T.isIdent("enum") || T.isIdent("union")))
        Leak = true;
    }
  }

  llvm::StringSet<> Names;

private:
  /// Whether what follows the identifier at \p I may end a declarator
  /// name: a type's words are followed by more of it ('const T *q').
  bool endsDeclarator(unsigned I) const {
    std::optional<unsigned> N = nextCode(Toks, I);
    if (!N)
      return true;
    const Token &T = Toks[*N];
    // '__attribute__((...))', '__align__(16)' may follow the name.
    return T.is(tok::equal) || T.is(tok::semi) || T.is(tok::comma) ||
           T.is(tok::l_square) || T.is(tok::l_paren) || T.is(tok::l_brace) ||
           T.is(tok::r_paren) || T.is(tok::r_square) || T.is(tok::colon) ||
           (T.isIdent() && T.Text.starts_with("__"));
  }

  static bool isAssignment(const Token &T) {
    switch (T.Kind) {
    case tok::equal:
    case tok::plusequal:
    case tok::minusequal:
    case tok::starequal:
    case tok::slashequal:
    case tok::percentequal:
    case tok::ampequal:
    case tok::pipeequal:
    case tok::caretequal:
    case tok::lesslessequal:
    case tok::greatergreaterequal:
    case tok::question:
      return true;
    default:
      return false;
    }
  }

  template <class S>
  bool declarator(unsigned I, const S &Stmt, bool TopOnly) const {
    int Parens = Stmt.Parens;
    std::optional<unsigned> P = previousCode(Toks, I);
    if (!P || !endsDeclarator(I))
      return false;
    const Token &Prev = Toks[*P];
    if (TopOnly && Parens > 0) {
      // Inside parentheses a top-level declaration names only a
      // parenthesized declarator ('int (*f)(int)'); the rest are a
      // statement's own ('for (int i ...)') or a lambda's. Parentheses
      // with a ',' of their own hold arguments, no declarator ('copy(&a[i],
      // &b[j])').
      std::optional<unsigned> PP = previousCode(Toks, *P);
      return (Prev.is(tok::star) || Prev.is(tok::amp) ||
              Prev.is(tok::ampamp)) &&
             PP && Toks[*PP].is(tok::l_paren) && !holdsComma(*PP);
    }
    if (Prev.isIdent())
      return !precedesOperand(Prev.Text);
    if (Prev.is(tok::star) || Prev.is(tok::amp) || Prev.is(tok::ampamp))
      return true;
    return Prev.is(tok::greater) || Prev.is(tok::greatergreater) ||
           Prev.is(tok::r_brace) || Prev.is(tok::ellipsis) ||
           (Prev.is(tok::comma) && Stmt.HasDeclarator);
  }

  /// Whether the parentheses opened at \p Open hold a ',' outside the
  /// brackets nested in them.
  bool holdsComma(unsigned Open) const {
    std::optional<unsigned> Close = partnerOf(Toks, Open);
    if (!Close)
      return false;
    for (unsigned K = Open + 1; K < *Close; ++K) {
      if (Toks[K].isOpenBracket())
        K = skipGroup(Toks, K) - 1;
      else if (Toks[K].is(tok::comma))
        return true;
    }
    return false;
  }

  /// The lone identifiers among the arguments of 'NAME(...)' at \p I.
  void callArguments(unsigned I) {
    if (I + 1 >= Toks.size() || !Toks[I + 1].is(tok::l_paren))
      return;
    std::optional<unsigned> Close = partnerOf(Toks, I + 1);
    if (!Close)
      return;
    for (unsigned K = I + 2; K < *Close; ++K) {
      if (Toks[K].isOpenBracket()) {
        K = skipGroup(Toks, K) - 1;
        continue;
      }
      if (Toks[K].isIdent() &&
          (Toks[K - 1].is(tok::l_paren) || Toks[K - 1].is(tok::comma)) &&
          (Toks[K + 1].is(tok::r_paren) || Toks[K + 1].is(tok::comma)))
        Names.insert(Toks[K].Text);
    }
  }

  llvm::ArrayRef<Token> Toks;
  bool Leak = false;
};

} // namespace

bool beginsBlockStatement(llvm::ArrayRef<Token> Toks, unsigned First) {
  std::optional<unsigned> P = previousCode(Toks, First);
  if (!P)
    return false;
  // Only directive lines may lie between: code in a region the
  // preprocessor may keep would be a statement around the chain.
  for (unsigned K = *P + 1; K < First; ++K)
    if (!Toks[K].InDirective)
      return false;
  const Token &Prev = Toks[*P];
  // After a ';' or a block's '}' a statement begins ('do { } while' and
  // class definitions have their ';' before any statement can follow).
  if (Prev.is(tok::semi) || Prev.is(tok::l_brace) || Prev.is(tok::r_brace))
    return true;
  // After 'label:', 'case X:' or 'default:' at the start of a statement.
  if (!Prev.is(tok::colon))
    return false;
  std::optional<unsigned> L = previousCode(Toks, *P);
  if (!L)
    return false;
  if (Toks[*L].isIdent("default"))
    return true;
  // 'case' and its constant expression ('case 1:', 'case ns::E:').
  for (std::optional<unsigned> K = L; K; K = previousCode(Toks, *K)) {
    const Token &T = Toks[*K];
    if (T.isIdent("case"))
      return beginsBlockStatement(Toks, *K);
    if (T.is(tok::semi) || T.is(tok::l_brace) || T.is(tok::r_brace))
      break;
  }
  if (!Toks[*L].isIdent())
    return false;
  std::optional<unsigned> LL = previousCode(Toks, *L);
  return LL && (Toks[*LL].is(tok::semi) || Toks[*LL].is(tok::l_brace) ||
                Toks[*LL].is(tok::r_brace));
}

bool endsBlock(llvm::ArrayRef<Token> Toks, unsigned Last) {
  std::optional<unsigned> N = nextCode(Toks, Last);
  if (!N || !Toks[*N].is(tok::r_brace))
    return false;
  for (unsigned K = Last + 1; K < *N; ++K)
    if (!Toks[K].InDirective)
      return false;
  return true;
}

std::optional<llvm::StringSet<>>
declaredAtTopLevel(llvm::ArrayRef<Token> Toks, unsigned Open, unsigned Close) {
  Candidates C(Toks);
  C.noteLeaks(Open + 1, Close);
  if (C.sawScopeLeak())
    return std::nullopt;
  C.collect(Open + 1, Close, /*TopOnly=*/true);
  // A keyword (CUDA's execution spaces and '__restrict__' included) names
  // nothing a declaration could clash on.
  llvm::StringSet<> Names;
  for (llvm::StringRef N : C.Names.keys())
    if (!isKeyword(N))
      Names.insert(N);
  return Names;
}

llvm::StringSet<> declaredBefore(llvm::ArrayRef<Token> Toks, unsigned Begin,
                                 unsigned End) {
  Candidates C(Toks);
  C.collect(Begin, End, /*TopOnly=*/false);
  // Heads: the function's own (from Begin to its body's '{') and every
  // parenthesized one a '{' follows.
  bool InFunctionHead = true;
  for (unsigned I = Begin; I < End; ++I) {
    const Token &T = Toks[I];
    if (T.InDirective)
      continue;
    if (T.is(tok::l_brace))
      InFunctionHead = false;
    if (InFunctionHead && T.isIdent())
      C.Names.insert(T.Text);
    if (!T.is(tok::l_paren) || T.Partner <= 0)
      continue;
    unsigned Close = I + T.Partner;
    std::optional<unsigned> After = nextCode(Toks, Close);
    if (!After || Close >= End)
      continue;
    // ') {', ') const {', ') -> T {', ') mutable {': parameters or a
    // condition's declaration.
    unsigned K = *After;
    while (K < End && !Toks[K].is(tok::l_brace) && !Toks[K].is(tok::semi) &&
           !Toks[K].is(tok::l_paren) && !Toks[K].is(tok::equal))
      ++K;
    if (K < End && Toks[K].is(tok::l_brace))
      for (unsigned J = I + 1; J < Close; ++J)
        if (Toks[J].isIdent())
          C.Names.insert(Toks[J].Text);
  }
  return std::move(C.Names);
}

unsigned functionHeadBegin(llvm::ArrayRef<Token> Toks, unsigned Open) {
  int Depth = 0;
  for (unsigned I = Open; I-- > 0;) {
    const Token &T = Toks[I];
    if (T.InDirective)
      continue;
    if (Depth == 0 &&
        (T.is(tok::semi) || T.is(tok::l_brace) || T.is(tok::r_brace)))
      return I + 1;
    if (T.isCloseBracket())
      ++Depth;
    else if (T.isOpenBracket())
      --Depth;
  }
  return 0;
}

} // namespace metacu
