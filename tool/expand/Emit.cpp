//===- Emit.cpp -----------------------------------------------------------===//
#include "expand/Emit.h"
#include "support/StringLiteral.h"
#include "support/Tokens.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace metacu {

namespace {

/// Collects output lines and inserts a #line directive before each line
/// whose source line is not the one nvcc would presume.
class LineWriter {
public:
  LineWriter(const SourceFile &File, std::string &Out) : File(File), Out(Out) {}

  void put(llvm::StringRef Text, unsigned Offset, bool Verbatim) {
    bool Started = false;
    for (size_t I = 0; I < Text.size(); ++I) {
      char C = Text[I];
      if (C == '\n') {
        // A line that generated code ends with nothing but indentation on
        // it (a meta branch of meta statements only, a block that a '@meta
        // break' left) is not written; an empty one is a blank line.
        if (!Verbatim && !Source && !Line.empty()) {
          Line.clear();
          Stretches.clear();
        } else {
          endLine();
        }
        Started = false;
        continue;
      }
      if (!Source && C != ' ' && C != '\t' && C != '\r')
        Source = File.origin(Verbatim ? Offset + I : Offset);
      if (!Started)
        Stretches.push_back({unsigned(Line.size()),
                             Verbatim ? unsigned(Offset + I) : Offset, Verbatim,
                             Passes});
      Started = true;
      Line += C;
    }
  }

  /// The passes whose preprocessing keeps what is put from now on.
  void setPasses(uint64_t P) { Passes = P; }
  /// Where each stretch of the output was written from; its offsets count
  /// from the output's first byte.
  OutputMap takeMap() { return std::move(Map); }

  /// \p Kind: the conditional directive it is, which nvcc's line count
  /// depends on (a '#line' in a branch a pass skips is skipped too).
  void directive(const std::string &D, metacu_directive_kind Kind) {
    // A directive needs a line of its own; indentation already written for
    // the next line waits for it.
    std::string Indent;
    std::vector<Stretch> IndentStretches;
    if (Source) {
      endLine();
    } else {
      Indent = std::move(Line);
      IndentStretches = std::move(Stretches);
    }
    Line.clear();
    Stretches.clear();
    Out += D;
    Out += '\n';
    if (Presumed)
      ++Presumed;
    // After a branch that wrote a '#line', the passes that skipped it count
    // on from elsewhere: the next line needs a '#line' of its own.
    if (Kind == METACU_DIRECTIVE_IF) {
      LineInBranch.push_back(false);
    } else if (!LineInBranch.empty() && LineInBranch.back()) {
      Presumed = 0;
      if (Kind == METACU_DIRECTIVE_ENDIF) {
        LineInBranch.pop_back();
        if (!LineInBranch.empty())
          LineInBranch.back() = true;
      }
    } else if (Kind == METACU_DIRECTIVE_ENDIF && !LineInBranch.empty()) {
      LineInBranch.pop_back();
    }
    Line = std::move(Indent);
    Stretches = std::move(IndentStretches);
  }

  void finish() {
    if (!Line.empty() || Source)
      endLine();
  }

private:
  void endLine() {
    // A line of another file than the one presumed (a dialect header
    // spliced in, or the input after it) needs the file named too.
    if (Source &&
        (Source->Where.Line != Presumed || Source->LinePath != PathOf)) {
      Out += "#line " + std::to_string(Source->Where.Line) + " " +
             stringLiteral(Source->LinePath, NonAscii::Keep) + "\n";
      Presumed = Source->Where.Line;
      PathOf = Source->LinePath;
      if (!LineInBranch.empty())
        LineInBranch.back() = true;
    }
    for (size_t I = 0; I < Stretches.size(); ++I) {
      const Stretch &S = Stretches[I];
      unsigned End = I + 1 < Stretches.size() ? Stretches[I + 1].LineOffset
                                              : unsigned(Line.size());
      Origin O = File.origin(S.Input);
      Map.add({unsigned(Out.size()) + S.LineOffset, unsigned(Out.size()) + End,
               InputPlace{Map.fileIndex(O.Path), O.Where.Line, O.Where.Col,
                          S.Verbatim},
               S.Passes});
    }
    Stretches.clear();
    Out += Line;
    Out += '\n';
    if (Presumed)
      ++Presumed;
    Line.clear();
    Source.reset();
  }

  /// A stretch of the line being written that one put() call wrote.
  struct Stretch {
    unsigned LineOffset;
    /// The input byte of LineOffset (verbatim), or the construct's.
    unsigned Input;
    bool Verbatim;
    uint64_t Passes;
  };

