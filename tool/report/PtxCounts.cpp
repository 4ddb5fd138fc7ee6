//===- PtxCounts.cpp ------------------------------------------------------===//
#include "report/PtxCounts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <map>

namespace metacu::report {

namespace {

// The place in the kernel's signature of the parameter a load reads:
// nvcc names an entry's parameters "<entry>_param_<place>"
// ("[_Z9reduce_gsPKfiPf_param_1]"). A field of a structure passed by
// value ("[..._param_0+8]") or any other name has none (NoPlace).
unsigned parameterPlace(llvm::StringRef Operand) {
  Operand = Operand.trim();
  if (!Operand.consume_front("[") || !Operand.consume_back("]"))
    return NoPlace;
  size_t At = Operand.rfind("_param_");
  unsigned Place;
  if (At == llvm::StringRef::npos ||
      Operand.drop_front(At + 7).getAsInteger(10, Place))
    return NoPlace;
  return Place;
}

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

void countMemory(const Instruction &I, OpCounts &K) {
  llvm::StringRef Op = I.Parts[0];
  uint64_t Bytes = accessBytes(I);
  bool Load = Op == "ld" || Op == "ldu";
  if (I.hasPrefix("shared"))
    (Load ? K.SharedLoads : K.SharedStores).add(Bytes);
  else if (I.has("local"))
    K.LocalAccesses.add(Bytes);
  else { // global, or generic (which is global in practice)
    (Load ? K.GlobalLoads : K.GlobalStores).add(Bytes);
    K.GlobalAtomics += Op == "atom" || Op == "red";
  }
}

// cp.async.ca.shared.global [dst], [src], 16: a global load and a shared
// store of the size its third operand gives.
void countAsyncCopy(const Instruction &I, OpCounts &K) {
  llvm::SmallVector<llvm::StringRef, 4> Ops;
  I.Operands.split(Ops, ',');
  uint64_t Bytes = 0;
  if (!I.has("global") || Ops.size() < 3 ||
      Ops[2].trim().getAsInteger(0, Bytes))
    return;
  K.GlobalLoads.add(Bytes);
  K.SharedStores.add(Bytes);
}

// What one instruction adds to the counts.
OpCounts countOne(const Instruction &I) {
  OpCounts K;
  llvm::StringRef Op = I.Parts[0];
  ++K.Instructions;
  if (Op == "bra" || Op == "brx") {
    ++K.Branches;
  } else if ((Op == "bar" || Op == "barrier") &&
             !(I.Parts.size() > 1 && I.Parts[1] == "warp")) {
    ++K.Barriers;
  } else if (Op == "cp" && I.Parts.size() > 1 && I.Parts[1] == "async") {
    countAsyncCopy(I, K);
  } else if (Op == "ld" || Op == "ldu" || Op == "st" || Op == "atom" ||
             Op == "red") {
    countMemory(I, K);
  } else if (Op != "cvt" && Op != "mov" && Op != "selp") {
    if (auto FP = fpType(I)) {
      auto [Type, Elements] = *FP;
      K.FpInstructions[unsigned(Type)] += 1;
      K.Flops[unsigned(Type)] += flopsPerElement(Op) * Elements;
    }
  }
  return K;
}

// The first operand: "%r1", "%r5|%p2", or a vector "{%r3, %r4}" whole.
llvm::StringRef firstOperand(llvm::StringRef Operands) {
  if (Operands.starts_with("{"))
    return Operands.take_until([](char C) { return C == '}'; });
  return Operands.take_until([](char C) { return C == ','; }).trim();
}

// Bits and signedness of an integer type part ("s32", "u64", "b16"), or
// none for any other part.
std::optional<std::pair<uint8_t, bool>> integerType(llvm::StringRef Part) {
  // "bf16" is a float type.
  unsigned Bytes = typeBytes(Part);
  if (Bytes == 0 || Bytes > 8 || !llvm::is_contained({'s', 'u', 'b'}, Part[0]) ||
      !llvm::isDigit(Part[1]))
    return std::nullopt;
  return std::pair{uint8_t(8 * Bytes), Part[0] == 's'};
}

// Reads one entry's body: counts each instruction, and follows the values
// that depend on the thread's place alone (ThreadValues) into the branches
// and predicates that guard instructions.
class EntryReader {
public:
  EntryReader(KernelCounts &K, const llvm::StringSet<> &SharedArrays)
      : K(K), SharedArrays(SharedArrays) {}

  void label(llvm::StringRef Name);
  void instruction(llvm::StringRef Text);

private:
  // What was known where a label was read: a branch back to it closes a
  // loop whose body is what was counted since.
  struct LabelState {
    llvm::StringMap<unsigned> Known;
    OpCounts Counts;
    size_t SharedAccesses, GlobalLoadAccesses, GlobalStoreAccesses,
        GlobalAtomicAccesses, Loops, Steps, LoadBases;
  };
  // A setp's comparison, kept whatever its operands read (a guard may not
  // read the launch, a loop's limit may).
  struct Comparison {
    ValueOp Compare;
    uint8_t Bits;
    bool Signed;
    unsigned A, B;
  };

  // A forward branch skipped the instructions up to EndLabel where its
  // predicate held: they run where Literal holds.
  struct Region {
    std::string EndLabel;
    GuardLiteral Literal;
  };

  std::optional<unsigned> operand(llvm::StringRef Text, uint8_t Bits);
  std::optional<unsigned> predicate(llvm::StringRef Name) const;
  void track(const Instruction &I, llvm::ArrayRef<llvm::StringRef> Ops);
  void forget(llvm::StringRef Destination);
  void branch(llvm::StringRef Target, std::optional<GuardLiteral> Taken,
              llvm::StringRef Predicate, bool Negated);
  bool same(unsigned A, unsigned B) const;
  std::optional<uint64_t> constant(unsigned Node) const;
  std::optional<TripCount> trip(const Loop &L, llvm::StringRef Predicate,
                                bool Negated);
  void count(const Instruction &I, std::optional<GuardLiteral> Own,
             llvm::ArrayRef<llvm::StringRef> Ops);
  std::optional<std::pair<unsigned, int64_t>>
  address(llvm::StringRef Operand);
  void record(const Instruction &I, llvm::ArrayRef<llvm::StringRef> Ops,
              llvm::ArrayRef<GuardLiteral> Guard);

