//===- KernelTunerCache.h - Kernel Tuner's cache file format --------------===//
//
// Kernel Tuner records every configuration it measures in a JSON cache file:
// a header (device, kernel, parameters and their values, objective) and
// "cache", a map from the comma-joined parameter values to a record of what
// was measured. Published brute-forced spaces come in this format, and
// replay reads them. Fields metacu does not know are kept, so reading and
// writing a file loses nothing.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_KERNELTUNERCACHE_H
#define METACU_TUNE_KERNELTUNERCACHE_H

#include "Measurement.h"
#include "SearchSpace.h"
#include "support/Output.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace metacu::tune {

class KernelTunerCache {
public:
  struct Entry {
    /// Comma-joined parameter values, as Kernel Tuner spells them.
    std::string Key;
    /// Parameter values, "time", "times", ..., and anything else recorded.
    llvm::json::Object Record;
  };

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
  /// appending (no closing braces, trailing comma) reads as it would close.
  static llvm::Expected<KernelTunerCache> parse(llvm::StringRef Text,
                                                llvm::StringRef FileName);
  /// Reads a plain or gzip-compressed file.
  static llvm::Expected<KernelTunerCache> read(llvm::StringRef Path);

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
  void recoverFloatSpellings();

  std::string FileName;
};

} // namespace metacu::tune

#endif
