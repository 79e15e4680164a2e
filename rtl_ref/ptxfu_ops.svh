// The op_i encodings of the two units: the one source. The C++ encoding
// (cosim/rtl_ops.h in the build tree) is generated from the `define lines
// below by cosim/rtl.cmake, so the RTL and the C++ that drives it cannot
// drift. Keep one `define per line: `define PTXFU_<UNIT>_OP_<NAME> 2'd<N>.
`ifndef PTXFU_OPS_SVH
`define PTXFU_OPS_SVH
// ptxfu_hfma2: d = a * b + c, a + c, a - c, a * b
`define PTXFU_HFMA2_OP_FMA 2'd0
`define PTXFU_HFMA2_OP_ADD 2'd1
`define PTXFU_HFMA2_OP_SUB 2'd2
`define PTXFU_HFMA2_OP_MUL 2'd3
// ptxfu_hmnmx2: min(a, b), max(a, b), -a, |a|
`define PTXFU_HMNMX2_OP_MIN 2'd0
`define PTXFU_HMNMX2_OP_MAX 2'd1
`define PTXFU_HMNMX2_OP_NEG 2'd2
`define PTXFU_HMNMX2_OP_ABS 2'd3
`endif