  KernelCounts &K;
  // The module's and this entry's .shared arrays: an address computed from
  // one of them is relative to its base, which is taken as 0.
  const llvm::StringSet<> &SharedArrays;
  // What a node's value is made of besides the thread's place and
  // constants: a shared array's base (taken as 0, so comparing the value is
  // not comparing the address), or %ctaid, %nctaid or a parameter (guards
  // are evaluated for one block with made-up parameters). Such a node
  // makes addresses but guards nothing.
  enum Origin : unsigned { SharedBase = 1, Launch = 2 };
  llvm::DenseMap<unsigned, unsigned> Origins;
  unsigned origin(unsigned Node) const { return Origins.lookup(Node); }
  unsigned made(unsigned Node, unsigned From) {
    if (From)
      Origins[Node] |= From;
    return Node;
  }
  // The parameters loaded, numbered as first seen.
  llvm::StringMap<unsigned> Params;
  llvm::StringMap<LabelState> Labels;
  llvm::StringMap<Comparison> Comparisons;
  // Registers holding a ThreadValues node.
  llvm::StringMap<unsigned> Known;
  std::vector<Region> Open;
  // The previous instruction was an unconditional forward branch there: the
  // end of an if's then-part, before its else-part.
  std::optional<std::string> JumpedTo;
  // Registers stepped in place by a constant (`add.s64 %rd41, %rd41, 128`)
  // and the global loads' address registers with their bytes, in order,
  // whatever the registers hold: a loop whose trip count is unknown reads
  // from them how many lanes share its range (lanesSharing).
  std::vector<std::pair<std::string, int64_t>> Steps;
  std::vector<std::pair<std::string, uint64_t>> LoadBases;
  double lanesSharing(const LabelState &At) const;
};

void EntryReader::label(llvm::StringRef Name) {
  Labels[Name] = {Known,
                  K,
                  K.SharedAccesses.size(),
                  K.GlobalLoadAccesses.size(),
                  K.GlobalStoreAccesses.size(),
                  K.GlobalAtomicAccesses.size(),
                  K.Loops.size(),
                  Steps.size(),
                  LoadBases.size()};
  // An if-then ends here; with an else-part, the then-part ended with a
  // jump over it, which runs where the if's condition did not hold.
  std::optional<GuardLiteral> Closed;
  unsigned Closing = 0;
  while (!Open.empty() && Open.back().EndLabel == Name) {
    Closed = Open.back().Literal;
    ++Closing;
    Open.pop_back();
  }
  if (Closing == 1 && JumpedTo && !Labels.contains(*JumpedTo))
    Open.push_back({*JumpedTo, {Closed->Node, !Closed->Negated}});
  JumpedTo.reset();
}

std::optional<unsigned> EntryReader::operand(llvm::StringRef Text,
                                             uint8_t Bits) {
  auto Dimension = [](llvm::StringRef D) -> std::optional<unsigned> {
    if (D == "x")
      return 0;
    if (D == "y")
      return 1;
    if (D == "z")
      return 2;
    return std::nullopt;
  };
  if (auto It = Known.find(Text); It != Known.end())
    return It->second;
  for (auto [Prefix, Op] : {std::pair{"%ctaid.", ValueOp::BlockIndex},
                            std::pair{"%nctaid.", ValueOp::GridSize}})
    if (Text.starts_with(Prefix)) {
      auto D = Dimension(Text.drop_front(llvm::StringRef(Prefix).size()));
      if (!D)
        return std::nullopt;
      return made(K.Values.add({Op, 32, false, false, *D}), Launch);
    }
  if (Text.consume_front("%tid.")) {
    if (auto D = Dimension(Text))
      return K.Values.add({ValueOp::ThreadIndex, 32, false, false, *D});
    return std::nullopt;
  }
  if (Text.consume_front("%ntid.")) {
    if (auto D = Dimension(Text))
      return K.Values.add({ValueOp::BlockSize, 32, false, false, *D});
    return std::nullopt;
  }
  if (SharedArrays.contains(Text))
    return made(K.Values.add({ValueOp::Constant, Bits}), SharedBase);
  if (Text == "%laneid")
    return K.Values.add({ValueOp::Lane, 32});
  if (Text == "%warpid")
    return K.Values.add({ValueOp::WarpIndex, 32});
  // Integer immediates: decimal, possibly negative, or hexadecimal.
  int64_t Value;
  if (!Text.empty() && (llvm::isDigit(Text[0]) || Text[0] == '-') &&
      !Text.starts_with_insensitive("0f") &&
      !Text.starts_with_insensitive("0d") && !Text.getAsInteger(0, Value)) {
    ValueNode N{ValueOp::Constant, Bits};
    N.Constant = uint64_t(Value);
    return K.Values.add(N);
  }
  return std::nullopt;
}

std::optional<unsigned> EntryReader::predicate(llvm::StringRef Name) const {
  if (auto It = Known.find(Name); It != Known.end())
    return It->second;
  return std::nullopt;
}

void EntryReader::forget(llvm::StringRef Destination) {
  llvm::SmallVector<llvm::StringRef, 4> Names;
  Destination.trim("{} \t").split(Names, llvm::StringRef(","));
  for (llvm::StringRef Name : Names) {
    auto [First, Second] = Name.split('|');
    for (llvm::StringRef R : {First.trim(), Second.trim()}) {
      Known.erase(R);
      Comparisons.erase(R);
    }
  }
}

// Follows what an instruction writes when it is computed from the thread's
// place and constants alone; otherwise the register it writes holds no
// known value any more.
void EntryReader::track(const Instruction &I,
                        llvm::ArrayRef<llvm::StringRef> Ops) {
  if (Ops.empty())
    return;
  llvm::StringRef Op = I.Parts[0], Dest = firstOperand(I.Operands);
  Comparisons.erase(Dest);
  auto Define = [&](llvm::StringRef Name, std::optional<unsigned> Node) {
    if (Node)
      Known[Name] = *Node;
    else
      Known.erase(Name);
  };
  // The type is the last part that names an integer type; predicate
  // logic says .pred.
  std::optional<std::pair<uint8_t, bool>> Type;
  for (llvm::StringRef P : I.Parts)
    if (auto T = integerType(P))
      Type = T;
  auto Operands = [&](size_t First, uint8_t Bits)
      -> std::optional<llvm::SmallVector<unsigned, 3>> {
    llvm::SmallVector<unsigned, 3> Nodes;
    for (llvm::StringRef O : Ops.drop_front(First)) {
      auto N = operand(O, Bits);
      if (!N)
        return std::nullopt;
      Nodes.push_back(*N);
    }
    return Nodes;
  };

  if (I.has("pred") && (Op == "and" || Op == "or" || Op == "xor" ||
                        Op == "not" || Op == "mov")) {
    std::optional<unsigned> A = Ops.size() > 1 ? predicate(Ops[1]) : std::nullopt;
    std::optional<unsigned> B = Ops.size() > 2 ? predicate(Ops[2]) : std::nullopt;
    std::optional<unsigned> Node;
    if (Op == "mov")
      Node = A;
    else if (Op == "not" && A)
      Node = K.Values.add({ValueOp::PredNot, 1, false, false, *A});
    else if (A && B)
      Node = K.Values.add({Op == "and"  ? ValueOp::PredAnd
                           : Op == "or" ? ValueOp::PredOr
                                        : ValueOp::PredXor,
                           1, false, false, *A, *B});
    return Define(Dest, Node);
  }

  if (Op == "setp" && Type && I.Parts.size() >= 3) {
    std::optional<ValueOp> Cmp =
        llvm::StringSwitch<std::optional<ValueOp>>(I.Parts[1])
            .Case("eq", ValueOp::Equal)
            .Case("ne", ValueOp::NotEqual)
            .Cases({"lt", "lo"}, ValueOp::Less)
            .Cases({"le", "ls"}, ValueOp::LessEqual)
            .Cases({"gt", "hi"}, ValueOp::Greater)
            .Cases({"ge", "hs"}, ValueOp::GreaterEqual)
            .Default(std::nullopt);
    auto [True, False] = Dest.split('|');
    // The fourth operand, if any, is a predicate: operand() reads the two
    // compared.
    std::optional<unsigned> A, B;
    if (Ops.size() >= 3) {
      A = operand(Ops[1], Type->first);
      B = operand(Ops[2], Type->first);
    }
    bool Guards = Cmp && A && B && !origin(*A) && !origin(*B);
    if (!Guards)
      forget(Dest);
    // A plain comparison's operands, for the trip count of a loop that it
    // ends, whatever they read.
    if (Cmp && A && B && I.Parts.size() == 3 && !Dest.contains('|'))
      Comparisons[Dest] = {*Cmp, Type->first, Type->second, *A, *B};
    if (!Guards)
      return;
    unsigned Compared = K.Values.add({*Cmp, 1, Type->second, false, *A, *B});
    // setp.CMP.BOOL p|q, a, b, c: p = (a CMP b) BOOL c, q = !(a CMP b) BOOL
    // c; without BOOL, p = a CMP b and q its negation.
    std::optional<ValueOp> Bool =
        I.Parts.size() == 4
            ? llvm::StringSwitch<std::optional<ValueOp>>(I.Parts[2])
                  .Case("and", ValueOp::PredAnd)
                  .Case("or", ValueOp::PredOr)
                  .Case("xor", ValueOp::PredXor)
                  .Default(std::nullopt)
            : std::nullopt;
    std::optional<unsigned> C =
        Ops.size() == 4 ? predicate(Ops[3].ltrim('!')) : std::nullopt;
    if (C && Ops[3].starts_with("!"))
      C = K.Values.add({ValueOp::PredNot, 1, false, false, *C});
    auto Combine = [&](unsigned X) -> std::optional<unsigned> {
      if (I.Parts.size() != 4)
        return X;
      if (!Bool || !C)
        return std::nullopt;
      return K.Values.add({*Bool, 1, false, false, X, *C});
    };
    Define(True.trim(), Combine(Compared));
    if (!False.empty())
      Define(False.trim(),
             Combine(K.Values.add(
                 {ValueOp::PredNot, 1, false, false, Compared})));
    return;
  }

  // A parameter's value, made up (paramValue) but the same at every use.
  if (Op == "ld" && I.has("param") && Type && Ops.size() == 2 &&
      !Dest.starts_with("{")) {
    auto [Number, New] = Params.try_emplace(Ops[1], Params.size());
    return Define(Dest, made(K.Values.add({ValueOp::Param, Type->first,
                                           Type->second, false,
                                           Number->second,
                                           parameterPlace(Ops[1])}),
                             Launch));
  }

  std::optional<ValueOp> Arith =
      llvm::StringSwitch<std::optional<ValueOp>>(Op)
          .Case("mov", ValueOp::Convert)
          .Case("cvt", ValueOp::Convert)
          .Case("add", ValueOp::Add)
          .Case("sub", ValueOp::Sub)
          .Case("mul", ValueOp::Mul)
          .Case("mad", ValueOp::MulAdd)
          .Case("shl", ValueOp::Shl)
          .Case("shr", ValueOp::Shr)
          .Case("and", ValueOp::And)
          .Case("or", ValueOp::Or)
          .Case("xor", ValueOp::Xor)
          .Case("not", ValueOp::Not)
          .Case("neg", ValueOp::Sub)
          .Case("div", ValueOp::Div)
          .Case("rem", ValueOp::Rem)
          .Case("min", ValueOp::Min)
          .Case("max", ValueOp::Max)
          .Case("selp", ValueOp::Select)
          .Default(std::nullopt);
  // mul.hi keeps the upper half (a division by a constant becomes one);
  // mad.hi, saturating and carry forms are arithmetic of other kinds.
  if (Arith == ValueOp::Mul && I.has("hi"))
    Arith = ValueOp::MulHi;
  // An address made generic or back: the same offsets into its memory (a
  // shared array's keep their banks).
  if (Op == "cvta")
    Arith = ValueOp::Convert;
  if (!Arith || !Type || (Op == "mad" && I.has("hi")) || I.has("sat") ||
      I.has("cc") || Dest.starts_with("{"))
    return forget(Dest);
  auto [Bits, Signed] = *Type;
  // Widening multiplies read their operands at the type's width.
  ValueNode N{*Arith, uint8_t(I.has("wide") ? 2 * Bits : Bits), Signed,
              /*SourceSigned=*/Signed};
  std::optional<llvm::SmallVector<unsigned, 3>> Args;
  if (Op == "cvt") {
    // cvt.DEST.SRC between integers (the source's type is Type); a rounding
    // mode or saturation part, or a float type, makes it another
    // conversion.
    std::optional<std::pair<uint8_t, bool>> DestType =
        I.Parts.size() == 3 ? integerType(I.Parts[1]) : std::nullopt;
    if (!DestType || !integerType(I.Parts[2]))
      return forget(Dest);
    std::tie(N.Bits, N.Signed) = *DestType;
    Args = Operands(1, Bits);
  } else if (Op == "selp") {
    // The third operand is a predicate, which operand() does not read.
    if (Ops.size() == 4) {
      std::optional<unsigned> A = operand(Ops[1], Bits),
                              B = operand(Ops[2], Bits), C = predicate(Ops[3]);
      if (A && B && C)
        Args = llvm::SmallVector<unsigned, 3>{*A, *B, *C};
    }
  } else if (Op == "neg") {
    // 0 - a.
    std::optional<unsigned> A =
        Ops.size() == 2 ? operand(Ops[1], Bits) : std::nullopt;
    if (A)
      Args = llvm::SmallVector<unsigned, 3>{
          K.Values.add({ValueOp::Constant, Bits}), *A};
  } else {
    Args = Operands(1, Bits);
  }
  unsigned Needed = N.Op == ValueOp::Convert || N.Op == ValueOp::Not ? 1
                    : N.Op == ValueOp::MulAdd || N.Op == ValueOp::Select
                        ? 3
                        : 2;
  if (!Args || Args->size() != Needed)
    return forget(Dest);
  N.A = (*Args)[0];
  N.B = Needed > 1 ? (*Args)[1] : 0;
  N.C = Needed > 2 ? (*Args)[2] : 0;
  unsigned From = 0;
  for (unsigned A : *Args)
    From |= origin(A);
  Define(Dest, made(K.Values.add(N), From));
}

// Whether nodes A and B are one value: the same node, or equal constants
// (a settling induction's step is a node of its own, the comparison's
// operand another).
bool EntryReader::same(unsigned A, unsigned B) const {
  if (A == B)
    return true;
  auto X = constant(A), Y = constant(B);
  return X && Y && *X == *Y;
}

// A constant's value, also moved into a register (`mov.u32 %r46, 1`, a
// conversion to its own width).
std::optional<uint64_t> EntryReader::constant(unsigned Node) const {
  const ValueNode *N = &K.Values.node(Node);
  while (N->Op == ValueOp::Convert && K.Values.node(N->A).Bits == N->Bits)
    N = &K.Values.node(N->A);
  if (N->Op != ValueOp::Constant)
    return std::nullopt;
  return N->Constant;
}

// The trip count of loop L, whose branch back is taken where Predicate
// holds (Negated: where it does not): Predicate compares one of L's
// inductions one step on with a limit.
std::optional<TripCount>
EntryReader::trip(const Loop &L, llvm::StringRef Predicate, bool Negated) {
  auto C = Comparisons.find(Predicate);
  if (C == Comparisons.end())
    return std::nullopt;
  for (bool First : {true, false}) {
    const ValueNode &N = K.Values.node(First ? C->second.A : C->second.B);
    if (N.Op != ValueOp::Add)
      continue;
    for (auto [Init, Step] : L.Inductions)
      if ((N.A == Init && same(N.B, Step)) || (same(N.A, Step) && N.B == Init))
        return TripCount{Init,
                         Step,
                         First ? C->second.B : C->second.A,
                         C->second.Compare,
                         C->second.Bits,
                         C->second.Signed,
                         First,
                         Negated};
  }
  return std::nullopt;
}

// The instructions counted since a label, as counts.
static OpCounts since(const OpCounts &Now, const OpCounts &Then) {
  OpCounts D;
  auto Minus = [](const AccessCount &A, const AccessCount &B) {
    return AccessCount{A.Instructions - B.Instructions, A.Bytes - B.Bytes};
  };
  D.GlobalLoads = Minus(Now.GlobalLoads, Then.GlobalLoads);
  D.GlobalStores = Minus(Now.GlobalStores, Then.GlobalStores);
  D.SharedLoads = Minus(Now.SharedLoads, Then.SharedLoads);
  D.SharedStores = Minus(Now.SharedStores, Then.SharedStores);
  D.LocalAccesses = Minus(Now.LocalAccesses, Then.LocalAccesses);
  for (unsigned T = 0; T < 3; ++T) {
    D.Flops[T] = Now.Flops[T] - Then.Flops[T];
    D.FpInstructions[T] = Now.FpInstructions[T] - Then.FpInstructions[T];
  }
  D.Branches = Now.Branches - Then.Branches;
  D.Barriers = Now.Barriers - Then.Barriers;
  D.GlobalAtomics = Now.GlobalAtomics - Then.GlobalAtomics;
  D.Instructions = Now.Instructions - Then.Instructions;
  return D;
}

void EntryReader::branch(llvm::StringRef Target,
                         std::optional<GuardLiteral> Taken,
                         llvm::StringRef Predicate, bool Negated) {
  // Back to a label already read: a loop, no region. Its body is what was
  // counted since the label; the loops and accesses found since without an
  // enclosing loop are in this one.
  if (auto L = Labels.find(Target); L != Labels.end()) {
    K.HasLoop = true;
    const LabelState &At = L->second;
    unsigned Index = K.Loops.size();
    Loop New{Target.str(), since(K, At.Counts), std::nullopt, std::nullopt, {}};
    // The registers that held a value at the label and hold it plus a step
    // here, or that held a constant and hold another: a loop of two passes,
    // whose second pass nvcc gives the value it knows (TripCount::Settles).
    llvm::SmallVector<unsigned, 2> Settling;
    for (const auto &R : At.Known) {
      auto Now = Known.find(R.first());
      if (Now == Known.end() || Now->second == R.second)
        continue;
      const ValueNode &N = K.Values.node(Now->second);
      auto Is = constant(Now->second), Was = constant(R.second);
      if (N.Op == ValueOp::Add && (N.A == R.second || N.B == R.second)) {
        New.Inductions.push_back({R.second, N.A == R.second ? N.B : N.A});
      } else if (Is && Was && *Is != *Was) {
        ValueNode Step{ValueOp::Constant, N.Bits};
        Step.Constant = *Is - *Was;
        New.Inductions.push_back({R.second, K.Values.add(Step)});
        Settling.push_back(R.second);
      }
    }
    llvm::sort(New.Inductions);
    if (!Predicate.empty())
      New.Trip = trip(New, Predicate, Negated);
    if (!New.Trip)
      New.Lanes = lanesSharing(At);
    else
      New.GridStride = origin(New.Trip->Step) & Launch;
    if (New.Trip && llvm::is_contained(Settling, New.Trip->Init))
      New.Trip->Settles = true;
    K.Loops.push_back(std::move(New));
    for (size_t I = At.Loops; I < Index; ++I)
      if (!K.Loops[I].Parent)
        K.Loops[I].Parent = Index;
    for (auto [Accesses, First] :
         {std::pair{&K.SharedAccesses, At.SharedAccesses},
          std::pair{&K.GlobalLoadAccesses, At.GlobalLoadAccesses},
          std::pair{&K.GlobalStoreAccesses, At.GlobalStoreAccesses},
          std::pair{&K.GlobalAtomicAccesses, At.GlobalAtomicAccesses}})
      for (size_t I = First; I < Accesses->size(); ++I)
        if (!(*Accesses)[I].Loop)
          (*Accesses)[I].Loop = Index;
    return;
  }
  if (Taken)
    Open.push_back({Target.str(), {Taken->Node, !Taken->Negated}});
}

// "[%r5+1024]", "[%rd2]", "[staged+-8]": the node and offset of an
// address, if its value is followed.
std::optional<std::pair<unsigned, int64_t>>
EntryReader::address(llvm::StringRef Operand) {
  if (!Operand.consume_front("[") || !Operand.consume_back("]"))
    return std::nullopt;
  auto [Base, OffsetText] = Operand.split('+');
  int64_t Offset = 0;
  if (!OffsetText.empty() && OffsetText.trim().getAsInteger(0, Offset))
    return std::nullopt;
  std::optional<unsigned> Node = operand(Base.trim(), 64);
  if (!Node)
    return std::nullopt;
  return std::pair{*Node, Offset};
}

// Records a shared load or store whose address is relative to its array
// alone, and a global load, store or atomic whose address comes from the
// launch (a pointer parameter) and the thread's place.
void EntryReader::record(const Instruction &I,
                         llvm::ArrayRef<llvm::StringRef> Ops,
                         llvm::ArrayRef<GuardLiteral> Guard) {
  llvm::StringRef Op = I.Parts[0];
  bool Atomic = Op == "atom" || Op == "red";
  if (Ops.empty() || !(Op == "ld" || Op == "ldu" || Op == "st" || Atomic))
    return;
  // A load's address is its last operand (after a vector's registers), a
  // store's and a red's their first, an atom's its second (after the
  // register it returns the old value in).
  llvm::StringRef Operand = Op == "st" || Op == "red" ? Ops.front()
                            : Op == "atom"
                                ? Ops[std::min<size_t>(1, Ops.size() - 1)]
                                : Ops.back();
  auto Address = address(Operand);
  if (!Address)
    return;
  if (Atomic) {
    if (!I.hasPrefix("shared") && (origin(Address->first) & Launch) &&
        !(origin(Address->first) & SharedBase)) {
      KnownAccess A{Address->first, Address->second, unsigned(accessBytes(I)),
                    llvm::SmallVector<GuardLiteral, 2>(Guard)};
      A.Float = fpType(I).has_value();
      K.GlobalAtomicAccesses.push_back(A);
    }
    return;
  }
  KnownAccess A{Address->first, Address->second, unsigned(accessBytes(I)),
                llvm::SmallVector<GuardLiteral, 2>(Guard)};
  A.Load = Op != "st";
  if (I.hasPrefix("shared")) {
    if (origin(A.Address) == SharedBase)
      K.SharedAccesses.push_back(A);
  } else if ((origin(A.Address) & Launch) &&
             !(I.has("local") || I.has("param") || I.has("const"))) {
    (Op == "st" ? K.GlobalStoreAccesses : K.GlobalLoadAccesses).push_back(A);
  }
}

void EntryReader::count(const Instruction &I, std::optional<GuardLiteral> Own,
                        llvm::ArrayRef<llvm::StringRef> Ops) {
  OpCounts One = countOne(I);
  K += One;
  llvm::SmallVector<GuardLiteral, 2> Guard;
  for (const Region &R : Open)
    Guard.push_back(R.Literal);
  if (Own)
    Guard.push_back(*Own);
  llvm::sort(Guard);
  Guard.erase(llvm::unique(Guard), Guard.end());
  record(I, Ops, Guard);
  // "call.uni (retval0), _Z5twicef, (param0)": the callee is the operand
  // that is not a parameter list.
  if (I.Parts[0] == "call")
    for (llvm::StringRef O : Ops)
      if (!O.starts_with("(") && !O.ends_with(")")) {
        K.Calls.push_back({O.str(), Guard});
        break;
      }
  if (Guard.empty())
    return;
  auto It = llvm::find_if(K.Guarded, [&](const GuardedCounts &G) {
    return G.Guard == Guard;
  });
  if (It == K.Guarded.end()) {
    K.Guarded.push_back({Guard, {}});
    It = std::prev(K.Guarded.end());
  }
  It->Counts += One;
}

// A loop whose trip count is unknown (a range read from memory: a CSR row's
// nonzeros) may still show how many lanes walk its range together: a
// pointer stepped past words the thread does not read. A body that loads
// w bytes a pass through a register stepped by s bytes leaves s / w of
// them to the other lanes (the vector CSR kernel's 32 lanes a row: 4 bytes
// a pass, a step of 128; nvcc's four-times unrolled copy: 16 and 512). The
// fewest over its stepped address registers; 1 where none.
double EntryReader::lanesSharing(const LabelState &At) const {
  llvm::StringMap<int64_t> Step;
  for (size_t I = At.Steps; I < Steps.size(); ++I)
    Step[Steps[I].first] += Steps[I].second;
  llvm::StringMap<uint64_t> Loaded;
  for (size_t I = At.LoadBases; I < LoadBases.size(); ++I)
    Loaded[LoadBases[I].first] += LoadBases[I].second;
  double Lanes = 0;
  for (const auto &[Register, Bytes] : Loaded) {
    auto S = Step.find(Register);
    if (S == Step.end() || Bytes == 0)
      continue;
    double Share = std::max(1.0, double(std::abs(S->second)) / double(Bytes));
    Lanes = Lanes == 0 ? Share : std::min(Lanes, Share);
  }
  return std::max(1.0, Lanes);
}

void EntryReader::instruction(llvm::StringRef Text) {
  // "@%p1 st..." or "@!%p1 st...": the predicate guards this instruction.
  llvm::StringRef Guard;
  if (Text.starts_with("@")) {
    Guard = Text.drop_front().take_until(llvm::isSpace);
    Text = Text.drop_until(llvm::isSpace).ltrim();
  }
  // "ret;" has no operands.
  size_t OpcodeEnd = Text.find_first_of(" \t;");
  Instruction I;
  Text.take_front(OpcodeEnd).split(I.Parts, '.');
  I.Operands = Text.drop_front(std::min(OpcodeEnd, Text.size()))
                   .take_until([](char C) { return C == ';'; })
                   .trim();
  llvm::StringRef Op = I.Parts[0];
  std::optional<GuardLiteral> Own;
  bool GuardNegated = Guard.consume_front("!");
  if (!Guard.empty())
    if (auto Node = predicate(Guard))
      Own = GuardLiteral{*Node, GuardNegated};
  bool Jump = Op == "bra" || Op == "brx";
  std::optional<std::string> Jumped =
      Op == "bra" && Guard.empty() ? std::optional<std::string>(I.Operands.str())
                                   : std::nullopt;

  llvm::SmallVector<llvm::StringRef, 4> Ops;
  I.Operands.split(Ops, ',');
  for (llvm::StringRef &O : Ops)
    O = O.trim();
  // A guarded write may or may not happen: its register is unknown after.
  if (!Guard.empty())
    forget(firstOperand(I.Operands));
  else if (!Jump)
    track(I, Ops);

  int64_t Constant;
  if (Guard.empty() && Op == "add" && Ops.size() == 3 && Ops[0] == Ops[1] &&
      !Ops[2].getAsInteger(0, Constant))
    Steps.push_back({Ops[0].str(), Constant});
  if ((Op == "ld" || Op == "ldu") && !I.has("param") && !I.has("const") &&
      !I.hasPrefix("shared") && !I.has("local") && !Ops.empty()) {
    llvm::StringRef Address = Ops.back().trim("[] ");
    LoadBases.push_back(
        {Address.take_until([](char C) { return C == '+'; }).trim().str(),
         accessBytes(I)});
  }

  // Parameters and constants become operands, cvta folds into addresses.
  if (((Op == "ld" || Op == "st") && (I.has("param") || I.has("const"))) ||
      Op == "cvta" || Op == "ret" || Op == "exit") {
    JumpedTo.reset();
    return;
  }
  // A branch runs where its region does; its own predicate decides where
  // it goes.
  count(I, Jump ? std::nullopt : Own, Ops);
  // brx.idx jumps through a table of labels: it opens no region.
  if (Op == "bra")
    branch(I.Operands, Guard.empty() ? std::nullopt : Own, Guard, GuardNegated);
  JumpedTo = Jumped;
}

} // namespace

std::optional<uint64_t> tripCount(const TripCount &T,
                                  llvm::ArrayRef<uint64_t> Values) {
  using Wide = __int128;
  auto Read = [&](unsigned Node, bool Signed) -> Wide {
    uint64_t V = Values[Node];
    if (T.Bits < 64)
      V &= (uint64_t(1) << T.Bits) - 1;
    if (Signed && T.Bits < 64 && (V >> (T.Bits - 1)) & 1)
      return Wide(V) - (Wide(1) << T.Bits);
    return Signed ? Wide(int64_t(V)) : Wide(V);
  };
  // A step is added, whatever the comparison's signedness: 0xffffffff
  // steps down.
  Wide Init = Read(T.Init, T.Signed), Step = Read(T.Step, true),
       Limit = Read(T.Limit, T.Signed);
  // The condition on the induction x that takes the branch back: x OP Limit.
  ValueOp Op = T.Compare;
  auto Mirror = [](ValueOp O) {
    switch (O) {
    case ValueOp::Less:
      return ValueOp::Greater;
    case ValueOp::LessEqual:
      return ValueOp::GreaterEqual;
    case ValueOp::Greater:
      return ValueOp::Less;
    case ValueOp::GreaterEqual:
      return ValueOp::LessEqual;
    default:
      return O;
    }
  };
  auto Negate = [](ValueOp O) {
    switch (O) {
    case ValueOp::Less:
      return ValueOp::GreaterEqual;
    case ValueOp::LessEqual:
      return ValueOp::Greater;
    case ValueOp::Greater:
      return ValueOp::LessEqual;
    case ValueOp::GreaterEqual:
      return ValueOp::Less;
    case ValueOp::Equal:
      return ValueOp::NotEqual;
    default:
      return ValueOp::Equal;
    }
  };
  if (!T.InductionFirst)
    Op = Mirror(Op);
  if (T.Negated)
    Op = Negate(Op);
  // Counting down is counting up the other way.
  if (Step < 0) {
    Init = -Init;
    Limit = -Limit;
    Step = -Step;
    Op = Mirror(Op);
  }
  if (Step == 0)
    return std::nullopt;
  // The branches back: the k >= 1 with Init + k * Step OP Limit, counted
  // from k = 1 until the first that fails.
  auto Holds = [&](Wide X) {
    switch (Op) {
    case ValueOp::Less:
      return X < Limit;
    case ValueOp::LessEqual:
      return X <= Limit;
    case ValueOp::Greater:
      return X > Limit;
    case ValueOp::GreaterEqual:
      return X >= Limit;
    case ValueOp::Equal:
      return X == Limit;
    default:
      return X != Limit;
    }
  };
  Wide Back;
  if (!Holds(Init + Step))
    Back = 0;
  else if (Op == ValueOp::Less)
    Back = (Limit - Init + Step - 1) / Step - 1;
  else if (Op == ValueOp::LessEqual)
    Back = (Limit - Init) / Step;
  else if (Op == ValueOp::NotEqual && Limit > Init &&
           (Limit - Init) % Step == 0)
    Back = (Limit - Init) / Step - 1;
  else // rising past a limit it must stay above, or missing it: wraps
    return std::nullopt;
  // More passes than any kernel makes: values the model made up. A
  // settling register past its second pass compares one value for ever.
  if (Back >= Wide(1) << 40 || (T.Settles && Back > 1))
    return std::nullopt;
  return uint64_t(Back) + 1;
}

OpCounts &OpCounts::operator+=(const OpCounts &O) {
  GlobalLoads += O.GlobalLoads;
  GlobalStores += O.GlobalStores;
  SharedLoads += O.SharedLoads;
  SharedStores += O.SharedStores;
  LocalAccesses += O.LocalAccesses;
  for (unsigned T = 0; T < 3; ++T) {
    Flops[T] += O.Flops[T];
    FpInstructions[T] += O.FpInstructions[T];
  }
  Branches += O.Branches;
  Barriers += O.Barriers;
  GlobalAtomics += O.GlobalAtomics;
  Instructions += O.Instructions;
  return *this;
}

namespace {

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

// The array a ".shared .align 4 .b8 name[2880];" or ".extern .shared ...
// name[];" declaration names.
std::optional<llvm::StringRef> sharedArray(llvm::StringRef Line) {
  Line.consume_front(".extern");
  if (!Line.ltrim().starts_with(".shared"))
    return std::nullopt;
  llvm::StringRef Name = Line.take_until([](char C) {
                               return C == '[' || C == ';';
                             })
                             .rtrim();
  Name = Name.substr(Name.find_last_of(" \t") + 1);
  if (Name.empty() || Name.starts_with("."))
    return std::nullopt;
  return Name;
}

// What a function's body and the functions it calls execute: Counts all of
// it, Guarded the parts of it under conditions on the thread's place (a
// callee's own `if (threadIdx.x == 0)`, a call under one), as nodes of
// Values, each instruction in one part (KernelCounts::Guarded).
struct CalleeTotals {
  OpCounts Counts;
  ThreadValues Values;
  std::vector<GuardedCounts> Guarded;
  bool HasLoop = false;
  std::vector<std::string> Called;
  std::vector<UncountedCall> Uncounted;
};

// A - B, B a part of A.
OpCounts without(OpCounts A, const OpCounts &B) {
  auto Less = [](AccessCount &X, const AccessCount &Y) {
    X.Instructions -= Y.Instructions;
    X.Bytes -= Y.Bytes;
  };
  Less(A.GlobalLoads, B.GlobalLoads);
  Less(A.GlobalStores, B.GlobalStores);
  Less(A.SharedLoads, B.SharedLoads);
  Less(A.SharedStores, B.SharedStores);
  Less(A.LocalAccesses, B.LocalAccesses);
  for (unsigned T = 0; T < 3; ++T) {
    A.Flops[T] -= B.Flops[T];
    A.FpInstructions[T] -= B.FpInstructions[T];
  }
  A.Branches -= B.Branches;
  A.Barriers -= B.Barriers;
  A.GlobalAtomics -= B.GlobalAtomics;
  A.Instructions -= B.Instructions;
  return A;
}

// Appends From's nodes to To, their operands moved along; returns where
// they start. A callee's parameters are not the kernel's: they keep their
// made-up values (NoPlace).
unsigned appendValues(ThreadValues &To, const ThreadValues &From) {
  unsigned Start = To.size();
  for (unsigned I = 0; I < From.size(); ++I) {
    ValueNode N = From.node(I);
    if (N.Op == ValueOp::Param)
      N.B = NoPlace;
    else if (N.Op > ValueOp::Param) {
      N.A += Start;
      N.B += Start;
      N.C += Start;
    }
    To.add(N);
  }
  return Start;
}

// Adds \p Part to the part of \p To under \p Guard.
void addGuarded(std::vector<GuardedCounts> &To,
                llvm::ArrayRef<GuardLiteral> Guard, const OpCounts &Part) {
  auto It = llvm::find_if(
      To, [&](const GuardedCounts &G) { return G.Guard == Guard; });
  if (It == To.end()) {
    To.push_back({llvm::SmallVector<GuardLiteral, 2>(Guard), {}});
    It = std::prev(To.end());
  }
  It->Counts += Part;
}

// Adds callee C, called under Guard (literals of ToValues), to the parts
// of To: what C runs unconditionally under Guard, each of C's guarded
// parts under Guard and its own condition, brought into ToValues.
void addCalleeParts(ThreadValues &ToValues, std::vector<GuardedCounts> &To,
                    llvm::ArrayRef<GuardLiteral> Guard,
                    const CalleeTotals &C) {
  OpCounts Unguarded = C.Counts;
  for (const GuardedCounts &G : C.Guarded)
    Unguarded = without(Unguarded, G.Counts);
  if (!Guard.empty())
    addGuarded(To, Guard, Unguarded);
  if (C.Guarded.empty())
    return;
  unsigned Start = appendValues(ToValues, C.Values);
  for (const GuardedCounts &G : C.Guarded) {
    llvm::SmallVector<GuardLiteral, 4> Both(Guard.begin(), Guard.end());
    for (GuardLiteral L : G.Guard)
      Both.push_back({L.Node + Start, L.Negated});
    llvm::sort(Both);
    Both.erase(llvm::unique(Both), Both.end());
    addGuarded(To, Both, G.Counts);
  }
}

void addUnique(std::vector<std::string> &To, llvm::StringRef Name) {
  if (!llvm::is_contained(To, Name))
    To.push_back(Name.str());
}

void addUncounted(std::vector<UncountedCall> &To, const UncountedCall &U) {
  if (llvm::none_of(To, [&](const UncountedCall &O) {
        return O.Callee == U.Callee && O.Why == U.Why;
      }))
    To.push_back(U);
}

// Adds the .func bodies to the entries that call them, once per call site;
// each function's totals are worked out once.
class CallResolver {
public:
  explicit CallResolver(const llvm::StringMap<KernelCounts> &Functions)
      : Functions(Functions) {}

