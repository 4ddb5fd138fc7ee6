//===- PtxCounts.cpp ------------------------------------------------------===//
#include "report/PtxCounts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>

namespace metacu::report {

namespace {

// One instruction: "@%p1 ld.global.nc.v4.f32 {%f1, ...}, [%rd2+16];" as
// its opcode's dot-separated parts and its operand text.
struct Instruction {
  llvm::SmallVector<llvm::StringRef, 6> Parts;
  llvm::StringRef Operands;

  bool has(llvm::StringRef Part) const {
    return llvm::is_contained(Parts, Part);
  }
  // .shared::cta and .shared::cluster are shared memory too.
  bool hasPrefix(llvm::StringRef Prefix) const {
    return llvm::any_of(
        Parts, [&](llvm::StringRef P) { return P.starts_with(Prefix); });
  }
};

// Bytes of a type suffix, 0 for a part that is no type.
unsigned typeBytes(llvm::StringRef Part) {
  return llvm::StringSwitch<unsigned>(Part)
      .Cases({"b8", "u8", "s8"}, 1)
      .Cases({"b16", "u16", "s16", "f16", "bf16"}, 2)
      .Cases({"b32", "u32", "s32", "f32", "f16x2", "bf16x2"}, 4)
      .Cases({"b64", "u64", "s64", "f64"}, 8)
      .Case("b128", 16)
      .Default(0);
}

// The bytes one thread moves: the last type suffix times the vector width.
uint64_t accessBytes(const Instruction &I) {
  unsigned Size = 0, Width = 1;
  for (llvm::StringRef P : I.Parts) {
    if (unsigned B = typeBytes(P))
      Size = B;
    else if (P.size() == 2 && P[0] == 'v' && llvm::isDigit(P[1]))
      Width = P[1] - '0';
  }
  return uint64_t(Size) * Width;
}

// Floating-point type and elements per instruction, if any part names one.
std::optional<std::pair<FpType, unsigned>> fpType(const Instruction &I) {
  for (llvm::StringRef P : I.Parts) {
    if (P == "f32")
      return std::pair{FpType::F32, 1u};
    if (P == "f64")
      return std::pair{FpType::F64, 1u};
    if (P == "f16" || P == "bf16")
      return std::pair{FpType::F16, 1u};
    if (P == "f16x2" || P == "bf16x2")
      return std::pair{FpType::F16, 2u};
  }
  return std::nullopt;
}

// Floating-point operations per element: fma/mad 2, arithmetic 1; compares,
// min/max, abs and neg run on the FP pipe but are no operations.
unsigned flopsPerElement(llvm::StringRef Op) {
  return llvm::StringSwitch<unsigned>(Op)
      .Cases({"fma", "mad"}, 2)
      .Cases({"add", "sub", "mul", "div", "rcp", "sqrt", "rsqrt", "ex2", "lg2",
              "sin", "cos", "tanh"},
             1)
      .Default(0);
}

void countMemory(const Instruction &I, KernelCounts &K) {
  llvm::StringRef Op = I.Parts[0];
  uint64_t Bytes = accessBytes(I);
  bool Load = Op == "ld" || Op == "ldu";
  if (I.hasPrefix("shared"))
    (Load ? K.SharedLoads : K.SharedStores).add(Bytes);
  else if (I.has("local"))
    K.LocalAccesses.add(Bytes);
  else // global, or generic (which is global in practice)
    (Load ? K.GlobalLoads : K.GlobalStores).add(Bytes);
}

// cp.async.ca.shared.global [dst], [src], 16: a global load and a shared
// store of the size its third operand gives.
void countAsyncCopy(const Instruction &I, KernelCounts &K) {
  llvm::SmallVector<llvm::StringRef, 4> Ops;
  I.Operands.split(Ops, ',');
  uint64_t Bytes = 0;
  if (!I.has("global") || Ops.size() < 3 ||
      Ops[2].trim().getAsInteger(0, Bytes))
    return;
  K.GlobalLoads.add(Bytes);
  K.SharedStores.add(Bytes);
}

void countInstruction(llvm::StringRef Text, llvm::StringSet<> &Labels,
                      KernelCounts &K) {
  // Drop the guard predicate: a guarded instruction is counted once too.
  if (Text.starts_with("@"))
    Text = Text.drop_until(llvm::isSpace).ltrim();
  // "ret;" has no operands.
  size_t OpcodeEnd = Text.find_first_of(" \t;");
  Instruction I;
  Text.take_front(OpcodeEnd).split(I.Parts, '.');
  I.Operands = Text.drop_front(std::min(OpcodeEnd, Text.size()))
                   .take_until([](char C) { return C == ';'; })
                   .trim();
  llvm::StringRef Op = I.Parts[0];

  // Parameters and constants become operands, cvta folds into addresses.
  if (((Op == "ld" || Op == "st") && (I.has("param") || I.has("const"))) ||
      Op == "cvta" || Op == "ret" || Op == "exit")
    return;
  ++K.Instructions;

  if (Op == "bra" || Op == "brx") {
    ++K.Branches;
    K.HasLoop |= Labels.contains(I.Operands);
    return;
  }
  if (Op == "cp" && I.Parts.size() > 1 && I.Parts[1] == "async") {
    countAsyncCopy(I, K);
    return;
  }
  if (Op == "ld" || Op == "ldu" || Op == "st" || Op == "atom" || Op == "red") {
    countMemory(I, K);
    return;
  }
  if (Op == "cvt" || Op == "mov" || Op == "selp")
    return;
  if (auto FP = fpType(I)) {
    auto [Type, Elements] = *FP;
    K.FpInstructions[unsigned(Type)] += 1;
    K.Flops[unsigned(Type)] += flopsPerElement(Op) * Elements;
  }
}

// ".maxntid 256, 1, 1" -> 256.
std::optional<unsigned> threadCount(llvm::StringRef Dims) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Dims.split(Parts, ',');
  unsigned Product = 1;
  for (llvm::StringRef P : Parts) {
    unsigned N;
    if (P.trim().getAsInteger(10, N))
      return std::nullopt;
    Product *= N;
  }
  return Product;
}

} // namespace

