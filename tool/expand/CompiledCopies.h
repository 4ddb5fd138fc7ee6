//===- CompiledCopies.h - A program's copies of what the JIT compiled -----===//
//
// Clang's incremental code generator emits a `linkonce_odr` function again
// in each module that uses it (the generator library's, the standard
// library's), and the JIT compiles each copy before it resolves the
// symbol to the first. A generator program run in the interpreter kept for
// the language server (the library and its kept code compiled there once)
// would compile most of them again on every edit.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_COMPILEDCOPIES_H
#define METACU_EXPAND_COMPILEDCOPIES_H

namespace clang {
class Interpreter;
}
namespace llvm {
class Module;
}

namespace metacu {

/// Makes each `linkonce_odr` function of \p M (a module \p I parsed and
/// has not yet run) that the JIT already holds, compiled for an earlier
/// module, a declaration the JIT resolves to it, as it resolves the copy's
/// symbol anyway: it is not compiled again. A symbol found in a library of
/// this process (the standard library's own instantiations) is not the
/// JIT's: that copy is compiled as before.
void reuseCompiledCopies(clang::Interpreter &I, llvm::Module &M);

} // namespace metacu

#endif
