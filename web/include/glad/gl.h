// The page's stand-in for glad's OpenGL 3.3 loader: in the browser the GL functions are
// WebGL2's (OpenGL ES 3.0), linked directly by emscripten, so there is nothing to load. The
// renderer uses only functions and names that OpenGL 3.3 core and ES 3.0 share.
#pragma once

#include <GLES3/gl3.h>