  // The totals of \p Site's callee, or null (with the reason in
  // \p Uncounted) where they are not counted.
  const CalleeTotals *callee(const CallSite &Site,
                             std::vector<UncountedCall> &Uncounted) {
    llvm::StringRef Name = Site.Callee;
    if (Name.starts_with("%")) {
      addUncounted(Uncounted, {Name.str(), "a call through a pointer"});
      return nullptr;
    }
    auto F = Functions.find(Name);
    if (F == Functions.end()) {
      addUncounted(Uncounted, {Name.str(), "its body is not in this file"});
      return nullptr;
    }
    auto [It, New] = Totals.try_emplace(Name.str());
    if (!New) {
      if (!Done.contains(Name)) {
        addUncounted(Uncounted, {Name.str(), "recursive"});
        return nullptr;
      }
      return &It->second;
    }
    CalleeTotals T;
    T.Counts = F->second;
    T.Values = F->second.Values;
    T.Guarded = F->second.Guarded;
    T.HasLoop = F->second.HasLoop;
    for (const CallSite &S : F->second.Calls)
      if (const CalleeTotals *C = callee(S, T.Uncounted)) {
        add(T, S.Callee, *C);
        addCalleeParts(T.Values, T.Guarded, S.Guard, *C);
      }
    // try_emplace's node is stable: std::map.
    It->second = std::move(T);
    Done.insert(Name);
    return &It->second;
  }

