//===- KernelTunerCache.cpp - Kernel Tuner's cache file format ------------===//
#include "KernelTunerCache.h"
#include "Gzip.h"
#include "JSONError.h"

using namespace metacu::tune;

/// Kernel Tuner appends entries as it measures them and closes the braces
/// only at the end; its reader closes an interrupted file the same way.
static std::string closeOpenCache(llvm::StringRef Text) {
  llvm::StringRef T = Text.rtrim();
  if (T.ends_with("}\n}") || T.ends_with("}}}"))
    return Text.str();
  if (T.ends_with(","))
    T = T.drop_back();
  return T.str() + "}\n}";
}

static const char *const HeaderFields[] = {"device_name",      "kernel_name",
                                           "tune_params_keys", "tune_params",
                                           "objective",        "cache"};

llvm::Expected<KernelTunerCache>
KernelTunerCache::parse(llvm::StringRef Text, llvm::StringRef FileName) {
  if (llvm::Error E = checkJSONNesting(Text, FileName))
    return std::move(E);
  auto Root = llvm::json::parse(Text);
  if (!Root) {
    std::string Closed = closeOpenCache(Text);
    auto Repaired = llvm::json::parse(Closed);
    if (Closed == Text || !Repaired) {
      if (!Repaired)
        llvm::consumeError(Repaired.takeError());
      return locatedParseError(FileName, Root.takeError());
    }
    llvm::consumeError(Root.takeError());
    Root = std::move(Repaired);
  }
  // A time, a rate or a parameter value of 1e999 anywhere.
  if (llvm::Error E = checkNumbersFinite(*Root, Text, FileName))
    return std::move(E);
  JSONInput In(FileName);
  llvm::json::Path P(In.Root);
  llvm::json::ObjectMapper M(*Root, P);
  KernelTunerCache C;
  C.FileName = FileName.str();
  std::optional<std::string> Device, Kernel, Objective;
  std::vector<std::string> Keys;
  if (!M || !M.map("device_name", Device) || !M.map("kernel_name", Kernel) ||
      !M.map("objective", Objective) || !M.map("tune_params_keys", Keys))
    return In.error();
  C.DeviceName = Device.value_or("");
  C.KernelName = Kernel.value_or("");
  C.Objective = Objective.value_or("time");
  const llvm::json::Object *O = Root->getAsObject();
  const llvm::json::Object *Values = O->getObject("tune_params");
  const llvm::json::Object *Cache = O->getObject("cache");
  for (auto [Name, Field] :
       {std::pair{"tune_params", Values}, {"cache", Cache}})
    if (!Field) {
      In.fail(P.field(Name),
              O->get(Name) ? "expected an object" : "missing value");
      return In.error();
    }
  llvm::json::Path ParamsPath = P.field("tune_params");
  for (const std::string &Name : Keys) {
    Parameter Param{Name, {}};
    const llvm::json::Value *List = Values->get(Name);
    if (!List) {
      In.fail(ParamsPath.field(Name), "missing value");
      return In.error();
    }
    if (!fromJSON(*List, Param.Values, ParamsPath.field(Name)))
      return In.error();
    C.Params.push_back(std::move(Param));
  }

  for (const auto &[Key, V] : *O) {
    bool Known = false;
    for (const char *H : HeaderFields)
      Known |= Key == H;
    if (!Known)
      C.OtherFields[Key] = V;
  }

  // Each record moved out of the parsed file, not copied: a cache of 10^6
  // entries would hold two copies at once.
  C.Entries.reserve(Cache->size());
  for (auto &[Key, V] : *Root->getAsObject()->getObject("cache")) {
    llvm::json::Object *Record = V.getAsObject();
    if (!Record) {
      In.fail(P.field("cache").field(Key), "expected an object");
      return In.error();
    }
    C.Entries.push_back({Key.str(), std::move(*Record)});
  }
  // llvm::json::Object does not keep the file's order; key order at least
  // makes the entries, and a rewritten file, the same on every run.
  llvm::sort(C.Entries,
             [](const Entry &A, const Entry &B) { return A.Key < B.Key; });
  C.recoverFloatSpellings();
  return C;
}

void KernelTunerCache::recoverFloatSpellings() {
  // llvm::json reads 1.0 as the integer 1, but Kernel Tuner keys the entry
  // "1.0", and a key metacu writes must match the one Kernel Tuner looks up.
  // The keys show which parameters were floats.
  if (Entries.empty())
    return;
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  llvm::StringRef(Entries.front().Key).split(Parts, ',');
  if (Parts.size() != Params.size())
    return; // a string value with a comma: the key cannot be split
  for (size_t P = 0; P < Params.size(); ++P) {
    bool Integers = llvm::all_of(Params[P].Values, [](const Value &V) {
      return V.kind() == Value::Kind::Int;
    });
    bool FloatSpelling =
        Parts[P].contains('.') || Parts[P].contains_insensitive('e');
    if (!Integers || !FloatSpelling)
      continue;
    for (Value &V : Params[P].Values)
      V = Value::real(double(V.asInt()));
  }
}

llvm::Expected<KernelTunerCache> KernelTunerCache::read(llvm::StringRef Path) {
  auto Text = readMaybeGzipFile(Path);
  if (!Text)
    return Text.takeError();
  return parse(*Text, Path);
}

