//===- ResultCache.cpp - Measurements kept across interrupted runs --------===//
#include "ResultCache.h"
#include "JSONError.h"

#include "support/SourceFile.h"
#include "llvm/Support/FileSystem.h"
#include <cmath>

using namespace metacu::tune;

std::string ResultCache::key(const Target &T,
                             const llvm::json::Object &Config) {
  // llvm::json prints object members sorted by name, so equal
  // configurations print equal whatever order they were built in.
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  OS << llvm::json::Value(T.Arch) << ' ' << llvm::json::Value(T.Device) << ' '
     << llvm::json::Value(llvm::json::Object(Config));
  return Key;
}

static llvm::json::Object toJSON(const Target &T,
                                 const llvm::json::Object &Config,
                                 const Measurement &M) {
  llvm::json::Object O{{"arch", T.Arch},
                       {"device", T.Device},
                       {"config", llvm::json::Object(Config)},
                       {"status", t4Name(M.Status)},
                       {"times", llvm::json::Array(M.Times)},
                       {"compile_ms", M.CompileMs},
                       {"benchmark_ms", M.BenchmarkMs},
                       {"verification_ms", M.VerificationMs},
                       {"framework_ms", M.FrameworkMs},
                       {"timestamp", M.Timestamp}};
  if (M.valid())
    O["objective"] = M.Objective;
  else
    O["reason"] = M.Reason;
  return O;
}

llvm::Error ResultCache::readLine(llvm::StringRef Line, unsigned LineNo) {
  std::string Where = Path + ":" + std::to_string(LineNo);
  auto V = parseJSON(Line, Path, LineNo);
  if (!V)
    return V.takeError();
  JSONReader R(Where);
  const llvm::json::Object *O = R.object(*V, "entry");
  const llvm::json::Object *Config =
      O ? R.object(O->get("config"), "config") : nullptr;
  if (!Config)
    return R.takeError();
  Target T;
  auto Arch = O->getString("arch");
  auto Device = O->getString("device");
  auto Status = O->getString("status");
  if (!Arch || !Device || !Status)
    return R.error("entry", "needs 'arch', 'device' and 'status' strings");
  T.Arch = Arch->str();
  T.Device = Device->str();
  Measurement M;
  auto Outcome = validityFromT4Name(*Status);
  if (!Outcome)
    return R.error("status", "unknown status '" + *Status + "'");
  M.Status = *Outcome;
  if (M.valid()) {
    auto Objective = O->getNumber("objective");
    if (!Objective || !std::isfinite(*Objective))
      return R.error("objective", "a correct entry needs a finite number");
    M.Objective = *Objective;
  } else if (auto Reason = O->getString("reason")) {
    M.Reason = Reason->str();
  }
  if (const llvm::json::Array *Times = O->getArray("times"))
    for (const llvm::json::Value &Time : *Times)
      if (auto N = Time.getAsNumber())
        M.Times.push_back(*N);
  M.CompileMs = O->getNumber("compile_ms").value_or(0);
  M.BenchmarkMs = O->getNumber("benchmark_ms").value_or(0);
  M.VerificationMs = O->getNumber("verification_ms").value_or(0);
  M.FrameworkMs = O->getNumber("framework_ms").value_or(0);
  if (auto S = O->getString("timestamp"))
    M.Timestamp = S->str();
  Entries[key(T, *Config)] = std::move(M);
  return llvm::Error::success();
}

/// Whether \p Tail, the text after a journal's last newline, is the start
/// of an entry whose write was cut short: entries print their members by
/// name, so each starts with {"arch":. Shorter than that, only after
/// entries: a file holding "{" alone is no evidence of a journal.
static bool isTornEntry(llvm::StringRef Tail, bool AfterEntries) {
  llvm::StringRef Start = "{\"arch\":";
  return Tail.starts_with(Start) || (AfterEntries && Start.starts_with(Tail));
}

llvm::Expected<std::unique_ptr<ResultCache>>
ResultCache::open(llvm::StringRef Path) {
  // Everything is read and checked before the file is opened for writing:
  // a file that is not a journal (a mistyped name) is left as it was.
  if (isSpecialFile(Path))
    return llvm::createStringError("cannot use '" + Path +
                                   "' as a journal: not a regular file");
  std::string Text;
  llvm::sys::fs::file_status St;
  if (!llvm::sys::fs::status(Path, St)) {
    if (!(St.permissions() & llvm::sys::fs::owner_write))
      return llvm::createStringError("cannot append to the journal '" + Path +
                                     "': the file is read-only");
    auto Read = readInputFile(Path);
    if (!Read)
      return Read.takeError();
    Text = std::move(*Read);
  }
  std::unique_ptr<ResultCache> C(new ResultCache(Path.str()));
  llvm::StringRef Rest = Text;
  unsigned LineNo = 1;
  for (; Rest.contains('\n'); ++LineNo) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    if (Line.trim().empty())
      continue;
    if (auto Err = C->readLine(Line, LineNo))
      return std::move(Err);
  }
  // The last line lacks its newline: a whole entry whose newline was not
  // written, or one cut short by a crash, which is dropped.
  uint64_t Keep = Text.size();
  if (!Rest.trim().empty())
    if (llvm::Error Err = C->readLine(Rest, LineNo)) {
      if (!isTornEntry(Rest, !C->Entries.empty()))
        return std::move(Err);
      llvm::consumeError(std::move(Err));
      Keep = Text.size() - Rest.size();
    }
  // Appended to, never replaced: a symbolic link keeps its target, the
  // file its owner and permissions.
  int FD;
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(
          Path, FD, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_Append))
    return llvm::createStringError(EC,
                                   "cannot open " + Path + ": " + EC.message());
  C->OS = std::make_unique<llvm::raw_fd_ostream>(FD, /*shouldClose=*/true);
  if (Keep < Text.size()) {
    if (std::error_code EC = llvm::sys::fs::resize_file(FD, Keep))
      return llvm::createStringError(EC, "cannot drop the torn last line of " +
                                             Path + ": " + EC.message());
    llvm::errs() << "metacu tune: " << Path << ":" << LineNo
                 << ": dropped the last line, an entry cut short by an "
                    "interrupted run\n";
  } else if (!Text.empty() && Text.back() != '\n') {
    // A complete last entry whose newline was not written.
    *C->OS << '\n';
  }
  return C;
}

const Measurement *ResultCache::lookup(const Target &T,
                                       const llvm::json::Object &Config) const {
  auto It = Entries.find(key(T, Config));
  return It == Entries.end() ? nullptr : &It->second;
}

llvm::Error ResultCache::append(const Target &T,
                                const llvm::json::Object &Config,
                                const Measurement &M) {
  std::string Line;
  llvm::raw_string_ostream(Line)
      << llvm::json::Value(toJSON(T, Config, M)) << '\n';
  // One write of the whole line, flushed now: a crash after this returns
  // cannot lose the entry, and one during it tears only this line.
  *OS << Line;
  OS->flush();
  if (OS->has_error()) {
    std::error_code EC = OS->error();
    OS->clear_error();
    return llvm::createStringError(EC, "cannot append to " + Path + ": " +
                                           EC.message());
  }
  Entries[key(T, Config)] = M;
  return llvm::Error::success();
}
