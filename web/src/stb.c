// The implementations of Debian's stb headers, compiled into the page (natively they come from
// libstb.so): the canvas's font (stb_truetype) and PNG files (stb_image_write).
#define STB_TRUETYPE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#include <stb_truetype.h>
