//===- Journal.cpp - Measurements kept across interrupted runs ------------===//
#include "Journal.h"
#include "JSONError.h"

#include "support/SourceFile.h"
#include "llvm/Support/FileSystem.h"

using namespace metacu::tune;

std::string Journal::key(const Target &T, const llvm::json::Object &Config) {
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

namespace {
/// One journal entry as append() writes it.
struct JournalLine {
  std::string Arch, Device, Status;
  llvm::json::Object Config;
  std::optional<double> Objective;
  std::optional<Milliseconds> CompileMs, BenchmarkMs, VerificationMs,
      FrameworkMs;
  std::optional<std::string> Reason, Timestamp;
  std::optional<std::vector<Milliseconds>> Times;
};
bool fromJSON(const llvm::json::Value &V, JournalLine &Out,
              llvm::json::Path P) {
  llvm::json::ObjectMapper O(V, P);
  if (!O || !O.map("arch", Out.Arch) || !O.map("device", Out.Device) ||
      !O.map("status", Out.Status) || !O.map("objective", Out.Objective) ||
      !O.map("reason", Out.Reason) || !O.map("times", Out.Times) ||
      !O.map("compile_ms", Out.CompileMs) ||
      !O.map("benchmark_ms", Out.BenchmarkMs) ||
      !O.map("verification_ms", Out.VerificationMs) ||
      !O.map("framework_ms", Out.FrameworkMs) ||
      !O.map("timestamp", Out.Timestamp))
    return false;
  const llvm::json::Value *Config = V.getAsObject()->get("config");
  if (!Config || !Config->getAsObject()) {
    P.field("config").report("expected an object of parameter values");
    return false;
  }
  Out.Config = *Config->getAsObject();
  return true;
}
} // namespace

llvm::Error Journal::readLine(llvm::StringRef Line, unsigned LineNo) {
  auto V = parseJSON(Line, Path, LineNo);
  if (!V)
    return V.takeError();
  JSONInput In(Path, Line, LineNo);
  llvm::json::Path P(In.Root);
  JournalLine L;
  if (!fromJSON(*V, L, P))
    return In.error();
  Measurement M;
  auto Outcome = validityFromT4Name(L.Status);
  if (!Outcome) {
    In.fail(P.field("status"), "unknown status '" + L.Status + "'");
    return In.error();
  }
  M.Status = *Outcome;
  if (M.valid()) {
    if (!L.Objective) {
      In.fail(P.field("objective"), "a correct entry needs a finite number");
      return In.error();
    }
    M.Objective = *L.Objective;
  } else {
    M.Reason = L.Reason.value_or("");
  }
  M.Times = values(L.Times);
  M.CompileMs = valueOr0(L.CompileMs);
  M.BenchmarkMs = valueOr0(L.BenchmarkMs);
  M.VerificationMs = valueOr0(L.VerificationMs);
  M.FrameworkMs = valueOr0(L.FrameworkMs);
  M.Timestamp = L.Timestamp.value_or("");
  Entries[key({L.Arch, L.Device}, L.Config)] = std::move(M);
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

llvm::Expected<std::unique_ptr<Journal>> Journal::open(llvm::StringRef Path) {
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
  std::unique_ptr<Journal> C(new Journal(Path.str()));
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

const Measurement *Journal::lookup(const Target &T,
                                   const llvm::json::Object &Config) const {
  auto It = Entries.find(key(T, Config));
  return It == Entries.end() ? nullptr : &It->second;
}

llvm::Error Journal::append(const Target &T, const llvm::json::Object &Config,
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
