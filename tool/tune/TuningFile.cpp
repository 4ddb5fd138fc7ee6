//===- TuningFile.cpp - The tuned parameters a kernel's meta code reads ---===//
#include "TuningFile.h"
#include "JSONError.h"
#include "Summary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>

using namespace metacu::tune;
namespace json = llvm::json;

std::string metacu::tune::entryKey(llvm::StringRef Arch,
                                   llvm::ArrayRef<int64_t> Size) {
  std::string Key = Arch.str();
  for (size_t I = 0; I < Size.size(); ++I)
    Key += (I ? "x" : "@") + std::to_string(Size[I]);
  return Key;
}

bool metacu::tune::parseEntryKey(llvm::StringRef Key, std::string &Arch,
                                 std::vector<int64_t> &Size) {
  auto [Name, Dims] = Key.split('@');
  Arch = Name.str();
  Size.clear();
  if (Name.size() == Key.size())
    return true;
  llvm::SmallVector<llvm::StringRef> Parts;
  Dims.split(Parts, 'x');
  for (llvm::StringRef P : Parts) {
    int64_t N = 0;
    if (P.empty() || !llvm::all_of(P, llvm::isDigit) || P.getAsInteger(10, N) ||
        N < 1)
      return false;
    Size.push_back(N);
  }
  return true;
}

