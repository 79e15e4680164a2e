// Leading-zero count of a WIDTH-bit vector: count_o = number of zeros above
// the most significant one; count_o = WIDTH and zero_o = 1 when all bits are 0.
module ptxfu_lzc #(
  parameter int unsigned WIDTH = 8
) (
  input  logic [WIDTH-1:0]           in_i,
  output logic [$clog2(WIDTH+1)-1:0] count_o,
  output logic                       zero_o
);

  localparam int unsigned CW = $clog2(WIDTH + 1);

  always_comb begin
    count_o = CW'(WIDTH);
    // Scan from the bottom so that the highest one written last wins.
    for (int unsigned i = 0; i < WIDTH; i++) begin
      if (in_i[i]) count_o = CW'(WIDTH - 1 - i);
    end
  end

  assign zero_o = ~|in_i;

endmodule
