// The data register of one pipeline cut: a plain enable flop when ENABLE,
// a wire otherwise. No reset: the valid bit in ptxfu_pipe_ctrl guards it.
module ptxfu_stage_reg #(
  parameter int unsigned WIDTH  = 1,
  parameter bit          ENABLE = 1'b1
) (
  input  logic             clk_i,
  input  logic             en_i,
  input  logic [WIDTH-1:0] d_i,
  output logic [WIDTH-1:0] q_o
);

  if (ENABLE) begin : gen_reg
    logic [WIDTH-1:0] data_q;
    always_ff @(posedge clk_i) begin
      if (en_i) data_q <= d_i;
    end
    assign q_o = data_q;
  end else begin : gen_wire
    logic unused_clk_en;   // a wire needs neither
    assign unused_clk_en = clk_i ^ en_i;
    assign q_o = d_i;
  end

endmodule