bool ArchOrder::operator()(const std::string &A, const std::string &B) const {
  // "sm_" digits suffix, then the size; anything else sorts after, by name.
  auto Parts = [](llvm::StringRef Key) {
    std::string Arch;
    std::vector<int64_t> Size;
    if (!parseEntryKey(Key, Arch, Size))
      Arch = Key.str();
    llvm::StringRef Name = Key.take_front(Arch.size());
    unsigned Number = 0;
    bool IsArch = Name.consume_front("sm_") && !Name.consumeInteger(10, Number);
    return std::make_tuple(!IsArch, IsArch ? Number : 0u, Name.str(), Size);
  };
  return Parts(A) < Parts(B) || (Parts(A) == Parts(B) && A < B);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {
/// An entry's "metric".
struct MetricField {
  std::string Name, Direction;
  double Value = 0;
  std::optional<std::string> Unit;
};
bool fromJSON(const json::Value &V, MetricField &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("name", Out.Name) && O.map("value", Out.Value) &&
         O.map("unit", Out.Unit) && O.map("direction", Out.Direction);
}
} // namespace

/// The fields of \p O not among \p Known, kept as they were.
static json::Object others(const json::Object &O,
                           llvm::ArrayRef<llvm::StringRef> Known) {
  json::Object Rest;
  for (const auto &KV : O)
    if (!llvm::is_contained(Known, llvm::StringRef(KV.first)))
      Rest[KV.first] = KV.second;
  return Rest;
}

/// One architecture's entry at \p P.
static bool readEntry(const json::Value &V, TuningEntry &E, json::Path P,
                      JSONInput &In) {
  json::ObjectMapper O(V, P);
  if (!O)
    return false;
  const json::Object &Obj = *V.getAsObject();
  const json::Object *Params = Obj.getObject("params");
  if (!Params)
    return In.fail(P.field("params"), Obj.get("params")
                                          ? "expected an object"
                                          : "missing value");
  E.Params = *Params;
  // An entry written by hand has parameters and no measurement.
  E.Measured = Obj.get("device") || Obj.get("metric");
  std::optional<std::string> Device, Driver, Date, Metacu, Strategy, Note;
  std::optional<MetricField> Metric;
  if (!O.map("device", Device) || !O.map("driver", Driver) ||
      !O.map("date", Date) || !O.map("metric", Metric) ||
      !O.map("metacu", Metacu) || !O.map("strategy", Strategy) ||
      !O.map("note", Note))
    return false;
  if (const json::Value *N = Obj.get("evaluations")) {
    // 1e300 is no count (it made uint64_t 0).
    auto Count = N->getAsUINT64();
    if (!Count)
      return In.fail(P.field("evaluations"), "expected a count");
    E.Evaluations = *Count;
  }
  if (E.Measured) {
    if (!Device)
      return In.fail(P.field("device"), "missing value");
    if (!Metric)
      return In.fail(P.field("metric"), "missing value");
    if (Metric->Direction != "min" && Metric->Direction != "max" &&
        !Metric->Direction.empty())
      return In.fail(P.field("metric").field("direction"),
                     "expected \"min\" or \"max\", not \"" +
                         Metric->Direction + "\"");
    E.Objective.Name = Metric->Name;
    E.Value = Metric->Value;
    E.Objective.Unit = Metric->Unit.value_or("");
    E.Objective.Maximize = Metric->Direction == "max";
    // A value no run measures (a time of 0 or below) would be kept against
    // every later run, each told it is not better.
    std::string Why = E.Objective.whyNotMeasured(E.Value);
    if (!Why.empty())
      return In.fail(P.field("metric").field("value"), Why);
  }
  E.Device = Device.value_or("");
  E.Driver = Driver.value_or("");
  E.Date = Date.value_or("");
  E.Metacu = Metacu.value_or("");
  E.Strategy = Strategy.value_or("");
  E.Note = Note.value_or("");
  E.Other = others(Obj, {"params", "device", "driver", "date", "metric",
                         "metacu", "strategy", "evaluations", "note"});
  return true;
}

llvm::Expected<TuningFile> TuningFile::parse(llvm::StringRef Text,
                                             llvm::StringRef FileName) {
  auto Doc = parseJSON(Text, FileName);
  if (!Doc)
    return Doc.takeError();
  JSONInput In(FileName, Text);
  json::Path P(In.Root);
  json::ObjectMapper O(*Doc, P);
  TuningFile File;
  std::optional<std::string> Kernel;
  if (!O || !O.map("kernel", Kernel))
    return In.error();
  File.Kernel = Kernel.value_or("");
  const json::Object &Top = *Doc->getAsObject();
  const json::Object *Entries = Top.getObject("entries");
  if (!Entries) {
    In.fail(P.field("entries"),
            Top.get("entries") ? "expected an object" : "missing value");
    return In.error();
  }
  json::Path EntriesPath = P.field("entries");
  for (const auto &KV : *Entries) {
    std::string Arch;
    std::vector<int64_t> Size;
    if (!parseEntryKey(KV.first, Arch, Size)) {
      In.fail(EntriesPath.field(KV.first),
              "an entry of a problem size is named like sm_90@1048576 or "
              "sm_90@4096x4096, not '" +
                  KV.first.str() + "'");
      return In.error();
    }
    TuningEntry E;
    if (!readEntry(KV.second, E, EntriesPath.field(KV.first), In))
      return In.error();
    File.Entries.emplace(KV.first.str(), std::move(E));
  }
  File.Other = others(Top, {"kernel", "entries"});
  return File;
}

llvm::Expected<TuningFile> TuningFile::read(llvm::StringRef Path) {
  if (!llvm::sys::fs::exists(Path))
    return TuningFile();
  auto Text = readInputFile(Path);
  if (!Text)
    return Text.takeError();
  return parse(*Text, Path);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// The shortest spelling that reads back as \p D: llvm::json writes 17
/// significant digits, so 0.51 would become 0.51000000000000001.
static std::string shortestNumber(double D) {
  char Buf[32];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Digits, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  return Buf;
}

static void writeValue(json::OStream &J, const json::Value &V) {
  // Integers as they were: 2^64 - 1 is no int64_t, and as a double it
  // would lose its last digits.
  std::optional<double> D = V.getAsNumber();
  if (D && !V.getAsInteger() && !V.getAsUINT64() && std::isfinite(*D))
    J.rawValue(shortestNumber(*D));
  else
    J.value(V);
}

/// \p O's members by name.
static void writeSorted(json::OStream &J, const json::Object &O) {
  std::vector<llvm::StringRef> Names;
  for (const auto &KV : O)
    Names.push_back(KV.first);
  llvm::sort(Names);
  for (llvm::StringRef Name : Names) {
    J.attributeBegin(Name);
    writeValue(J, *O.get(Name));
    J.attributeEnd();
  }
}

static void writeEntry(json::OStream &J, const TuningEntry &E) {
  J.attributeObject("params", [&] { writeSorted(J, E.Params); });
  if (!E.Measured) {
    if (!E.Note.empty())
      J.attribute("note", E.Note);
    writeSorted(J, E.Other);
    return;
  }
  J.attribute("device", E.Device);
  if (!E.Driver.empty())
    J.attribute("driver", E.Driver);
  J.attribute("date", E.Date);
  J.attributeObject("metric", [&] {
    J.attribute("name", E.Objective.Name);
    J.attributeBegin("value");
    writeValue(J, E.Value);
    J.attributeEnd();
    J.attribute("unit", E.Objective.Unit);
    J.attribute("direction", E.Objective.direction());
  });
  J.attribute("metacu", E.Metacu);
  J.attribute("strategy", E.Strategy);
  J.attribute("evaluations", int64_t(E.Evaluations));
  if (!E.Note.empty())
    J.attribute("note", E.Note);
  writeSorted(J, E.Other);
}

std::string TuningFile::print() const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  {
    json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("kernel", Kernel);
      J.attributeObject("entries", [&] {
        for (const auto &[Arch, E] : Entries)
          J.attributeObject(Arch, [&] { writeEntry(J, E); });
      });
      writeSorted(J, Other);
    });
  }
  OS << '\n';
  return Text;
}

