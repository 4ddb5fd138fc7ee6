//===- Documents.h - The editor's open files ------------------------------===//
//
// The server keeps the text of every file the editor opened, as the editor
// has it (edits applied), and for a dialect file what clangd holds instead:
// its last good expansion, with metacu's own errors of the latest text.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_DOCUMENTS_H
#define METACU_LSP_DOCUMENTS_H

#include "lsp/ExpandedDocument.h"
#include "lsp/TextLines.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace metacu {

using Clock = std::chrono::steady_clock;

struct Document {
  std::string Uri, Path;
  /// The editor's text and version.
  std::shared_ptr<TextLines> Text;
  int64_t Version = 0;
  /// Whether the text has meta constructs: clangd then gets the expansion.
  bool Dialect = false;
  /// Whether clangd has the document open, and the version it has.
  bool InClangd = false;
  int64_t ClangdVersion = 0;
  /// The expansion clangd holds (the last good one), and where the text
  /// has changed since, when to expand it again.
  std::shared_ptr<ExpandedDocument> Expanded;
  /// The text Expanded is the expansion of (the text itself, shared).
  std::shared_ptr<TextLines> ExpandedText;
  /// Whether Expanded is a guess of ExpandedText's expansion (the last one
  /// with an edit applied that may change more than its copies) that no
  /// expansion has confirmed yet: clangd parses it beside the expansion,
  /// and its diagnostics wait until the expansion equals it.
  bool Guessed = false;
  /// The text Expanded was of when an edit to guess came (ExpandedText
  /// then): the guess is made once the expansion has started, beside it.
  std::shared_ptr<TextLines> GuessFrom;
  std::optional<Clock::time_point> Due;
  /// When the text last changed (none since it was opened: unset).
  std::optional<Clock::time_point> Changed;
  /// Whether clangd has not yet published diagnostics of the text sent.
  bool AwaitingClangd = false;
  /// The text clangd gets once it has published the diagnostics of the
  /// text it is parsing (or when a message about the document goes to it):
  /// the edits made meanwhile go as one.
  std::optional<std::string> Held;
  /// metacu's errors in the latest text, as LSP diagnostics; empty when it
  /// expanded.
  llvm::json::Array MetacuDiagnostics;
  /// metacu's errors in the latest text that lie in the dialect headers it
  /// includes, by the header's URI: published on the header too.
  llvm::StringMap<llvm::json::Array> HeaderDiagnostics;
  /// The headers this document's errors were last published on.
  std::vector<std::string> PublishedHeaders;
  /// clangd's latest diagnostics of the expansion, in its coordinates.
  llvm::json::Array ClangdDiagnostics;
};

/// \p Text with one LSP content change applied (a range and its new text,
/// or the whole text).
llvm::Expected<std::string> applyChange(const TextLines &Text,
                                        const llvm::json::Object &Change,
                                        PositionEncoding E);

/// One edit of a text: bytes [Begin, End) replaced by Text.
struct TextEdit {
  unsigned Begin = 0, End = 0;
  std::string Text;
};

/// The one edit that turns \p Old into \p New, keeping what they share at
/// both ends.
TextEdit difference(llvm::StringRef Old, llvm::StringRef New);

/// \p E, an insertion or a removal in \p Old, moved back as far as it goes
/// with the same result: "\n" inserted at the start of "#if" after "a;\n"
/// is "\n" inserted after "a;". Another edit is itself.
TextEdit movedBack(llvm::StringRef Old, const TextEdit &E);

/// Whether \p E, which turns \p Old into \p New (of \p Path), edits only
/// ordinary code: no directive, line continuation or meta construct in
/// what it removes or adds, no name meta code declares (nor codegen,
/// __nvvm_arch, nvvm_arch_t) among the words it touches, and no #define
/// that may make a meta macro; a line break it adds or removes not on a
/// directive's line or a continued one (it would end or extend the
/// directive); a quote or slash it adds or removes (in a comment, a
/// literal) leaves what follows the lines it touches lexed as before and
/// uncovers no construct there; neither of those two in a text with CR
/// line breaks or a byte order mark. Such an edit changes the expansion only
/// where the text is copied.
bool editsOrdinaryCode(llvm::StringRef Path, llvm::StringRef Old,
                       llvm::StringRef New, const TextEdit &E);

/// Whether \p Text (of \p Path) is written in the dialect: it has a meta
/// construct, names __nvvm_arch or nvvm_arch_t, or does not scan (a
/// malformed construct, which metacu reports).
bool isDialect(llvm::StringRef Path, llvm::StringRef Text);

/// The path of a file: URI; none for other schemes.
std::optional<std::string> uriToPath(llvm::StringRef Uri);
/// The file: URI of an absolute path.
std::string pathToUri(llvm::StringRef Path);

} // namespace metacu

#endif
