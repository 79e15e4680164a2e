// A SystemVerilog testbench that uses ptxfu's exact core as its golden model
// through DPI-C (src/capi/ptxfu.h). Expected values are worked out by hand
// from the PTX semantics; a mismatch or a call that fails ends in $fatal.
module dpi_example;
  import "DPI-C" function int ptxfu_eval1(input string op, input longint unsigned a,
                                          output longint unsigned d);
  import "DPI-C" function int ptxfu_eval2(input string op, input longint unsigned a,
                                          input longint unsigned b, output longint unsigned d);
  import "DPI-C" function int ptxfu_eval3(input string op, input longint unsigned a,
                                          input longint unsigned b, input longint unsigned c,
                                          output longint unsigned d);

  int checks = 0;
  int errors = 0;

  function automatic void check(input string op, input int status, input longint unsigned got,
                                input longint unsigned want);
    checks++;
    if (status != 0 || got != want) begin
      errors++;
      $display("MISMATCH %s: status %0d, got 0x%0h, want 0x%0h", op, status, got, want);
    end
  endfunction

  initial begin
    longint unsigned d;
    int s;
    s = ptxfu_eval3("fma.rn.f16", 64'h3c00, 64'h4000, 64'h3c00, d);  // 1 * 2 + 1 = 3
    check("fma.rn.f16", s, d, 64'h4200);
    s = ptxfu_eval3("fma.rn.sat.f16x2", 64'h3c004000, 64'h40003c00, 64'h0, d);  // 2, 2 clamp to 1, 1
    check("fma.rn.sat.f16x2", s, d, 64'h3c003c00);
    s = ptxfu_eval2("add.rn.f32", 64'h3f800000, 64'h3f800000, d);  // 1 + 1 = 2
    check("add.rn.f32", s, d, 64'h40000000);
    s = ptxfu_eval2("mul.wide.u32", 64'hffffffff, 64'h2, d);  // (2^32 - 1) * 2
    check("mul.wide.u32", s, d, 64'h1fffffffe);
    s = ptxfu_eval1("abs.bf16", 64'hbf80, d);  // |-1| = 1
    check("abs.bf16", s, d, 64'h3f80);
    s = ptxfu_eval2("max.NaN.f32", 64'h7fc00000, 64'h3f800000, d);  // .NaN: canonical NaN
    check("max.NaN.f32", s, d, 64'h7fffffff);
    s = ptxfu_eval3("dp4a.u32.u32", 64'h01020304, 64'h01010101, 64'd10, d);  // 1+2+3+4+10
    check("dp4a.u32.u32", s, d, 64'd20);
    s = ptxfu_eval2("add.f33", 64'h0, 64'h0, d);  // not a form: status 1
    checks++;
    if (s != 1) begin
      errors++;
      $display("MISMATCH: a bad form returned status %0d", s);
    end
    if (errors != 0) $fatal(1, "dpi_example: %0d of %0d checks failed", errors, checks);
    $display("dpi_example: %0d checks passed", checks);
    $finish;
  end
endmodule
