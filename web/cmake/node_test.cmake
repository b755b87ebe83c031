# pplab_node_test(<target> [LABELS ...]): links a test program for Node (the host's files
# read and written directly, memory that grows) and adds it to ctest as one run: a single
# Node start for the whole GoogleTest binary, whose summary names every test.
# `--no-experimental-fetch`: emscripten 3.1.6's loader predates Node 18's global fetch.
find_program(PPLAB_NODE NAMES node nodejs REQUIRED)
set(PPLAB_NODE_RUN "${PPLAB_NODE}" --no-experimental-fetch CACHE INTERNAL "")

function(pplab_node_link target)
  target_link_options(${target} PRIVATE -sENVIRONMENT=node -sNODERAWFS=1
                      -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1)
endfunction()

function(pplab_node_test target)
  cmake_parse_arguments(arg "" "" "LABELS" ${ARGN})
  pplab_node_link(${target})
  add_test(NAME ${target} COMMAND ${PPLAB_NODE_RUN} $<TARGET_FILE:${target}>)
  set_tests_properties(${target} PROPERTIES LABELS "web;${arg_LABELS}")
endfunction()
