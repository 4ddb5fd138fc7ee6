//===- Audit.h - Where a program tests __CUDA_ARCH__, and what can move ---===//
//
// `metacu audit` finds every use of __CUDA_ARCH__ in a file and the local
// headers it includes -- directly, through macros that alias it, and through
// feature macros defined under it -- and classifies each one: convertible to
// 'if codegen', not convertible (and why), constant on every architecture
// nvcc supports, or a hazard. `metacu migrate` (Migrate.h) rewrites the
// convertible ones from the same analysis.
//
// The analysis preprocesses the file once per compilation pass nvcc would
// make (the host pass and one per architecture nvcc 13 supports), so the
// branch each pass compiles is Clang's answer, not a re-implementation of
// #if arithmetic; it parses the file for the passes that take each branch to
// see whether a conditional sits between whole statements of a function
// body.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_AUDIT_H
#define METACU_MIGRATE_AUDIT_H

#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

namespace metacu {

/// The compilation passes the audit evaluates, as __CUDA_ARCH__ / 10: 0 is
/// the host pass, then every architecture nvcc 13 compiles for, ascending.
/// A set of passes is a bit mask over this list.
llvm::ArrayRef<unsigned> auditPasses();

/// "host, sm_75, sm_80" for a pass mask.
std::string passNames(uint64_t Mask);

/// An 'if codegen' condition on (int)__nvvm_arch that holds in every pass of
/// \p Want and in none outside \p Want | \p DontCare. Bounds are values of
/// auditPasses(), so the condition is right for any --arch list.
std::string codegenCondition(uint64_t Want, uint64_t DontCare);

enum class SiteKind {
  Conditional,  // #if/#ifdef/#ifndef ... #endif
  MacroAlias,   // #define NAME ... __CUDA_ARCH__ ...
  Redefinition, // #define or #undef of __CUDA_ARCH__ itself
  ValueUse,     // __CUDA_ARCH__ expanded in code, outside any directive
};

enum class SiteCategory {
  Statement,       // branch between statements of a function body
  HostDeviceSplit, // host/device split in a __host__ __device__ function
  NotConvertible,
  Constant, // every architecture nvcc supports compiles the same branch
  Hazard,
};

llvm::StringRef siteKindName(SiteKind K);
llvm::StringRef categoryName(SiteCategory C);
inline bool isConvertible(SiteCategory C) {
  return C == SiteCategory::Statement || C == SiteCategory::HostDeviceSplit;
}

/// One directive line of a conditional: #if, #elif..., #else or #endif.
struct SiteDirective {
  unsigned Begin = 0; // start of its line
  unsigned End = 0;   // past its last line's newline
  unsigned Line = 0;
  std::string Text;   // as written, continuation lines joined
  std::string Comment; // comments on the directive's line, kept by migrate
  bool IsElse = false;
  bool IsEndif = false;
  uint64_t TakenBy = 0; // passes that compile the branch it opens
  std::string Codegen;  // the branch's 'if codegen' condition, if converted
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
};

struct FileAudit {
  std::string Path; // as the user or the #include spelled it
  std::vector<Site> Sites;
};

struct AuditOptions {
  CompileFlags Flags;
  CudaToolkit Toolkit = CudaToolkit::find();
};

/// Audits \p Path and the local (non-system) headers it includes. The
/// result lists \p Path first, then each header with sites.
llvm::Expected<std::vector<FileAudit>> auditFile(llvm::StringRef Path,
                                                 const AuditOptions &Opts);

/// A table per file with line numbers, then a summary.
void printAuditText(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);
/// The format docs/audit-json.md documents.
void printAuditJson(llvm::raw_ostream &OS, llvm::ArrayRef<FileAudit> Files);

} // namespace metacu

#endif
