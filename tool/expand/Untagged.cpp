//===- Untagged.cpp -------------------------------------------------------===//
#include "expand/Untagged.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>

namespace tok = clang::tok;

namespace metacu {

namespace {

enum class Space { None, Host, Device };

/// A function declared at namespace scope in the input.
struct Function {
  std::string Name;
  Space Where = Space::None;
  /// Where '__host__ __device__ ' would go: after the template header.
  unsigned Insert = 0;
  /// Token range of the body, inside the braces; empty for a declaration.
  unsigned BodyBegin = 0, BodyEnd = 0;
  bool defined() const { return BodyEnd > BodyBegin; }
};

struct Call {
  std::string Name;
  unsigned Offset;
  bool Std; // 'std::name(...)'
};

class Reader {
public:
  Reader(const ScanResult &Scan, const HostSliceResult &Slice)
      : Toks(Scan.Tokens), Slice(Slice) {
    // Meta code is not the program's: its tokens are skipped.
    walkNodes(Scan.Nodes, [&](const Node &N) {
      if (N.Kind == NodeKind::Text)
        return WalkNext::Siblings;
      Meta.push_back(N.Head);
      for (const Branch &B : N.Branches)
        Meta.push_back(B.Cond);
      return WalkNext::Children;
    });
  }

  /// The functions declared at namespace scope, in order.
  std::vector<Function> functions() const {
    std::vector<Function> Fs;
    unsigned Start = 0;
    for (unsigned I = 0; I < Toks.size(); ++I) {
      if (skipped(I)) {
        Start = I + 1;
        continue;
      }
      const Token &T = Toks[I];
      if (T.is(tok::semi) || T.is(tok::r_brace)) {
        if (T.is(tok::semi))
          if (auto F = declaration(Start, I))
            Fs.push_back(*F);
        Start = I + 1;
        continue;
      }
      if (!T.is(tok::l_brace))
        continue;
      std::optional<unsigned> Close = partnerOf(Toks, I);
      if (!Close)
        break;
      bool Opens = false;
      for (unsigned K = Start; K < I; ++K)
        Opens |= Toks[K].isIdent("namespace") || Toks[K].isIdent("extern");
      if (Opens) {
        // A namespace or extern "C" body: its declarations are at
        // namespace scope too.
        Start = I + 1;
        continue;
      }
      if (auto F = declaration(Start, I)) {
        F->BodyBegin = I + 1;
        F->BodyEnd = *Close;
        Fs.push_back(*F);
      }
      // A class, an initializer or a function body: nothing inside is at
      // namespace scope.
      I = *Close;
      Start = I + 1;
      if (I + 1 < Toks.size() && Toks[I + 1].is(tok::semi))
        Start = ++I + 1;
    }
    return Fs;
  }

  /// The calls by name in [Begin, End).
  std::vector<Call> calls(unsigned Begin, unsigned End) const {
    std::vector<Call> Cs;
    for (unsigned I = Begin; I < End; ++I) {
      const Token &T = Toks[I];
      if (skipped(I) || !T.isIdent() || isKeyword(T.Text) || I + 1 >= End)
        continue;
      unsigned After = I + 1;
      if (Toks[After].is(tok::less)) {
        After = skipAngles(Toks, After);
        if (After >= End)
          continue;
      }
      if (!Toks[After].is(tok::l_paren))
        continue;
      const Token *Prev = I > 0 ? &Toks[I - 1] : nullptr;
      if (Prev && (Prev->is(tok::period) || Prev->is(tok::arrow)))
        continue;
      // 'ns::f(' names the file's f as well; 'std::f(' a library one.
      bool Std = Prev && Prev->is(tok::coloncolon) && I >= 2 &&
                 Toks[I - 2].isIdent("std");
      Cs.push_back({T.Text.str(), T.Offset, Std});
    }
    return Cs;
  }

  const std::vector<Token> &Toks;

private:
  bool skipped(unsigned I) const {
    return Toks[I].InDirective || anyContains(Slice.Inactive, Toks[I].Offset) ||
           anyContains(Meta, Toks[I].Offset) || Toks[I].isAt();
  }

