//===- HostSlice.h - Stage 2: what meta code needs from ordinary code -----===//
//
// Parses the input once, in C++ mode (the cheapest that works: CUDA host
// mode costs several times more in Clang's wrapper headers), with the meta
// constructs masked and function bodies skipped. From that parse it learns:
//  - the namespace-scope declarations meta code refers to, and what they in
//    turn depend on, so the generator program can compile them;
//  - which #include lines provide the other declarations and macros meta code
//    uses, so the generator includes only those;
//  - the enumerations and aggregates the generator can reflect on and spell;
//  - which regions the preprocessor skips with the user's -D flags, and which
//    conditional blocks test __CUDA_ARCH__;
//  - every file the preprocessor read, for the dependency file.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_HOSTSLICE_H
#define METACU_EXPAND_HOSTSLICE_H

#include "expand/Scan.h"
#include "support/RangeSet.h"
#include "support/SourceFile.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class FileEntryRef;
class FileManager;
class FrontendAction;
class HeaderSearch;
}

namespace metacu {

class Preambles;

/// An enumeration the generator can iterate with '@meta for enum'.
struct EnumInfo {
  std::string QualifiedName;
  /// Where in the main file the generator can describe it: the end of its
  /// declaration, or the start of the #include line that brings it in
  /// (the description follows that line).
  unsigned After = 0;
  /// Declared in a header (so its description must reopen its namespace).
  bool FromHeader = false;
  bool Scoped = false;
  std::vector<std::string> Enumerators;
};

/// An aggregate whose values the generator can spell as 'Type{...}'.
struct RecordInfo {
  std::string QualifiedName;
  unsigned After = 0;
  bool FromHeader = false;
  std::vector<std::string> Fields;
};

/// A main-file declaration the generator must compile.
struct SliceDecl {
  /// The full declaration: template header, attributes, trailing ';'.
  Range Text;
  /// For device functions and kernels, whose bodies only nvcc can compile:
  /// where the body starts (the generator gets a declaration). 0 otherwise.
  unsigned BodyBegin = 0;
};

/// A user header that contains meta constructs: expanded once spliced into
/// the input (DialectHeaders.h); one that is not (given with -include, say)
/// is refused.
struct MetaHeader {
  /// Offset of the main-file #include that brings it in.
  unsigned IncludeOffset = 0;
  std::string Path;
  unsigned Line = 0, Col = 0;
  /// Read through -include on the command line (IncludeOffset is then
  /// meaningless): the file -include names, which is Path or includes it.
  std::string PreIncluded;
};

struct HostSliceResult {
  /// Byte ranges of the input the preprocessor skips (host pass), each
  /// from the '#' of the directive whose condition was false. Every stage
  /// asks this one set (RangeSet.h: a question per token stays cheap).
  RangeSet Inactive;
  /// Conditional blocks (#if ... #endif) whose condition tests
  /// __CUDA_ARCH__, directly or through a macro.
  std::vector<Range> ArchConditional;
  /// Conditional blocks whose condition tests __CUDACC__ or __NVCC__,
  /// which nvcc defines and metacu's C++-mode parse does not. Left empty
  /// when a CUDA-mode preprocessing settled which regions nvcc compiles
  /// (it is run when meta constructs sit in such blocks or in skipped
  /// regions), and when the parse read the input as nvcc's host pass.
  std::vector<Range> CompilerConditional;
  /// Main-file #include lines the generator needs, as the byte range of the
  /// directive line, in source order.
  std::vector<Range> NeededIncludes;
  /// The generator needs <cuda_runtime.h>, which nvcc includes implicitly.
  bool NeedsCudaRuntime = false;
  /// Main-file declarations meta code uses, in source order.
  std::vector<SliceDecl> Declarations;
  std::vector<EnumInfo> Enums;
  std::vector<RecordInfo> Records;
  std::vector<MetaHeader> MetaHeaders;
  /// Dialect headers read through -include: nvcc would read them too, as
  /// they are (refused).
  std::vector<MetaHeader> PreIncludedMetaHeaders;
  /// Some #include this pass does not follow may lead one of nvcc's own
  /// passes into a dialect header, which would reach nvcc unexpanded: one
  /// in a region this pass skips, in the input or a user header, that
  /// names a dialect header directly or through user headers, or whose
  /// name is a macro this pass cannot resolve; or one whose name is a macro
  /// that depends on __CUDA_ARCH__, __CUDACC__ or __NVCC__. A cheap,
  /// conservative test: what nvcc's passes read is then settled by
  /// splicing as the host pass reads the input (DialectHeaders.h) and by
  /// preprocessing as each device pass (NvccPasses.h).
  bool UnfollowedInclude = false;
  /// The preprocessor met an error in the user's files (HostPassErrors.h
  /// says whether nvcc's host pass meets it too).
  bool PreprocessorError = false;
  /// Every file the preprocessor read, the input first.
  std::vector<std::string> Files;
  /// The names meta code uses (as metaIdentifiers records them) that the
  /// parse found declared outside function bodies, in the input or a
  /// header, or defined as macros: what the generator can compile.
  llvm::StringSet<> Visible;
};

struct HostSliceOptions {
  CompileFlags Flags;
  CudaToolkit Toolkit = CudaToolkit::find();
  /// metacu's runtime include directory: the generator always has it, so
  /// declarations from there never need an #include of the user's.
  std::string RuntimeInclude;
  /// Read the input as nvcc's host pass does, with __CUDACC__ and __NVCC__,
  /// not as a host C++ compiler does: an input with its dialect headers
  /// spliced in, since the splice follows that pass, and a header it took
  /// under '#ifdef __CUDACC__' holds declarations meta code uses.
  bool AsNvccHostPass = false;
  /// Where given, the headers of the C++-mode and CUDA-mode parses' command
  /// lines come precompiled from there (the language server keeps them
  /// between expansions of a file: toolchain/Preambles.h). What the stages
  /// learn is the same.
  Preambles *Precompiled = nullptr;
};

/// Runs \p Action over \p File, unmasked, as nvcc's host pass reads it
/// (with __CUDACC__ and __NVCC__: what nvcc expands and includes), its
/// diagnostics dropped: what is wrong with the input is the host slice's to
/// report. The stages that follow that reading (the splice of dialect
/// headers, the macros holding meta constructs, the input's #line
/// directives) run through this one place.
void preprocessAsNvccHostPass(const SourceFile &File,
                              const HostSliceOptions &Opts,
                              std::unique_ptr<clang::FrontendAction> Action);

/// The files that may be dialect headers: the user's (found beside their
/// includer, through -I or -iquote) and those under the user's own
/// -isystem directories (a library consumed as a CMake imported target
/// is), but not the toolkit's, the compiler's or the system's, which are
/// never in the dialect and too many to read for it.
class DialectScope {
public:
  explicit DialectScope(const HostSliceOptions &Opts);
  /// \p Name as the preprocessor found it; \p System: found in a system
  /// directory.
  bool covers(llvm::StringRef Name, bool System) const;
  /// \p F, a file the preprocessor entered. Whether it is in a system
  /// directory comes from the search directories that hold it, not from
  /// what the preprocessor calls it: '#pragma GCC system_header' makes a
  /// header and every file it includes system headers to the preprocessor
  /// (vendored CCCL marks its headers so), and a user's dialect header
  /// included from there is still the user's.
  bool covers(clang::FileEntryRef F, clang::HeaderSearch &HS) const;

private:
  std::vector<std::string> SystemDirs;
};

/// Parses \p File with its meta constructs masked. \p MetaNames are the
/// identifiers meta code uses (MetaNames.h).
llvm::Expected<HostSliceResult> sliceHost(const SourceFile &File,
                                          const ScanResult &Scan,
                                          const llvm::StringSet<> &MetaNames,
                                          const HostSliceOptions &Opts);

/// The input with its meta constructs masked, at \p Path (its real path),
/// over the real file system: relative #includes resolve as nvcc resolves
/// them.
llvm::IntrusiveRefCntPtr<clang::FileManager> maskedFiles(const SourceFile &File,
                                                         const ScanResult &Scan,
                                                         llvm::StringRef Path);

/// The input with every meta construct replaced by blanks (newlines kept, so
/// offsets and lines are unchanged).
std::string maskMetaConstructs(const SourceFile &File, const ScanResult &Scan);

} // namespace metacu

#endif
