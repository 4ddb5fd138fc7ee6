//===- KernelTunerCache.cpp - Kernel Tuner's cache file format ------------===//
#include "KernelTunerCache.h"
#include "Gzip.h"
#include "JSONError.h"
#include "JSONStream.h"

using namespace metacu::tune;

static const char *const HeaderFields[] = {"device_name",      "kernel_name",
                                           "tune_params_keys", "tune_params",
                                           "objective",        "cache"};

llvm::Error
KernelTunerCache::readHeader(const llvm::json::Object &Header,
                             const llvm::StringMap<unsigned> &Lines) {
  llvm::json::Value Root = llvm::json::Object(Header);
  /// Maps one field, reporting at its line.
  auto Map = [&](llvm::StringLiteral Field, auto &Out) -> llvm::Error {
    JSONInput In(FileName, Lines.lookup(Field));
    llvm::json::Path P(In.Root);
    llvm::json::ObjectMapper M(Root, P);
    return M.map(Field, Out) ? llvm::Error::success() : In.error();
  };
  std::optional<std::string> Device, Kernel, Goal;
  std::vector<std::string> Keys;
  if (llvm::Error E = Map("device_name", Device))
    return E;
  if (llvm::Error E = Map("kernel_name", Kernel))
    return E;
  if (llvm::Error E = Map("objective", Goal))
    return E;
  if (llvm::Error E = Map("tune_params_keys", Keys))
    return E;
  DeviceName = Device.value_or("");
  KernelName = Kernel.value_or("");
  Objective = Goal.value_or("time");
  JSONInput In(FileName, Lines.lookup("tune_params"));
  llvm::json::Path P(In.Root);
  const llvm::json::Object *Values = Header.getObject("tune_params");
  if (!Values) {
    In.fail(P.field("tune_params"),
            Header.get("tune_params") ? "expected an object" : "missing value");
    return In.error();
  }
  // Read again once the fields after "cache" are known: the parameters,
  // read before the entries, may have had their float spellings recovered.
  if (Params.empty()) {
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
      Params.push_back(std::move(Param));
    }
  }
  OtherFields.clear();
  for (const auto &[Key, V] : Header)
    if (llvm::none_of(HeaderFields, [&](const char *H) { return Key == H; }))
      OtherFields[Key] = V;
  return llvm::Error::success();
}

/// One reading of a cache file: its top-level object a member at a time,
/// "cache" an entry at a time. Kernel Tuner writes the header first; a file
/// whose "cache" comes before the fields its entries are read by is read
/// twice, the entries the second time.
class KernelTunerCache::Reader {
public:
  using OpenFn =
      llvm::function_ref<llvm::Expected<std::unique_ptr<ChunkSource>>()>;

  static llvm::Expected<KernelTunerCache>
  run(OpenFn Open, llvm::StringRef FileName, EntryFn OnEntry) {
    Reader R(FileName, OnEntry);
    for (bool First : {true, false}) {
      auto Source = Open();
      if (!Source)
        return Source.takeError();
      JSONStream S(std::move(*Source), FileName.str());
      if (llvm::Error E = R.document(S, First))
        return std::move(E);
      if (First)
        if (llvm::Error E = R.C.readHeader(R.Header, R.HeaderLines))
          return std::move(E);
      if (R.EntriesGiven)
        break;
    }
    return std::move(R.C);
  }

private:
  Reader(llvm::StringRef FileName, EntryFn OnEntry) : OnEntry(OnEntry) {
    C.FileName = FileName.str();
  }

