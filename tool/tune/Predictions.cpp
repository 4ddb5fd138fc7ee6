//===- Predictions.cpp ----------------------------------------------------===//
#include "Predictions.h"
#include "Gzip.h"
#include "JSONError.h"

#include "llvm/ADT/STLExtras.h"

using namespace metacu::tune;
namespace json = llvm::json;

size_t Predictions::known() const {
  return llvm::count_if(ByConfig, [](const auto &P) { return P.has_value(); });
}

llvm::Expected<Predictions> Predictions::read(llvm::StringRef Path,
                                              const SearchSpace &Space) {
  auto Text = readMaybeGzipFile(Path);
  if (!Text)
    return Text.takeError();
  auto V = parseJSON(*Text, Path);
  if (!V)
    return V.takeError();
  return fromJSON(*V, Space, Path);
}

// The configuration \p Params names, if the space has it.
static llvm::Expected<std::optional<uint32_t>>
configOf(const json::Object &Params, const SearchSpace &Space,
         const JSONReader &R, const llvm::Twine &Where) {
  Config C;
  for (const Parameter &P : Space.parameters()) {
    const json::Value *V = Params.get(P.Name);
    if (!V)
      return R.error(Where, "no value of parameter '" + P.Name + "'");
    auto Val = Value::fromJSON(*V);
    if (!Val)
      return R.error(Where + "." + P.Name, llvm::toString(Val.takeError()));
    auto It = llvm::find(P.Values, *Val);
    if (It == P.Values.end())
      return std::nullopt;
    C.push_back(uint32_t(It - P.Values.begin()));
  }
  return Space.indexOf(C);
}

llvm::Expected<Predictions> Predictions::fromJSON(const json::Value &V,
                                                  const SearchSpace &Space,
                                                  llvm::StringRef Origin) {
  JSONReader R(Origin);
  const json::Object *Top = R.object(V, "the file");
  const json::Array *Records =
      Top ? R.array(Top->get("configurations"), "configurations") : nullptr;
  if (!Records)
    return R.takeError();
  Predictions Out(Space.size());
  for (size_t I = 0; I < Records->size(); ++I) {
    std::string Where = "configurations[" + std::to_string(I) + "]";
    const json::Object *Rec = R.object((*Records)[I], Where);
    const json::Object *Params =
        Rec ? R.object(Rec->get("params"), Where + ".params") : nullptr;
    if (!Params)
      return R.takeError();
    auto Index = configOf(*Params, Space, R, Where + ".params");
    if (!Index)
      return Index.takeError();
    if (!*Index)
      continue;
    Predicted P;
    if (const json::Value *Error = Rec->get("error")) {
      P.Builds = false;
      P.Failure = Error->getAsString().value_or("").str();
      Out.set(**Index, P);
      continue;
    }
    auto Number = [&](llvm::StringRef Key) -> llvm::Expected<uint64_t> {
      std::optional<int64_t> N = Rec->getInteger(Key);
      if (!N || *N < 0)
        return R.error(Where + "." + Key, "expected a count");
      return uint64_t(*N);
    };
    auto Blocks = Number("blocks_per_sm");
    if (!Blocks)
      return Blocks.takeError();
    auto Stores = Number("spill_store_bytes");
    if (!Stores)
      return Stores.takeError();
    auto Loads = Number("spill_load_bytes");
    if (!Loads)
      return Loads.takeError();
    P.BlocksPerSM = unsigned(*Blocks);
    P.SpillStoreBytes = *Stores;
    P.SpillLoadBytes = *Loads;
    const json::Value *Time = Rec->get("predicted_time_us");
    if (!Time)
      return R.error(Where, "no predicted_time_us (null when it cannot "
                            "launch)");
    if (std::optional<double> T = Time->getAsNumber()) {
      if (!(*T > 0))
        return R.error(Where + ".predicted_time_us", "expected a positive "
                                                     "time");
      P.TimeUs = *T;
    } else if (Time->kind() != json::Value::Null) {
      return R.error(Where + ".predicted_time_us", "expected a number or "
                                                   "null");
    }
    Out.set(**Index, P);
  }
  return Out;
}

json::Value Predictions::toJSON(const SearchSpace &Space,
                                json::Object Header) const {
  json::Array Records;
  for (uint32_t I = 0; I < ByConfig.size(); ++I) {
    if (!ByConfig[I])
      continue;
    const Predicted &P = *ByConfig[I];
    json::Object Rec{{"params", Space.toJSON(I)}};
    if (!P.Builds) {
      Rec["error"] = P.Failure.empty() ? "does not build" : P.Failure;
    } else {
      Rec["blocks_per_sm"] = P.BlocksPerSM;
      Rec["spill_store_bytes"] = P.SpillStoreBytes;
      Rec["spill_load_bytes"] = P.SpillLoadBytes;
      Rec["predicted_time_us"] = P.TimeUs ? json::Value(*P.TimeUs) : nullptr;
      if (P.From) {
        Rec["mangled"] = P.From->Mangled;
        Rec["registers"] = P.From->Registers;
        Rec["block"] =
            json::Array{P.From->Block[0], P.From->Block[1], P.From->Block[2]};
        Rec["dynamic_shared_bytes"] = P.From->DynamicSharedBytes;
      }
    }
    Records.push_back(std::move(Rec));
  }
  Header["version"] = 1;
  Header["configurations"] = std::move(Records);
  return Header;
}
