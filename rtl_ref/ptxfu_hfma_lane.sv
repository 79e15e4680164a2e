// One lane of the half-precision fused multiply-add: d = a * b + c, rounded
// once to nearest even, in format 0 (f16) or format 1 (bf16) chosen per beat.
// add, sub and mul run through the same datapath (the substitution happens in
// the classify section):
//     add: a * 1 + c      sub: a * 1 + (-c)      mul: a * b + (-0)
// (-0 keeps a -0 product negative and a +0 product positive under RN.)
//
// Sections, each with an optional register after it (cut j after section j,
// CUT_MASK[j]):
//     0 classify   1 multiply   2 align   3 add   4 normalise   5 round
//     6 special-case select (result, .ftz, .sat, .relu, canonical NaN)
// The special result (NaN, inf, zero and exact-operand cases, .oob) is
// computed next to the regular one in section 1 and chosen in section 6.
//
// Internal number form (both formats): P = max(F0_MAN, F1_MAN) + 1 and
//     value = (-1)^s * sig * 2^(exp - (P-1)),  sig normalised (hidden bit at P-1)
// See the ASCII layouts in the sections below.
`include "ptxfu_ops.svh"

module ptxfu_hfma_lane #(
  parameter int unsigned F0_EXP   = 5,             // format 0 exponent bits (f16)
  parameter int unsigned F0_MAN   = 10,            // format 0 fraction bits
  parameter int unsigned F1_EXP   = 8,             // format 1 exponent bits (bf16)
  parameter int unsigned F1_MAN   = 7,             // format 1 fraction bits
  parameter logic [5:0]  CUT_MASK = 6'b000000,     // register after section j
  parameter logic [F0_EXP+F0_MAN:0] OOB_NAN = 16'h7ff7,  // the OOB-NaN (.oob)
  parameter bit          OOB_IGNORE_SIGN = 1'b1    // match OOB_NAN on the magnitude
) (
  input  logic                   clk_i,
  input  logic [5:0]             en_i,   // load enable of cut j (ptxfu_pipe_ctrl)
  input  logic [1:0]             op_i,   // 0 fma, 1 add, 2 sub, 3 mul
  input  logic                   fmt_i,  // 0: format 0, 1: format 1
  input  logic                   ftz_i,
  input  logic                   sat_i,
  input  logic                   relu_i,
  input  logic                   oob_i,
  input  logic [F0_EXP+F0_MAN:0] a_i,
  input  logic [F0_EXP+F0_MAN:0] b_i,
  input  logic [F0_EXP+F0_MAN:0] c_i,
  output logic [F0_EXP+F0_MAN:0] result_o
);

  // ---------------------------------------------------------------------------
  // Format knowledge, all derived from the parameters
  // ---------------------------------------------------------------------------
  localparam int unsigned FW    = 1 + F0_EXP + F0_MAN;     // lane width
  localparam int unsigned MAN   = (F0_MAN > F1_MAN) ? F0_MAN : F1_MAN;
  localparam int unsigned EXP   = (F0_EXP > F1_EXP) ? F0_EXP : F1_EXP;
  localparam int unsigned P     = MAN + 1;                 // internal precision
  localparam int unsigned EW    = EXP + 3;                 // internal exponent, signed
  localparam int unsigned W     = 3 * P + 5;               // alignment window
  localparam int unsigned WS    = W + 1;                   // sum (one carry bit)
  localparam int unsigned SW    = $clog2(W + 1);           // alignment shift amount
  localparam int unsigned ZW    = $clog2(WS + 1);          // normalisation count
  localparam int          BIAS0 = (1 << (F0_EXP - 1)) - 1;
  localparam int          BIAS1 = (1 << (F1_EXP - 1)) - 1;
  localparam int          EMIN0 = 1 - BIAS0;
  localparam int          EMIN1 = 1 - BIAS1;

  localparam logic [FW-1:0] SIGN_BIT  = {1'b1, {(FW-1){1'b0}}};
  localparam logic [FW-1:0] CANON_NAN = {1'b0, {(FW-1){1'b1}}};
  localparam logic [FW-1:0] INF0      = FW'(((1 << F0_EXP) - 1) << F0_MAN);
  localparam logic [FW-1:0] INF1      = FW'(((1 << F1_EXP) - 1) << F1_MAN);
  localparam logic [FW-1:0] ONE0      = FW'(BIAS0 << F0_MAN);
  localparam logic [FW-1:0] ONE1      = FW'(BIAS1 << F1_MAN);

  localparam logic [1:0] OP_FMA = `PTXFU_HFMA2_OP_FMA;  // ptxfu_ops.svh
  localparam logic [1:0] OP_ADD = `PTXFU_HFMA2_OP_ADD;
  localparam logic [1:0] OP_SUB = `PTXFU_HFMA2_OP_SUB;
  localparam logic [1:0] OP_MUL = `PTXFU_HFMA2_OP_MUL;

  if (FW != 1 + F1_EXP + F1_MAN) begin : gen_bad_formats
    $error("ptxfu_hfma_lane: both formats must have the same width");
  end
  // Largest internal exponent magnitude: two operand exponents (with the
  // subnormal extension) plus the window must fit the signed EW bits.
  if (2 * (BIAS1 + BIAS0 + MAN) + 2 * W >= (1 << (EW - 1))) begin : gen_bad_ew
    $error("ptxfu_hfma_lane: internal exponent width too small");
  end

  // Control that travels with the data.
  typedef struct packed {
    logic fmt;
    logic ftz;
    logic sat;
    logic relu;
  } ctrl_t;

  // ===========================================================================
  // Section 0: classify
  // ===========================================================================
  // Substitute the operands of add/sub/mul, check .oob on the raw operands,
  // flush subnormals under .ftz and normalise the significands.
  logic [FW-1:0] one, b_eff, c_eff;
  logic          use_b, use_c, oob_hit;

  assign one   = fmt_i ? ONE1 : ONE0;
  assign use_b = (op_i == OP_FMA) | (op_i == OP_MUL);
  assign use_c = (op_i != OP_MUL);
  always_comb begin
    b_eff = use_b ? b_i : one;
    unique case (op_i)
      OP_SUB:  c_eff = c_i ^ SIGN_BIT;
      OP_MUL:  c_eff = SIGN_BIT;           // -0
      OP_ADD:  c_eff = c_i;
      default: c_eff = c_i;                // OP_FMA
    endcase
  end

  // Masks the sign out of the comparison when OOB_IGNORE_SIGN.
  localparam logic [FW-1:0] OOB_MASK = OOB_IGNORE_SIGN ? ~SIGN_BIT : '1;
  logic a_oob, b_oob, c_oob;
  assign a_oob = ((a_i ^ OOB_NAN) & OOB_MASK) == '0;
  assign b_oob = ((b_i ^ OOB_NAN) & OOB_MASK) == '0;
  assign c_oob = ((c_i ^ OOB_NAN) & OOB_MASK) == '0;

  assign oob_hit = oob_i & (a_oob | (use_b & b_oob) | (use_c & c_oob));

  typedef struct packed {
    logic                 sign;
    logic                 zero;
    logic                 inf;
    logic                 nan;
    logic [P-1:0]         sig;
    logic signed [EW-1:0] exp;
  } operand_t;

  typedef struct packed {
    operand_t      a;
    operand_t      b;
    operand_t      c;
    logic [FW-1:0] c_bits;   // the addend as given (exact result when a*b = 0)
    logic          oob_hit;
    ctrl_t         ctrl;
  } s0_t;

  s0_t s0_d, s0_q;

  ptxfu_hfma_unpack #(
    .F0_EXP(F0_EXP), .F0_MAN(F0_MAN), .F1_EXP(F1_EXP), .F1_MAN(F1_MAN), .EW(EW)
  ) i_unpack_a (
    .bits_i(a_i), .fmt_i, .ftz_i,
    .sign_o(s0_d.a.sign), .zero_o(s0_d.a.zero), .inf_o(s0_d.a.inf), .nan_o(s0_d.a.nan),
    .sig_o(s0_d.a.sig), .exp_o(s0_d.a.exp)
  );
  ptxfu_hfma_unpack #(
    .F0_EXP(F0_EXP), .F0_MAN(F0_MAN), .F1_EXP(F1_EXP), .F1_MAN(F1_MAN), .EW(EW)
  ) i_unpack_b (
    .bits_i(b_eff), .fmt_i, .ftz_i,
    .sign_o(s0_d.b.sign), .zero_o(s0_d.b.zero), .inf_o(s0_d.b.inf), .nan_o(s0_d.b.nan),
    .sig_o(s0_d.b.sig), .exp_o(s0_d.b.exp)
  );
  ptxfu_hfma_unpack #(
    .F0_EXP(F0_EXP), .F0_MAN(F0_MAN), .F1_EXP(F1_EXP), .F1_MAN(F1_MAN), .EW(EW)
  ) i_unpack_c (
    .bits_i(c_eff), .fmt_i, .ftz_i,
    .sign_o(s0_d.c.sign), .zero_o(s0_d.c.zero), .inf_o(s0_d.c.inf), .nan_o(s0_d.c.nan),
    .sig_o(s0_d.c.sig), .exp_o(s0_d.c.exp)
  );

  assign s0_d.c_bits  = c_eff;
  assign s0_d.oob_hit = oob_hit;
  assign s0_d.ctrl    = {fmt_i, ftz_i, sat_i, relu_i};

  ptxfu_stage_reg #(.WIDTH($bits(s0_d)), .ENABLE(CUT_MASK[0])) i_cut0 (
    .clk_i, .en_i(en_i[0]), .d_i(s0_d), .q_o(s0_q)
  );

  // ===========================================================================
  // Section 1: multiply (and the special result, computed side by side)
  // ===========================================================================
  //   prod = sig_a * sig_b, exact:   | 2P bits, leading one at 2P-1 or 2P-2 |
  //   value(prod) = prod * 2^(exp_p - 2(P-1)),  exp_p = exp_a + exp_b
  typedef struct packed {
    logic [2*P-1:0]       prod;
    logic signed [EW-1:0] exp_p;
    logic                 sign_p;
    logic [P-1:0]         sig_c;
    logic signed [EW-1:0] exp_c;
    logic                 sign_c;
    logic                 zero_c;
    logic                 special;      // the result is special_bits
    logic [FW-1:0]        special_bits;
    ctrl_t                ctrl;
  } s1_t;

  s1_t s1_d, s1_q;

  logic prod_zero, prod_inf, nan_result;
  assign prod_zero  = s0_q.a.zero | s0_q.b.zero;
  assign prod_inf   = s0_q.a.inf | s0_q.b.inf;
  assign nan_result = s0_q.a.nan | s0_q.b.nan | s0_q.c.nan
                    | (s0_q.a.inf & s0_q.b.zero) | (s0_q.a.zero & s0_q.b.inf)
                    | (prod_inf & s0_q.c.inf & (s0_q.a.sign ^ s0_q.b.sign ^ s0_q.c.sign));

  assign s1_d.prod   = (2*P)'(s0_q.a.sig) * (2*P)'(s0_q.b.sig);
  assign s1_d.exp_p  = s0_q.a.exp + s0_q.b.exp;
  logic sign_p;
  assign sign_p      = s0_q.a.sign ^ s0_q.b.sign;
  assign s1_d.sign_p = sign_p;
  assign s1_d.sig_c  = s0_q.c.sig;
  assign s1_d.exp_c  = s0_q.c.exp;
  assign s1_d.sign_c = s0_q.c.sign;
  assign s1_d.zero_c = s0_q.c.zero;
  assign s1_d.ctrl   = s0_q.ctrl;

  logic [FW-1:0] inf;
  assign inf = s0_q.ctrl.fmt ? INF1 : INF0;

  logic          special;
  logic [FW-1:0] special_bits;
  assign s1_d.special      = special;
  assign s1_d.special_bits = special_bits;

  always_comb begin
    special      = 1'b1;
    special_bits = '0;
    if (s0_q.oob_hit) begin
      special_bits = '0;                                   // .oob: +0
    end else if (nan_result) begin
      special_bits = CANON_NAN;
    end else if (prod_inf) begin
      special_bits = inf | (sign_p ? SIGN_BIT : '0);
    end else if (s0_q.c.inf) begin
      special_bits = inf | (s0_q.c.sign ? SIGN_BIT : '0);
    end else if (prod_zero) begin
      // 0 + c = c exactly; 0 + 0 is -0 only when both zeros are negative (RN).
      if (s0_q.c.zero) special_bits = (sign_p & s0_q.c.sign) ? SIGN_BIT : '0;
      else             special_bits = s0_q.c_bits;
    end else begin
      special      = 1'b0;
    end
  end

  ptxfu_stage_reg #(.WIDTH($bits(s1_d)), .ENABLE(CUT_MASK[1])) i_cut1 (
    .clk_i, .en_i(en_i[1]), .d_i(s1_d), .q_o(s1_q)
  );

  // ===========================================================================
  // Section 2: align the addend to the product
  // ===========================================================================
  // The window has W = 3P+5 bits, LSB weight 2^(exp_p - 2P). The product sits
  // at a fixed place, the addend is shifted right from the top by
  // shift = P+4 - (exp_c - exp_p):
  //
  //   bit   W-1        2P+5 2P+4 2P+2 2P+1           2 1 0
  //         | addend (P) |   gap   |  product (2P)   |0 0|      shift = 0
  //                          ... addend >> shift ...         | sticky -> jam
  //
  // If exp_c - exp_p > P+4 the product lies below the round bit of any
  // result: it only contributes a sticky "jam" (prod_jam), the addend stays
  // at the top and the window moves up with it (its LSB weight becomes
  // 2^(exp_c - (P+4) - 2P)). Addend bits shifted out below bit 0 OR into
  // `sticky`.
  typedef struct packed {
    logic [W-1:0]         prod_win;     // the product in the window (0 when jammed)
    logic [W-1:0]         addend_win;   // the aligned addend (0 when zero)
    logic                 sticky;       // addend bits below the window
    logic                 prod_jam;     // the product is below every round bit
    logic                 eff_sub;
    logic signed [EW-1:0] exp_w;        // window LSB weight is 2^(exp_w - 2P)
    logic                 sign_p;
    logic                 sign_c;
    logic                 special;
    logic [FW-1:0]        special_bits;
    ctrl_t                ctrl;
  } s2_t;

  s2_t s2_d, s2_q;

  localparam int SHIFT_TOP = P + 4;     // exp_c - exp_p at which shift = 0

  logic signed [EW-1:0] exp_diff, shift_raw;
  logic [SW-1:0]        shift;
  logic [2*W-1:0]       addend_wide;
  assign exp_diff  = s1_q.exp_c - s1_q.exp_p;
  assign shift_raw = EW'(SHIFT_TOP) - exp_diff;

  always_comb begin
    if (shift_raw < 0)                shift = '0;
    else if (shift_raw > $signed(EW'(W))) shift = SW'(W);
    else                              shift = shift_raw[SW-1:0];
  end

  assign addend_wide     = ((2*W)'(s1_q.sig_c) << (2*W - P)) >> shift;
  logic prod_jam;
  assign prod_jam        = ~s1_q.zero_c & (shift_raw < 0);
  assign s2_d.prod_jam   = prod_jam;
  assign s2_d.prod_win   = prod_jam ? '0 : W'({s1_q.prod, 2'b00});
  assign s2_d.addend_win = s1_q.zero_c ? '0 : addend_wide[2*W-1:W];
  assign s2_d.sticky     = ~s1_q.zero_c & (|addend_wide[W-1:0]);
  assign s2_d.eff_sub    = ~s1_q.zero_c & (s1_q.sign_p ^ s1_q.sign_c);
  assign s2_d.exp_w        = prod_jam ? (s1_q.exp_c - EW'(SHIFT_TOP)) : s1_q.exp_p;
  assign s2_d.sign_p       = s1_q.sign_p;
  assign s2_d.sign_c       = s1_q.sign_c;
  assign s2_d.special      = s1_q.special;
  assign s2_d.special_bits = s1_q.special_bits;
  assign s2_d.ctrl         = s1_q.ctrl;

  ptxfu_stage_reg #(.WIDTH($bits(s2_d)), .ENABLE(CUT_MASK[2])) i_cut2 (
    .clk_i, .en_i(en_i[2]), .d_i(s2_d), .q_o(s2_q)
  );

  // ===========================================================================
  // Section 3: add
  // ===========================================================================
  // The exact sum is  prod_win +/- (addend_win + f), 0 <= f < 1, f > 0 iff
  // sticky. Kept as floor(|sum|) in WS = W+1 bits plus an inexact flag:
  //   add:              prod + addend                       (f only sticky)
  //   sub, prod bigger: prod - addend - sticky              (borrow of f)
  //   sub, addend bigger (then sticky = 0): addend - prod
  //   product jammed:   addend (add) or addend - 1 (sub), inexact
  // An exact zero difference is +0 (RN).
  //
  //   mag:  | carry |           W bits of the window          |
  //           WS-1                                           0
  typedef struct packed {
    logic [WS-1:0]        mag;
    logic                 inexact;      // bits below mag's LSB are nonzero
    logic                 sign;
    logic signed [EW-1:0] exp_w;
    logic                 special;
    logic [FW-1:0]        special_bits;
    ctrl_t                ctrl;
  } s3_t;

  s3_t s3_d, s3_q;

  logic [WS-1:0] sum_add;
  logic [WS:0]   sum_sub, prod_ext, addend_ext;
  assign prod_ext   = (WS+1)'(s2_q.prod_win);
  assign addend_ext = (WS+1)'(s2_q.addend_win);
  assign sum_add    = WS'(prod_ext + addend_ext);   // < 2^WS
  assign sum_sub    = prod_ext - addend_ext - (WS+1)'(s2_q.sticky);

  logic [WS-1:0] mag;
  logic          sum_sign;
  assign s3_d.mag     = mag;
  assign s3_d.sign    = sum_sign;
  assign s3_d.inexact = s2_q.sticky | s2_q.prod_jam;

  always_comb begin
    if (s2_q.prod_jam) begin
      mag  = s2_q.eff_sub ? WS'(addend_ext - 1'b1) : WS'(addend_ext);
      sum_sign = s2_q.sign_c;
    end else if (!s2_q.eff_sub) begin
      mag  = sum_add;
      sum_sign = s2_q.sign_p;
    end else if (sum_sub[WS]) begin            // negative: the addend is bigger
      mag  = WS'(addend_ext - prod_ext);
      sum_sign = s2_q.sign_c;
    end else begin
      mag  = sum_sub[WS-1:0];
      sum_sign = s2_q.sign_p & (sum_sub != '0);  // exact cancellation: +0
    end
  end

  assign s3_d.exp_w        = s2_q.exp_w;
  assign s3_d.special      = s2_q.special;
  assign s3_d.special_bits = s2_q.special_bits;
  assign s3_d.ctrl         = s2_q.ctrl;

  ptxfu_stage_reg #(.WIDTH($bits(s3_d)), .ENABLE(CUT_MASK[3])) i_cut3 (
    .clk_i, .en_i(en_i[3]), .d_i(s3_d), .q_o(s3_q)
  );

  // ===========================================================================
  // Section 4: normalise
  // ===========================================================================
  // Bit WS-1 of mag has weight 2^e_top, e_top = exp_w - 2P + WS - 1. Shift the
  // leading one up to WS-1, but never below the format's emin: a result
  // smaller than 2^emin keeps a 0 in the hidden position (subnormal). Results
  // so small that the point lies above the window shift right (at most P+2:
  // beyond that every bit is below the round bit) and collect a sticky.
  //
  //   norm: | h | F_MAN fraction | r | sticky bits ...               |
  //          WS-1                  (per format, see section 5)      0
  typedef struct packed {
    logic [WS-1:0]        norm;
    logic signed [EW-1:0] exp_n;        // exponent of bit WS-1 (>= emin)
    logic                 inexact;
    logic                 sign;
    logic                 special;
    logic [FW-1:0]        special_bits;
    ctrl_t                ctrl;
  } s4_t;

  s4_t s4_d, s4_q;

  localparam int unsigned RMAX = P + 2;
  localparam int unsigned RW   = $clog2(RMAX + 1);

  logic [ZW-1:0]          lz;
  logic                   mag_zero;
  logic signed [EW-1:0]   e_top, emin, limit, shl;
  logic [RW-1:0]          shr;
  logic [WS+RMAX-1:0]     mag_shr;

  ptxfu_lzc #(.WIDTH(WS)) i_lzc (
    .in_i(s3_q.mag), .count_o(lz), .zero_o(mag_zero)
  );

  assign e_top = s3_q.exp_w - EW'(2 * P) + EW'(WS - 1);
  assign emin  = s3_q.ctrl.fmt ? EW'(EMIN1) : EW'(EMIN0);
  assign limit = e_top - emin;
  assign shl   = (limit < $signed(EW'(lz))) ? limit : EW'(lz);

  always_comb begin
    if (-shl > $signed(EW'(RMAX))) shr = RW'(RMAX);
    else                           shr = RW'(-shl);
  end
  assign mag_shr = {s3_q.mag, RMAX'(0)} >> shr;

  logic [WS-1:0]        norm;
  logic signed [EW-1:0] exp_n;
  logic                 norm_inexact;
  assign s4_d.norm    = norm;
  assign s4_d.exp_n   = exp_n;
  assign s4_d.inexact = norm_inexact;

  always_comb begin
    if (shl >= 0) begin
      norm         = s3_q.mag << shl;
      exp_n        = mag_zero ? emin : e_top - shl;   // an exact zero packs as 0
      norm_inexact = s3_q.inexact;
    end else begin
      norm         = mag_shr[WS+RMAX-1:RMAX];
      exp_n        = emin;
      norm_inexact = s3_q.inexact | (|mag_shr[RMAX-1:0]);
    end
  end

  assign s4_d.sign         = s3_q.sign;
  assign s4_d.special      = s3_q.special;
  assign s4_d.special_bits = s3_q.special_bits;
  assign s4_d.ctrl         = s3_q.ctrl;

  ptxfu_stage_reg #(.WIDTH($bits(s4_d)), .ENABLE(CUT_MASK[4])) i_cut4 (
    .clk_i, .en_i(en_i[4]), .d_i(s4_d), .q_o(s4_q)
  );

  // ===========================================================================
  // Section 5: round to nearest even, pack (per format, then choose)
  // ===========================================================================
  //   norm: | h | F_MAN fraction | r | s s s ... s |   -> sig = h.fraction
  //   packed = ((exp_n + bias - 1) << F_MAN) + sig     (a subnormal has h = 0
  //   and exp_n = emin, so its exponent field is 0; a carry out of the
  //   fraction bumps the exponent by itself) ; overflow -> inf.
  typedef struct packed {
    logic [FW-1:0] rounded;
    logic          special;
    logic [FW-1:0] special_bits;
    ctrl_t         ctrl;
  } s5_t;

  s5_t s5_d, s5_q;

  logic [FW-1:0] rounded0, rounded1;

  ptxfu_hfma_round #(.EXP(F0_EXP), .MAN(F0_MAN), .WS(WS), .EW(EW)) i_round0 (
    .norm_i(s4_q.norm), .exp_i(s4_q.exp_n), .inexact_i(s4_q.inexact), .sign_i(s4_q.sign),
    .result_o(rounded0)
  );
  ptxfu_hfma_round #(.EXP(F1_EXP), .MAN(F1_MAN), .WS(WS), .EW(EW)) i_round1 (
    .norm_i(s4_q.norm), .exp_i(s4_q.exp_n), .inexact_i(s4_q.inexact), .sign_i(s4_q.sign),
    .result_o(rounded1)
  );

  assign s5_d.rounded      = s4_q.ctrl.fmt ? rounded1 : rounded0;
  assign s5_d.special      = s4_q.special;
  assign s5_d.special_bits = s4_q.special_bits;
  assign s5_d.ctrl         = s4_q.ctrl;

  ptxfu_stage_reg #(.WIDTH($bits(s5_d)), .ENABLE(CUT_MASK[5])) i_cut5 (
    .clk_i, .en_i(en_i[5]), .d_i(s5_d), .q_o(s5_q)
  );

  // ===========================================================================
  // Section 6: special-case select and result policy
  // ===========================================================================
  // NaN -> canonical NaN (.sat: +0); .ftz flushes a subnormal result (decided
  // after rounding) to a zero of its sign; .sat clamps to [+0, 1]; .relu turns
  // negatives (and -0) into +0.
  logic [FW-1:0] res, exp_mask, one_q;
  logic          res_nan, res_sub, res_neg;

  assign res      = s5_q.special ? s5_q.special_bits : s5_q.rounded;
  assign exp_mask = s5_q.ctrl.fmt ? INF1 : INF0;
  assign one_q    = s5_q.ctrl.fmt ? ONE1 : ONE0;
  assign res_nan  = ((res & exp_mask) == exp_mask) & ((res & ~exp_mask & ~SIGN_BIT) != '0);
  assign res_sub  = ((res & exp_mask) == '0) & ((res & ~SIGN_BIT) != '0);
  assign res_neg  = res[FW-1];

  always_comb begin
    result_o = res;
    if (res_nan) begin
      result_o = s5_q.ctrl.sat ? '0 : CANON_NAN;
    end else begin
      if (s5_q.ctrl.ftz && res_sub) result_o = res & SIGN_BIT;
      if (s5_q.ctrl.sat) begin
        if (res_neg)         result_o = '0;
        else if (res > one_q) result_o = one_q;
      end
      if (s5_q.ctrl.relu && res_neg) result_o = '0;
    end
  end

endmodule
