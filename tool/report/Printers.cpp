//===- Printers.cpp -------------------------------------------------------===//
#include "report/Printers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace metacu::report {

// The JSON layout's version: raised only if a field changes meaning.
static constexpr int FormatVersion = 1;

void printText(llvm::raw_ostream &OS, llvm::ArrayRef<KernelReport> Rows) {
  if (llvm::any_of(Rows, [](const KernelReport &R) { return !R.Launch; }))
    OS << "launch configuration unknown (give --block): occupancy and "
          "predicted time not computed\n";
  if (llvm::any_of(Rows,
                   [](const KernelReport &R) { return R.LaunchFromBounds; }))
    OS << "block marked *: none given, the kernel's __launch_bounds__\n";
  const char *Header = "  {0,-8} {1,5} {2,11} {3,6} {4,7} {5,6} {6,8} "
                       "{7,10} {8,5} {9,-13} {10,8} {11,8} {12,8} {13,8} "
                       "{14,11} {15,-9}\n";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const KernelReport &R = Rows[I];
    if (I == 0 || Rows[I - 1].Counts.Mangled != R.Counts.Mangled) {
      OS << (I ? "\n" : "") << R.Name << " (" << R.Counts.Mangled << ")";
      // The bound is per architecture (it may come from __nvvm_arch): the
      // first, then each change and where it happens.
      std::string Bounds;
      std::optional<unsigned> Last;
      for (size_t J = I;
           J < Rows.size() && Rows[J].Counts.Mangled == R.Counts.Mangled; ++J) {
        std::optional<unsigned> Max = Rows[J].Counts.MaxThreadsPerBlock;
        if (Max && Max != Last)
          Bounds += Bounds.empty() ? std::to_string(*Max)
                                   : ", " + std::to_string(*Max) + " from " +
                                         Rows[J].Target.name();
        Last = Max;
      }
      if (!Bounds.empty())
        OS << ", __launch_bounds__ " << Bounds;
      OS << "\n";
      OS << llvm::formatv(Header, "arch", "regs", "spill st/ld", "stack",
                          "smem", "cmem", "block", "blocks/SM", "occ",
                          "limiter", "gld B", "gst B", "shared B", "flops",
                          "time us", "bound");
    }
    const KernelResources &Res = R.Resources;
    const KernelCounts &C = R.Counts;
    std::string Spill =
        llvm::formatv("{0}/{1}", Res.SpillStoreBytes, Res.SpillLoadBytes);
    std::string Block = R.Launch ? R.Launch->Block.str() : "?";
    if (R.LaunchFromBounds)
      Block += "*";
    std::string Blocks = "-", Occ = "-", Limit = "-", Time = "-", Bound = "-";
    if (R.Occ) {
      Blocks = std::to_string(R.Occ->BlocksPerSM);
      Occ = std::to_string(occupancyPercent(*R.Occ)) + "%";
      Limit = limiterName(R.Occ->Limit).str();
    }
    if (R.Model) {
      Time = llvm::formatv("{0}{1:f1}", R.Model->LowerBound ? ">" : "",
                           R.Model->TimeUs);
      Bound = phaseName(R.Model->Bound).str();
    }
    uint64_t Flops =
        C.flops(FpType::F16) + C.flops(FpType::F32) + C.flops(FpType::F64);
    OS << llvm::formatv(
        Header, R.Target.name(), Res.Registers, Spill, Res.StackBytes,
        Res.StaticSharedBytes, Res.ConstantBytes, Block, Blocks, Occ, Limit,
        C.GlobalLoads.Bytes, C.GlobalStores.Bytes,
        C.SharedLoads.Bytes + C.SharedStores.Bytes, Flops, Time, Bound);
    for (const std::string &D : R.Diagnoses)
      OS << "    " << R.Target.name() << ": " << D << "\n";
  }
}

static void access(llvm::json::OStream &J, llvm::StringRef Name,
                   const AccessCount &A) {
  J.attribute((Name + "_instructions").str(), A.Instructions);
  J.attribute((Name + "_bytes").str(), A.Bytes);
}

