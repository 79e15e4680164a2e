// Valid/ready control of a datapath cut into sections. Cut j sits after
// section j; CUT_MASK[j] says whether it holds a register. The controller
// keeps one valid bit per registered cut and tells the datapath when to load
// it (en_o[j]); the data registers themselves live next to their section
// (ptxfu_stage_reg) and need no reset. Backpressure ripples combinationally
// from out_ready_i to in_ready_o, so a full pipeline advances every cycle.
//
// Latency: a beat accepted in cycle t leaves in cycle t + popcount(CUT_MASK)
// when out_ready_i stays high.
module ptxfu_pipe_ctrl #(
  parameter int unsigned NUM_CUTS = 1,
  parameter logic [NUM_CUTS-1:0] CUT_MASK = '0
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                in_valid_i,
  output logic                in_ready_o,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [NUM_CUTS-1:0] en_o          // load enable of cut j's data register
);

  // valid[j] enters cut j, ready[j] is cut j's readiness to take it.
  // Index j + 1 is the signal after cut j.
  // (split_var: the bits form chains, not a loop.)
  logic [NUM_CUTS:0] valid /*verilator split_var*/;
  logic [NUM_CUTS:0] ready /*verilator split_var*/;

  if (CUT_MASK == '0) begin : gen_comb
    logic unused_clk_rst;   // a purely combinational pipe has no state
    assign unused_clk_rst = clk_i ^ rst_ni;
  end

  assign valid[0]    = in_valid_i;
  assign in_ready_o  = ready[0];
  assign out_valid_o = valid[NUM_CUTS];
  assign ready[NUM_CUTS] = out_ready_i;

  for (genvar j = 0; j < NUM_CUTS; j++) begin : gen_cut
    if (CUT_MASK[j]) begin : gen_reg
      logic valid_q;
      assign ready[j]     = ~valid_q | ready[j+1];
      assign en_o[j]      = valid[j] & ready[j];
      assign valid[j+1]   = valid_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q <= 1'b0;
        end else if (ready[j]) begin
          valid_q <= valid[j];
        end
      end
    end else begin : gen_wire
      assign ready[j]   = ready[j+1];
      assign en_o[j]    = 1'b0;
      assign valid[j+1] = valid[j];
    end
  end

endmodule
