# Every ctest test carries exactly one of these labels (README, "Testing"):
#   unit   the core and the ISA: formats, integers, executors, parser, checker, C API, command line
#   model  the SystemC models, the kernel executor on the model, sweeps, the Python module
#   rtl    the reference RTL: Verilator lint, Yosys reads, co-simulation, DPI-C
#   slow   long runs that CI runs with the rest (ptxas agreement, exhaustive conversions and
#          operand pairs, install); COST makes ctest start them first
#   hw     the GPU calibration and table-dump kit (tb/hw; skipped without nvcc or a GPU)
# The test preset `quick` runs label unit. ptxfu_check_test_labels() fails the
# configure step when a test has no label.
set(PTXFU_TEST_LABELS unit model rtl slow hw CACHE INTERNAL "the test labels")
set(PTXFU_SLOW_COST 1000 CACHE INTERNAL "COST of the slow tests: ctest starts the highest COST first (before it has times of its own)")

function(_ptxfu_label_properties out label)
  if(NOT label IN_LIST PTXFU_TEST_LABELS)
    message(FATAL_ERROR "test label '${label}' is not one of: ${PTXFU_TEST_LABELS}")
  endif()
  set(props LABELS ${label})
  if(label STREQUAL "slow")
    list(APPEND props COST ${PTXFU_SLOW_COST})
  endif()
  set(${out} ${props} PARENT_SCOPE)
endfunction()

# ptxfu_label(LABEL TEST...): labels tests made with add_test.
function(ptxfu_label label)
  _ptxfu_label_properties(props ${label})
  set_tests_properties(${ARGN} PROPERTIES ${props})
  set_property(GLOBAL APPEND PROPERTY PTXFU_LABELLED_TESTS ${ARGN})
endfunction()

# Fails the configure step when a test added with add_test in any directory of
# the project was not labelled with ptxfu_label (the GoogleTest suites are
# labelled by ptxfu_gtest, which requires a label).
function(ptxfu_check_test_labels)
  get_property(labelled GLOBAL PROPERTY PTXFU_LABELLED_TESTS)
  set(dirs ${PROJECT_SOURCE_DIR})
  set(missing "")
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(tests DIRECTORY ${dir} PROPERTY TESTS)
    foreach(t IN LISTS tests)
      if(NOT t IN_LIST labelled)
        list(APPEND missing "${t} (${dir})")
      endif()
    endforeach()
  endwhile()
  if(missing)
    list(JOIN missing "\n  " missing)
    message(FATAL_ERROR "tests without a label (ptxfu_label in tb/test_labels.cmake):\n  ${missing}")
  endif()
endfunction()
