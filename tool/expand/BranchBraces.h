//===- BranchBraces.h - When an 'if codegen' branch can lose its braces ---===//
//
// Inside a function, each branch of an 'if codegen' chain is a braced
// block, and its lowering used to keep the braces around the branch's code
// under '#if'. Those braces are a scope nvcc sees: a block around a
// kernel's body that holds '__restrict__' local pointers makes nvcc drop
// 'ld.global.nc' on loads from them, so a '#if' site that migrate rewrote
// into 'if codegen' compiled to other PTX than the original, which has no
// such block.
//
// The braces can go when that cannot change what the code means. The
// chain must be a statement of a compound statement (not the body of an
// 'if', a loop or an 'else'), and then either the branch declares nothing
// at its top level (a block of statements that declare nothing means what
// its statements mean), or the chain is the block's last statement, so
// nothing after the branch could see its names and its objects are
// destroyed first either way, and no name the branch may declare at its
// top level is one the function may have declared before the chain (a
// redeclaration in one scope, or a block-scope function declaration that
// would join an overload set instead of hiding it). The answers
// over-approximate what a statement declares: when in doubt, the braces stay,
// as they always did.
//
// The expander has no Clang AST of function bodies (its parse skips them,
// and a CUDA-mode parse of the body costs more than the whole expansion),
// so these read the tokens; every doubt keeps the braces.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_BRANCHBRACES_H
#define METACU_EXPAND_BRANCHBRACES_H

#include "support/Tokens.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

namespace metacu {

/// The token before \p I outside directive lines, if any.
std::optional<unsigned> previousCode(llvm::ArrayRef<Token> Toks, unsigned I);

/// Whether the token \p First (an 'if codegen') begins a statement of a
/// compound statement, not the body of an 'if', a loop or an 'else': right
/// before it (no code between, directive lines aside) a ';', '{', '}' or a
/// label's ':'.
bool beginsBlockStatement(llvm::ArrayRef<Token> Toks, unsigned First);

/// Whether the token after \p Last (no code between, directive lines aside)
/// is the '}' that closes the block.
bool endsBlock(llvm::ArrayRef<Token> Toks, unsigned Last);

/// The names the statements in (\p Open, \p Close) (a branch's braces) may
/// declare at their top level, over-approximated; none when what they
/// declare cannot be told from the tokens (an 'enum' or 'union' puts
/// names into the scope from inside braces, a macro can declare anything).
std::optional<llvm::StringSet<>>
declaredAtTopLevel(llvm::ArrayRef<Token> Toks, unsigned Open, unsigned Close);

/// The names tokens [\p Begin, \p End) of a function (its head included)
/// may declare at any depth, with every identifier of the function's head
/// and of each parenthesized head before a '{' (parameters, 'for', 'if',
/// 'catch' declarations).
llvm::StringSet<> declaredBefore(llvm::ArrayRef<Token> Toks, unsigned Begin,
                                 unsigned End);

/// Where the head of the function whose body opens at \p Open begins: the
/// token after the ';', '{' or '}' before it, outside brackets.
unsigned functionHeadBegin(llvm::ArrayRef<Token> Toks, unsigned Open);

} // namespace metacu

#endif