llvm::Expected<std::vector<KernelCounts>> countPtx(llvm::StringRef Ptx) {
  std::vector<KernelCounts> Kernels;
  llvm::StringSet<> Labels;
  // Inside an entry: before its body (Depth 0) or in it.
  bool InEntry = false, InBody = false;
  int Depth = 0;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Ptx.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef Line = Raw.split("//").first.trim();
    if (!InEntry) {
      size_t At = Line.find(".entry ");
      if (At == llvm::StringRef::npos)
        continue;
      llvm::StringRef Name = Line.drop_front(At + 7).ltrim().take_until(
          [](char C) { return C == '(' || llvm::isSpace(C); });
      Kernels.push_back({});
      Kernels.back().Mangled = Name.str();
      Labels.clear();
      InEntry = true;
      InBody = false;
      Depth = 0;
      continue;
    }
    KernelCounts &K = Kernels.back();
    if (!InBody) {
      if (Line.consume_front(".maxntid") || Line.consume_front(".reqntid")) {
        K.MaxThreadsPerBlock = threadCount(Line);
        if (!K.MaxThreadsPerBlock)
          return llvm::createStringError("cannot read the launch bounds of " +
                                         K.Mangled + " in the PTX");
      }
      if (!Line.starts_with("{"))
        continue;
      InBody = true;
    }
    Depth += Line.count('{') - Line.count('}');
    if (Depth == 0) {
      InEntry = false;
      continue;
    }
    llvm::StringRef Text = Line.trim("{} \t");
    if (Text.empty() || Text.starts_with("."))
      continue;
    if (Text.ends_with(":")) {
      Labels.insert(Text.drop_back());
      continue;
    }
    countInstruction(Text, Labels, K);
  }
  if (InEntry)
    return llvm::createStringError("the PTX ends inside the entry " +
                                   Kernels.back().Mangled);
  return Kernels;
}

} // namespace metacu::report
