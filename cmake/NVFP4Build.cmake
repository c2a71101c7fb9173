#===- NVFP4Build.cmake - helpers for nvfp4's libraries and tools -----------===#
#
# Every nvfp4 library links MLIR through nvfp4_add_library so one switch picks
# between the shared libMLIR.so/libLLVM.so (development: links take seconds)
# and MLIR's static archives (the self-contained tools carried to a GPU machine
# that has no LLVM installed).
#
#===----------------------------------------------------------------------===#

set(MLIR_LINK_MLIR_DYLIB ${NVFP4_LINK_MLIR_DYLIB})

include(GNUInstallDirs)

# nvfp4_public_headers(target)
#
# The include directories a user of `target` needs, as target properties, so
# that linking an exported nvfp4:: target is enough: ours (source and
# generated headers in the build tree, include/ once installed); MLIR's and
# LLVM's are added by nvfp4Config.cmake from the MLIR package it finds.
function(nvfp4_public_headers name)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<BUILD_INTERFACE:${LLVM_INCLUDE_DIRS}>
    $<BUILD_INTERFACE:${MLIR_INCLUDE_DIRS}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()

# nvfp4_add_library(name src... [DEPENDS tgt...] [MLIR_LIBS lib...]
#                   [LINK_LIBS lib...])
#
# A static library of nvfp4 code. MLIR_LIBS are MLIR components (MLIRIR, ...):
# they resolve to libMLIR.so when NVFP4_LINK_MLIR_DYLIB is ON. LINK_LIBS are
# linked as given (other nvfp4 libraries, system libraries).
function(nvfp4_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  nvfp4_public_headers(${name})
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

# Self-contained tools (NVFP4_LINK_MLIR_DYLIB=OFF): Debian's MLIR archives
# name the shared libLLVM.so in their link interface; swap it for LLVM's
# static component archives, and link the C++ runtime statically, so the
# tools run on a GPU machine that has no LLVM (needs only libc, libm, libz,
# libzstd).
if(NOT NVFP4_LINK_MLIR_DYLIB)
  # Every LLVM component archive that is installed; lld pulls in only the
  # members that are referenced. Tool drivers with their own dependencies
  # (BOLT, Exegesis, Polly) stay out.
  set(NVFP4_LLVM_STATIC_LIBS)
  foreach(lib ${LLVM_AVAILABLE_LIBS})
    if(lib MATCHES "^LLVM.+" AND NOT lib MATCHES "BOLT|Exegesis|OptDriver|Polly|TableGen|LineEditor"
       AND EXISTS "${LLVM_LIBRARY_DIR}/lib${lib}.a")
      list(APPEND NVFP4_LLVM_STATIC_LIBS "${LLVM_LIBRARY_DIR}/lib${lib}.a")
    endif()
  endforeach()
  list(APPEND NVFP4_LLVM_STATIC_LIBS z zstd pthread dl rt m)
  get_property(nvfp4_mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
  foreach(lib ${nvfp4_mlir_libs} MLIRMlirOptMain)
    if(TARGET ${lib})
      get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
      if(deps)
        list(TRANSFORM deps REPLACE "^LLVM$" "${NVFP4_LLVM_STATIC_LIBS}")
        list(TRANSFORM deps REPLACE "^\\$<LINK_ONLY:LLVM>$" "${NVFP4_LLVM_STATIC_LIBS}")
        set_target_properties(${lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
      endif()
    endif()
  endforeach()
  add_link_options(-static-libstdc++ -static-libgcc -Wl,--gc-sections)
endif()
