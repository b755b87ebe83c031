# Runs the trace matrix natively and under Node and compares the outputs byte for byte;
# on a difference, names the first differing line of each.
if(NOT EXISTS "${NATIVE}")
  message(FATAL_ERROR "no native trace matrix at ${NATIVE}: build a native preset with the "
                      "tests first (cmake --preset ci && cmake --build --preset ci), or set "
                      "PPLAB_NATIVE_BUILD to its build folder")
endif()
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${NATIVE}" "${OUT}/native.txt" RESULT_VARIABLE native_rc)
execute_process(COMMAND "${NODE}" --no-experimental-fetch "${WEB}" "${OUT}/web.txt"
                RESULT_VARIABLE web_rc)
if(NOT native_rc EQUAL 0 OR NOT web_rc EQUAL 0)
  message(FATAL_ERROR "the trace matrix failed: native exit ${native_rc}, Node exit ${web_rc}")
endif()
file(SIZE "${OUT}/native.txt" bytes)
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/native.txt" "${OUT}/web.txt"
                RESULT_VARIABLE differ)
if(differ)
  file(STRINGS "${OUT}/native.txt" native_lines)
  file(STRINGS "${OUT}/web.txt" web_lines)
  list(LENGTH native_lines native_count)
  list(LENGTH web_lines web_count)
  set(request "")
  foreach(i RANGE ${native_count})
    if(i EQUAL native_count OR i EQUAL web_count)
      break()
    endif()
    list(GET native_lines ${i} a)
    list(GET web_lines ${i} b)
    if(a MATCHES "^=== ")
      set(request "${a}")
    endif()
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "the page's trace differs from the native one, in ${request}, line "
                          "${i}:\n  native: ${a}\n  page:   ${b}")
    endif()
  endforeach()
  message(FATAL_ERROR "the page's trace matrix has ${web_count} lines, the native one "
                      "${native_count}")
endif()
file(STRINGS "${OUT}/native.txt" heads REGEX "^=== ")
list(LENGTH heads count)
message(STATUS "trace matrix: ${count} requests, ${bytes} bytes, identical on the page and natively")
