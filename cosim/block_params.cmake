# The parameter sets of the block FMA RTL (rtl_ref/ptxfu_block_fma.sv):
#
#   ptxfu_block_fma_params(<out_var> IN <fmt> OUT <f32|f16> WIDTH <W> KEPT <B> CARRY <bits>
#                          SUM_FRAC <bits> ROUND <rz|rn>)
#
# sets <out_var> to the set's Verilator -G arguments, or stops configuration
# with a message saying what the RTL cannot build (W not a power of two, an
# adder too narrow or too wide, a format the datapath has no decoder for):
# the same limits as the RTL's own $error checks, said before Verilator runs.
#
# The format encodings (exponent and fraction bits, what the all-ones
# exponent means) are read from the C++ format rows (src/fp/format.h), the one
# source: `inline constexpr Format kF16{"f16", 5, 10, Specials::ieee, ...}`.
#
# Script mode (the configuration-time refusal test in tb/cosim):
#   cmake -DIN=f16 -DOUT=f32 -DWIDTH=6 -DKEPT=24 -DCARRY=6 -DSUM_FRAC=63 -DROUND=rz -P block_params.cmake
get_filename_component(_ptxfu_block_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(PTXFU_BLOCK_FORMAT_HEADER ${_ptxfu_block_root}/src/fp/format.h)

# The largest adder the RTL builds: KEPT + CARRY bits of magnitude (the
# engine's own limit, src/mma/block_fma.cc).
set(PTXFU_BLOCK_MAX_ADDER 62)

# <prefix>_EXP, <prefix>_MAN, <prefix>_SPECIALS (the fp::Specials index) of a
# format row by name; FATAL_ERROR when there is none.
function(_ptxfu_format_row name prefix)
  file(STRINGS ${PTXFU_BLOCK_FORMAT_HEADER} _enum REGEX "^enum class Specials")
  string(REGEX MATCH "{([^}]*)}" _m "${_enum}")
  string(REPLACE "," ";" _specials "${CMAKE_MATCH_1}")
  list(TRANSFORM _specials STRIP)
  file(STRINGS ${PTXFU_BLOCK_FORMAT_HEADER} _rows REGEX "^inline constexpr Format k[A-Z0-9]+{\"${name}\",")
  if(NOT _rows MATCHES "{\"${name}\", *([0-9]+), *([0-9]+), *Specials::([a-z_]+)")
    message(FATAL_ERROR "block FMA: no format row '${name}' in src/fp/format.h")
  endif()
  list(FIND _specials "${CMAKE_MATCH_3}" _index)
  set(${prefix}_EXP ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${prefix}_MAN ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(${prefix}_SPECIALS ${_index} PARENT_SCOPE)
endfunction()

function(ptxfu_block_fma_params out)
  cmake_parse_arguments(P "" "IN;OUT;WIDTH;KEPT;CARRY;SUM_FRAC;ROUND" "" ${ARGN})
  set(what "block FMA parameter set ${P_IN}->${P_OUT} W=${P_WIDTH} B=${P_KEPT} carry=${P_CARRY}")
  foreach(v WIDTH KEPT CARRY SUM_FRAC)
    if(NOT P_${v} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${what}: ${v} must be a whole number, not '${P_${v}}'")
    endif()
  endforeach()
  math(EXPR _low "${P_WIDTH} & (${P_WIDTH} - 1)")
  if(P_WIDTH LESS 1 OR P_WIDTH GREATER 64 OR NOT _low EQUAL 0)
    message(FATAL_ERROR "${what}: W = ${P_WIDTH} is not a power of two from 1 to 64 "
                        "(the adder tree and the RTL need one)")
  endif()
  math(EXPR _adder "${P_KEPT} + ${P_CARRY}")
  if(_adder GREATER PTXFU_BLOCK_MAX_ADDER)
    message(FATAL_ERROR "${what}: B + carry = ${_adder} bits is beyond the ${PTXFU_BLOCK_MAX_ADDER}-bit adder")
  endif()
  math(EXPR _need "${P_WIDTH} + 1")
  set(_carry_need 2)
  math(EXPR _cover "1 << (${_carry_need} - 2)")
  while(_cover LESS _need)
    math(EXPR _carry_need "${_carry_need} + 1")
    math(EXPR _cover "1 << (${_carry_need} - 2)")
  endwhile()
  if(P_CARRY LESS _carry_need)
    message(FATAL_ERROR "${what}: ${P_CARRY} carry bits cannot hold the sum of ${_need} addends below "
                        "2^(B+2); W = ${P_WIDTH} needs ${_carry_need}")
  endif()
  if(P_SUM_FRAC LESS 1)
    message(FATAL_ERROR "${what}: SUM_FRAC must be at least 1")
  endif()
  if(NOT P_ROUND MATCHES "^(rz|rn)$")
    message(FATAL_ERROR "${what}: ROUND must be rz (fp32 truncated) or rn (nearest even), not '${P_ROUND}'")
  endif()
  _ptxfu_format_row("${P_IN}" IN)
  _ptxfu_format_row("${P_OUT}" OUT)
  if(IN_SPECIALS GREATER 2 OR IN_EXP LESS 2)
    message(FATAL_ERROR "${what}: the RTL has no decoder for ${P_IN}")
  endif()
  if(NOT OUT_SPECIALS EQUAL 0 OR OUT_MAN LESS 2)
    message(FATAL_ERROR "${what}: the output must be an IEEE format (f32, f16), not ${P_OUT}")
  endif()
  set(_rne 0)
  if(P_ROUND STREQUAL rn)
    set(_rne 1)
  endif()
  set(${out} -GW=${P_WIDTH} -GIN_EXP=${IN_EXP} -GIN_MAN=${IN_MAN} -GIN_SPECIALS=${IN_SPECIALS}
             -GOUT_EXP=${OUT_EXP} -GOUT_MAN=${OUT_MAN} -GKEPT=${P_KEPT} -GCARRY=${P_CARRY}
             -GSUM_FRAC=${P_SUM_FRAC} -GOUT_RNE=${_rne} PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  ptxfu_block_fma_params(_args IN ${IN} OUT ${OUT} WIDTH ${WIDTH} KEPT ${KEPT} CARRY ${CARRY}
                         SUM_FRAC ${SUM_FRAC} ROUND ${ROUND})
  message(STATUS "block FMA parameters: ${_args}")
endif()
