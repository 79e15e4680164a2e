// One lane of the half-precision min/max/neg/abs unit, following the PTX ISA
// pseudo-code of min/max (9.7.4.7/8): .NaN, .xorsign.abs, -0 < +0, and
// .ftz (inputs flushed to a zero of the same sign). Every NaN result is the
// canonical NaN; the .xorsign sign goes on non-NaN results only.
//
// Sections (cut j after section j, CUT_MASK[j]):
//     0 classify   1 compare   2 select
//
//   a_i, b_i:  | s | exponent (EXP bits of the format) | fraction (MAN bits) |
//               FW-1                                                       0
// Ordering key used by the compare: sign-magnitude, with -0 just below +0.
`include "ptxfu_ops.svh"

module ptxfu_hmnmx_lane #(
  parameter int unsigned F0_EXP   = 5,          // format 0 (f16)
  parameter int unsigned F0_MAN   = 10,
  parameter int unsigned F1_EXP   = 8,          // format 1 (bf16)
  parameter int unsigned F1_MAN   = 7,
  parameter logic [1:0]  CUT_MASK = 2'b00
) (
  input  logic                   clk_i,
  input  logic [1:0]             en_i,          // load enable of cut j
  input  logic [1:0]             op_i,          // 0 min, 1 max, 2 neg, 3 abs
  input  logic                   fmt_i,         // 0: format 0, 1: format 1
  input  logic                   ftz_i,
  input  logic                   nan_i,         // .NaN
  input  logic                   xorsign_abs_i, // .xorsign.abs
  input  logic [F0_EXP+F0_MAN:0] a_i,
  input  logic [F0_EXP+F0_MAN:0] b_i,
  output logic [F0_EXP+F0_MAN:0] result_o
);

  localparam int unsigned FW = 1 + F0_EXP + F0_MAN;
  localparam logic [FW-1:0] SIGN_BIT  = {1'b1, {(FW-1){1'b0}}};
  localparam logic [FW-1:0] CANON_NAN = {1'b0, {(FW-1){1'b1}}};
  localparam logic [FW-1:0] EXP0      = FW'(((1 << F0_EXP) - 1) << F0_MAN);
  localparam logic [FW-1:0] EXP1      = FW'(((1 << F1_EXP) - 1) << F1_MAN);

  localparam logic [1:0] OP_MIN = `PTXFU_HMNMX2_OP_MIN;  // ptxfu_ops.svh
  localparam logic [1:0] OP_MAX = `PTXFU_HMNMX2_OP_MAX;
  localparam logic [1:0] OP_NEG = `PTXFU_HMNMX2_OP_NEG;
  localparam logic [1:0] OP_ABS = `PTXFU_HMNMX2_OP_ABS;

  if (FW != 1 + F1_EXP + F1_MAN) begin : gen_bad_formats
    $error("ptxfu_hmnmx_lane: both formats must have the same width");
  end

  typedef struct packed {
    logic [1:0] op;
    logic       nan_mode;
    logic       xorsign_abs;
  } ctrl_t;

  // ===========================================================================
  // Section 0: classify (NaN test, .ftz flush, .xorsign sign, .abs)
  // ===========================================================================
  typedef struct packed {
    logic [FW-1:0] a;        // flushed, |.| under .xorsign.abs
    logic [FW-1:0] b;
    logic          a_nan;
    logic          b_nan;
    logic          xsign;    // sign(a) ^ sign(b), before .abs
    logic [FW-1:0] unary;    // neg / abs of the flushed a
    ctrl_t         ctrl;
  } s0_t;

  s0_t s0_d, s0_q;

  logic [FW-1:0] exp_mask, a_flush, b_flush, abs_mask;
  logic          a_sub, b_sub;
  assign exp_mask = fmt_i ? EXP1 : EXP0;
  assign a_sub    = ((a_i & exp_mask) == '0) & ((a_i & ~SIGN_BIT) != '0);
  assign b_sub    = ((b_i & exp_mask) == '0) & ((b_i & ~SIGN_BIT) != '0);
  assign a_flush  = (ftz_i & a_sub) ? (a_i & SIGN_BIT) : a_i;
  assign b_flush  = (ftz_i & b_sub) ? (b_i & SIGN_BIT) : b_i;
  assign abs_mask = xorsign_abs_i ? ~SIGN_BIT : '1;

  assign s0_d.a     = a_flush & abs_mask;
  assign s0_d.b     = b_flush & abs_mask;
  assign s0_d.a_nan = ((a_i & exp_mask) == exp_mask) & ((a_i & ~exp_mask & ~SIGN_BIT) != '0);
  assign s0_d.b_nan = ((b_i & exp_mask) == exp_mask) & ((b_i & ~exp_mask & ~SIGN_BIT) != '0);
  assign s0_d.xsign = a_flush[FW-1] ^ b_flush[FW-1];
  assign s0_d.unary = (op_i == OP_NEG) ? (a_flush ^ SIGN_BIT) : (a_flush & ~SIGN_BIT);
  assign s0_d.ctrl  = {op_i, nan_i, xorsign_abs_i};

  ptxfu_stage_reg #(.WIDTH($bits(s0_d)), .ENABLE(CUT_MASK[0])) i_cut0 (
    .clk_i, .en_i(en_i[0]), .d_i(s0_d), .q_o(s0_q)
  );

  // ===========================================================================
  // Section 1: compare
  // ===========================================================================
  //   a < b  <=>  (a negative, b positive) or (both positive, |a| < |b|)
  //              or (both negative, |a| > |b|)            (-0 < +0)
  typedef struct packed {
    logic          take_a;   // the non-NaN choice is a
    logic [FW-1:0] a;
    logic [FW-1:0] b;
    logic          a_nan;
    logic          b_nan;
    logic          xsign;
    logic [FW-1:0] unary;
    ctrl_t         ctrl;
  } s1_t;

  s1_t s1_d, s1_q;

  logic          sa, sb, mag_lt, mag_gt, a_lt_b, a_gt_b;
  logic [FW-2:0] ma, mb;
  assign sa     = s0_q.a[FW-1];
  assign sb     = s0_q.b[FW-1];
  assign ma     = s0_q.a[FW-2:0];
  assign mb     = s0_q.b[FW-2:0];
  assign mag_lt = ma < mb;
  assign mag_gt = ma > mb;
  assign a_lt_b = (sa & ~sb) | (~sa & ~sb & mag_lt) | (sa & sb & mag_gt);
  assign a_gt_b = (~sa & sb) | (~sa & ~sb & mag_gt) | (sa & sb & mag_lt);

  logic take_a;
  always_comb begin
    unique case (s0_q.ctrl.op)
      OP_MIN:  take_a = a_lt_b;
      OP_MAX:  take_a = a_gt_b;
      default: take_a = 1'b1;           // neg, abs: a only
    endcase
  end
  assign s1_d.take_a = take_a;
  assign s1_d.a      = s0_q.a;
  assign s1_d.b      = s0_q.b;
  assign s1_d.a_nan  = s0_q.a_nan;
  assign s1_d.b_nan  = s0_q.b_nan;
  assign s1_d.xsign  = s0_q.xsign;
  assign s1_d.unary  = s0_q.unary;
  assign s1_d.ctrl   = s0_q.ctrl;

  ptxfu_stage_reg #(.WIDTH($bits(s1_d)), .ENABLE(CUT_MASK[1])) i_cut1 (
    .clk_i, .en_i(en_i[1]), .d_i(s1_d), .q_o(s1_q)
  );

  // ===========================================================================
  // Section 2: select
  // ===========================================================================
  logic          unary_op, nan_out;
  logic [FW-1:0] pick;
  assign unary_op = (s1_q.ctrl.op == OP_NEG) | (s1_q.ctrl.op == OP_ABS);

  always_comb begin
    nan_out = 1'b0;
    pick    = s1_q.take_a ? s1_q.a : s1_q.b;
    if (unary_op) begin
      nan_out = s1_q.a_nan;
      pick    = s1_q.unary;
    end else if ((s1_q.a_nan & s1_q.b_nan) | (s1_q.ctrl.nan_mode & (s1_q.a_nan | s1_q.b_nan))) begin
      nan_out = 1'b1;
    end else if (s1_q.a_nan) begin
      pick    = s1_q.b;
    end else if (s1_q.b_nan) begin
      pick    = s1_q.a;
    end
  end

  always_comb begin
    if (nan_out)                                result_o = CANON_NAN;
    else if (!unary_op && s1_q.ctrl.xorsign_abs) result_o = {s1_q.xsign, pick[FW-2:0]};
    else                                        result_o = pick;
  end

endmodule
