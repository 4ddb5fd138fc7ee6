//===- Value.cpp - One value of a tuning parameter ------------------------===//
#include "Value.h"

#include <cmath>
#include <cstdio>

using namespace metacu::tune;

Value Value::integer(int64_t I) {
  Value V;
  V.K = Kind::Int;
  V.I = I;
  return V;
}

Value Value::real(double D) {
  Value V;
  V.K = Kind::Float;
  V.D = D;
  return V;
}

Value Value::boolean(bool B) {
  Value V;
  V.K = Kind::Bool;
  V.I = B;
  return V;
}

Value Value::string(std::string S) {
  Value V;
  V.K = Kind::String;
  V.S = std::move(S);
  return V;
}

llvm::Expected<Value> Value::fromJSON(const llvm::json::Value &J) {
  if (auto B = J.getAsBoolean())
    return boolean(*B);
  // llvm::json answers getAsInteger for integral doubles too, so 4.0 reads
  // as the integer 4; KernelTunerCache recovers such floats from its keys.
  if (J.kind() == llvm::json::Value::Number) {
    if (auto I = J.getAsInteger())
      return integer(*I);
    // llvm::json holds an integer up to 2^64-1 exactly (beyond, a double).
    if (J.getAsUINT64())
      return llvm::createStringError(
          "an integer above 2^63-1, the largest a parameter value holds");
    return real(*J.getAsNumber());
  }
  if (auto S = J.getAsString())
    return string(S->str());
  std::string Text;
  llvm::raw_string_ostream(Text) << J;
  return llvm::createStringError(
      "a parameter value must be a number, a boolean or a string, not " + Text);
}

bool metacu::tune::fromJSON(const llvm::json::Value &V, Value &Out,
                            llvm::json::Path P) {
  auto Read = Value::fromJSON(V);
  if (!Read) {
    llvm::consumeError(Read.takeError());
    if (V.getAsUINT64())
      P.report("an integer above 2^63-1, the largest a parameter value holds");
    else
      P.report("expected a number, a boolean or a string");
    return false;
  }
  Out = std::move(*Read);
  return true;
}

double Value::asDouble() const { return K == Kind::Float ? D : double(I); }

llvm::json::Value Value::toJSON() const {
  switch (K) {
  case Kind::Int:
    return I;
  case Kind::Float:
    return D;
  case Kind::Bool:
    return I != 0;
  case Kind::String:
    return S;
  }
  llvm_unreachable("unknown value kind");
}

/// Python's repr of a float: the shortest digits that read back exactly,
/// with ".0" when they would look like an integer.
static std::string pythonFloat(double D) {
  if (std::isnan(D))
    return "nan";
  if (std::isinf(D))
    return D > 0 ? "inf" : "-inf";
  char Buf[32];
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  std::string Text = Buf;
  if (Text.find_first_of(".en") == std::string::npos)
    Text += ".0";
  return Text;
}

std::string Value::str() const {
  switch (K) {
  case Kind::Int:
    return std::to_string(I);
  case Kind::Float:
    return pythonFloat(D);
  case Kind::Bool:
    return I ? "True" : "False";
  case Kind::String:
    return S;
  }
  llvm_unreachable("unknown value kind");
}

namespace metacu::tune {
bool operator==(const Value &A, const Value &B) {
  if (A.isNumber() && B.isNumber()) {
    if (A.K == Value::Kind::Int && B.K == Value::Kind::Int)
      return A.I == B.I;
    return A.asDouble() == B.asDouble();
  }
  if (A.K != B.K)
    return false;
  return A.K == Value::Kind::String ? A.S == B.S : A.I == B.I;
}
} // namespace metacu::tune
