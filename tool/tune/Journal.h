//===- Journal.h - Measurements kept across interrupted runs --------------===//
//
// A long tuning run (a brute force over thousands of candidates) may be cut
// short: a time slot on a GPU machine ends, a candidate kills the harness.
// Every completed evaluation is appended to a journal, one JSON object per
// line, as soon as it completes; a later run with the same journal answers
// those configurations from it instead of measuring them again. A crash
// while appending leaves at most a torn last line, which is dropped (and
// said so); anything else that is not an entry, such as a file given as a
// journal by mistake, is an error that leaves the file as it was.
//
// Entries are keyed by the configuration's parameter names and values and by
// the target (architecture and device name): a journal may hold results of
// several GPUs, and an H100 running an sm_80 image is not an H100 running
// sm_90.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_JOURNAL_H
#define METACU_TUNE_JOURNAL_H

#include "Measurement.h"
#include "runners/Runner.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace metacu::tune {

class Journal {
public:
  /// Reads the journal at \p Path, then opens it to append (through a
  /// symbolic link, never replacing the file), creating it if missing.
  /// Fails, changing nothing, on a line that is not a valid entry (but for a
  /// torn last one), a read-only file or one that is no regular file.
  static llvm::Expected<std::unique_ptr<Journal>> open(llvm::StringRef Path);

  /// What \p Config (parameter name to value) measured on \p T, if known.
  const Measurement *lookup(const Target &T,
                            const llvm::json::Object &Config) const;
  /// Records a measurement and writes its line to the journal before
  /// returning.
  llvm::Error append(const Target &T, const llvm::json::Object &Config,
                     const Measurement &M);

  /// Number of distinct entries known.
  size_t size() const { return Entries.size(); }

private:
  explicit Journal(std::string Path) : Path(std::move(Path)) {}
  static std::string key(const Target &T, const llvm::json::Object &Config);
  llvm::Error readLine(llvm::StringRef Line, unsigned LineNo);

  std::string Path;
  std::unique_ptr<llvm::raw_fd_ostream> OS;
  llvm::StringMap<Measurement> Entries;
};

} // namespace metacu::tune

#endif
