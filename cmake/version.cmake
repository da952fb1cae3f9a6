# Generates version_info.cpp on every build (only rewritten when its content changes), so that
# `morne version` reports the git revision the binary was built from and the build options.
set(MORNE_VERSION_CPP ${CMAKE_BINARY_DIR}/generated/version_info.cpp)
# A list such as "address;undefined" would reach the script as two arguments: pass it joined.
string(REPLACE ";" "," _morne_sanitizers "${MORNE_SANITIZE}")
add_custom_target(morne_version_stamp
  COMMAND ${CMAKE_COMMAND}
    -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
    -DOUTPUT=${MORNE_VERSION_CPP}
    -DPROJECT_VERSION=${PROJECT_VERSION}
    -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DCOMPILER=${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION}
    -DMAX_CELLS=${MORNE_MAX_CELLS}
    -DMAX_UNITS=${MORNE_MAX_UNITS}
    -DSANITIZE=${_morne_sanitizers}
    -P ${CMAKE_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${MORNE_VERSION_CPP}
  COMMENT "Stamping git revision")
