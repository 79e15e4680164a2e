// The `cosim` options on a CLI11 (sub)command, for cli/main.cc and the
// standalone ptxfu_cosim program:
//
//   CLI::App* cmd = app.add_subcommand("cosim", ptxfu::cosim::kCosimHelp);
//   ptxfu::cosim::CosimOptions cosim;
//   ptxfu::cosim::add_cosim_options(*cmd, cosim);
//   ...
//   if (*cmd) return ptxfu::cosim::run_cosim(cosim, std::cout);
#pragma once
#include <CLI/CLI.hpp>

#include "cosim/cosim.h"

namespace ptxfu::cosim {

extern const char* const kCosimHelp;

void add_cosim_options(CLI::App& cmd, CosimOptions& o);

}  // namespace ptxfu::cosim
