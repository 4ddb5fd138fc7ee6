//===- TuneCommand.h - The `metacu tune` subcommand -----------------------===//
#ifndef METACU_DRIVER_TUNECOMMAND_H
#define METACU_DRIVER_TUNECOMMAND_H

namespace metacu {

/// Whether the command line named `tune`; valid after
/// llvm::cl::ParseCommandLineOptions.
bool tuneCommandSelected();
/// Runs `metacu tune` with the options parsed; returns the exit status.
int runTuneCommand();

} // namespace metacu

#endif
