//===- Options.h - What every metacu subcommand reads the same way --------===//
//
// Expansion, audit and migration all parse the user's CUDA code as nvcc
// would, so they take the same preprocessor flags, build directory and
// toolkit options, declared once here for every subcommand.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_DRIVER_OPTIONS_H
#define METACU_DRIVER_OPTIONS_H

#include "expand/Pipeline.h"
#include "toolchain/CompileFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include <string>

namespace metacu {

/// Options of metacu itself, shown by --help of every subcommand.
extern llvm::cl::OptionCategory MetacuCategory;

/// --cuda-path, empty when not given.
extern llvm::cl::opt<std::string> CudaPathOption;

/// -p: the build directory with compile_commands.json, empty if none.
llvm::StringRef buildDirectory();

/// --cache-dir: where precompiled headers are kept across runs (StoredPch.h);
/// empty for nowhere.
llvm::StringRef cacheDirectory();

/// The flags \p File is compiled with: those compile_commands.json records
/// for it (-p BUILD_DIR), then -I/-isystem/-include/-D/-U/-std from the
/// command line in the order given, so the command line wins.
llvm::Expected<CompileFlags> compileFlagsFor(llvm::StringRef File);

/// How a subcommand expands \p File: its compile flags (compileFlagsFor),
/// the toolkit, metacu's runtime headers, --cache-dir, and the limits on
/// meta code (--meta-timeout, --meta-memory, --max-expansion).
llvm::Expected<PipelineOptions> pipelineOptionsFor(llvm::StringRef File);

/// metacu's runtime headers: installed beside the executable
/// (<prefix>/bin/metacu, <prefix>/include/metacu), else the source tree it
/// was built from.
std::string runtimeIncludeDir();

/// Prints \p Err (support/Diagnostic's printErrors): errors in a file at
/// their place, others as "metacu: error: ...". Returns 1, the exit status
/// of a failed run.
int reportFailure(llvm::Error Err);

} // namespace metacu

#endif
