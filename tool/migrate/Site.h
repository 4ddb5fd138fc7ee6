//===- Site.h - A use of __CUDA_ARCH__ and what the audit says of it ------===//
//
// What `metacu audit` reports and `metacu migrate` rewrites: where a
// program tests or uses __CUDA_ARCH__, its category (convertible to
// 'if codegen', not convertible, constant on every architecture nvcc
// supports, a hazard), the reason in words and, for conditionals, each
// directive with the passes that compile its branch.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_SITE_H
#define METACU_MIGRATE_SITE_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace metacu {

enum class SiteKind {
  Conditional,  // #if/#ifdef/#ifndef ... #endif
  MacroAlias,   // #define NAME ... __CUDA_ARCH__ ...
  Redefinition, // #define or #undef of __CUDA_ARCH__ itself
  ValueUse,     // __CUDA_ARCH__ expanded in code, outside any directive
};

enum class SiteCategory {
  Statement,       // branch between statements of a function body
  HostDeviceSplit, // host/device split in a __host__ __device__ function
  Declaration,     // chooses declarations at namespace scope or members
  ListEntry,       // chooses entries of a braced list
  /// declares in a function body what the code after it uses: 'using if
  /// codegen'
  LocalDeclaration,
  /// defines macros per architecture: the #define lines stay in the 'if
  /// codegen' branches, which become #if's for the passes that take them
  MacroDefinition,
  Value, // __CUDA_ARCH__'s value in code, becomes __nvvm_arch's
  NotConvertible,
  Constant, // every architecture nvcc supports compiles the same branch
  Hazard,
};

/// Every category, in the order reports list them.
inline constexpr SiteCategory SiteCategories[] = {
    SiteCategory::Statement,
    SiteCategory::HostDeviceSplit,
    SiteCategory::Declaration,
    SiteCategory::ListEntry,
    SiteCategory::LocalDeclaration,
    SiteCategory::MacroDefinition,
    SiteCategory::Value,
    SiteCategory::NotConvertible,
    SiteCategory::Constant,
    SiteCategory::Hazard};

llvm::StringRef siteKindName(SiteKind K);
llvm::StringRef categoryName(SiteCategory C);
inline bool isConvertible(SiteCategory C) {
  return C == SiteCategory::Statement || C == SiteCategory::HostDeviceSplit ||
         C == SiteCategory::Declaration || C == SiteCategory::ListEntry ||
         C == SiteCategory::LocalDeclaration ||
         C == SiteCategory::MacroDefinition || C == SiteCategory::Value;
}

/// One directive line of a conditional: #if, #elif..., #else or #endif.
struct SiteDirective {
  unsigned Begin = 0; // start of its line
  unsigned End = 0;   // past its last line's newline
  unsigned Line = 0;
  std::string Text;    // as written, continuation lines joined
  std::string Comment; // comments on the directive's line, kept by migrate
  bool IsElse = false;
  bool IsEndif = false;
  uint64_t TakenBy = 0; // passes that compile the branch it opens
  std::string Codegen;  // the branch's 'if codegen' condition, if converted
  /// Converted sites whose conditions test other builds' names too: the
  /// directive stays a preprocessor directive around the 'if codegen'
  /// chain (an '#elif' that begins the conditional inside the chain's
  /// last 'else' becomes '#if'). The architecture's directive right after
  /// kept ones becomes their '#else', the 'if codegen' chain inside it.
  bool Kept = false;
  /// Converted sites with kept directives: where migrate opens or closes
  /// the chain's braces beside the branch's code, so that every line stays
  /// where it was: the offset of the branch's first token and the end of
  /// its last (0 where it needs neither).
  unsigned BodyFirst = 0, BodyEnd = 0;
};

struct Site {
  SiteKind Kind = SiteKind::Conditional;
  SiteCategory Category = SiteCategory::NotConvertible;
  unsigned Line = 0, Column = 0, EndLine = 0;
  unsigned Offset = 0;
  /// The condition, macro definition or expression line, as written.
  std::string Text;
  /// Macros through which the site reaches __CUDA_ARCH__.
  std::vector<std::string> Via;
  std::string Reason;
  /// Conditionals only: the directives, #endif last.
  std::vector<SiteDirective> Directives;
  /// Macro aliases converted to the value form: where the body spells
  /// __CUDA_ARCH__.
  std::vector<unsigned> ValueOffsets;
  /// Conditionals testing arch-specific feature macros (sm_90a), which
  /// the passes (one per compute capability) do not define.
  bool ArchFeature = false;
  /// Conditionals: the passes that reach it (and compile one of its
  /// branches or none).
  uint64_t Reached = 0;
  /// Converted conditionals whose conditions test another build's names
  /// and the architecture together (`defined(AMD_MFMA_AVAILABLE) ||
  /// defined(TURING_MMA_AVAILABLE)`): the condition that those names have
  /// this build's values (`!defined(AMD_MFMA_AVAILABLE) &&
  /// !defined(GGML_USE_HIP)`), under which the 'if codegen' chain goes,
  /// the conditional as written in its '#elif' for the other builds.
  /// Empty for none.
  std::string ThisBuild;
  /// A C++ source of the tree that includes the site's file, if one does
  /// (HostIncluders.h): the host compiler reads the file without metacu,
  /// so a rewrite of the site goes under `#ifdef __CUDACC__`, the text as
  /// written in its `#else` for a C++ compiler.
  std::string HostIncluder;
  /// Converted conditionals of pragmas alone before a statement
  /// (Placement::PragmasBeforeStatement): the statement's first token and
  /// its end, which each branch of the chain holds (0, 0 for others).
  unsigned StatementBegin = 0, StatementEnd = 0;
};

struct FileAudit {
  std::string Path; // as the user or the #include spelled it
  std::vector<Site> Sites;
};

} // namespace metacu

#endif