//===----------------------------------------------------------------------===//
// Merging
//===----------------------------------------------------------------------===//

static bool sameParameters(const json::Object &A, const json::Object &B) {
  return A.size() == B.size() &&
         llvm::all_of(A, [&](const auto &KV) { return B.get(KV.first); });
}

MergeResult TuningFile::merge(llvm::StringRef Arch, TuningEntry New,
                              bool Force) {
  MergeResult R;
  auto It = Entries.find(Arch.str());
  if (It == Entries.end()) {
    Entries.emplace(Arch.str(), std::move(New));
    return R;
  }
  const TuningEntry &Old = It->second;
  R.Previous = Old;
  // Times measured on another GPU, or of a kernel with other parameters,
  // say nothing about this run's: the newest run is the one the user
  // asked for. On the same GPU a worse result is noise or a regression
  // (driver, problem size) the user should look at before it replaces a
  // known better configuration.
  bool Comparable = Old.Measured && Old.Device == New.Device &&
                    Old.Objective.Name == New.Objective.Name &&
                    sameParameters(Old.Params, New.Params);
  if (!Comparable)
    R.Outcome = MergeOutcome::Replaced;
  else if (New.Objective.better(New.Value, Old.Value))
    R.Outcome = MergeOutcome::Improved;
  else if (Force)
    R.Outcome = MergeOutcome::Forced;
  else {
    R.Outcome = MergeOutcome::KeptRecorded;
    return R;
  }
  It->second = std::move(New);
  return R;
}

static std::string describeParams(const json::Object &Params) {
  std::vector<std::string> Parts;
  for (const auto &KV : Params) {
    std::string Text = KV.first.str() + "=";
    if (auto S = KV.second.getAsString())
      Text += S->str();
    else
      llvm::raw_string_ostream(Text) << KV.second;
    Parts.push_back(std::move(Text));
  }
  llvm::sort(Parts);
  return llvm::join(Parts, " ");
}

static std::string measured(const TuningEntry &E) {
  if (!E.Measured)
    return "written by hand, not measured";
  return E.Objective.format(E.Value) + " on " + E.Device;
}

