#===- NVFP4Build.cmake - helpers for nvfp4's libraries and tools -----------===#
#
# Every nvfp4 library links MLIR through nvfp4_add_library so one switch picks
# between the shared libMLIR.so/libLLVM.so (development: links take seconds)
# and MLIR's static archives (the self-contained tools carried to a GPU machine
# that has no LLVM installed).
#
#===----------------------------------------------------------------------===#

set(MLIR_LINK_MLIR_DYLIB ${NVFP4_LINK_MLIR_DYLIB})

# nvfp4_add_library(name src... [DEPENDS tgt...] [MLIR_LIBS lib...]
#                   [LINK_LIBS lib...])
#
# A static library of nvfp4 code. MLIR_LIBS are MLIR components (MLIRIR, ...):
# they resolve to libMLIR.so when NVFP4_LINK_MLIR_DYLIB is ON. LINK_LIBS are
# linked as given (other nvfp4 libraries, system libraries).
function(nvfp4_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
    if(NVFP4_LINK_MLIR_DYLIB)
      target_link_libraries(${name} PUBLIC LLVM)
    endif()
  endif()
  if(ARG_LINK_LIBS)
    target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  endif()
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
