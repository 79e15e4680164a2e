# `cmake --install build --prefix P`: what a user of ptxfu gets.
#   bin/ptxfu
#   lib/libptxfu.so, lib/libptxfu.a              the exact core with the C and C++ APIs
#   lib/libptxfu_models.a, libptxfu_rtl.a,       the SystemC/TLM models, the RTL plug they use and
#   libptxfu_rtl_block.a                         the block FMA models of --rtl-tensor
#   lib/libptxfu_host.a                          the host API over the models (devices, modules, launches)
#   include/ptxfu/ptxfu.h, ptxfu.hpp, version.h  the public headers
#   include/ptxfu/host.hpp, host.h               the host API's, C++ and C (ptxfu::host: it brings the models and SystemC)
#   include/ptxfu/internal/                      the models' headers and the core headers they use
#                                                (for ptxfu::models only: not a stable interface)
#   lib/cmake/ptxfu/                             find_package(ptxfu): ptxfu::core, ::core_static, ::capi, ::models, ::host
#   lib/pkgconfig/ptxfu.pc                       pkg-config ptxfu
#   share/ptxfu/configs/, configs/sweeps/, examples/   the embedded configs and the example sweeps
#   lib/python3/dist-packages/ptxfu/             the Python module (when it is built)
# Included by the top-level CMakeLists.txt once every target exists.
include(CMakePackageConfigHelpers)

set(PTXFU_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptxfu)
set(PTXFU_DATA_DIR ${CMAKE_INSTALL_DATADIR}/ptxfu)

install(TARGETS ptxfu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ptxfu_core ptxfu_core_shared ptxfu_capi EXPORT ptxfuTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PTXFU_PUBLIC_INCLUDE}/ptxfu/ptxfu.h ${PTXFU_PUBLIC_INCLUDE}/ptxfu/ptxfu.hpp
              ${PTXFU_PUBLIC_INCLUDE}/ptxfu/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxfu)
install(EXPORT ptxfuTargets NAMESPACE ptxfu:: DESTINATION ${PTXFU_CMAKE_DIR})

# ptxfu::models: its build-tree usage requirements (the verilated RTL's
# directories, the source tree) cannot be exported, so the package config
# declares the imported target itself from the installed archive and headers.
set(PTXFU_MODELS_ARCHIVE ${CMAKE_STATIC_LIBRARY_PREFIX}ptxfu_models${CMAKE_STATIC_LIBRARY_SUFFIX})
install(FILES $<TARGET_FILE:ptxfu_models> DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME ${PTXFU_MODELS_ARCHIVE})
# The RTL plug the models use (cosim/: the PTX-to-RTL encoding and the scoreboard).
set(PTXFU_RTL_ARCHIVE ${CMAKE_STATIC_LIBRARY_PREFIX}ptxfu_rtl${CMAKE_STATIC_LIBRARY_SUFFIX})
install(FILES $<TARGET_FILE:ptxfu_rtl> DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME ${PTXFU_RTL_ARCHIVE})
# The verilated block FMA models of --rtl-tensor (cosim/block_models.h), with Verilator's runtime.
set(PTXFU_RTL_BLOCK_ARCHIVE ${CMAKE_STATIC_LIBRARY_PREFIX}ptxfu_rtl_block${CMAKE_STATIC_LIBRARY_SUFFIX})
install(FILES $<TARGET_FILE:ptxfu_rtl_block> DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME ${PTXFU_RTL_BLOCK_ARCHIVE})
# ptxfu::host, declared by the package config the same way (it links ptxfu::models).
set(PTXFU_HOST_ARCHIVE ${CMAKE_STATIC_LIBRARY_PREFIX}ptxfu_host${CMAKE_STATIC_LIBRARY_SUFFIX})
install(FILES $<TARGET_FILE:ptxfu_host> DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME ${PTXFU_HOST_ARCHIVE})
install(FILES ${PTXFU_PUBLIC_INCLUDE}/ptxfu/host.hpp ${PTXFU_PUBLIC_INCLUDE}/ptxfu/host.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxfu)

# The headers the models' headers reach, found by following #include "..."
# (models/, cosim/ and the core's src/: the project root and src/ are the two roots).
function(ptxfu_header_closure out)
  set(todo ${ARGN})
  set(done "")
  while(todo)
    list(POP_FRONT todo h)
    if(h IN_LIST done)
      continue()
    endif()
    list(APPEND done ${h})
    if(EXISTS ${PROJECT_SOURCE_DIR}/${h})
      set(path ${PROJECT_SOURCE_DIR}/${h})
    else()
      set(path ${PROJECT_SOURCE_DIR}/src/${h})
    endif()
    file(STRINGS ${path} lines REGEX "^#include \"")
    foreach(l IN LISTS lines)
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" inc "${l}")
      if(EXISTS ${PROJECT_SOURCE_DIR}/${inc} OR EXISTS ${PROJECT_SOURCE_DIR}/src/${inc})
        list(APPEND todo ${inc})
      endif()
    endforeach()
  endwhile()
  set(${out} ${done} PARENT_SCOPE)
endfunction()
file(GLOB _model_headers RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/models/*.h)
ptxfu_header_closure(_internal_headers ${_model_headers})
foreach(h IN LISTS _internal_headers)
  get_filename_component(_dir ${h} DIRECTORY)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${h})
    install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxfu/internal/${_dir})
  else()
    install(FILES ${PROJECT_SOURCE_DIR}/src/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxfu/internal/${_dir})
  endif()
endforeach()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ptxfuConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ptxfuConfig.cmake
                              INSTALL_DESTINATION ${PTXFU_CMAKE_DIR}
                              PATH_VARS PTXFU_DATA_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptxfuConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)  # 0.x: a minor version may break
install(FILES ${PROJECT_BINARY_DIR}/ptxfuConfig.cmake ${PROJECT_BINARY_DIR}/ptxfuConfigVersion.cmake
        DESTINATION ${PTXFU_CMAKE_DIR})

# pkg-config: relocatable, the prefix found from the .pc file's own place.
file(RELATIVE_PATH PTXFU_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" PTXFU_PC_TO_PREFIX "${PTXFU_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/ptxfu.pc.in ${PROJECT_BINARY_DIR}/ptxfu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ptxfu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Data: the configs and references the binary embeds, the example sweeps, and the programs
# they name (hfma2_lanes_issue.yaml reads ../../examples/sim_mix.ptx, scan_program.yaml the host
# program ../../examples/scan.yaml).
file(GLOB _configs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/configs/sm_*.yaml)
file(GLOB _sweeps CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/configs/sweeps/*.yaml)
file(GLOB _examples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*.ptx ${PROJECT_SOURCE_DIR}/examples/*.txt
     ${PROJECT_SOURCE_DIR}/examples/*.yaml)
install(FILES ${_configs} ${PROJECT_SOURCE_DIR}/configs/references.yaml DESTINATION ${PTXFU_DATA_DIR}/configs)
install(FILES ${_sweeps} DESTINATION ${PTXFU_DATA_DIR}/configs/sweeps)
install(FILES ${_examples} DESTINATION ${PTXFU_DATA_DIR}/examples)
