/* ptxfu's C API: the exact core behind plain C types, so that a C program or
 * a SystemVerilog testbench (through DPI-C) can use it as a golden model.
 *
 *   SystemVerilog:
 *     import "DPI-C" function int ptxfu_eval3(input string op, input longint unsigned a,
 *                                             input longint unsigned b, input longint unsigned c,
 *                                             output longint unsigned d);
 *     if (ptxfu_eval3("fma.rn.f16", 64'h3c00, 64'h4000, 64'h3c00, d) != 0) $error(...);
 *
 * Forms are spelled as in PTX (and in `ptxfu eval`); operands and results are
 * bit patterns, zero-extended to 64 bits. All forms of the instruction table
 * are legal (the newest target); no state is kept between calls. */
#ifndef PTXFU_CAPI_H
#define PTXFU_CAPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define PTXFU_OK 0
#define PTXFU_BAD_FORM 1     /* the mnemonic is not a legal form with that many sources */
#define PTXFU_BAD_OPERAND 2  /* an operand does not fit its width */

/* Evaluates `op` on `num_src` sources. Forms that read the carry flag take
 * `carry_in`; `carry_out` (may be NULL) receives the flag of .cc forms. */
int ptxfu_eval(const char* op, const uint64_t* src, unsigned num_src, int carry_in, uint64_t* result,
               int* carry_out);

/* Fixed-arity wrappers for DPI-C. */
int ptxfu_eval1(const char* op, uint64_t a, uint64_t* d);
int ptxfu_eval2(const char* op, uint64_t a, uint64_t b, uint64_t* d);
int ptxfu_eval3(const char* op, uint64_t a, uint64_t b, uint64_t c, uint64_t* d);

/* Evaluates `op` on `n` vectors of `num_src` sources each, the form decoded
 * and checked once for all of them (the floating-point arithmetic runs on
 * the core's array path): what a testbench checking many vectors calls once
 * per batch instead of ptxfu_eval once per vector. Operand k of vector i is
 * src[i * num_src + k]; results[i] receives vector i's destination.
 * carry_in (NULL: all 0) and carry_out (may be NULL) hold one flag per
 * vector, as ptxfu_eval's. Nothing is evaluated when an operand does not fit
 * its width: the status is PTXFU_BAD_OPERAND and the message names the
 * first such vector.
 *
 *   SystemVerilog (fixed-size arrays are passed as C arrays):
 *     import "DPI-C" function int ptxfu_eval_array(input string op, input int unsigned num_src,
 *         input int unsigned n, input longint unsigned src[3 * N], input int carry_in[N],
 *         output longint unsigned d[N], output int carry_out[N]);
 */
int ptxfu_eval_array(const char* op, unsigned num_src, uint32_t n, const uint64_t* src, const int* carry_in,
                     uint64_t* results, int* carry_out);

/* A readable message for the last error of this thread ("" if none). */
const char* ptxfu_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
