//===- JSONError.h - Errors in JSON files, with where they are ------------===//
//
// Every file the tuner reads is JSON, and every one is read one way: the
// text through readInputFile (bounded, regular files only) and parseJSON
// (bounded nesting, finite numbers, syntax errors at FILE:LINE:COL), then
// the value through llvm::json's fromJSON and ObjectMapper, reporting into
// a JSONInput, whose error names the file, the line and column of the wrong
// value and its path (results.jsonl:4:31: times[1]: expected number).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_JSONERROR_H
#define METACU_TUNE_JSONERROR_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>

namespace metacu::tune {

/// The most bytes a file tune reads may hold, decompressed: llvm::json
/// takes several times the text in memory, so a larger file (or a small
/// gzip file that inflates to gigabytes) would exhaust it.
constexpr uint64_t MaxInputBytes = uint64_t(256) << 20;
/// The deepest nesting of arrays and objects accepted: llvm::json's parser
/// recurses once per level, and 50,000 levels overflow the stack.
constexpr unsigned MaxJSONNesting = 512;

/// The contents of \p Path: a regular file (reading a FIFO would wait for a
/// writer forever) of at most MaxInputBytes. A missing file's error keeps
/// its error code (no_such_file_or_directory).
llvm::Expected<std::string> readInputFile(llvm::StringRef Path);

/// An error at the first array or object of \p Text nested deeper than
/// MaxJSONNesting, "FILE:LINE:COL: ..."; strings are skipped.
llvm::Error checkJSONNesting(llvm::StringRef Text, llvm::StringRef FileName,
                             unsigned FirstLine = 1);

/// An error at the second spelling of a key in one object of \p Text,
/// valid JSON: "FILE:LINE:COL: "KEY" given twice". llvm::json keeps one
/// of the values and drops the other without a word, and a file written
/// back would lose it.
llvm::Error checkDuplicateKeys(llvm::StringRef Text, llvm::StringRef FileName,
                               unsigned FirstLine = 1,
                               unsigned FirstColumn = 1);

/// An error at the path of the first number in \p V, parsed from \p Text,
/// too large for a double (1e999, which llvm::json reads as an infinity
/// that no JSON writer can spell): "FILE:LINE:COL: PATH: a number too large
/// for a double", where the number is in the file (\p Text starts at line
/// \p FirstLine, column \p FirstColumn; \p V is the value at \p PathPrefix
/// of its document).
llvm::Error checkNumbersFinite(const llvm::json::Value &V, llvm::StringRef Text,
                               llvm::StringRef FileName, unsigned FirstLine = 1,
                               unsigned FirstColumn = 1,
                               llvm::StringRef PathPrefix = "");

/// An error at the first integer literal of \p Text, valid JSON, that
/// neither int64_t nor uint64_t holds: llvm::json reads 2^64 as the
/// nearest double and -2^63-1 as -2^63, another integer, without a word.
/// "FILE:LINE:COL: NUMBER: an integer no 64-bit integer holds ...".
llvm::Error checkIntegerRange(llvm::StringRef Text, llvm::StringRef FileName,
                              unsigned FirstLine = 1, unsigned FirstColumn = 1);

/// checkJSONNesting(), then llvm::json::parse with its error located; a
/// key given twice in an object (checkDuplicateKeys), a number too large
/// for a double (1e999, read as an infinity that no JSON writer can spell)
/// and an integer no 64-bit integer holds (checkIntegerRange) are errors. \p
/// Text starts at line \p FirstLine, column \p FirstColumn of the file, and is
/// the value at \p PathPrefix of its document ("cache.16,0"; empty: the whole).
llvm::Expected<llvm::json::Value>
parseJSON(llvm::StringRef Text, llvm::StringRef FileName,
          unsigned FirstLine = 1, unsigned FirstColumn = 1,
          llvm::StringRef PathPrefix = "");

/// Whether \p Text, a JSON-lines file's text after its last newline, is a
/// record torn by a writer killed mid-line: not JSON. A whole value that is
/// wrong (too deep, a number out of range) is no torn record.
bool isTornRecord(llvm::StringRef Text);

/// Rewrites llvm::json's parse error as "FILE:LINE:COL: message"; the text
/// parsed starts at line \p FirstLine, column \p FirstColumn of the file.
llvm::Error locatedParseError(llvm::StringRef FileName, llvm::Error E,
                              unsigned FirstLine = 1,
                              unsigned FirstColumn = 1);

/// Where the value at \p Path starts in \p Text, valid JSON: its line and
/// column, or its nearest enclosing value's where \p Path names none (a
/// missing field: the object that lacks it). \p Path is spelled as
/// llvm::json::Path prints one ("batches[0].config"; empty: the whole
/// value); \p Text starts at line \p FirstLine, column \p FirstColumn.
std::pair<unsigned, unsigned> locateJSONValue(llvm::StringRef Text,
                                              llvm::StringRef Path,
                                              unsigned FirstLine = 1,
                                              unsigned FirstColumn = 1);

/// Where a value read from a JSON file is wrong, in llvm::json's style:
/// readers are fromJSON(const json::Value &, T &, json::Path) functions and
/// json::ObjectMapper, reporting into Root through the json::Path they are
/// given, and error() names the file, where the value is, its path and
/// what is wrong: "results.jsonl:4:31: times[1]: expected number".
class JSONInput {
public:
  /// Values parsed from \p Text, which starts at line \p FirstLine of the
  /// file (a JSON-lines file's record) and is read until error() returns;
  /// an empty \p Text: where the values came from is not known.
  JSONInput(llvm::StringRef FileName, llvm::StringRef Text,
            unsigned FirstLine = 1)
      : FileName(FileName), Text(Text), Line(Text.empty() ? 0 : FirstLine) {}
  /// Values whose text is not at hand (fields of a Kernel Tuner cache read
  /// apart): the error names the line of \p Line (0: none) and no column.
  explicit JSONInput(llvm::StringRef FileName, unsigned Line = 0)
      : FileName(FileName), Line(Line) {}

  /// The root of the paths readers report at.
  llvm::json::Path::Root Root;

  /// Reports \p Message at \p P: json::Path::report takes string literals
  /// only, and a message may need the value it is about. Returns false, as
  /// a fromJSON that fails does.
  bool fail(llvm::json::Path P, const llvm::Twine &Message);
  /// The error last reported, "FILE[:LINE[:COL]]: PATH: MESSAGE".
  llvm::Error error() const;

private:
  std::string FileName;
  llvm::StringRef Text;
  unsigned Line;
  std::string Detail;
};

} // namespace metacu::tune

#endif
