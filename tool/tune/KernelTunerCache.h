//===- KernelTunerCache.h - Kernel Tuner's cache file format --------------===//
//
// Kernel Tuner records every configuration it measures in a JSON cache file:
// a header (device, kernel, parameters and their values, objective) and
// "cache", a map from the comma-joined parameter values to a record of what
// was measured. Published brute-forced spaces come in this format, and
// replay reads them. Fields metacu does not know are kept, so reading and
// writing a file loses nothing.
//
// A cache is read as a stream (JSONStream.h): the header, then one entry at
// a time, each entry's text at most MaxEntryBytes, so what reading costs
// beyond one entry is what the caller keeps of each (the replay runner: a
// fixed size, runners/ReplayRunner.h).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_KERNELTUNERCACHE_H
#define METACU_TUNE_KERNELTUNERCACHE_H

#include "Measurement.h"
#include "SearchSpace.h"
#include "support/Output.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace metacu::tune {

/// The most bytes of a cache file read, decompressed: streamed, its size
/// costs time, not memory (about 8 s a GiB on the 2-core development
/// machine); this bounds a gzip file that inflates without end.
constexpr uint64_t MaxCacheBytes = uint64_t(2) << 30;
/// The longest text of one entry (Kernel Tuner's are under 1 KiB) and of
/// one header field.
constexpr size_t MaxEntryBytes = size_t(1) << 20;
constexpr size_t MaxHeaderFieldBytes = size_t(16) << 20;
/// The most entries read: configuration indices are 32-bit, and a replay
/// keeps about 150 bytes an entry (up to 630 MiB).
constexpr size_t MaxCacheEntries = size_t(1) << 22;

class KernelTunerCache {
public:
  struct Entry {
    /// Comma-joined parameter values, as Kernel Tuner spells them.
    std::string Key;
    /// Parameter values, "time", "times", ..., and anything else recorded.
    llvm::json::Object Record;
    /// Where the key is in the file; 0 for an entry not read from one.
    unsigned Line = 0, Column = 0;
  };
  /// Told of each entry read, in the file's order, with the header (all
  /// but Entries) already read; an error stops the reading.
  using EntryFn =
      llvm::function_ref<llvm::Error(const KernelTunerCache &Header, Entry &E)>;

  std::string DeviceName;
  std::string KernelName;
  /// The record field that is minimised or maximised ("time", "GFLOP/s").
  std::string Objective = "time";
  /// tune_params, in tune_params_keys order.
  std::vector<Parameter> Params;
  /// Header fields other than the above and "cache" (problem_size, ...).
  llvm::json::Object OtherFields;
  /// Sorted by key when read; record() appends.
  std::vector<Entry> Entries;

  /// \p FileName is for error messages. A file Kernel Tuner left open while
  /// appending (no closing braces, trailing comma) reads as it would close;
  /// one cut inside an entry or the header is an error.
  static llvm::Expected<KernelTunerCache> parse(llvm::StringRef Text,
                                                llvm::StringRef FileName);
  /// Reads a plain or gzip-compressed file.
  static llvm::Expected<KernelTunerCache> read(llvm::StringRef Path);
  /// Reads the header of the plain or gzip-compressed file \p Path and
  /// gives each entry to \p OnEntry, keeping none: Entries stays empty.
  static llvm::Expected<KernelTunerCache> stream(llvm::StringRef Path,
                                                 EntryFn OnEntry);

  /// The file's text: the header, then one cache entry per line.
  std::string print() const;
  /// print() as the file \p Path, gzip-compressed for a ".gz" name.
  llvm::Expected<OutputFile> file(llvm::StringRef Path) const;

  /// The space of exactly the recorded configurations.
  llvm::Expected<SearchSpace> recordedSpace() const;
  /// The configuration an entry records, from its parameter fields.
  llvm::Expected<Config> configOf(const Entry &E) const;
  /// What an entry recorded. The objective of a valid entry is the
  /// record's Objective field.
  llvm::Expected<Measurement> measurement(const Entry &E) const;
  /// Appends (or replaces) the entry of configuration \p Index of \p Space,
  /// whose parameters must be this cache's.
  void record(const SearchSpace &Space, uint32_t Index, const Measurement &M);

private:
  class Reader;
  /// The header fields read so far into this cache; an error in a field is
  /// at the line of its key in \p Lines (none where it has none).
  llvm::Error readHeader(const llvm::json::Object &Header,
                         const llvm::StringMap<unsigned> &Lines);
  void recoverFloatSpellings(llvm::StringRef Key);
  /// "FILE:LINE:COL: cache."KEY".FIELD: " for \p E.
  std::string where(const Entry &E, llvm::StringRef Field) const;

  std::string FileName;
};

} // namespace metacu::tune

#endif
