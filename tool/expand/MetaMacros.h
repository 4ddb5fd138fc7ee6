//===- MetaMacros.h - Macros whose expansion holds meta code --------------===//
//
// metacu expands the file before nvcc's preprocessor does, so a macro whose
// body holds a meta construct ('@meta', '@(...)', 'if codegen', as in
// Circle's SM_DISPATCH) or names a meta variable would reach nvcc as
// tokens it cannot read. Such a macro is expanded by metacu at each use in
// ordinary code, before the other stages run; everything else stays for
// nvcc's preprocessor.
//
// Which definition a use names, whether the use is in a region the
// preprocessor keeps, and how its arguments split are the answers of
// Clang's preprocessor (nvcc's host pass, the user's flags), not of the
// tokens. The expansion is one level deep, as written: parameters take
// their argument's tokens as written ('#' and '##' as the standard says),
// and other macros in the body or the arguments are left to nvcc, which
// expands them in each of its passes (a macro on __CUDA_ARCH__ keeps its
// meaning per architecture). A macro that uses a meta macro is a meta
// macro too, so a use expands level by level until no meta macro is left.
//
// The expansion takes the use's place on the use's line; the lines of the
// text stay where they were, so #line directives and the stages' line
// numbers hold. An error inside an expansion is shown at the use, with a
// note at the macro's definition.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_METAMACROS_H
#define METACU_EXPAND_METAMACROS_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu {

/// One use of a meta macro replaced by its expansion, or a blanked
/// #define (no name, an empty expansion).
struct MacroUse {
  /// The use (name to closing parenthesis) in the text before.
  Range Written;
  /// Its expansion in the text after.
  Range Expanded;
  std::string Name;
  /// The macro's name in its #define, in the text before; none for a
  /// macro of a header.
  std::optional<unsigned> Definition;
};

/// One round of expansion.
struct ExpandedMacros {
  /// The text after; same lines as before, origin marks kept.
  SourceFile Text;
  /// Ascending.
  std::vector<MacroUse> Uses;
  /// Whether an expansion holds a use of a meta macro, for another round.
  bool MoreRounds = false;
  /// Where the byte at \p Offset of the text after was in the text before:
  /// a byte of an expansion maps to the use's first byte.
  unsigned offsetBefore(unsigned Offset) const;
  /// The use whose expansion holds \p Offset of the text after, if any.
  const MacroUse *useAt(unsigned Offset) const;
};

/// Whether \p Scan's #define lines may define a meta macro: a body with a
/// meta construct, or naming one of \p MetaNames or such a macro. A cheap
/// test on the tokens, so that only files that may need it pay for the
/// preprocessor's reading.
bool mayDefineMetaMacros(const ScanResult &Scan,
                         const llvm::StringSet<> &MetaNames);

/// Expands, once, the uses in ordinary code of \p File's meta macros
/// (meta names: \p MetaNames), and blanks the #define lines whose body
/// holds a meta construct (nvcc would read them as text otherwise). None
/// when nothing was expanded.
llvm::Expected<std::optional<ExpandedMacros>>
expandMetaMacros(const SourceFile &File, const ScanResult &Scan,
                 const llvm::StringSet<> &MetaNames,
                 const HostSliceOptions &Opts);

} // namespace metacu

#endif