  const SourceFile &File;
  std::string &Out;
  std::string Line;
  std::vector<Stretch> Stretches;
  uint64_t Passes = ~uint64_t(0);
  OutputMap Map;
  std::optional<Origin> Source;
  /// The file nvcc presumes, once a #line named one.
  llvm::StringRef PathOf;
  /// The line number nvcc presumes for the next output line; 0 before the
  /// first #line.
  unsigned Presumed = 0;
  /// Per open conditional, whether a '#line' was written inside it.
  std::vector<bool> LineInBranch;
};

/// The metacu header the expanded code needs, if any. The lowering's
/// unrolled loops need only <metacu/select.h> (pure C++, cheap); ordinary
/// code that names metacu's runtime without including a metacu header
/// itself gets <metacu/runtime.h>. Everything else costs nvcc nothing: the
/// prelude's guard and nvvm_arch_t need no header.
std::optional<llvm::StringRef> runtimeHeader(const std::string &Body) {
  std::vector<Token> Toks = lexRaw(Body);
  bool Lowering = false, User = false, UserIncludes = false;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (T.InDirective) {
      if (T.isIdent("include") && I + 2 < Toks.size() &&
          Toks[I + 1].is(clang::tok::less) && Toks[I + 2].isIdent("metacu"))
        UserIncludes = true;
      else if (T.is(clang::tok::string_literal) &&
               T.Text.starts_with("\"metacu/"))
        UserIncludes = true;
      continue;
    }
    // The namespace: 'metacu::x' or 'using namespace metacu'; a variable
    // of the user's that happens to be called metacu is none.
    bool Qualifies =
        T.isIdent("metacu") &&
        ((I + 1 < Toks.size() && Toks[I + 1].is(clang::tok::coloncolon)) ||
         (I > 0 && Toks[I - 1].isIdent("namespace")));
    if (Qualifies && I + 2 < Toks.size() &&
        (Toks[I + 2].isIdent("unroll_for") || Toks[I + 2].isIdent("loop_cmp")))
      Lowering = true;
    else if (Qualifies || (T.isIdent() && T.Text.starts_with("METACU_")))
      User = true;
  }
  if (User && !UserIncludes)
    return llvm::StringRef("<metacu/runtime.h>");
  if (Lowering)
    return llvm::StringRef("<metacu/select.h>");
  return std::nullopt;
}

} // namespace

EmittedFile emitMapped(const SourceFile &File, const ArchList &Archs,
                       const Expansion &X, const EmitOptions &Opts) {
  std::string Body;
  LineWriter W(File, Body);
  // The masks of the #if blocks open around the current event: an #elif
  // or #else replaces its block's, and nested blocks keep what all keep.
  std::vector<uint64_t> Blocks;
  auto Kept = [&] {
    uint64_t M = ~uint64_t(0);
    for (uint64_t B : Blocks)
      M &= B;
    return M;
  };
  for (const Event &E : X.Events) {
    if (E.K == Event::Directive) {
      if (E.DirectiveKind == METACU_DIRECTIVE_IF)
        Blocks.push_back(E.Mask);
      else if (E.DirectiveKind == METACU_DIRECTIVE_ENDIF && !Blocks.empty())
        Blocks.pop_back();
      else if (!Blocks.empty())
        Blocks.back() = E.Mask;
    }
    switch (E.K) {
    case Event::Text:
      W.put(File.text().slice(E.Begin, E.End), E.Begin, /*Verbatim=*/true);
      break;
    case Event::Code:
      W.put(E.Generated, E.Begin, /*Verbatim=*/false);
      break;
    case Event::Directive:
      switch (E.DirectiveKind) {
      case METACU_DIRECTIVE_IF:
        W.directive("#if " + Archs.guard(E.Mask), METACU_DIRECTIVE_IF);
        break;
      case METACU_DIRECTIVE_ELIF:
        W.directive("#elif " + Archs.guard(E.Mask), METACU_DIRECTIVE_ELIF);
        break;
      case METACU_DIRECTIVE_ELSE:
        W.directive("#else", METACU_DIRECTIVE_ELSE);
        break;
      case METACU_DIRECTIVE_ENDIF:
        W.directive("#endif", METACU_DIRECTIVE_ENDIF);
        break;
      }
      W.setPasses(Kept());
      break;
    }
  }
  W.finish();

  std::string Out;
  llvm::StringRef Name = llvm::sys::path::filename(File.path());
  Out += "// Generated by metacu from " +
         escapedForStringLiteral(Name, NonAscii::Keep) + " for " +
         Archs.names() + ". Do not edit.\n";
  if (auto Header = runtimeHeader(Body))
    Out += "#include " + Header->str() + "\n";
  Out += "#if " + Archs.foreignArchCondition() + "\n";
  Out += "#error \"" +
         escapedForStringLiteral(Opts.OutputName, NonAscii::Keep) +
         " was generated for " + Archs.names() +
         " only; regenerate it with metacu --arch\"\n";
  Out += "#endif\n";
  Out += Archs.enumDefinition() + "\n";
  Out += Archs.valueDefinition();
  EmittedFile Result;
  Result.BodyOffset = Out.size();
  Result.Map = W.takeMap();
  Result.Map.shift(Out.size());
  Result.Text = std::move(Out) + Body;
  return Result;
}

std::string emitOutput(const SourceFile &File, const ArchList &Archs,
                       const Expansion &X, const EmitOptions &Opts) {
  return emitMapped(File, Archs, X, Opts).Text;
}

std::string dependencyRule(llvm::StringRef Target,
                           llvm::ArrayRef<std::string> Deps) {
  auto Escape = [](llvm::StringRef P) {
    std::string S;
    for (char C : P) {
      if (C == ' ' || C == '#')
        S += '\\';
      else if (C == '$')
        S += '$';
      S += C;
    }
    return S;
  };
  std::string Out = Escape(Target) + ":";
  for (const std::string &D : Deps)
    Out += " \\\n  " + Escape(D);
  return Out + "\n";
}

} // namespace metacu
