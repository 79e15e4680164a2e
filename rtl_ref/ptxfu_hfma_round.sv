// Round-to-nearest-even and pack for one format. The normalised magnitude
// comes from the fma lane's section 4:
//
//   norm_i: | h | MAN fraction bits | r | s s s ... s |
//            WS-1        WS-1-MAN    WS-2-MAN         0
//
//   packed = ((exp_i + bias - 1) << MAN) + {h, fraction}
// A subnormal has h = 0 and exp_i = emin = 1 - bias, so its exponent field is
// 0; adding the rounding increment carries into the exponent by itself
// (subnormal -> smallest normal, 1.11..1 -> next binade, max finite -> inf).
module ptxfu_hfma_round #(
  parameter int unsigned EXP = 5,
  parameter int unsigned MAN = 10,
  parameter int unsigned WS  = 40,   // width of norm_i
  parameter int unsigned EW  = 11    // width of exp_i (signed)
) (
  input  logic [WS-1:0]        norm_i,
  input  logic signed [EW-1:0] exp_i,      // exponent of bit WS-1, >= emin
  input  logic                 inexact_i,  // nonzero bits below norm_i
  input  logic                 sign_i,
  output logic [EXP+MAN:0]     result_o
);

  localparam int unsigned PF   = MAN + 1;
  localparam int unsigned BIAS = (1 << (EXP - 1)) - 1;
  localparam int unsigned PW   = EW + MAN + 1;     // packed width, never overflows
  localparam logic [PW-1:0] INF_PACKED = PW'(((1 << EXP) - 1) << MAN);

  logic [PF-1:0] sig;
  logic [EW-1:0] exp_field;
  logic          round_bit, sticky, inc;
  logic [PW-1:0] packed_val, rounded;

  assign sig       = norm_i[WS-1 -: PF];
  assign round_bit = norm_i[WS-1-PF];
  assign sticky    = (|norm_i[WS-2-PF:0]) | inexact_i;

`ifdef PTXFU_BREAK_ROUNDING
  // Deliberately wrong (for the harness's self test): ties go to odd.
  assign inc = round_bit & (sticky | ~sig[0]);
`else
  assign inc = round_bit & (sticky | sig[0]);
`endif

  assign exp_field  = exp_i + EW'(BIAS - 1);    // >= 0 since exp_i >= emin
  assign packed_val = (PW'(exp_field) << MAN) + PW'(sig);
  assign rounded    = packed_val + PW'(inc);

  always_comb begin
    if (rounded >= INF_PACKED) result_o = {sign_i, INF_PACKED[EXP+MAN-1:0]};
    else                       result_o = {sign_i, rounded[EXP+MAN-1:0]};
  end

endmodule
