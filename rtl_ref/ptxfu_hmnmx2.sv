// HMNMX2: a two-lane (LANES) half-precision min / max / neg / abs unit for f16
// (fmt_i = 0) and bf16 (fmt_i = 1), with .NaN, .xorsign.abs and .ftz (see
// ptxfu_hmnmx_lane). Lane l = bits 16l+15:16l; neg and abs read a only.
//
// Pipelining: NUM_STAGES registers after the sections named by CUT_MASK
// (bit j: after section j; 0 classify, 1 compare). A beat accepted in cycle t
// leaves in cycle t + NUM_STAGES when out_ready_i is high.
module ptxfu_hmnmx2 #(
  parameter int unsigned NUM_STAGES = 1,
  parameter logic [1:0]  CUT_MASK   = (NUM_STAGES == 0) ? 2'b00 :
                                      (NUM_STAGES == 1) ? 2'b10 : 2'b11,
  parameter int unsigned TAG_W      = 8,
  parameter int unsigned LANES      = 2,
  parameter int unsigned F0_EXP     = 5,
  parameter int unsigned F0_MAN     = 10,
  parameter int unsigned F1_EXP     = 8,
  parameter int unsigned F1_MAN     = 7
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // request
  input  logic                                in_valid_i,
  output logic                                in_ready_o,
  input  logic [1:0]                          op_i,          // 0 min, 1 max, 2 neg, 3 abs
  input  logic                                fmt_i,         // 0 f16, 1 bf16
  input  logic                                ftz_i,
  input  logic                                nan_i,         // .NaN
  input  logic                                xorsign_abs_i, // .xorsign.abs
  input  logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  a_i,
  input  logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  b_i,
  input  logic [TAG_W-1:0]                    tag_i,
  // response
  output logic                                out_valid_o,
  input  logic                                out_ready_i,
  output logic [LANES*(1+F0_EXP+F0_MAN)-1:0]  result_o,
  output logic [TAG_W-1:0]                    tag_o
);

  localparam int unsigned FW       = 1 + F0_EXP + F0_MAN;
  localparam int unsigned NUM_CUTS = 2;

  if (({31'd0, CUT_MASK[0]} + {31'd0, CUT_MASK[1]}) != NUM_STAGES) begin : gen_bad_stages
    $error("ptxfu_hmnmx2: CUT_MASK must hold NUM_STAGES (0..2) registers");
  end

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

  for (genvar l = 0; l < LANES; l++) begin : gen_lane
    ptxfu_hmnmx_lane #(
      .F0_EXP(F0_EXP), .F0_MAN(F0_MAN), .F1_EXP(F1_EXP), .F1_MAN(F1_MAN), .CUT_MASK(CUT_MASK)
    ) i_lane (
      .clk_i,
      .en_i         (en),
      .op_i,
      .fmt_i,
      .ftz_i,
      .nan_i,
      .xorsign_abs_i,
      .a_i          (a_i[l*FW +: FW]),
      .b_i          (b_i[l*FW +: FW]),
      .result_o     (result_o[l*FW +: FW])
    );
  end

endmodule