  /// Kernel Tuner appends entries as it measures them and closes the
  /// braces only at the end; its reader closes an interrupted file, and so
  /// does this one: the file may end after an entry, a comma or the
  /// cache's brace.
  llvm::Error document(JSONStream &S, bool ReadHeader) {
    auto P = S.peek();
    if (!P)
      return P.takeError();
    if (*P != '{') {
      // Whatever it is, an error in it first (nesting 50,000 deep).
      unsigned Line = S.line(), Column = S.column();
      if (!*P)
        return S.error("unexpected end of file, expected a JSON object");
      if (auto V = S.value(MaxHeaderFieldBytes, ""); !V)
        return V.takeError();
      return S.errorAt(Line, Column, "expected a JSON object");
    }
    llvm::cantFail(S.expect('{', "'{'"));
    P = S.peek();
    if (!P)
      return P.takeError();
    bool MayEnd = false, SawCache = false;
    if (*P == '}') {
      llvm::cantFail(S.expect('}', "'}'"));
    } else {
      while (true) {
        // Where the key begins, past the white space before it.
        if (auto Next = S.peek(); !Next)
          return Next.takeError();
        unsigned Line = S.line(), Column = S.column();
        auto Key = S.string(MaxHeaderFieldBytes);
        if (!Key)
          return Key.takeError();
        if (llvm::Error E = S.expect(':', "':'"))
          return E;
        if (*Key == "cache") {
          if (SawCache)
            return S.errorAt(Line, Column, "\"cache\" given twice");
          SawCache = true;
          bool Give = !ReadHeader || (headerReady() && !readHeaderNow(S));
          if (HeaderError)
            return std::move(HeaderError);
          auto Open = entries(S, Give);
          if (!Open)
            return Open.takeError();
          EntriesGiven = Give;
          if (*Open)
            return llvm::Error::success();
          MayEnd = true;
        } else if (ReadHeader) {
          if (Header.get(*Key))
            return S.errorAt(Line, Column, "\"" + *Key + "\" given twice");
          auto V = S.value(MaxHeaderFieldBytes, *Key);
          if (!V)
            return V.takeError();
          Header[*Key] = std::move(*V);
          HeaderLines[*Key] = Line;
        } else if (llvm::Error E = S.skipValue(MaxHeaderFieldBytes)) {
          return E;
        }
        P = S.peek();
        if (!P)
          return P.takeError();
        if (!*P && MayEnd)
          return llvm::Error::success();
        if (*P == '}') {
          llvm::cantFail(S.expect('}', "'}'"));
          break;
        }
        if (llvm::Error E = S.expect(',', "',' or '}'"))
          return E;
        MayEnd = false;
      }
    }
    P = S.peek();
    if (!P)
      return P.takeError();
    if (*P)
      return S.error("text after the end of the document");
    return llvm::Error::success();
  }

  /// Whether the fields an entry is read by are known.
  bool headerReady() const {
    return Header.get("tune_params_keys") && Header.get("tune_params") &&
           Header.get("objective");
  }

  /// Reads the header before the entries; false when it is read.
  bool readHeaderNow(JSONStream &S) {
    HeaderError = C.readHeader(Header, HeaderLines);
    return bool(HeaderError);
  }

  /// The entries of "cache", given to OnEntry when \p Give; whether the
  /// file ended inside it (open, as Kernel Tuner leaves it).
  llvm::Expected<bool> entries(JSONStream &S, bool Give) {
    auto P = S.peek();
    if (!P)
      return P.takeError();
    if (*P != '{')
      return S.error("cache: expected an object");
    llvm::cantFail(S.expect('{', "'{'"));
    Count = 0;
    for (bool First = true;; First = false) {
      P = S.peek();
      if (!P)
        return P.takeError();
      if (!*P)
        return true;
      if (*P == '}') {
        llvm::cantFail(S.expect('}', "'}'"));
        return false;
      }
      if (!First)
        if (llvm::Error E = S.expect(',', "',' or '}'"))
          return std::move(E);
      P = S.peek();
      if (!P)
        return P.takeError();
      if (!*P)
        return true;
      unsigned Line = S.line(), Column = S.column();
      auto Key = S.string(MaxEntryBytes);
      if (!Key)
        return Key.takeError();
      if (llvm::Error E = S.expect(':', "':'"))
        return std::move(E);
      if (++Count > MaxCacheEntries)
        return S.errorAt(Line, Column,
                         "more than " + llvm::Twine(MaxCacheEntries) +
                             " entries in the cache");
      if (!Give) {
        if (llvm::Error E = S.skipValue(MaxEntryBytes))
          return std::move(E);
        continue;
      }
      auto V = S.value(MaxEntryBytes, "cache." + *Key);
      if (!V)
        return V.takeError();
      llvm::json::Object *Record = V->getAsObject();
      if (!Record)
        return S.errorAt(Line, Column,
                         "cache.\"" + *Key + "\": expected an object");
      Entry E{std::move(*Key), std::move(*Record), Line, Column};
      if (Count == 1)
        C.recoverFloatSpellings(E.Key);
      if (llvm::Error Err = OnEntry(C, E))
        return std::move(Err);
    }
  }

