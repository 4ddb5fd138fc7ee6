//===- TuningFile.h - The tuned parameters a kernel's meta code reads -----===//
//
// `metacu tune` writes its best configuration per architecture into a JSON
// file next to the kernel; the kernel's `@meta` code reads it with
// metacu::load_json (or metacu::tuned_params) at the next build, and the
// dependency file makes the build regenerate when it changes. One file holds
// every architecture: tuning on an H100 updates the sm_90 entry and keeps the
// others. It lives in version control, so it is written in one stable order
// (entries by architecture, fields in a fixed order, parameters by name) and
// a run that changes one entry changes only those lines.
//
// {"kernel": "conv", "entries": {"sm_90": {"params": {...}, "device": ...,
//   "date": ..., "metric": {"name", "value", "unit", "direction"},
//   "metacu": ..., "strategy": ..., "evaluations": ..., "note": ...}}}
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_TUNINGFILE_H
#define METACU_TUNE_TUNINGFILE_H

#include "RunInfo.h"
#include "SearchSpace.h"
#include "Tuner.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace metacu::tune {

/// The best configuration of one architecture and where it came from.
struct TuningEntry {
  /// Parameter name to value.
  llvm::json::Object Params;
  /// False for an entry written by hand: parameters (and perhaps a note)
  /// without a device or metric. Any measured result replaces it.
  bool Measured = true;
  std::string Device;
  /// Empty when unknown (replay); not written then.
  std::string Driver;
  /// When the configuration was measured, YYYY-MM-DD.
  std::string Date;
  Metric Objective;
  double Value = 0;
  /// The version of metacu that tuned it.
  std::string Metacu;
  std::string Strategy;
  uint64_t Evaluations = 0;
  /// Empty for none; not written then.
  std::string Note;
  /// Fields written by someone else (a later metacu, a person), kept as
  /// they were.
  llvm::json::Object Other;
};

/// An entry's key: the architecture, then "@" and the problem size it was
/// tuned at for an entry of a space with sizes ("sm_90@1048576",
/// "sm_90@4096x4096"); the architecture alone for an entry of every size.
std::string entryKey(llvm::StringRef Arch, llvm::ArrayRef<int64_t> Size);
/// Splits \p Key into its architecture and size (empty for none); false when
/// what follows "@" is not positive integers joined by "x".
bool parseEntryKey(llvm::StringRef Key, std::string &Arch,
                   std::vector<int64_t> &Size);

/// Orders "sm_75" < "sm_90" < "sm_90@256" < "sm_90@1024" < "sm_90a" <
/// "sm_100", as architectures and then sizes go.
struct ArchOrder {
  bool operator()(const std::string &A, const std::string &B) const;
};

/// What merge() did with a new entry.
enum class MergeOutcome {
  /// The architecture had no entry.
  Added,
  /// It replaced a worse result of the same device and metric.
  Improved,
  /// It replaced a result it cannot be compared with: another device (an
  /// H100 running the sm_80 image after an A100 did), another metric or
  /// other parameters.
  Replaced,
  /// Not better than the recorded result of the same device and metric,
  /// so the recorded one stays.
  KeptRecorded,
  /// It replaced a better result because it was forced to.
  Forced,
};

struct MergeResult {
  MergeOutcome Outcome = MergeOutcome::Added;
  /// The entry that was there before, if any.
  std::optional<TuningEntry> Previous;

  /// One sentence for the user, e.g. "kept the recorded sm_90 entry
  /// (0.51 ms on NVIDIA H100) over 0.53 ms; --force writes it anyway".
  std::string describe(llvm::StringRef Arch, const TuningEntry &New) const;
};

class TuningFile {
public:
  std::string Kernel;
  /// By architecture: "sm_90", "sm_90a"; and size: "sm_90@1048576".
  std::map<std::string, TuningEntry, ArchOrder> Entries;
  /// Top-level fields written by someone else, kept as they were.
  llvm::json::Object Other;

  static llvm::Expected<TuningFile> parse(llvm::StringRef Text,
                                          llvm::StringRef FileName);
  /// A file that does not exist reads as one with no entries.
  static llvm::Expected<TuningFile> read(llvm::StringRef Path);
  /// The file's text: two-space indentation, stable order, a final newline.
  std::string print() const;

  /// Puts \p New as the entry of \p Key (entryKey) unless the recorded
  /// entry is the same device, metric and parameters with an equal or
  /// better value; \p Force puts it there regardless.
  MergeResult merge(llvm::StringRef Key, TuningEntry New, bool Force);
};

/// The entry for the best configuration of \p Run; fails when no
/// configuration was valid.
llvm::Expected<TuningEntry>
bestEntry(const RunInfo &Info, const SearchSpace &Space, const TuneResult &Run);

/// What --tuning-file writes.
struct TuningFileUpdate {
  /// Per entry: its key, the new entry and what merging it did.
  std::vector<std::tuple<std::string, TuningEntry, MergeResult>> Merges;
  /// The file's new text; none when every recorded entry stays.
  std::optional<std::string> Text;
};

/// Reads \p Path (or starts a new file) and merges each of \p New (an
/// entry's key and the entry: the run's architecture, or an entry per size
/// of it, "sm_90@1024"). A file for another kernel is an error unless
/// \p Force. The caller writes Text with the run's other outputs, holding
/// the file's lock (support/FileLock.h) from before this read so that a
/// run updating the file at the same time loses nothing.
llvm::Expected<TuningFileUpdate>
mergeIntoTuningFile(llvm::StringRef Path, const RunInfo &Info,
                    llvm::ArrayRef<std::pair<std::string, TuningEntry>> New,
                    bool Force);

} // namespace metacu::tune

#endif
