//===- SourceFile.h - The input file and its line table -------------------===//
//
// Every stage refers to the input by byte offset; this class turns offsets
// into the line:column positions users see in diagnostics and #line
// directives. The text may hold other files spliced in (dialect headers,
// expand/DialectHeaders.h): origin marks then say which file and line each
// part comes from, as #line directives would. A `#line N` of the text
// itself that the preprocessor keeps (migrate writes them where it adds
// lines) is such a mark too, for nvcc counts on from it; which ones it
// keeps is Clang's to say (expand/PresumedLines.h), not the text's.
//
// Lines end where Clang and nvcc end them: at LF, CRLF or a lone CR. The
// expansion's stages split lines at '\n' and work on a UnifiedText.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_SOURCEFILE_H
#define METACU_SUPPORT_SOURCEFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace metacu {

struct LineCol {
  unsigned Line = 0; // 1-based
  unsigned Col = 0;  // 1-based, in bytes
};

/// Where a byte of the text was written: its file and position there.
struct Origin {
  /// The file as metacu's messages name it.
  llvm::StringRef Path;
  /// The file as #line directives name it: a name nvcc can open, since its
  /// dependency file (-MD) lists the names #line gives. Path unless the
  /// mark said otherwise (metacu's own headers, expand/DialectHeaders.h).
  llvm::StringRef LinePath;
  LineCol Where;
  /// In a library header (metacu's own): errors there are better shown at
  /// the user's line that led to them, where that is known.
  bool Library = false;
  /// In a file spliced in: the line of the text's own #include through
  /// which it was read (directly, or through the headers that include it),
  /// where an editor showing the text places what happens in the file. 0
  /// for the text's own lines.
  unsigned IncludedAt = 0;
};

/// The length of the line break at \p Offset of \p Text: 2 for CRLF, 1 for
/// LF or a lone CR (both end a line for Clang and nvcc), 0 for none.
unsigned lineBreakAt(llvm::StringRef Text, size_t Offset);

/// A text as the compiler reads it, for stages that split lines at '\n':
/// every line break (LF, CRLF, a lone CR) written as LF, and without a
/// leading UTF-8 byte order mark, which nvcc skips and which anywhere but
/// first in a file is a stray character. Columns and line numbers are
/// those of the raw text, less the mark's three bytes on the first line.
class UnifiedText {
public:
  explicit UnifiedText(llvm::StringRef Raw);

  llvm::StringRef text() const { return Text; }
  std::string take() { return std::move(Text); }
  /// Whether the text differs from the raw one.
  bool changed() const { return Changed; }
  /// Where the byte at \p RawOffset of the raw text is in text() (a
  /// dropped byte: where the next one is).
  unsigned offset(unsigned RawOffset) const;

private:
  std::string Text;
  /// Raw offsets of the bytes left out, ascending: a mark's, CRLF's CR.
  std::vector<unsigned> Dropped;
  bool Changed = false;
};

/// Whether \p Path names something that exists and is no regular file (a
/// pipe, a device): reading it would wait for a writer, and a pipe read
/// once here would be waited on again by Clang.
bool isSpecialFile(llvm::StringRef Path);

class SourceFile {
public:
  /// \p Path is kept as spelled by the user: it is what diagnostics and
  /// #line directives show for the file's own text.
  SourceFile(std::string Path, std::string Text);

  /// Refuses what is no regular file (isSpecialFile).
  static llvm::Expected<SourceFile> load(llvm::StringRef Path);

  llvm::StringRef path() const { return Path; }
  /// The contents; always followed by a NUL, as clang::Lexer requires.
  llvm::StringRef text() const { return Text; }
  const char *data() const { return Text.c_str(); }
  unsigned size() const { return Text.size(); }

  /// The position in the text itself, spliced files counted as its lines.
  LineCol lineCol(unsigned Offset) const;
  unsigned line(unsigned Offset) const { return lineCol(Offset).Line; }
  /// The text of the line holding \p Offset, without its line break.
  llvm::StringRef lineText(unsigned Offset) const;
  /// Offset of the first byte of the line holding \p Offset.
  unsigned lineStart(unsigned Offset) const;
  /// Offset of the line break that ends the line holding \p Offset (its
  /// CR or LF; size() on a last line without one).
  unsigned lineEnd(unsigned Offset) const;
  /// Offset of the given 1-based line's first byte (clamped to the end).
  unsigned offsetOfLine(unsigned Line) const;

  /// From \p Offset on (the first byte of a line; marks in increasing
  /// order), the text is \p Path's from its line \p Line on; #line names
  /// that file \p LinePath where one is given, else \p Path. \p
  /// IncludedAt: Origin::IncludedAt of that part.
  void markOrigin(unsigned Offset, std::string Path, unsigned Line,
                  bool Library = false, std::string LinePath = {},
                  unsigned IncludedAt = 0);
  /// The same file with \p NewText, which has the same lines: its origin
  /// marks stay at the starts of the same lines.
  SourceFile withText(std::string NewText) const;

  /// The file and position \p Offset was written at: path() and lineCol()
  /// unless a mark says otherwise.
  Origin origin(unsigned Offset) const;

  /// A markOrigin() call's arguments.
  struct Mark {
    unsigned Offset;
    std::string Path;
    unsigned Line;
    bool Library;
    std::string LinePath;
    unsigned IncludedAt;
  };
  /// The marks, in order: the same calls of markOrigin() on a SourceFile of
  /// the same path and text make the same file (another process's copy).
  const std::vector<Mark> &marks() const { return Marks; }

private:
  std::string Path;
  std::string Text;
  std::vector<unsigned> LineStarts;
  std::vector<Mark> Marks;
};

} // namespace metacu

#endif
