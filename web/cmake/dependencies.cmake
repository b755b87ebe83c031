# The page's dependencies, compiled to WebAssembly by Debian's emscripten: the same imported
# targets the native build finds with pkg-config (PkgConfig::IMGUI, PkgConfig::GLFW3,
# PkgConfig::STB, GIF::GIF, glad, nlohmann_json, GTest), so that kernels/, visualizer/ and
# app/ui build unchanged. Nothing is downloaded here: scripts/install-deps.sh web fetched the
# source packages of ImGui and giflib into build/web-deps/src.

set(PPLAB_WEB_DEPS "${PROJECT_SOURCE_DIR}/build/web-deps/src" CACHE PATH
    "Debian's sources of ImGui 1.86 and giflib (scripts/web-sources.sh)")
set(imgui_src "${PPLAB_WEB_DEPS}/imgui-1.86+ds")
set(giflib_src "${PPLAB_WEB_DEPS}/giflib")
if(NOT EXISTS "${imgui_src}/imgui.cpp" OR NOT EXISTS "${giflib_src}/gif_lib.h")
  message(FATAL_ERROR "The page needs Debian's sources of ImGui 1.86 and giflib in "
                      "${PPLAB_WEB_DEPS}: run scripts/install-deps.sh web")
endif()

# Every object of the page, ours and theirs: C++ exceptions (the kernels' InputError) and no
# threads (the tracer, the exports and the timing run go in slices between frames).
add_compile_options(-fexceptions)
add_link_options(-fexceptions)
add_compile_definitions(PPLAB_NO_THREADS=1)

# Header-only libraries from the host's Debian packages, seen through a folder of their own:
# /usr/include itself would put the host's C library before emscripten's.
set(host_headers "${PROJECT_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${host_headers}")
foreach(dir nlohmann stb)
  if(NOT EXISTS "/usr/include/${dir}")
    message(FATAL_ERROR "/usr/include/${dir} is missing: run scripts/install-deps.sh web")
  endif()
  file(CREATE_LINK "/usr/include/${dir}" "${host_headers}/${dir}" SYMBOLIC)
endforeach()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${host_headers}")

# stb: the headers are Debian's; the implementations are compiled here (natively they come
# from libstb.so).
add_library(pplab_web_stb STATIC "${CMAKE_CURRENT_LIST_DIR}/../src/stb.c")
target_include_directories(pplab_web_stb SYSTEM PUBLIC "${host_headers}/stb")
add_library(PkgConfig::STB INTERFACE IMPORTED)
target_link_libraries(PkgConfig::STB INTERFACE pplab_web_stb)

# GLFW is emscripten's own (library_glfw.js); the GL functions are WebGL2's, called directly:
# glad's header is replaced by one that includes GLES 3.0's.
add_library(PkgConfig::GLFW3 INTERFACE IMPORTED)
target_link_options(PkgConfig::GLFW3 INTERFACE -sUSE_GLFW=3)
add_library(glad INTERFACE)
target_include_directories(glad SYSTEM INTERFACE "${CMAKE_CURRENT_LIST_DIR}/../include")
target_link_options(glad INTERFACE -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)

# Dear ImGui 1.86 with its GLFW and OpenGL 3 (as GLES 3.0 = WebGL2) backends.
add_library(pplab_web_imgui STATIC
  "${imgui_src}/imgui.cpp"
  "${imgui_src}/imgui_draw.cpp"
  "${imgui_src}/imgui_tables.cpp"
  "${imgui_src}/imgui_widgets.cpp"
  "${imgui_src}/misc/cpp/imgui_stdlib.cpp"
  "${imgui_src}/backends/imgui_impl_glfw.cpp"
  "${imgui_src}/backends/imgui_impl_opengl3.cpp")
target_include_directories(pplab_web_imgui SYSTEM PUBLIC
  "${imgui_src}" "${imgui_src}/misc/cpp")
target_compile_definitions(pplab_web_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_link_libraries(pplab_web_imgui PUBLIC PkgConfig::GLFW3 glad)
add_library(PkgConfig::IMGUI INTERFACE IMPORTED)
target_link_libraries(PkgConfig::IMGUI INTERFACE pplab_web_imgui)

# giflib, for the GIF export: the library's own files, not its tools.
enable_language(C)
add_library(pplab_web_giflib STATIC
  "${giflib_src}/dgif_lib.c" "${giflib_src}/egif_lib.c" "${giflib_src}/gifalloc.c"
  "${giflib_src}/gif_err.c" "${giflib_src}/gif_font.c" "${giflib_src}/gif_hash.c"
  "${giflib_src}/openbsd-reallocarray.c" "${giflib_src}/quantize.c")
target_include_directories(pplab_web_giflib SYSTEM PUBLIC "${giflib_src}")
target_compile_options(pplab_web_giflib PRIVATE -w) # their code, their warnings
add_library(GIF::GIF INTERFACE IMPORTED)
target_link_libraries(GIF::GIF INTERFACE pplab_web_giflib)
set(GIF_FOUND TRUE)

# GoogleTest from Debian's googletest sources, for the unit tests run under Node.
set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
add_subdirectory(/usr/src/googletest "${PROJECT_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
include(${CMAKE_CURRENT_LIST_DIR}/node_test.cmake)