  KernelTunerCache C;
  EntryFn OnEntry;
  llvm::json::Object Header;
  /// The line of each header field's key.
  llvm::StringMap<unsigned> HeaderLines;
  llvm::Error HeaderError = llvm::Error::success();
  size_t Count = 0;
  bool EntriesGiven = false;
};

void KernelTunerCache::recoverFloatSpellings(llvm::StringRef Key) {
  // llvm::json reads 1.0 as the integer 1, but Kernel Tuner keys the entry
  // "1.0", and a key metacu writes must match the one Kernel Tuner looks up.
  // The keys show which parameters were floats.
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Key.split(Parts, ',');
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

/// All entries of a cache, sorted by key: llvm::json::Object did not keep
/// the file's order, and key order at least makes a rewritten file the same
/// on every run.
static llvm::Expected<KernelTunerCache>
collect(llvm::Expected<KernelTunerCache> C,
        std::vector<KernelTunerCache::Entry> Entries) {
  if (!C)
    return C.takeError();
  llvm::sort(Entries, [](const KernelTunerCache::Entry &A,
                         const KernelTunerCache::Entry &B) {
    return A.Key < B.Key;
  });
  C->Entries = std::move(Entries);
  return C;
}

llvm::Expected<KernelTunerCache>
KernelTunerCache::parse(llvm::StringRef Text, llvm::StringRef FileName) {
  std::vector<Entry> Entries;
  auto C = Reader::run(
      [&]() -> llvm::Expected<std::unique_ptr<ChunkSource>> {
        return ChunkSource::ofText(Text, MaxCacheBytes);
      },
      FileName, [&](const KernelTunerCache &, Entry &E) {
        Entries.push_back(std::move(E));
        return llvm::Error::success();
      });
  return collect(std::move(C), std::move(Entries));
}

llvm::Expected<KernelTunerCache>
KernelTunerCache::stream(llvm::StringRef Path, EntryFn OnEntry) {
  return Reader::run([&] { return ChunkSource::open(Path, MaxCacheBytes); },
                     Path, OnEntry);
}

llvm::Expected<KernelTunerCache> KernelTunerCache::read(llvm::StringRef Path) {
  std::vector<Entry> Entries;
  auto C = stream(Path, [&](const KernelTunerCache &, Entry &E) {
    Entries.push_back(std::move(E));
    return llvm::Error::success();
  });
  return collect(std::move(C), std::move(Entries));
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

std::string KernelTunerCache::where(const Entry &E,
                                    llvm::StringRef Field) const {
  std::string At = FileName;
  if (E.Line)
    At += ":" + std::to_string(E.Line) + ":" + std::to_string(E.Column);
  return At + ": cache.\"" + E.Key + "\"." + Field.str() + ": ";
}

llvm::Expected<Config> KernelTunerCache::configOf(const Entry &E) const {
  Config C;
  for (const Parameter &P : Params) {
    const llvm::json::Value *V = E.Record.get(P.Name);
    auto Where = [&] { return where(E, P.Name); };
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
  auto Where = [&](llvm::StringRef Field) { return where(E, Field); };
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
  // What Kernel Tuner writes as numbers and a string is read so: another
  // type is an error at its path, not a time of 0 (a replay's clock) or a
  // run time dropped without a word.
  JSONInput In(FileName, E.Line);
  llvm::json::Path Root(In.Root);
  llvm::json::Path Cache = Root.field("cache");
  llvm::json::Path Record = Cache.field(E.Key);
  auto Read = [&](llvm::StringLiteral Field, auto &Out) {
    const llvm::json::Value *V = E.Record.get(Field);
    return !V || fromJSON(*V, Out, Record.field(Field));
  };
  std::optional<std::vector<Milliseconds>> Times;
  std::optional<Milliseconds> Compile, Benchmark, Verification, Framework;
  if (!Read("times", Times) || !Read("compile_time", Compile) ||
      !Read("benchmark_time", Benchmark) ||
      !Read("verification_time", Verification) ||
      !Read("framework_time", Framework) || !Read("timestamp", M.Timestamp))
    return In.error();
  M.Times = values(Times);
  M.CompileMs = valueOr0(Compile);
  M.BenchmarkMs = valueOr0(Benchmark);
  M.VerificationMs = valueOr0(Verification);
  M.FrameworkMs = valueOr0(Framework);
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
