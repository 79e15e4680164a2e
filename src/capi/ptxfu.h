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
#define PTXFU_BAD_FORM 1    /* the mnemonic is not a legal form with that many sources */
#define PTXFU_BAD_OPERAND 2 /* an operand does not fit its width */
#define PTXFU_BAD_SHAPE 3   /* matrices of sizes the instruction cannot take */

/* Evaluates `op` on `num_src` sources. Forms that read the carry flag take
 * `carry_in`; `carry_out` (may be NULL) receives the flag of .cc forms. */
int ptxfu_eval(const char* op, const uint64_t* src, unsigned num_src, int carry_in, uint64_t* result, int* carry_out);

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
 * vector, as ptxfu_eval's. The vectors go in blocks of 512, each block's
 * widths checked before it is evaluated (one read of the input): when an
 * operand does not fit its width the status is PTXFU_BAD_OPERAND, the message
 * names the first such vector, the blocks before its block are evaluated and
 * nothing from its block on is written.
 *
 *   SystemVerilog (fixed-size arrays are passed as C arrays):
 *     import "DPI-C" function int ptxfu_eval_array(input string op, input int unsigned num_src,
 *         input int unsigned n, input longint unsigned src[3 * N], input int carry_in[N],
 *         output longint unsigned d[N], output int carry_out[N]);
 */
int ptxfu_eval_array(const char* op, unsigned num_src, uint32_t n, const uint64_t* src, const int* carry_in,
                     uint64_t* results, int* carry_out);

/* Matrix multiply-accumulate (tensor cores): D = A B + C as `target`'s
 * tensor core computes `instruction` ("mma.sync.aligned.m16n8k16.row.col.
 * f32.bf16.bf16.f32", "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16",
 * "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16"; target "sm_80").
 * Elements are bit patterns zero-extended to 64 bits: A row-major m x k,
 * B row-major k x n, C and D row-major m x n (d may be c); tf32 elements
 * are f32 registers (the low 13 bits are ignored, as the hardware
 * truncates), integers their two's complement bits. Status PTXFU_BAD_FORM
 * for an instruction the target does not have, PTXFU_BAD_SHAPE for sizes it
 * cannot take, PTXFU_BAD_OPERAND for an element wider than its type. */

/* The instruction's shape (m, n and k may be NULL). */
int ptxfu_mma_shape(const char* instruction, const char* target, int* m, int* n, int* k);

/* One instruction: m, n, k are its shape (ptxfu_mma_shape). */
int ptxfu_mma(const char* instruction, const char* target, const uint64_t* a, const uint64_t* b, const uint64_t* c,
              uint64_t* d);

/* A (m x k) B (k x n) + C as a simple kernel computes it: the instruction
 * chained over k in ascending order (k a multiple of the instruction's k),
 * m and n any size (every element of D is independent of the tiling). */
int ptxfu_matmul(const char* instruction, const char* target, uint32_t m, uint32_t n, uint32_t k, const uint64_t* a,
                 const uint64_t* b, const uint64_t* c, uint64_t* d);

/* A readable message for the last error of this thread ("" if none). */
const char* ptxfu_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