std::string MergeResult::describe(llvm::StringRef Arch,
                                  const TuningEntry &New) const {
  std::string Entry = "the " + Arch.str() + " entry";
  switch (Outcome) {
  case MergeOutcome::Added:
    return "added " + Entry + ": " + describeParams(New.Params) + " (" +
           measured(New) + ")";
  case MergeOutcome::Improved:
    return "updated " + Entry + ": " + describeParams(New.Params) + " (" +
           measured(New) + ", was " +
           Previous->Objective.format(Previous->Value) + ")";
  case MergeOutcome::Replaced:
    if (!Previous->Measured)
      return "replaced " + Entry + " (" + measured(*Previous) + ") with " +
             describeParams(New.Params) + " (" + measured(New) + ", " +
             New.Objective.Name + ")";
    return "replaced " + Entry + " (" + measured(*Previous) + ", " +
           Previous->Objective.Name + ") with " + describeParams(New.Params) +
           " (" + measured(New) + ", " + New.Objective.Name +
           "): results of another device, metric or parameters do not compare";
  case MergeOutcome::KeptRecorded:
    return "kept " + Entry + " (" + measured(*Previous) +
           "): this run's best, " + New.Objective.format(New.Value) +
           ", is not better; --force writes it anyway";
  case MergeOutcome::Forced:
    return "replaced " + Entry + " (" + measured(*Previous) +
           ") with a result that is not better, " +
           New.Objective.format(New.Value) + ", as --force asked";
  }
  llvm_unreachable("unknown merge outcome");
}

llvm::Expected<TuningEntry> metacu::tune::bestEntry(const RunInfo &Info,
                                                    const SearchSpace &Space,
                                                    const TuneResult &Run) {
  std::vector<size_t> Ranked = rankValid(Run.Trace, Info.Objective);
  if (Ranked.empty())
    return llvm::createStringError(
        "no valid configuration was found, so there is nothing to record");
  const Evaluation &Best = Run.Trace[Ranked.front()];
  // No later run could read it back (JSON has no infinity).
  if (!std::isfinite(Best.M.Objective))
    return llvm::createStringError("the best result's " + Info.Objective.Name +
                                   " is " + std::to_string(Best.M.Objective) +
                                   ", which is no measurement");
  TuningEntry E;
  E.Params = Space.toJSON(Best.Config);
  E.Device = Info.Where.Device;
  E.Driver = Info.Driver;
  // The day the winner was measured: for a replay, when it was recorded.
  E.Date = Best.M.Timestamp.size() >= 10 ? Best.M.Timestamp.substr(0, 10)
                                         : Info.Date;
  E.Objective = Info.Objective;
  E.Value = Best.M.Objective;
  E.Metacu = metacuVersion().str();
  E.Strategy = Run.Strategy;
  E.Evaluations = Run.Trace.size();
  E.Note = Info.Note;
  return E;
}

/// The tuning file at \p Path, read to take the results of \p Info's run:
/// refused when the run's architecture is unknown, or when the file tunes
/// another kernel and \p Force does not say to rewrite it.
static llvm::Expected<TuningFile> readForRun(llvm::StringRef Path,
                                             const RunInfo &Info, bool Force) {
  if (Info.Where.Arch.empty())
    return llvm::createStringError(
        "the architecture the results are for is unknown; give --arch");
  auto File = TuningFile::read(Path);
  if (!File)
    return File.takeError();
  if (!File->Kernel.empty() && File->Kernel != Info.Kernel && !Force)
    return llvm::createStringError(
        Path + " holds the tuning of kernel '" + File->Kernel + "', not '" +
        Info.Kernel + "'; --force rewrites it for '" + Info.Kernel + "'");
  File->Kernel = Info.Kernel;
  return File;
}

llvm::Expected<TuningFileUpdate> metacu::tune::mergeIntoTuningFile(
    llvm::StringRef Path, const RunInfo &Info,
    llvm::ArrayRef<std::pair<std::string, TuningEntry>> New, bool Force) {
  auto File = readForRun(Path, Info, Force);
  if (!File)
    return File.takeError();
  TuningFileUpdate U;
  bool Changed = false;
  for (const auto &[Key, Entry] : New) {
    MergeResult R = File->merge(Key, Entry, Force);
    Changed |= R.Outcome != MergeOutcome::KeptRecorded;
    U.Merges.emplace_back(Key, Entry, std::move(R));
  }
  if (Changed)
    U.Text = File->print();
  return U;
}