  static void add(CalleeTotals &To, llvm::StringRef Name,
                  const CalleeTotals &C) {
    To.Counts += C.Counts;
    To.HasLoop |= C.HasLoop;
    addUnique(To.Called, Name);
    for (const std::string &N : C.Called)
      addUnique(To.Called, N);
    for (const UncountedCall &U : C.Uncounted)
      addUncounted(To.Uncounted, U);
  }

private:
  const llvm::StringMap<KernelCounts> &Functions;
  std::map<std::string, CalleeTotals> Totals;
  llvm::StringSet<> Done;
};

void addCallees(KernelCounts &K, CallResolver &Resolver) {
  CalleeTotals All;
  for (const CallSite &Site : K.Calls) {
    const CalleeTotals *C = Resolver.callee(Site, All.Uncounted);
    if (!C)
      continue;
    CallResolver::add(All, Site.Callee, *C);
    addCalleeParts(K.Values, K.Guarded, Site.Guard, *C);
  }
  K += All.Counts;
  K.HasLoop |= All.HasLoop;
  K.CalleeHasLoop = All.HasLoop;
  K.Called = std::move(All.Called);
  K.Uncounted = std::move(All.Uncounted);
}

// The name a ".visible .entry _Z1kPf(" or ".func (.param .b32
// func_retval0) _Z5twicef(" line declares, after the keyword.
llvm::StringRef declaredName(llvm::StringRef Rest) {
  Rest = Rest.ltrim();
  if (Rest.starts_with("("))
    Rest =
        Rest.drop_until([](char C) { return C == ')'; }).drop_front().ltrim();
  return Rest.take_until(
      [](char C) { return C == '(' || C == ';' || llvm::isSpace(C); });
}

} // namespace

namespace {

// One line of an entry's body, as loadRounds reads it: a label, or an
// instruction with the registers it writes and reads.
struct RoundLine {
  std::string Label;
  bool Branch = false, Conditional = false, GlobalLoad = false;
  std::string Target;
  llvm::SmallVector<std::string, 4> Writes, Reads;
};

// The registers named in \p Text ("%f21", "%rd2"; "%tid.x" reads the
// thread's place, never a load).
void registersIn(llvm::StringRef Text,
                 llvm::SmallVectorImpl<std::string> &Out) {
  for (size_t At = Text.find('%'); At != llvm::StringRef::npos;
       At = Text.find('%', At + 1)) {
    llvm::StringRef Name = Text.drop_front(At).take_while(
        [](char C) { return C == '%' || llvm::isAlnum(C) || C == '_'; });
    if (Name.size() > 1)
      Out.push_back(Name.str());
  }
}

RoundLine roundLine(llvm::StringRef Text) {
  RoundLine L;
  if (Text.ends_with(":")) {
    L.Label = Text.drop_back().str();
    return L;
  }
  if (Text.consume_front("@")) {
    L.Conditional = true;
    registersIn(Text.take_until(llvm::isSpace), L.Reads);
    Text = Text.drop_until(llvm::isSpace).ltrim();
  }
  llvm::StringRef Opcode = Text.take_until(
      [](char C) { return llvm::isSpace(C) || C == ';'; });
  llvm::StringRef Operands =
      Text.drop_front(Opcode.size()).take_until([](char C) { return C == ';'; })
          .trim();
  llvm::SmallVector<llvm::StringRef, 6> Parts;
  Opcode.split(Parts, '.');
  llvm::StringRef Op = Parts[0];
  if (Op == "bra") {
    L.Branch = true;
    L.Target = Operands.str();
    return L;
  }
  auto Has = [&](llvm::StringRef P) {
    return llvm::any_of(Parts,
                        [&](llvm::StringRef Q) { return Q.starts_with(P); });
  };
  L.GlobalLoad = (Op == "ld" || Op == "ldu") && !Has("param") &&
                 !Has("const") && !Has("shared") && !Has("local");
  // Stores, reductions and the rest without a result read every operand;
  // the others write their first ("{%f1, %f2}" for a vector).
  bool Writes = !(Op == "st" || Op == "red" || Op == "bar" ||
                  Op == "barrier" || Op == "membar" || Op == "fence" ||
                  Op == "ret" || Op == "exit" || Op == "call" ||
                  Op == "prefetch" || Op == "cp");
  size_t FirstEnd = Operands.starts_with("{") ? Operands.find('}')
                                              : Operands.find(',');
  if (!Writes || FirstEnd == llvm::StringRef::npos) {
    registersIn(Operands, Writes ? L.Writes : L.Reads);
    return L;
  }
  registersIn(Operands.take_front(FirstEnd + 1), L.Writes);
  registersIn(Operands.drop_front(FirstEnd + 1), L.Reads);
  return L;
}

} // namespace

unsigned loadRounds(llvm::ArrayRef<std::string> Body) {
  std::vector<RoundLine> Lines;
  llvm::StringMap<size_t> Labels;
  for (const std::string &Text : Body) {
    Lines.push_back(roundLine(Text));
    if (!Lines.back().Label.empty())
      Labels[Lines.back().Label] = Lines.size() - 1;
  }
  // A loop's passes are counted apart (BlockCounts::LoadRounds): the lines
  // from a label to a branch back to it are left out here.
  std::vector<char> InLoop(Lines.size(), 0), Kept(Lines.size(), 0);
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (!Lines[I].Branch)
      continue;
    auto T = Labels.find(Lines[I].Target);
    if (T == Labels.end())
      continue;
    if (T->second < I) {
      std::fill(InLoop.begin() + T->second, InLoop.begin() + I + 1, 1);
      continue;
    }
    // ptxas turns a branch over a few instructions into predicated ones
    // (maxpool's column tests, one load and its maximum), but keeps one
    // over code that branches itself (its row tests over the columns').
    Kept[I] = Lines[I].Conditional &&
              std::any_of(Lines.begin() + I + 1, Lines.begin() + T->second,
                          [](const RoundLine &L) { return L.Branch; });
  }
  unsigned Rounds = 0;
  // The registers the current round's loads write, and those computed
  // from them; whether a value of theirs has been used (the thread waited for it); whether a branch
  // ptxas keeps stood after that wait.
  llvm::StringSet<> Loaded;
  bool Waited = false, Behind = false;
  for (size_t I = 0; I < Lines.size(); ++I) {
    const RoundLine &L = Lines[I];
    if (InLoop[I] || !L.Label.empty())
      continue;
    bool Reads = llvm::any_of(
        L.Reads, [&](const std::string &R) { return Loaded.contains(R); });
    if (L.GlobalLoad) {
      // A load whose address comes from this round's loads, or that stands
      // behind a wait and a branch, goes out in a round of its own.
      if (Rounds == 0 || Reads || Behind) {
        ++Rounds;
        Loaded.clear();
        Waited = Behind = false;
      }
      for (const std::string &W : L.Writes)
        Loaded.insert(W);
      continue;
    }
    // What is computed from a loaded value waits for it too: an address
    // made from a loaded index is one.
    Waited |= Reads;
    for (const std::string &W : L.Writes)
      if (Reads)
        Loaded.insert(W);
      else
        Loaded.erase(W);
    if (Kept[I] && Waited)
      Behind = true;
  }
  return std::max(Rounds, 1u);
}

