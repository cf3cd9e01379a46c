# Writes the README's C++ and C examples (the first ```cpp block under "## C++ API" and the first
# ```c block under "## C ABI") as compilable sources: their #include lines at file scope, the rest
# as the body of a function whose parameters are the names the examples take as given.
#
#   cmake -DREADME=<README.md> -DOUT_DIR=<dir> -P extract_examples.cmake
cmake_minimum_required(VERSION 3.22)
foreach(var README OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "extract_examples.cmake: -D${var}=... is required")
  endif()
endforeach()
file(READ "${README}" text)

# The first fenced block of language `lang` after the heading `heading`, as a list of lines.
function(example_lines heading lang out_var)
  string(FIND "${text}" "\n${heading}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README: no heading '${heading}'")
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(FIND "${rest}" "\n```${lang}\n" open)
  if(open EQUAL -1)
    message(FATAL_ERROR "README: no ```${lang} block after '${heading}'")
  endif()
  string(LENGTH "\n```${lang}\n" skip)
  math(EXPR open "${open} + ${skip}")
  string(SUBSTRING "${rest}" ${open} -1 rest)
  string(FIND "${rest}" "\n```" close)
  string(SUBSTRING "${rest}" 0 ${close} block)
  # One list element per line; protect the list separator first.
  string(REPLACE ";" "\\;" block "${block}")
  string(REPLACE "\n" ";" lines "${block}")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

# `lines` split into file-scope #include lines and the function body.
function(write_example lines signature path)
  set(head "// Generated from README.md by tests/readme/extract_examples.cmake; do not edit.\n")
  set(body "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^#include ")
      string(APPEND head "${line}\n")
    else()
      string(APPEND body "  ${line}\n")
    endif()
  endforeach()
  file(WRITE "${path}.tmp" "${head}\n${signature} {\n${body}}\n")
  # Rewritten only when it changes, so an unrelated README edit rebuilds nothing.
  file(COPY_FILE "${path}.tmp" "${path}" ONLY_IF_DIFFERENT)
  file(REMOVE "${path}.tmp")
endfunction()

file(MAKE_DIRECTORY "${OUT_DIR}")
example_lines("## C++ API" "cpp" cpp_lines)
write_example("${cpp_lines}"
  "void readme_cpp_example(void* x_ptr, void* r_ptr, void* w_ptr, void* y_ptr, std::int64_t tokens, normjit::Stream stream)"
  "${OUT_DIR}/readme_cpp_example.inc")
example_lines("## C ABI" "c" c_lines)
write_example("${c_lines}"
  "void readme_c_example(void* x_ptr, void* w_ptr, int64_t tokens, void* stream)"
  "${OUT_DIR}/readme_c_example.inc")
