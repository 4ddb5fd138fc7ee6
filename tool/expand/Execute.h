//===- Execute.h - Stage 4: run the generator in clang::Interpreter -------===//
//
// Compiles the generator program once (one partial translation unit after
// the prelude) and runs it. What it emits is recorded as events for the
// emit stage; its diagnostics, compile-time and run-time, are mapped back
// to the user's file through the source map.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_EXECUTE_H
#define METACU_EXPAND_EXECUTE_H

#include "expand/HostSlice.h"
#include "expand/Lower.h"
#include "support/Isolation.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

#include <metacu/detail/host_api.h>

namespace metacu {

struct Event {
  enum Kind { Text, Code, Directive } K = Text;
  /// Text: input bytes [Begin, End). Code, Directive: Begin is the input
  /// offset the output is attributed to.
  unsigned Begin = 0, End = 0;
  std::string Generated;
  /// Directive: which line, over the passes in Mask.
  metacu_directive_kind DirectiveKind = METACU_DIRECTIVE_IF;
  uint64_t Mask = 0;

  static Event text(unsigned Begin, unsigned End) {
    Event E;
    E.Begin = Begin;
    E.End = End;
    return E;
  }
  static Event code(unsigned At, std::string Generated) {
    Event E;
    E.K = Code;
    E.Begin = At;
    E.Generated = std::move(Generated);
    return E;
  }
  static Event directive(unsigned At, metacu_directive_kind Kind,
                         uint64_t Mask) {
    Event E;
    E.K = Directive;
    E.Begin = At;
    E.DirectiveKind = Kind;
    E.Mask = Mask;
    return E;
  }
};

struct Expansion {
  std::vector<Event> Events;
  /// Data files meta code read (absolute or relative to the working
  /// directory), in the order first read.
  std::vector<std::string> DataFiles;
  /// How the program was compiled (metacu lsp --time-stages names it).
  enum class Compilation {
    /// In an interpreter started for this run.
    Afresh,
    /// Whole, in a copy of an interpreter kept from an earlier run.
    InKeptInterpreter,
    /// Its start (Generator::StartEnd) compiled in a new copy of a kept
    /// interpreter, which is kept for the next programs with that start,
    /// then the rest.
    KeepingItsStart,
    /// Its start's headers (Generator::HeadersEnd) compiled by an earlier
    /// run, the rest of its start in a new copy of the copy that holds
    /// them, which is kept for the next programs with that start, then the
    /// rest.
    KeepingItsStartOnKeptHeaders,
    /// Only the rest, its start compiled by an earlier run.
    FromKeptStart,
  } Compiled = Compilation::Afresh;
  /// CPU milliseconds of this run that this process's count of its own
  /// and its children's lacks: what the kept copy that holds the program's
  /// start (and the processes it waited for) took since a run last counted
  /// it, less what a copy it replaced had taken (reaped here, so counted
  /// among this process's children again).
  double KeptCopyCpuMilliseconds = 0;
};

/// What the host slice needs (the flags, the toolkit, metacu's headers),
/// and more.
struct ExecuteOptions : HostSliceOptions {
  /// Where the precompiled generator library is kept; empty: none.
  std::string CacheDir;
  /// How long and how much memory meta code may take. It runs in a child
  /// process, so a crash, an exit() or a limit reached is an error at the
  /// meta statement that was running.
  IsolationLimits Limits;
  /// The most the expansion may hold, counting every record the generator
  /// makes as well as its text.
  size_t MaxOutputBytes = size_t(256) << 20;
  /// Keep the interpreter started for a generator library and prelude
  /// (the dearest part of a run: the precompiled library loaded, the
  /// prelude compiled) for the next run with the same ones, as a
  /// long-running process expanding a file again and again does (metacu
  /// lsp). The program is then compiled in a child process, a copy of the
  /// kept interpreter, which stays as it was started. The program's start
  /// (Generator::StartEnd) is compiled once, in a copy of this process kept
  /// beside it (support/ForkServer.h), which then compiles only the rest of
  /// each program with that start; in two pieces where it has headers
  /// (Generator::HeadersEnd), each in a copy of its own, the second forked
  /// from the first. A program with another start gets a new copy, forked
  /// from the copy that holds its headers where they are the same (an edit
  /// below them) and from the kept interpreter where not, that compiles
  /// the rest of its start, then its rest, and replaces the old one.
  bool KeepInterpreter = false;
};

/// Runs \p G. Its errors come back joined: LocatedErrors in the input where
/// they map there, SourceErrors at their place in a header otherwise.
llvm::Expected<Expansion> execute(const SourceFile &File, const Generator &G,
                                  const ArchList &Archs,
                                  const ExecuteOptions &Opts);

} // namespace metacu

#endif
