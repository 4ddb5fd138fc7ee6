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

bool ArchOrder::operator()(const std::string &A, const std::string &B) const {
  // "sm_" digits suffix; anything else sorts after, by name.
  auto Parts = [](llvm::StringRef Name) {
    unsigned Number = 0;
    bool IsArch = Name.consume_front("sm_") && !Name.consumeInteger(10, Number);
    return std::make_tuple(!IsArch, IsArch ? Number : 0u, Name);
  };
  return Parts(A) < Parts(B) || (Parts(A) == Parts(B) && A < B);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads the fields of one object, remembering the first problem.
class FieldReader {
public:
  FieldReader(const JSONReader &R, const json::Object &O, std::string Where)
      : R(R), O(O), Where(std::move(Where)) {}

  std::string string(llvm::StringRef Name, bool Required) {
    const json::Value *V = O.get(Name);
    if (!V) {
      if (Required)
        fail(Name, "missing");
      return "";
    }
    if (auto S = V->getAsString())
      return S->str();
    fail(Name, "expected a string");
    return "";
  }
  double number(llvm::StringRef Name) {
    if (const json::Value *V = O.get(Name))
      if (auto D = V->getAsNumber(); D && std::isfinite(*D))
        return *D;
    fail(Name, O.get(Name) ? "expected a finite number" : "missing");
    return 0;
  }
  uint64_t count(llvm::StringRef Name) {
    if (const json::Value *V = O.get(Name))
      if (auto N = V->getAsUINT64())
        return *N;
    fail(Name, O.get(Name) ? "expected a count" : "missing");
    return 0;
  }
  const json::Object *object(llvm::StringRef Name) {
    const json::Value *V = O.get(Name);
    if (V && V->getAsObject())
      return V->getAsObject();
    fail(Name, V ? "expected an object" : "missing");
    return nullptr;
  }
  /// The fields of the object not among \p Known.
  json::Object others(llvm::ArrayRef<llvm::StringRef> Known) const {
    json::Object Rest;
    for (const auto &KV : O)
      if (!llvm::is_contained(Known, llvm::StringRef(KV.first)))
        Rest[KV.first] = KV.second;
    return Rest;
  }
  std::string path(llvm::StringRef Name) const {
    return Where.empty() ? Name.str() : Where + "." + Name.str();
  }
  llvm::Error takeError() { return std::move(Err); }
  ~FieldReader() { llvm::consumeError(std::move(Err)); }

private:
  void fail(llvm::StringRef Name, const llvm::Twine &Message) {
    if (!Err)
      Err = R.error(path(Name), Message);
  }

  const JSONReader &R;
  const json::Object &O;
  std::string Where;
  llvm::Error Err = llvm::Error::success();
};

} // namespace

static llvm::Expected<TuningEntry>
readEntry(const JSONReader &R, const json::Object &O, std::string Where) {
  FieldReader F(R, O, Where);
  TuningEntry E;
  if (const json::Object *P = F.object("params"))
    E.Params = *P;
  // An entry written by hand has parameters and no measurement.
  E.Measured = O.get("device") || O.get("metric");
  E.Device = F.string("device", E.Measured);
  E.Driver = F.string("driver", false);
  E.Date = F.string("date", false);
  if (!E.Measured) {
    // Nothing else to read.
  } else if (const json::Object *M = F.object("metric")) {
    FieldReader MF(R, *M, F.path("metric"));
    E.Objective.Name = MF.string("name", true);
    E.Value = MF.number("value");
    E.Objective.Unit = MF.string("unit", false);
    std::string Direction = MF.string("direction", true);
    if (Direction != "min" && Direction != "max" && !Direction.empty())
      return R.error(MF.path("direction"),
                     "expected \"min\" or \"max\", not \"" + Direction + "\"");
    E.Objective.Maximize = Direction == "max";
    if (llvm::Error Err = MF.takeError())
      return std::move(Err);
  }
  E.Metacu = F.string("metacu", false);
  E.Strategy = F.string("strategy", false);
  if (O.get("evaluations"))
    E.Evaluations = F.count("evaluations");
  E.Note = F.string("note", false);
  E.Other = F.others({"params", "device", "driver", "date", "metric", "metacu",
                      "strategy", "evaluations", "note"});
  if (llvm::Error Err = F.takeError())
    return std::move(Err);
  return E;
}

llvm::Expected<TuningFile> TuningFile::parse(llvm::StringRef Text,
                                             llvm::StringRef FileName) {
  auto Doc = parseJSON(Text, FileName);
  if (!Doc)
    return Doc.takeError();
  JSONReader R(FileName);
  const json::Object *Top = Doc->getAsObject();
  if (!Top)
    return R.error("the file", "expected an object");
  FieldReader F(R, *Top, "");
  TuningFile File;
  File.Kernel = F.string("kernel", false);
  if (const json::Object *Entries = F.object("entries"))
    for (const auto &KV : *Entries) {
      std::string Where = F.path("entries") + ".\"" + KV.first.str() + "\"";
      const json::Object *O = KV.second.getAsObject();
      if (!O)
        return R.error(Where, "expected an object");
      auto E = readEntry(R, *O, Where);
      if (!E)
        return E.takeError();
      File.Entries.emplace(KV.first.str(), std::move(*E));
    }
  File.Other = F.others({"kernel", "entries"});
  if (llvm::Error Err = F.takeError())
    return std::move(Err);
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

llvm::Expected<TuningFileUpdate>
metacu::tune::mergeIntoTuningFile(llvm::StringRef Path, const RunInfo &Info,
                                  const TuningEntry &New, bool Force) {
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
  TuningFileUpdate U;
  U.Merge = File->merge(Info.Where.Arch, New, Force);
  if (U.Merge.Outcome != MergeOutcome::KeptRecorded)
    U.Text = File->print();
  return U;
}