llvm::Expected<std::vector<KernelCounts>> countPtx(llvm::StringRef Ptx) {
  std::vector<KernelCounts> Kernels;
  // The .func bodies, by name.
  llvm::StringMap<KernelCounts> Functions;
  // The .func being read; it joins Functions where its body ends (a
  // prototype has none).
  std::optional<KernelCounts> Function;
  // The body being read: the last of Kernels or Function (neither moves
  // while it is read).
  KernelCounts *Current = nullptr;
  bool CurrentIsEntry = false;
  std::optional<EntryReader> Reader;
  llvm::StringSet<> SharedArrays;
  // Inside an entry or function: before its body (Depth 0) or in it.
  bool InEntry = false, InBody = false;
  int Depth = 0;
  // The lines so far of an instruction written over several ("call.uni
  // (retval0),", "_Z5twicef,", "(", "param0", ");").
  std::string Pending;
  // The entry's labels and instructions, for loadRounds.
  std::vector<std::string> Body;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Ptx.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef Line = Raw.split("//").first.trim();
    if (auto Name = sharedArray(Line))
      SharedArrays.insert(*Name);
    if (!InEntry) {
      size_t At = Line.find(".entry ");
      CurrentIsEntry = At != llvm::StringRef::npos;
      if (!CurrentIsEntry)
        At = Line.find(".func ");
      if (At == llvm::StringRef::npos)
        continue;
      std::string Name =
          declaredName(Line.drop_front(At + (CurrentIsEntry ? 7 : 6))).str();
      if (CurrentIsEntry) {
        Kernels.push_back({});
        Current = &Kernels.back();
      } else {
        Function.emplace();
        Current = &*Function;
      }
      Current->Mangled = Name;
      InEntry = true;
      InBody = false;
      Depth = 0;
      // A one-line prototype: ".extern .func f(...);".
      if (!CurrentIsEntry && Line.ends_with(";"))
        InEntry = false;
      continue;
    }
    KernelCounts &K = *Current;
    if (!InBody) {
      if (Line.consume_front(".maxntid") || Line.consume_front(".reqntid")) {
        K.MaxThreadsPerBlock = threadCount(Line);
        if (!K.MaxThreadsPerBlock)
          return llvm::createStringError("cannot read the launch bounds of " +
                                         K.Mangled + " in the PTX");
      }
      // A prototype ends where a definition's body would start.
      if (!CurrentIsEntry && Line.ends_with(";")) {
        InEntry = false;
        continue;
      }
      if (!Line.starts_with("{"))
        continue;
      InBody = true;
      Pending.clear();
      Body.clear();
      Reader.emplace(K, SharedArrays);
    }
    Depth += Line.count('{') - Line.count('}');
    if (Depth == 0) {
      InEntry = false;
      if (CurrentIsEntry)
        K.LoadRounds = loadRounds(Body);
      if (!CurrentIsEntry)
        Functions[Function->Mangled] = std::move(*Function);
      continue;
    }
    llvm::StringRef Text = Line.trim("{} \t");
    if (Pending.empty() && (Text.empty() || Text.starts_with(".")))
      continue;
    if (Pending.empty() && Text.ends_with(":")) {
      Reader->label(Text.drop_back());
      Body.push_back(Text.str());
      continue;
    }
    if (!Text.ends_with(";")) {
      Pending += Text.str() + " ";
      continue;
    }
    if (Pending.empty()) {
      Reader->instruction(Text);
      Body.push_back(Text.str());
      continue;
    }
    Pending += Text.str();
    Reader->instruction(Pending);
    Body.push_back(Pending);
    Pending.clear();
  }
  if (InEntry)
    return llvm::createStringError("the PTX ends inside the function " +
                                   Current->Mangled);
  CallResolver Resolver(Functions);
  for (KernelCounts &K : Kernels)
    addCallees(K, Resolver);
  return Kernels;
}

} // namespace metacu::report
