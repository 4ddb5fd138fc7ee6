//===- Rewrite.h - clangd's messages about dialect files, mapped ----------===//
//
// clangd speaks of the expansion of a dialect file; the editor of the text
// the user wrote. Requests about a dialect document get their positions
// mapped into the expansion; what clangd answers (locations, ranges,
// diagnostics, semantic tokens, completion edits) is mapped back, and what
// lies in generated-only text (the prelude, directives) is dropped. A
// place in a generated copy lands on the user's original, and generated
// text (a meta value's constant, a name a splice made) on the construct
// that produced it; the same place found in several unrolled copies is
// answered once.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_REWRITE_H
#define METACU_LSP_REWRITE_H

#include "lsp/Documents.h"
#include "lsp/SplicedFiles.h"
#include "lsp/TextLines.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <memory>
#include <optional>

namespace metacu {

class Mapper {
public:
  /// \p Find: the open document of a URI, if any. \p FindSpliced: the file
  /// of an expansion's spliced text that a URI names, if any.
  Mapper(std::function<const Document *(llvm::StringRef Uri)> Find,
         std::function<const SplicedFile *(llvm::StringRef Uri)> FindSpliced,
         PositionEncoding Encoding)
      : Find(std::move(Find)), FindSpliced(std::move(FindSpliced)),
        Encoding(Encoding) {}

  /// The expansion's position for the user's \p P in \p D; none where
  /// the user's text has no copy there (meta code).
  std::optional<LspPosition> toClangd(const Document &D, LspPosition P) const;

  /// Rewrites the params of a request about dialect document \p D;
  /// false if a position in it has no place in the expansion.
  bool requestToClangd(const Document &D, llvm::json::Object &Params) const;

  /// Rewrites clangd's result of \p Method (whose request was about \p D,
  /// if about a document) in place.
  void resultToUser(llvm::StringRef Method, const Document *D,
                    llvm::json::Value &Result) const;

  /// clangd's diagnostics of \p D's expansion, on the user's text:
  /// those that land in the document, each once.
  llvm::json::Array diagnosticsToUser(const Document &D,
                                      const llvm::json::Array &Diags) const;

  /// clangd's inactive regions of \p D's expansion (the branches of the
  /// emit stage's #if lines the pass shown does not take), on the user's
  /// text: the runs of the document's lines no copy of which is live. A
  /// region's first line is the emit stage's own (#line): it is read line
  /// by line, not by its ends.
  llvm::json::Array
  inactiveRegionsToUser(const Document &D,
                        const llvm::json::Array &Regions) const;

  /// A range of the user's text from 0-based \p Line, byte \p Col to the
  /// end of the token there (at least one character; '@meta' is one).
  llvm::json::Object tokenRange(const TextLines &Text, unsigned Line,
                                unsigned Col) const;

  /// Removes from workspace edit \p Edit what it would change in dialect
  /// files: positions of their expansions, not of the user's text.
  void dropDialectEdits(llvm::json::Object &Edit) const;

  PositionEncoding encoding() const { return Encoding; }

private:
  struct UserRange {
    std::string Path;
    llvm::json::Object Range;
  };
  /// A range of \p D's expansion on the user's text; none where its start
  /// was written by no one the user knows.
  std::optional<UserRange> rangeToUser(const Document &D,
                                       const llvm::json::Object &R) const;
  /// rangeToUser() of a range of \p Text, whose bytes \p ToUser maps.
  std::optional<UserRange>
  rangeToUser(const TextLines &Text,
              llvm::function_ref<std::optional<UserPlace>(unsigned)> ToUser,
              const llvm::json::Object &R) const;
  /// The user's text of \p Path: the open document's, else the file's.
  const TextLines *userText(llvm::StringRef Path) const;
  /// Maps every Location, LocationLink and bare range (of \p D) in \p V;
  /// an element of an array that does not map is removed.
  bool mapValue(const Document *D, llvm::json::Value &V) const;
  void mapSemanticTokens(const Document &D, llvm::json::Object &Result) const;

  std::function<const Document *(llvm::StringRef Uri)> Find;
  std::function<const SplicedFile *(llvm::StringRef Uri)> FindSpliced;
  PositionEncoding Encoding;
  mutable llvm::StringMap<std::shared_ptr<TextLines>> Files;
};

} // namespace metacu

#endif
