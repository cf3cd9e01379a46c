# Installs a built normjit into a temporary prefix, builds tests/package against it with
# find_package(normjit), and runs the result. No network access is involved.
#
#   cmake -DNORMJIT_BUILD_DIR=<build> -DCONSUMER_SOURCE_DIR=<tests/package> -DWORK_DIR=<scratch>
#         -DGENERATOR=<generator> [-DMAKE_PROGRAM=..] [-DCXX_COMPILER=..] [-DCONFIG=Release]
#         -P run.cmake
cmake_minimum_required(VERSION 3.22)

foreach(var NORMJIT_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED CONFIG OR "${CONFIG}" STREQUAL "")
  set(CONFIG Release)
endif()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
set(cache_dir "${WORK_DIR}/kernel-cache")

# Removes the scratch directory, then stops with `msg` (failures leave nothing behind).
macro(fail msg)
  file(REMOVE_RECURSE "${WORK_DIR}")
  message(FATAL_ERROR "${msg}")
endmacro()

# Runs a command; fails with its output unless it exits 0. The output is kept in `out_var`.
function(step name out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message(STATUS "[${name}] exit ${rc}")
  if(NOT rc EQUAL 0)
    file(REMOVE_RECURSE "${WORK_DIR}")
    message(FATAL_ERROR "package test: step '${name}' failed (exit ${rc}):\n${out}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# 1. Install the already-built tree.
step(install out "${CMAKE_COMMAND}" --install "${NORMJIT_BUILD_DIR}" --prefix "${prefix}"
     --config "${CONFIG}")
file(GLOB_RECURSE config_files "${prefix}/*/normjitConfig.cmake")
file(GLOB_RECURSE libs "${prefix}/*/libnormjit.so*")
foreach(f "${prefix}/include/normjit/normjit.hpp" "${prefix}/include/normjit/normjit.h")
  if(NOT EXISTS "${f}")
    fail("package test: ${f} was not installed")
  endif()
endforeach()
if(NOT config_files OR NOT libs)
  fail("package test: no normjitConfig.cmake or libnormjit.so under ${prefix}")
endif()

# 2. Configure the consumer against the prefix only (no package registry, no build tree).
set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${consumer_build}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${CONFIG}"
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(DEFINED MAKE_PROGRAM AND NOT "${MAKE_PROGRAM}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(DEFINED CXX_COMPILER AND NOT "${CXX_COMPILER}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
step(configure out "${CMAKE_COMMAND}" ${configure_args})
file(STRINGS "${consumer_build}/CMakeCache.txt" found_dir REGEX "^normjit_DIR:")
string(FIND "${found_dir}" "${prefix}/" at)
if(NOT at GREATER -1)
  fail("package test: the consumer found normjit outside the install prefix: ${found_dir}")
endif()

# 3. Build it.
step(build out "${CMAKE_COMMAND}" --build "${consumer_build}" --config "${CONFIG}")

# 4. Run it.
set(app "${consumer_build}/app")
if(NOT EXISTS "${app}")
  set(app "${consumer_build}/${CONFIG}/app")
endif()
step(run out "${CMAKE_COMMAND}" -E env "NORMJIT_CACHE_DIR=${cache_dir}" "${app}")
message(STATUS "${out}")
if(NOT out MATCHES "consumer OK")
  fail("package test: the consumer did not report success:\n${out}")
endif()

# 5. The installed CLI runs from the prefix (its RPATH finds the installed library).
if(EXISTS "${prefix}/bin/normjit")
  step(cli out "${CMAKE_COMMAND}" -E env "NORMJIT_CACHE_DIR=${cache_dir}"
       "${prefix}/bin/normjit" info)
  if(NOT out MATCHES "normjit [0-9]+\\.[0-9]+\\.[0-9]+")
    fail("package test: installed 'normjit info' printed no version:\n${out}")
  endif()
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "package test passed")
