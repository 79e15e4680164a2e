// Decodes one floating-point element of the block FMA into a significand
// (hidden bit included) and an unbiased exponent (subnormals at emin), and
// classifies it. SPECIALS says what the all-ones exponent means (the C++
// side's fp::Specials, in the same order):
//   0 ieee        all-ones exponent: infinity (fraction 0) or NaN
//   1 finite_nan  no infinity; NaN only at all-ones exponent and fraction (e4m3)
//   2 finite      every encoding a finite number (e2m1, e2m3, e3m2)
module ptxfu_block_dec #(
  parameter int unsigned EXP      = 5,
  parameter int unsigned MAN      = 10,
  parameter int unsigned SPECIALS = 0,
  parameter int unsigned EW       = 12        // signed exponent width out
) (
  input  logic [EXP+MAN:0]      x_i,
  output logic [MAN:0]          sig_o,        // 0 for a zero
  output logic signed [EW-1:0]  exp_o,        // unbiased; emin for subnormals and zeros
  output logic                  neg_o,
  output logic                  nan_o,
  output logic                  inf_o
);

  localparam int BIAS = (1 << (EXP - 1)) - 1;

  logic [EXP-1:0] field;
  logic [MAN-1:0] frac;
  logic           top;

  assign field = x_i[MAN +: EXP];
  assign frac  = x_i[MAN-1:0];
  assign neg_o = x_i[EXP+MAN];
  assign top   = &field;

  if (SPECIALS == 0) begin : gen_ieee
    assign nan_o = top & (|frac);
    assign inf_o = top & ~(|frac);
  end else if (SPECIALS == 1) begin : gen_finite_nan
    assign nan_o = top & (&frac);
    assign inf_o = 1'b0;
  end else begin : gen_finite
    logic unused_top;   // no specials
    assign unused_top = top;
    assign nan_o = 1'b0;
    assign inf_o = 1'b0;
  end

  assign sig_o = {|field, frac};
  assign exp_o = EW'(signed'({1'b0, field | {{(EXP-1){1'b0}}, ~(|field)}})) - EW'(BIAS);

endmodule
