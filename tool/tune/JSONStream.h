//===- JSONStream.h - A JSON document read a value at a time --------------===//
//
// A Kernel Tuner cache of a million entries is hundreds of megabytes of
// JSON, and llvm::json holds several times its text in memory. Its reader
// instead walks the document's top-level object and its "cache" object
// member by member, holding one member's text at a time (each parsed by
// parseJSON, JSONError.h, with the file's lines and columns), over a file
// read (and inflated, if it is gzip data) a chunk at a time.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_JSONSTREAM_H
#define METACU_TUNE_JSONSTREAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <memory>
#include <optional>
#include <string>

namespace metacu::tune {

/// The bytes of a file or a text, a chunk at a time; gzip data (by its magic
/// bytes) inflated.
class ChunkSource {
public:
  virtual ~ChunkSource() = default;
  /// The file at \p Path: a regular file (a FIFO would wait for a writer
  /// forever), whose bytes (inflated, if gzip) may number at most \p Limit.
  static llvm::Expected<std::unique_ptr<ChunkSource>>
  open(llvm::StringRef Path, uint64_t Limit);
  /// \p Text (which must outlive the source), inflated if gzip data.
  static std::unique_ptr<ChunkSource> ofText(llvm::StringRef Text,
                                             uint64_t Limit);
  /// Appends the next bytes to \p Out; false at the end.
  virtual llvm::Expected<bool> read(std::string &Out) = 0;
};

/// A JSON text's tokens and values, read from a ChunkSource.
class JSONStream {
public:
  JSONStream(std::unique_ptr<ChunkSource> Source, std::string FileName);

  /// The next character after whitespace, not consumed; none at the end.
  llvm::Expected<std::optional<char>> peek();
  /// Consumes \p C, the next character after whitespace, or fails there
  /// with "expected \p What".
  llvm::Error expect(char C, llvm::StringRef What);
  /// The string that starts at the next character, of at most \p MaxBytes.
  llvm::Expected<std::string> string(size_t MaxBytes);
  /// The value that starts at the next character, of at most \p MaxBytes of
  /// text, parsed by parseJSON (bounded nesting, finite numbers, errors at
  /// the file's lines and columns); \p Path is where the value is in the
  /// document, for errors ("cache.16,0").
  llvm::Expected<llvm::json::Value> value(size_t MaxBytes,
                                          llvm::StringRef Path);
  /// Consumes the value that starts at the next character without parsing
  /// it (its text at most \p MaxBytes).
  llvm::Error skipValue(size_t MaxBytes);

  /// Where the next character is; after peek(), where the token starts.
  unsigned line() const { return Line; }
  unsigned column() const { return Column; }
  /// "FILE:LINE:COL: \p Message" at the next character.
  llvm::Error error(const llvm::Twine &Message) const;
  /// "FILE:\p Line:\p Column: \p Message".
  llvm::Error errorAt(unsigned Line, unsigned Column,
                      const llvm::Twine &Message) const;
  llvm::StringRef fileName() const { return FileName; }

private:
  /// Reads the next chunk when the buffer is used up.
  llvm::Error fill();
  /// The next character, whitespace or not; none at the end.
  llvm::Expected<std::optional<char>> peekRaw();
  /// Consumes the character peekRaw() gave.
  void take();
  /// The text of the value at the next character, appended to \p Out.
  llvm::Error capture(std::string &Out, size_t MaxBytes);

  std::unique_ptr<ChunkSource> Source;
  std::string FileName;
  std::string Buffer;
  size_t Pos = 0;
  bool AtEnd = false;
  unsigned Line = 1, Column = 1;
};

} // namespace metacu::tune

#endif
