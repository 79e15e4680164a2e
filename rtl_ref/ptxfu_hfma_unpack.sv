// Classify one operand of the fma lane and bring it into the common internal
// form shared by both formats: a normalised P-bit significand (hidden bit at
// P-1, subnormals shifted up) and an unbiased, signed exponent with
//     value = (-1)^sign_o * sig_o * 2^(exp_o - (P-1)).
//
//   bits_i, format 0 (e.g. f16):   | s | F0_EXP exponent | F0_MAN fraction |
//   bits_i, format 1 (e.g. bf16):  | s | F1_EXP exponent | F1_MAN fraction |
//   sig_o:                         | h | fraction, left aligned, zero filled |
//                                    P-1                                   0
// `.ftz` turns a subnormal into a zero of the same sign.
module ptxfu_hfma_unpack #(
  parameter int unsigned F0_EXP = 5,
  parameter int unsigned F0_MAN = 10,
  parameter int unsigned F1_EXP = 8,
  parameter int unsigned F1_MAN = 7,
  parameter int unsigned EW     = 11   // internal exponent width (signed)
) (
  input  logic [F0_EXP+F0_MAN:0]                       bits_i,
  input  logic                                         fmt_i,   // 0: format 0, 1: format 1
  input  logic                                         ftz_i,
  output logic                                         sign_o,
  output logic                                         zero_o,
  output logic                                         inf_o,
  output logic                                         nan_o,
  output logic [((F0_MAN > F1_MAN) ? F0_MAN : F1_MAN):0] sig_o,
  output logic signed [EW-1:0]                         exp_o
);

  localparam int unsigned FW    = 1 + F0_EXP + F0_MAN;
  localparam int unsigned MAN   = (F0_MAN > F1_MAN) ? F0_MAN : F1_MAN;
  localparam int unsigned P     = MAN + 1;
  localparam int unsigned LZW   = $clog2(P + 1);
  localparam int unsigned BIAS0 = (1 << (F0_EXP - 1)) - 1;
  localparam int unsigned BIAS1 = (1 << (F1_EXP - 1)) - 1;

  logic [F0_EXP-1:0] exp0;
  logic [F0_MAN-1:0] frac0;
  logic [F1_EXP-1:0] exp1;
  logic [F1_MAN-1:0] frac1;
  assign exp0  = bits_i[FW-2 -: F0_EXP];
  assign frac0 = bits_i[F0_MAN-1:0];
  assign exp1  = bits_i[FW-2 -: F1_EXP];
  assign frac1 = bits_i[F1_MAN-1:0];

  logic           exp_zero, exp_ones, frac_zero;
  logic [MAN-1:0] frac;
  logic [EW-1:0]  exp_biased, bias;
  assign exp_zero   = fmt_i ? ~|exp1 : ~|exp0;
  assign exp_ones   = fmt_i ? &exp1 : &exp0;
  assign frac       = fmt_i ? (MAN'(frac1) << (MAN - F1_MAN)) : (MAN'(frac0) << (MAN - F0_MAN));
  assign frac_zero  = ~|frac;
  assign exp_biased = fmt_i ? EW'(exp1) : EW'(exp0);
  assign bias       = fmt_i ? EW'(BIAS1) : EW'(BIAS0);

  assign sign_o = bits_i[FW-1];
  assign zero_o = exp_zero & (frac_zero | ftz_i);
  assign inf_o  = exp_ones & frac_zero;
  assign nan_o  = exp_ones & ~frac_zero;

  // Normalise: a subnormal's leading one moves up to the hidden position and
  // its exponent goes below emin by the same amount.
  logic [P-1:0]   sig_raw;
  logic [LZW-1:0] lz;
  logic           sig_zero_unused;
  assign sig_raw = {~exp_zero, frac};

  ptxfu_lzc #(.WIDTH(P)) i_lzc (
    .in_i   (sig_raw),
    .count_o(lz),
    .zero_o (sig_zero_unused)
  );

  assign sig_o = sig_raw << lz;
  assign exp_o = (exp_zero ? EW'(1) : exp_biased) - bias - EW'(lz);

endmodule