static void perThread(llvm::json::OStream &J, const KernelCounts &C) {
  J.attributeObject("per_thread", [&] {
    J.attribute("instructions", C.Instructions);
    access(J, "global_load", C.GlobalLoads);
    access(J, "global_store", C.GlobalStores);
    access(J, "shared_load", C.SharedLoads);
    access(J, "shared_store", C.SharedStores);
    access(J, "local", C.LocalAccesses);
    J.attribute("flops_f16", C.flops(FpType::F16));
    J.attribute("flops_f32", C.flops(FpType::F32));
    J.attribute("flops_f64", C.flops(FpType::F64));
    J.attribute("fp_instructions_f16", C.fpInstructions(FpType::F16));
    J.attribute("fp_instructions_f32", C.fpInstructions(FpType::F32));
    J.attribute("fp_instructions_f64", C.fpInstructions(FpType::F64));
    J.attribute("branches", C.Branches);
    J.attribute("has_loop", C.HasLoop);
  });
  J.attributeArray("calls", [&] {
    for (const std::string &F : C.Called)
      J.value(F);
  });
  J.attributeArray("uncounted_calls", [&] {
    for (const UncountedCall &U : C.Uncounted)
      J.object([&] {
        J.attribute("callee", U.Callee);
        J.attribute("why", U.Why);
      });
  });
}

template <typename T>
static llvm::json::Value orNull(const std::optional<T> &V) {
  return V ? llvm::json::Value(*V) : llvm::json::Value(nullptr);
}

static void kernel(llvm::json::OStream &J, const KernelReport &R) {
  const KernelResources &Res = R.Resources;
  const std::optional<LaunchConfig> &L = R.Launch;
  J.attribute("name", R.Name);
  J.attribute("mangled", R.Counts.Mangled);
  J.attribute("arch", R.Target.CC);
  J.attribute("target", R.Target.name());
  J.attribute("registers", Res.Registers);
  J.attribute("barriers", Res.Barriers);
  J.attribute("spill_store_bytes", Res.SpillStoreBytes);
  J.attribute("spill_load_bytes", Res.SpillLoadBytes);
  J.attribute("stack_bytes", Res.StackBytes);
  J.attribute("static_shared_bytes", Res.StaticSharedBytes);
  J.attribute("constant_bytes", Res.ConstantBytes);
  J.attribute("max_threads_per_block", orNull(R.Counts.MaxThreadsPerBlock));
  if (L)
    J.attributeArray("block", [&] {
      J.value(L->Block.X);
      J.value(L->Block.Y);
      J.value(L->Block.Z);
    });
  else
    J.attribute("block", nullptr);
  J.attribute("threads_per_block",
              L ? llvm::json::Value(L->Block.count()) : nullptr);
  J.attribute("dynamic_shared_bytes",
              L ? llvm::json::Value(L->DynamicSharedBytes) : nullptr);
  const std::optional<Occupancy> &O = R.Occ;
  J.attribute("blocks_per_sm", O ? llvm::json::Value(O->BlocksPerSM) : nullptr);
  J.attribute("occupancy", O ? llvm::json::Value(O->Fraction) : nullptr);
  J.attribute("limiter",
              O ? llvm::json::Value(limiterName(O->Limit)) : nullptr);
  perThread(J, R.Counts);
  const std::optional<Prediction> &P = R.Model;
  J.attribute("predicted_time_us", P ? llvm::json::Value(P->TimeUs) : nullptr);
  if (P)
    J.attributeObject("model", [&] {
      J.attribute("device", R.Limits->Device.Name);
      J.attribute("grid_blocks", P->GridBlocks);
      J.attribute("grid_assumed", P->GridAssumed);
      J.attribute("waves", P->Waves);
      J.attribute("bound", phaseName(P->Bound));
      J.attribute("lower_bound", P->LowerBound);
      J.attributeArray("loops", [&] {
        for (size_t L = 0; L < P->LoopTrips.size(); ++L)
          J.object([&] {
            J.attribute("label", R.Counts.Loops[L].Label);
            const std::optional<double> &T = P->LoopTrips[L];
            J.attribute("trips", T ? llvm::json::Value(*T) : nullptr);
          });
      });
      J.attributeObject("wave_cycles", [&] {
        J.attribute("issue", P->IssueCycles);
        J.attribute("fp", P->FpCycles);
        J.attribute("l1_shared", P->L1SharedCycles);
        J.attribute("dram", P->DramCycles);
        J.attribute("latency", P->LatencyCycles);
      });
    });
  else
    J.attribute("model", nullptr);
  J.attributeArray("diagnoses", [&] {
    for (const std::string &D : R.Diagnoses)
      J.value(D);
  });
  J.attribute("launch_source", !R.Launch ? llvm::json::Value(nullptr)
                               : R.LaunchFromBounds
                                   ? llvm::json::Value("launch_bounds")
                                   : llvm::json::Value("given"));
}

void printJson(llvm::raw_ostream &OS, llvm::ArrayRef<KernelReport> Rows) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", FormatVersion);
    J.attributeArray("kernels", [&] {
      for (const KernelReport &R : Rows)
        J.object([&] { kernel(J, R); });
    });
  });
  OS << "\n";
}

} // namespace metacu::report
