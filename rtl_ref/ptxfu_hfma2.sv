// HFMA2: a two-lane (LANES) half-precision fused multiply-add unit.
//
//   d[l] = a[l] * b[l] + c[l]   (op_i = 0, fma)     lane l = bits 16l+15:16l
//          a[l] + c[l]          (op_i = 1, add)     b is ignored
//          a[l] - c[l]          (op_i = 2, sub)     b is ignored
//          a[l] * b[l]          (op_i = 3, mul)     c is ignored
// in f16 (fmt_i = 0) or bf16 (fmt_i = 1), round to nearest even, with the PTX
// modifiers .ftz .sat .relu .oob (see ptxfu_hfma_lane). All lanes share the
// operation and modifiers of a beat.
//
// Pipelining: NUM_STAGES registers, placed after the sections named by
// CUT_MASK (bit j: after section j; 0 classify, 1 multiply, 2 align, 3 add,
// 4 normalise, 5 round). A beat accepted in cycle t leaves in cycle
// t + NUM_STAGES when out_ready_i is high. tag_i travels with the beat.
module ptxfu_hfma2 #(
  parameter int unsigned NUM_STAGES = 4,
  parameter logic [5:0]  CUT_MASK   = (NUM_STAGES == 0) ? 6'b000000 :
                                      (NUM_STAGES == 1) ? 6'b001000 :
                                      (NUM_STAGES == 2) ? 6'b010010 :
                                      (NUM_STAGES == 3) ? 6'b101010 :
                                      (NUM_STAGES == 4) ? 6'b011110 :
                                      (NUM_STAGES == 5) ? 6'b011111 : 6'b111111,
  parameter int unsigned TAG_W      = 8,
  parameter int unsigned LANES      = 2,
  parameter int unsigned F0_EXP     = 5,       // format 0: f16
  parameter int unsigned F0_MAN     = 10,
  parameter int unsigned F1_EXP     = 8,       // format 1: bf16
  parameter int unsigned F1_MAN     = 7,
  // The OOB-NaN that .oob recognises (PTX ISA 9.1, 5.5.3.3: no bit pattern
  // given). 16'h7ff7 matched on the magnitude, the same constant as the core's
  // fp::oob_nan() (src/fp/policy.h); ptxfu_cosim_test checks they agree.
  parameter logic [F0_EXP+F0_MAN:0] OOB_NAN = 16'h7ff7,
  parameter bit          OOB_IGNORE_SIGN = 1'b1
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // request
  input  logic                                in_valid_i,
  output logic                                in_ready_o,
  input  logic [1:0]                          op_i,     // 0 fma, 1 add, 2 sub, 3 mul
  input  logic                                fmt_i,    // 0 f16, 1 bf16
  input  logic                                ftz_i,
  input  logic                                sat_i,
  input  logic                                relu_i,
  input  logic                                oob_i,
  input  logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  a_i,
  input  logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  b_i,
  input  logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  c_i,
  input  logic [TAG_W-1:0]                    tag_i,
  // response
  output logic                                out_valid_o,
  input  logic                                out_ready_i,
  output logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  result_o,
  output logic [TAG_W-1:0]                    tag_o
);

  localparam int unsigned FW       = 1 + F0_EXP + F0_MAN;
  localparam int unsigned NUM_CUTS = 6;

  function integer popcount(input logic [NUM_CUTS-1:0] mask);
    integer i, n;
    n = 0;
    for (i = 0; i < NUM_CUTS; i = i + 1) n = n + {31'd0, mask[i]};
    popcount = n;
  endfunction

  if (popcount(CUT_MASK) != NUM_STAGES) begin : gen_bad_stages
    $error("ptxfu_hfma2: CUT_MASK must hold NUM_STAGES (0..6) registers");
  end

  logic [NUM_CUTS-1:0] en;

  ptxfu_pipe_ctrl #(.NUM_CUTS(NUM_CUTS), .CUT_MASK(CUT_MASK)) i_ctrl (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o, .out_valid_o, .out_ready_i, .en_o(en)
  );

  // The tag rides along through the same cuts.
  logic [(NUM_CUTS+1)*TAG_W-1:0] tag_s;   // slice j enters cut j
  assign tag_s[0 +: TAG_W] = tag_i;
  for (genvar j = 0; j < NUM_CUTS; j++) begin : gen_tag
    ptxfu_stage_reg #(.WIDTH(TAG_W), .ENABLE(CUT_MASK[j])) i_tag_reg (
      .clk_i, .en_i(en[j]), .d_i(tag_s[j*TAG_W +: TAG_W]), .q_o(tag_s[(j+1)*TAG_W +: TAG_W])
    );
  end
  assign tag_o = tag_s[NUM_CUTS*TAG_W +: TAG_W];

  for (genvar l = 0; l < LANES; l++) begin : gen_lane
    ptxfu_hfma_lane #(
      .F0_EXP(F0_EXP), .F0_MAN(F0_MAN), .F1_EXP(F1_EXP), .F1_MAN(F1_MAN),
      .CUT_MASK(CUT_MASK), .OOB_NAN(OOB_NAN), .OOB_IGNORE_SIGN(OOB_IGNORE_SIGN)
    ) i_lane (
      .clk_i,
      .en_i    (en),
      .op_i,
      .fmt_i,
      .ftz_i,
      .sat_i,
      .relu_i,
      .oob_i,
      .a_i     (a_i[l*FW +: FW]),
      .b_i     (b_i[l*FW +: FW]),
      .c_i     (c_i[l*FW +: FW]),
      .result_o(result_o[l*FW +: FW])
    );
  end

endmodule
