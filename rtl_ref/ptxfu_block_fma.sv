// Block FMA of a tensor core: one block of the numerics rows (src/mma/numerics.h)
//
//   d = c + sum_{k < W} a[k] * b[k]
//
// as the published models describe it (Khattak & Mikaitis arXiv:2512.07004,
// Fasi et al. PeerJ CS 7:e330): exact products; every addend (the products
// and c) aligned to the largest exponent among them and truncated towards
// zero (sign and magnitude) to KEPT bits below it; an exact multi-operand
// adder (CARRY bits above the largest addend's leading bit); one
// normalisation; the normalised sum truncated to SUM_FRAC fraction bits;
// rounded to the output format towards zero (OUT_RNE = 0) or to nearest
// even (OUT_RNE = 1). Subnormal inputs and results are kept. A result beyond
// the output's range is the infinity whatever the rounding. NaN operands,
// inf * 0 and infinities of both signs give the canonical NaN (0 sign,
// all-ones exponent and fraction). A zero result is +0, whatever the addends'
// signs and whether it is exact or rounded (the H100 probe, docs/mma.md). Longer K chains through c: the next
// block's c_i is this block's result_o (the caller's loop).
//
// Sections, each with an optional register after it (cut j after section j,
// CUT_MASK[j]):
//     0 decode + multiply   1 align   2 add   3 normalise   4 round + select
//
// Addend layout on the grid (bit 0 = weight 2^(emax - KEPT)), d = emax - e:
//
//     bit  KEPT+1 KEPT ...                      0 | XL bits below (dropped)
//          [ product a*b: 2*IN_MAN+2 bits ....... ]        >> d
//               [ c: OUT_MAN+1 bits ........................ ]  >> d
//
// Pipelining and handshake as in ptxfu_hfma2: a beat accepted in cycle t
// leaves in cycle t + NUM_STAGES when out_ready_i stays high.
module ptxfu_block_fma #(
  parameter int unsigned NUM_STAGES  = 3,
  parameter logic [4:0]  CUT_MASK    = (NUM_STAGES == 0) ? 5'b00000 :
                                       (NUM_STAGES == 1) ? 5'b00100 :
                                       (NUM_STAGES == 2) ? 5'b01010 :
                                       (NUM_STAGES == 3) ? 5'b01101 :
                                       (NUM_STAGES == 4) ? 5'b01111 : 5'b11111,
  parameter int unsigned TAG_W       = 8,
  parameter int unsigned W           = 8,     // products a block (a power of two)
  parameter int unsigned IN_EXP      = 5,     // input format (a, b)
  parameter int unsigned IN_MAN      = 10,
  parameter int unsigned IN_SPECIALS = 0,     // see ptxfu_block_dec
  parameter int unsigned OUT_EXP     = 8,     // output format (c, d): IEEE
  parameter int unsigned OUT_MAN     = 23,
  parameter int unsigned KEPT        = 24,    // bits kept below the largest exponent
  parameter int unsigned CARRY       = 6,     // adder bits above it
  parameter int unsigned SUM_FRAC    = 63,    // fraction bits of the normalised sum
  parameter int unsigned OUT_RNE     = 0      // 0: towards zero, 1: nearest even
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         in_valid_i,
  output logic                         in_ready_o,
  input  logic [W*(1+IN_EXP+IN_MAN)-1:0] a_i,   // element k at bits k*IW +: IW
  input  logic [W*(1+IN_EXP+IN_MAN)-1:0] b_i,
  input  logic [OUT_EXP+OUT_MAN:0]     c_i,
  input  logic [TAG_W-1:0]             tag_i,
  output logic                         out_valid_o,
  input  logic                         out_ready_i,
  output logic [OUT_EXP+OUT_MAN:0]     result_o,
  output logic [TAG_W-1:0]             tag_o
);

  // ---------------------------------------------------------------------------
  // Widths, all derived from the parameters
  // ---------------------------------------------------------------------------
  localparam int unsigned NUM_CUTS = 5;
  localparam int unsigned IW   = 1 + IN_EXP + IN_MAN;     // input element
  localparam int unsigned OW   = 1 + OUT_EXP + OUT_MAN;   // output element
  localparam int unsigned PW   = 2 * (IN_MAN + 1);        // product significand
  localparam int unsigned CW   = OUT_MAN + 1;             // c significand
  localparam int unsigned EW   = 12;                      // signed exponents
  localparam int unsigned N    = W + 1;                   // addends: products, then c
  localparam int unsigned AW   = KEPT + 2;                // aligned magnitude
  localparam int unsigned XL0  = (2 * IN_MAN > KEPT) ? 2 * IN_MAN - KEPT : 0;
  localparam int unsigned XL   = (OUT_MAN > KEPT + XL0) ? OUT_MAN - KEPT : XL0;  // bits below the grid
  localparam int unsigned DMAX = AW + XL;                 // a shift this far leaves nothing
  localparam int unsigned DW   = $clog2(DMAX + 1);
  localparam int unsigned NW   = KEPT + CARRY;            // sum magnitude
  localparam int unsigned SW   = NW + 1;                  // signed sum
  localparam int unsigned ZW   = $clog2(NW + 1);
  localparam int unsigned NP   = 1 << $clog2(N);          // adder tree leaves
  localparam int          OUT_BIAS = (1 << (OUT_EXP - 1)) - 1;
  localparam int          OUT_EMIN = 1 - OUT_BIAS;
  localparam int          OUT_EMAX = (1 << OUT_EXP) - 2 - OUT_BIAS;
  localparam logic signed [EW-1:0] NO_EXP = {1'b1, {(EW-1){1'b0}}};  // below every exponent

  localparam logic [OW-1:0] CANON_NAN = {1'b0, {(OW-1){1'b1}}};
  localparam logic [OW-2:0] INF_MAG   = {{OUT_EXP{1'b1}}, {OUT_MAN{1'b0}}};

  // Parameter sets the datapath cannot hold (cosim/rtl.cmake refuses them
  // first, with the same reasons, at configuration time).
  if (W < 1 || (W & (W - 1)) != 0 || W > 64) begin : gen_bad_w
    $error("ptxfu_block_fma: W must be a power of two, 1..64");
  end
  if ((1 << (CARRY - 2)) < N) begin : gen_bad_carry
    $error("ptxfu_block_fma: CARRY bits do not cover W+1 addends below 2^(KEPT+2)");
  end
  if (NW > 62) begin : gen_bad_adder
    $error("ptxfu_block_fma: KEPT + CARRY beyond the 62-bit adder");
  end

  // ---------------------------------------------------------------------------
  // Pipeline control and the tag
  // ---------------------------------------------------------------------------
  logic [NUM_CUTS-1:0] en;
  ptxfu_pipe_ctrl #(.NUM_CUTS(NUM_CUTS), .CUT_MASK(CUT_MASK)) i_ctrl (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o, .out_valid_o, .out_ready_i, .en_o(en)
  );

  logic [(NUM_CUTS+1)*TAG_W-1:0] tag_s;   // slice j enters cut j
  assign tag_s[0 +: TAG_W] = tag_i;
  for (genvar j = 0; j < NUM_CUTS; j++) begin : gen_tag
    ptxfu_stage_reg #(.WIDTH(TAG_W), .ENABLE(CUT_MASK[j])) i_tag_reg (
      .clk_i, .en_i(en[j]), .d_i(tag_s[j*TAG_W +: TAG_W]), .q_o(tag_s[(j+1)*TAG_W +: TAG_W])
    );
  end
  assign tag_o = tag_s[NUM_CUTS*TAG_W +: TAG_W];

  // ---------------------------------------------------------------------------
  // 0 decode + multiply: exact products, their exponents, the specials
  // ---------------------------------------------------------------------------
  // flags: {nan, pos_inf, neg_inf}
  localparam int unsigned F0W = W * (PW + EW + 2) + CW + EW + 2 + 3;
  logic [F0W-1:0] s0_d, s0_q;
  logic [W*PW-1:0] psig;
  logic [W*EW-1:0] pexp;
  logic [W-1:0]    pneg, pnz, p_nan, p_pinf, p_ninf;
  logic [CW-1:0]   csig;
  logic signed [EW-1:0] cexp;
  logic            cneg, cnan, cinf;

  for (genvar k = 0; k < W; k++) begin : gen_product
    logic [IN_MAN:0]         sa, sb;
    logic signed [EW-1:0]    ea, eb;
    logic                    na, nb, nan_a, nan_b, inf_a, inf_b;
    ptxfu_block_dec #(.EXP(IN_EXP), .MAN(IN_MAN), .SPECIALS(IN_SPECIALS), .EW(EW)) i_dec_a (
      .x_i(a_i[k*IW +: IW]), .sig_o(sa), .exp_o(ea), .neg_o(na), .nan_o(nan_a), .inf_o(inf_a)
    );
    ptxfu_block_dec #(.EXP(IN_EXP), .MAN(IN_MAN), .SPECIALS(IN_SPECIALS), .EW(EW)) i_dec_b (
      .x_i(b_i[k*IW +: IW]), .sig_o(sb), .exp_o(eb), .neg_o(nb), .nan_o(nan_b), .inf_o(inf_b)
    );
    logic zero_a, zero_b;
    assign zero_a = ~(|sa) & ~inf_a & ~nan_a;
    assign zero_b = ~(|sb) & ~inf_b & ~nan_b;
    assign psig[k*PW +: PW] = PW'(sa) * PW'(sb);
    assign pexp[k*EW +: EW] = ea + eb;
    assign pneg[k] = na ^ nb;
    assign pnz[k]  = (|sa) & (|sb) & ~(inf_a | inf_b | nan_a | nan_b);
    assign p_nan[k]  = nan_a | nan_b | (inf_a & zero_b) | (inf_b & zero_a);
    assign p_pinf[k] = (inf_a | inf_b) & ~(na ^ nb);
    assign p_ninf[k] = (inf_a | inf_b) & (na ^ nb);
  end

  ptxfu_block_dec #(.EXP(OUT_EXP), .MAN(OUT_MAN), .SPECIALS(0), .EW(EW)) i_dec_c (
    .x_i(c_i), .sig_o(csig), .exp_o(cexp), .neg_o(cneg), .nan_o(cnan), .inf_o(cinf)
  );

  logic s0_nan, s0_pinf, s0_ninf, s0_cnz;
  assign s0_cnz  = (|csig) & ~cinf & ~cnan;
  assign s0_nan  = (|p_nan) | cnan;
  assign s0_pinf = (|p_pinf) | (cinf & ~cneg);
  assign s0_ninf = (|p_ninf) | (cinf & cneg);
  assign s0_d = {psig, pexp, pneg, pnz, csig, cexp, cneg, s0_cnz, s0_nan, s0_pinf, s0_ninf};

  ptxfu_stage_reg #(.WIDTH(F0W), .ENABLE(CUT_MASK[0])) i_cut0 (
    .clk_i, .en_i(en[0]), .d_i(s0_d), .q_o(s0_q)
  );

  // ---------------------------------------------------------------------------
  // 1 align: the largest exponent, each addend shifted to it and truncated
  // ---------------------------------------------------------------------------
  logic [W*PW-1:0] a1_psig;
  logic [W*EW-1:0] a1_pexp;
  logic [W-1:0]    a1_pneg, a1_pnz;
  logic [CW-1:0]   a1_csig;
  logic [EW-1:0]   a1_cexp;
  logic            a1_cneg, a1_cnz;
  logic [2:0]      a1_flags;
  assign {a1_psig, a1_pexp, a1_pneg, a1_pnz, a1_csig, a1_cexp, a1_cneg, a1_cnz, a1_flags} = s0_q;

  // Exponents of the nonzero addends (NO_EXP for the zeros), c last.
  logic [N*EW-1:0] e_of;
  logic [N-1:0]    nz_of, neg_of;
  for (genvar k = 0; k < W; k++) begin : gen_e
    assign e_of[k*EW +: EW] = a1_pnz[k] ? a1_pexp[k*EW +: EW] : NO_EXP;
  end
  assign e_of[W*EW +: EW] = a1_cnz ? a1_cexp : NO_EXP;
  assign nz_of  = {a1_cnz, a1_pnz};
  assign neg_of = {a1_cneg, a1_pneg};

  logic signed [EW-1:0] emax;
  always_comb begin
    emax = NO_EXP;
    for (int unsigned k = 0; k < N; k++) begin
      if ($signed(e_of[k*EW +: EW]) > emax) emax = $signed(e_of[k*EW +: EW]);
    end
  end

  // Each addend placed on the grid (XL bits below it), shifted right by
  // emax - e and truncated: the bits below the grid are dropped.
  logic [N*SW-1:0] aligned;
  for (genvar k = 0; k < N; k++) begin : gen_align
    logic [AW+XL-1:0] placed, shifted;
    logic [AW-1:0]    mag;
    logic [EW-1:0]    gap;
    logic [DW-1:0]    d;
    if (k < W) begin : gen_p
      assign placed = (AW + XL)'(a1_psig[k*PW +: PW]) << (KEPT + XL - 2 * IN_MAN);
    end else begin : gen_c
      assign placed = (AW + XL)'(a1_csig) << (KEPT + XL - OUT_MAN);
    end
    assign gap    = emax - e_of[k*EW +: EW];
    assign d       = (gap > EW'(DMAX)) ? DW'(DMAX) : gap[DW-1:0];
    assign shifted = placed >> d;
    if (XL > 0) begin : gen_dropped
      logic unused_below;   // the bits below the grid: truncated
      assign unused_below = ^shifted[XL-1:0];
    end
`ifdef PTXFU_BREAK_ALIGNMENT
    // Self test of the harness: one bit of alignment dropped.
    assign mag = shifted[XL +: AW] & ~AW'(1);
`else
    assign mag = shifted[XL +: AW];
`endif
    logic [SW-1:0] wide;
    assign wide = {{(SW - AW){1'b0}}, mag};
    assign aligned[k*SW +: SW] = !nz_of[k] ? '0 : neg_of[k] ? -wide : wide;
  end

  localparam int unsigned F1W = N * SW + EW + 1 + 3;
  logic [F1W-1:0] s1_q;
  logic           any_nz;
  assign any_nz = |nz_of;
  ptxfu_stage_reg #(.WIDTH(F1W), .ENABLE(CUT_MASK[1])) i_cut1 (
    .clk_i, .en_i(en[1]), .d_i({aligned, emax, any_nz, a1_flags}), .q_o(s1_q)
  );

  // ---------------------------------------------------------------------------
  // 2 add: an exact tree of two-input adders (node i = node 2i+1 + node 2i+2;
  // leaves NP-1 .. 2NP-2 are the addends, then zeros)
  // ---------------------------------------------------------------------------
  logic [N*SW-1:0] a2_add;
  logic [EW-1:0]   a2_emax;
  logic            a2_any;
  logic [2:0]      a2_flags;
  assign {a2_add, a2_emax, a2_any, a2_flags} = s1_q;

  logic [(2*NP-1)*SW-1:0] node /*verilator split_var*/;  // a tree, not a loop
  for (genvar i = 0; i < NP; i++) begin : gen_leaf
    if (i < N) begin : gen_addend
      assign node[(NP-1+i)*SW +: SW] = a2_add[i*SW +: SW];
    end else begin : gen_pad
      assign node[(NP-1+i)*SW +: SW] = '0;
    end
  end
  for (genvar i = 0; i < NP - 1; i++) begin : gen_sum
    assign node[i*SW +: SW] = node[(2*i+1)*SW +: SW] + node[(2*i+2)*SW +: SW];
  end

  localparam int unsigned F2W = SW + EW + 1 + 3;
  logic [F2W-1:0] s2_q;
  ptxfu_stage_reg #(.WIDTH(F2W), .ENABLE(CUT_MASK[2])) i_cut2 (
    .clk_i, .en_i(en[2]), .d_i({node[0 +: SW], a2_emax, a2_any, a2_flags}), .q_o(s2_q)
  );

  // ---------------------------------------------------------------------------
  // 3 normalise: magnitude, leading one to the top, the sum truncated to
  // SUM_FRAC fraction bits; e = exponent of the leading one
  // ---------------------------------------------------------------------------
  logic [SW-1:0]  sum;
  logic [EW-1:0]  a3_emax;
  logic           a3_any;
  logic [2:0]     a3_flags;
  assign {sum, a3_emax, a3_any, a3_flags} = s2_q;

  logic           sneg, szero;
  logic [NW-1:0]  smag, norm;
  logic [ZW-1:0]  lz;
  logic signed [EW-1:0] e;
  assign sneg = sum[SW-1];
  assign smag = sneg ? NW'(-sum) : sum[NW-1:0];
  ptxfu_lzc #(.WIDTH(NW)) i_lzc (.in_i(smag), .count_o(lz), .zero_o(szero));
  if (SUM_FRAC + 1 < NW) begin : gen_cut_sum
    assign norm = (smag << lz) & ~((NW'(1) << (NW - SUM_FRAC - 1)) - NW'(1));
  end else begin : gen_whole_sum
    assign norm = smag << lz;
  end
  assign e = $signed(a3_emax) + $signed(EW'(NW - 1 - KEPT)) - $signed(EW'(lz));

  localparam int unsigned F3W = NW + EW + 2 + 1 + 3;
  logic [F3W-1:0] s3_q;
  ptxfu_stage_reg #(.WIDTH(F3W), .ENABLE(CUT_MASK[3])) i_cut3 (
    .clk_i, .en_i(en[3]), .d_i({norm, e, sneg, szero, a3_any, a3_flags}), .q_o(s3_q)
  );

  // ---------------------------------------------------------------------------
  // 4 round + select: denormalise below emin, round, pack; the special,
  // zero and overflow results chosen last
  //
  //   ext = [ norm (NW) | OUT_MAN+2 zeros ] >> dn
  //         [ hidden | frac: OUT_MAN | guard | sticky ...... ]
  // ---------------------------------------------------------------------------
  localparam int unsigned XW  = NW + OUT_MAN + 2;
  localparam int unsigned DNW = $clog2(OUT_MAN + 3);
  logic [NW-1:0]  r_norm;
  logic signed [EW-1:0] r_e;
  logic           r_neg, r_zero, r_any, r_nan, r_pinf, r_ninf;
  assign {r_norm, r_e, r_neg, r_zero, r_any, r_nan, r_pinf, r_ninf} = s3_q;

  logic              tiny, ovf, guard, sticky, inc;
  logic signed [EW-1:0] below;
  logic [DNW-1:0]    dn;
  logic [XW-1:0]     ext, sh, lost_mask;
  logic [OUT_MAN-1:0] frac;   // the hidden bit is the exponent's business
  logic [OUT_EXP-1:0] field;
  logic [OW-2:0]     packed_mag, rounded;
  assign tiny  = r_e < $signed(EW'(OUT_EMIN));
  assign ovf   = r_e > $signed(EW'(OUT_EMAX));
  assign below = $signed(EW'(OUT_EMIN)) - r_e;
  assign dn    = !tiny ? '0 : (below > $signed(EW'(OUT_MAN + 2))) ? DNW'(OUT_MAN + 2) : below[DNW-1:0];
  assign ext   = {r_norm, {(OUT_MAN + 2){1'b0}}};
  assign sh    = ext >> dn;
  assign lost_mask = ~({XW{1'b1}} << dn);
  assign frac   = sh[NW+1 +: OUT_MAN];
  assign guard  = sh[NW];
  assign sticky = (|sh[NW-1:0]) | (|(ext & lost_mask));
  assign field  = tiny ? '0 : OUT_EXP'(r_e + $signed(EW'(OUT_BIAS)));
  assign packed_mag = {field, frac};
  assign inc     = (OUT_RNE != 0) & guard & (sticky | frac[0]);
  assign rounded = packed_mag + (OW-1)'(inc);   // a carry out of the fraction lands in the exponent

  logic [OW-1:0] result;
  always_comb begin
    if (r_nan | (r_pinf & r_ninf)) result = CANON_NAN;
    else if (r_pinf | r_ninf)      result = {r_ninf, INF_MAG};
    else if (!r_any | r_zero)      result = '0;   // a zero result is +0 (measured on the H100)
    else if (ovf)                  result = {r_neg, INF_MAG};
    else if (rounded == '0)        result = '0;   // rounded to zero: +0 as well
    else                           result = {r_neg, rounded};
  end

  ptxfu_stage_reg #(.WIDTH(OW), .ENABLE(CUT_MASK[4])) i_cut4 (
    .clk_i, .en_i(en[4]), .d_i(result), .q_o(result_o)
  );

endmodule