std::string KernelTunerCache::print() const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "{\n";
  auto Field = [&](llvm::StringRef Name, llvm::json::Value V) {
    OS << llvm::json::Value(Name) << ": " << V << ",\n";
  };
  Field("device_name", DeviceName);
  Field("kernel_name", KernelName);
  llvm::json::Array Keys;
  llvm::json::Object Values;
  for (const Parameter &P : Params) {
    Keys.push_back(P.Name);
    llvm::json::Array List;
    for (const Value &V : P.Values)
      List.push_back(V.toJSON());
    Values[P.Name] = std::move(List);
  }
  Field("tune_params_keys", std::move(Keys));
  Field("tune_params", std::move(Values));
  Field("objective", Objective);
  std::vector<llvm::StringRef> Other;
  for (const auto &KV : OtherFields)
    Other.push_back(KV.first);
  llvm::sort(Other);
  for (llvm::StringRef Name : Other)
    Field(Name, *OtherFields.get(Name));
  OS << "\"cache\": {";
  for (size_t I = 0; I < Entries.size(); ++I)
    OS << (I ? ",\n" : "\n") << llvm::json::Value(Entries[I].Key) << ": "
       << llvm::json::Value(llvm::json::Object(Entries[I].Record));
  OS << "}\n}\n";
  return Out;
}

llvm::Expected<metacu::OutputFile>
KernelTunerCache::file(llvm::StringRef Path) const {
  return maybeGzipFile(Path, print());
}

llvm::Expected<Config> KernelTunerCache::configOf(const Entry &E) const {
  Config C;
  for (const Parameter &P : Params) {
    const llvm::json::Value *V = E.Record.get(P.Name);
    auto Where = [&] {
      return FileName + ": cache.\"" + E.Key + "\"." + P.Name + ": ";
    };
    if (!V)
      return llvm::createStringError(Where() + "missing");
    auto PV = Value::fromJSON(*V);
    if (!PV)
      return llvm::createStringError(Where() + llvm::toString(PV.takeError()));
    auto It = llvm::find(P.Values, *PV);
    if (It == P.Values.end())
      return llvm::createStringError(Where() + PV->str() +
                                     " is not among tune_params");
    C.push_back(It - P.Values.begin());
  }
  return C;
}

llvm::Expected<SearchSpace> KernelTunerCache::recordedSpace() const {
  std::vector<Config> Configs;
  for (const Entry &E : Entries) {
    auto C = configOf(E);
    if (!C)
      return C.takeError();
    Configs.push_back(std::move(*C));
  }
  auto S = SearchSpace::recorded(Params, Configs);
  if (!S)
    return llvm::createStringError(FileName + ": " +
                                   llvm::toString(S.takeError()));
  return S;
}

llvm::Expected<Measurement>
KernelTunerCache::measurement(const Entry &E) const {
  Measurement M;
  auto Where = [&](llvm::StringRef Field) {
    return FileName + ": cache.\"" + E.Key + "\"." + Field.str() + ": ";
  };
  const llvm::json::Value *Time = E.Record.get("time");
  if (!Time)
    return llvm::createStringError(Where("time") + "missing");
  if (auto S = Time->getAsString()) {
    auto V = validityFromKernelTunerName(*S);
    if (!V)
      return llvm::createStringError(Where("time") + "unknown outcome '" + *S +
                                     "'");
    M.Status = *V;
    M.Reason = S->str();
  } else {
    const llvm::json::Value *Obj = E.Record.get(Objective);
    auto N = Obj ? Obj->getAsNumber() : std::nullopt;
    if (!N)
      return llvm::createStringError(Where(Objective) + "not a number");
    M.Objective = *N;
    // Recorded as measured, but not a value to rank or write back (a time
    // of 0, a rate over it): the configuration counts as failed.
    std::string Why = Metric::fromObjective(Objective).whyNotMeasured(*N);
    if (!Why.empty()) {
      M.Status = Validity::Runtime;
      M.Reason = Why;
    }
  }
  if (const llvm::json::Array *Times = E.Record.getArray("times"))
    for (const llvm::json::Value &T : *Times)
      if (auto N = T.getAsNumber())
        M.Times.push_back(*N);
  auto Number = [&](llvm::StringRef Name) {
    return E.Record.getNumber(Name).value_or(0);
  };
  M.CompileMs = Number("compile_time");
  M.BenchmarkMs = Number("benchmark_time");
  M.VerificationMs = Number("verification_time");
  M.FrameworkMs = Number("framework_time");
  if (auto S = E.Record.getString("timestamp"))
    M.Timestamp = S->str();
  return M;
}

void KernelTunerCache::record(const SearchSpace &Space, uint32_t Index,
                              const Measurement &M) {
  llvm::json::Object Record = Space.toJSON(Index);
  if (M.valid()) {
    // "time" is always the run time in ms (Kernel Tuner's mean of the
    // runs); a rate objective has its own field.
    double Time = M.Objective;
    if (Objective != "time") {
      Record[Objective] = M.Objective;
      if (!M.Times.empty()) {
        double Sum = 0;
        for (double T : M.Times)
          Sum += T;
        Time = Sum / M.Times.size();
      }
    }
    Record["time"] = Time;
  } else {
    Record["time"] = kernelTunerName(M.Status);
  }
  Record["times"] = llvm::json::Array(M.Times);
  Record["compile_time"] = M.CompileMs;
  Record["benchmark_time"] = M.BenchmarkMs;
  Record["verification_time"] = M.VerificationMs;
  Record["framework_time"] = M.FrameworkMs;
  Record["strategy_time"] = 0;
  Record["timestamp"] = M.Timestamp;
  std::string Key = Space.key(Index);
  for (Entry &E : Entries)
    if (E.Key == Key) {
      E.Record = std::move(Record);
      return;
    }
  Entries.push_back({std::move(Key), std::move(Record)});
}
