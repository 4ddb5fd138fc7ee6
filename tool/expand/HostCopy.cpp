//===- HostCopy.cpp -------------------------------------------------------===//
#include "expand/HostCopy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include <map>

namespace metacu {

namespace {

/// The host copy of the chain whose '#if' is Events[If], or nothing if the
/// host pass takes one of its branches. \p EndIf is set to its '#endif'.
std::vector<Event> hostCopy(const std::vector<Event> &Events, size_t If,
                            size_t &EndIf) {
  unsigned At = Events[If].Begin;
  bool Host = Events[If].Mask & 1;
  // Each branch's events lie between two of the chain's own directives;
  // nested chains' directives go along with them.
  std::vector<std::pair<size_t, size_t>> Branches;
  size_t Depth = 0, Begin = If + 1;
  for (size_t K = If + 1; K < Events.size(); ++K) {
    const Event &D = Events[K];
    if (D.K != Event::Directive)
      continue;
    if (D.DirectiveKind == METACU_DIRECTIVE_IF) {
      ++Depth;
      continue;
    }
    if (Depth > 0) {
      Depth -= D.DirectiveKind == METACU_DIRECTIVE_ENDIF;
      continue;
    }
    Branches.push_back({Begin, K});
    Begin = K + 1;
    if (D.DirectiveKind == METACU_DIRECTIVE_ENDIF) {
      EndIf = K;
      if (Host)
        return {};
      std::vector<Event> Copy{Event::directive(At, METACU_DIRECTIVE_IF, 1)};
      for (auto [B, E] : Branches) {
        // After the branch's indentation, if it starts with one.
        unsigned Where = B < E ? Events[B].Begin : At;
        if (B < E && Events[B].K == Event::Code &&
            llvm::StringRef(Events[B].Generated).trim().empty())
          Copy.push_back(Events[B++]);
        // A braced block of its own: the branch may have lost its braces
        // (BranchBraces.h), which the device passes see.
        // On a line of its own: the branch may end in a '//' comment.
        Copy.push_back(Event::code(Where, "if (false) { "));
        Copy.insert(Copy.end(), Events.begin() + B, Events.begin() + E);
        unsigned End = B == E                           ? At
                       : Events[E - 1].K == Event::Text ? Events[E - 1].End
                                                        : Events[E - 1].Begin;
        Copy.push_back(Event::code(End, "\n}\n"));
      }
      Copy.push_back(Event::directive(At, METACU_DIRECTIVE_ENDIF, 0));
      return Copy;
    }
    Host |= D.Mask & 1;
  }
  return {};
}

} // namespace

void addHostCopies(Expansion &X, llvm::ArrayRef<unsigned> Chains) {
  if (Chains.empty())
    return;
  // Copies go in after the '#endif' they follow, found before any is
  // inserted; an inner chain's copy travels inside its outer chain's.
  std::map<size_t, std::vector<Event>> After;
  for (size_t I = 0; I < X.Events.size(); ++I) {
    const Event &E = X.Events[I];
    if (E.K != Event::Directive || E.DirectiveKind != METACU_DIRECTIVE_IF ||
        !llvm::is_contained(Chains, E.Begin))
      continue;
    size_t EndIf = 0;
    std::vector<Event> Copy = hostCopy(X.Events, I, EndIf);
    if (!Copy.empty())
      After[EndIf] = std::move(Copy);
  }
  if (After.empty())
    return;
  std::vector<Event> Out;
  Out.reserve(X.Events.size());
  for (size_t I = 0; I < X.Events.size(); ++I) {
    Out.push_back(std::move(X.Events[I]));
    auto A = After.find(I);
    if (A != After.end())
      llvm::append_range(Out, std::move(A->second));
  }
  X.Events = std::move(Out);
}

} // namespace metacu
