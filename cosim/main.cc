// ptxfu_cosim: the `ptxfu cosim` subcommand as a standalone program, for
// ctest, long exhaustive runs and builds without the ptxfu command line.
#include <iostream>

#include "cosim/cosim_cli.h"

int main(int argc, char** argv) {
  CLI::App app{ptxfu::cosim::kCosimHelp};
  ptxfu::cosim::CosimOptions o;
  ptxfu::cosim::add_cosim_options(app, o);
  CLI11_PARSE(app, argc, argv);
  return ptxfu::cosim::run_cosim(o, std::cout);
}
