// Runs the verilated DPI-C example to its $finish (or $fatal).
#include <memory>

#include "Vdpi_example.h"
#include "verilated.h"

int main(int argc, char** argv) {
  const auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  const auto top = std::make_unique<Vdpi_example>(context.get());
  for (int i = 0; i < 16 && !context->gotFinish(); ++i) top->eval();
  top->final();
  return context->gotFinish() && !context->gotError() ? 0 : 1;
}
