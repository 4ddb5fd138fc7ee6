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
                                              const SearchSpace &Space,
                                              const PredictionsFor &For) {
  auto Text = readMaybeGzipFile(Path);
  if (!Text)
    return Text.takeError();
  auto V = parseJSON(*Text, Path);
  if (!V)
    return V.takeError();
  return fromJSON(*V, Space, Path, For, *Text);
}

namespace {
/// One record of a predictions file.
struct Record {
  const json::Object *Params = nullptr;
  std::optional<std::string> Error;
  uint64_t BlocksPerSM = 0, SpillStoreBytes = 0, SpillLoadBytes = 0;
  std::optional<double> TimeUs;
};
bool fromJSON(const json::Value &V, Record &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("error", Out.Error))
    return false;
  Out.Params = V.getAsObject()->getObject("params");
  if (!Out.Params) {
    P.field("params").report("expected an object of parameter values");
    return false;
  }
  if (Out.Error)
    return true;
  if (!V.getAsObject()->get("predicted_time_us")) {
    P.field("predicted_time_us").report("missing (null when it cannot launch)");
    return false;
  }
  return O.map("blocks_per_sm", Out.BlocksPerSM) &&
         O.map("spill_store_bytes", Out.SpillStoreBytes) &&
         O.map("spill_load_bytes", Out.SpillLoadBytes) &&
         O.map("predicted_time_us", Out.TimeUs);
}
} // namespace

/// The configuration \p Params (at \p P) names, if the space has it.
static std::optional<std::optional<uint32_t>>
configOf(const json::Object &Params, const SearchSpace &Space, json::Path P,
         JSONInput &In) {
  Config C;
  for (const Parameter &Param : Space.parameters()) {
    const json::Value *V = Params.get(Param.Name);
    if (!V) {
      In.fail(P, "no value of parameter '" + Param.Name + "'");
      return std::nullopt;
    }
    Value Val;
    if (!fromJSON(*V, Val, P.field(Param.Name)))
      return std::nullopt;
    auto It = llvm::find(Param.Values, Val);
    if (It == Param.Values.end())
      return std::optional<uint32_t>();
    C.push_back(uint32_t(It - Param.Values.begin()));
  }
  return Space.indexOf(C);
}

/// Whether the header field \p Name is \p Want (any value when \p Want is
/// empty); \p What names the field's meaning in the error.
static bool headerIs(const json::Object &Header, llvm::StringRef Name,
                     llvm::StringRef Want, llvm::StringRef What, json::Path P,
                     JSONInput &In) {
  if (Want.empty())
    return true;
  const json::Value *V = Header.get(Name);
  if (!V) {
    In.fail(P.field(Name),
            "missing: the " + What.str() + " the predictions were made for");
    return false;
  }
  auto Got = V->getAsString();
  if (!Got) {
    P.field(Name).report("expected a string");
    return false;
  }
  if (*Got != Want) {
    In.fail(P.field(Name), "predictions for " + What.str() + " '" + Got->str() +
                               "', but this run tunes '" + Want.str() + "'");
    return false;
  }
  return true;
}

llvm::Expected<Predictions> Predictions::fromJSON(const json::Value &V,
                                                  const SearchSpace &Space,
                                                  llvm::StringRef Origin,
                                                  const PredictionsFor &For,
                                                  llvm::StringRef Text) {
  JSONInput In(Origin, Text);
  json::Path P(In.Root);
  json::ObjectMapper O(V, P);
  std::vector<Record> Records;
  if (!O || !O.map("configurations", Records))
    return In.error();
  const json::Object &Header = *V.getAsObject();
  if (!headerIs(Header, "kernel", For.Kernel, "kernel", P, In) ||
      !headerIs(Header, "arch", For.Arch, "architecture", P, In) ||
      !headerIs(Header, "image", For.Image, "image", P, In))
    return In.error();
  Predictions Out(Space.size());
  // A json::Path points at its parent: each level is kept while used.
  json::Path Configurations = P.field("configurations");
  for (size_t I = 0; I < Records.size(); ++I) {
    const Record &R = Records[I];
    json::Path At = Configurations.index(I);
    auto Index = configOf(*R.Params, Space, At.field("params"), In);
    if (!Index)
      return In.error();
    if (!*Index)
      continue;
    Predicted Pred;
    if (R.Error) {
      Pred.Builds = false;
      Pred.Failure = *R.Error;
    } else {
      if (R.TimeUs && !(*R.TimeUs > 0)) {
        In.fail(At.field("predicted_time_us"), "expected a positive time");
        return In.error();
      }
      Pred.BlocksPerSM = unsigned(std::min<uint64_t>(R.BlocksPerSM, ~0u));
      Pred.SpillStoreBytes = R.SpillStoreBytes;
      Pred.SpillLoadBytes = R.SpillLoadBytes;
      Pred.TimeUs = R.TimeUs;
    }
    Out.set(**Index, Pred);
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