  /// The function that tokens [Begin, End) declare, if they declare one.
  std::optional<Function> declaration(unsigned Begin, unsigned End) const {
    if (Begin >= End)
      return std::nullopt;
    Function F;
    unsigned K = Begin;
    if (Toks[K].isIdent("template") && K + 1 < End &&
        Toks[K + 1].is(tok::less)) {
      K = skipAngles(Toks, K + 1);
      if (K >= End)
        return std::nullopt;
    }
    F.Insert = Toks[K].Offset;
    bool Host = false, Device = false;
    unsigned Name = 0;
    for (unsigned J = K; J < End; ++J) {
      const Token &T = Toks[J];
      if (T.isIdent("__host__"))
        Host = true;
      if (T.isIdent("__device__") || T.isIdent("__global__"))
        Device = true;
      if (T.isIdent("typedef") || T.isIdent("using") || T.isIdent("operator") ||
          T.isIdent("friend") || T.is(tok::equal))
        return std::nullopt;
      if (T.is(tok::l_paren)) {
        // The declarator's parameter list follows its name; an attribute's
        // parenthesis follows a reserved name.
        if (!Name && J > K && Toks[J - 1].isIdent() &&
            !isKeyword(Toks[J - 1].Text) && !Toks[J - 1].Text.starts_with("__"))
          Name = J - 1;
        J = skipGroup(Toks, J) - 1;
      } else if (T.isOpenBracket()) {
        J = skipGroup(Toks, J) - 1;
      }
    }
    // A return type comes first ('FOO(x);' is a macro's use); 'S::f' is
    // a member's definition.
    if (Name <= K || Toks[Name - 1].is(tok::coloncolon))
      return std::nullopt;
    F.Name = Toks[Name].Text.str();
    F.Where = Device ? Space::Device : Host ? Space::Host : Space::None;
    return F;
  }

  const HostSliceResult &Slice;
  std::vector<Range> Meta;
};

} // namespace

llvm::Expected<std::vector<unsigned>>
untaggedDeviceHelpers(const ScanResult &Scan, const HostSliceResult &Slice) {
  Reader R(Scan, Slice);
  std::vector<Function> Fs = R.functions();
  llvm::StringMap<std::vector<const Function *>> ByName;
  for (const Function &F : Fs)
    ByName[F.Name].push_back(&F);
  auto Untagged = [&](llvm::StringRef Name) {
    auto It = ByName.find(Name);
    return It != ByName.end() &&
           llvm::all_of(It->second, [](const Function *F) {
             return F->Where == Space::None;
           });
  };
  auto HostOnly = [&](llvm::StringRef Name) {
    auto It = ByName.find(Name);
    return It != ByName.end() &&
           llvm::all_of(It->second, [](const Function *F) {
             return F->Where == Space::Host;
           });
  };

  // Why each untagged helper cannot run on the device, if it cannot: found
  // to a fixed point, since a helper that calls such a helper cannot
  // either.
  llvm::StringMap<std::string> Unusable;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : Fs) {
      if (F.Where != Space::None || !F.defined() || Unusable.count(F.Name))
        continue;
      for (const Call &C : R.calls(F.BodyBegin, F.BodyEnd)) {
        std::string Why;
        if (C.Std)
          Why = "it calls 'std::" + C.Name + "', a host function to nvcc";
        else if (HostOnly(C.Name))
          Why = "it calls '" + C.Name + "', which is declared __host__";
        else if (C.Name != F.Name && Unusable.count(C.Name))
          Why =
              "it calls '" + C.Name + "', which " + Unusable[C.Name].substr(3);
        if (!Why.empty()) {
          Unusable[F.Name] = Why;
          Changed = true;
          break;
        }
      }
    }
  }

  // The helpers device code reaches.
  std::vector<std::string> Work;
  llvm::StringMap<bool> Reached;
  llvm::Error Err = llvm::Error::success();
  for (const Function &F : Fs) {
    if (F.Where != Space::Device || !F.defined())
      continue;
    for (const Call &C : R.calls(F.BodyBegin, F.BodyEnd)) {
      if (C.Std || !Untagged(C.Name))
        continue;
      auto U = Unusable.find(C.Name);
      if (U != Unusable.end()) {
        Err = llvm::joinErrors(
            std::move(Err),
            errorAt(C.Offset, "'" + C.Name +
                                  "' has no execution-space attribute and "
                                  "device code calls it, but metacu cannot "
                                  "make it __host__ __device__: " +
                                  U->second));
        continue;
      }
      if (Reached.try_emplace(C.Name, true).second)
        Work.push_back(C.Name);
    }
  }
  if (Err)
    return std::move(Err);
  while (!Work.empty()) {
    std::string N = Work.back();
    Work.pop_back();
    for (const Function *F : ByName[N])
      if (F->defined())
        for (const Call &C : R.calls(F->BodyBegin, F->BodyEnd))
          if (!C.Std && Untagged(C.Name) &&
              Reached.try_emplace(C.Name, true).second)
            Work.push_back(C.Name);
  }
  std::vector<unsigned> Insert;
  for (const Function &F : Fs)
    if (F.Where == Space::None && Reached.count(F.Name))
      Insert.push_back(F.Insert);
  llvm::sort(Insert);
  return Insert;
}

} // namespace metacu
