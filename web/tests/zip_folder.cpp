// `zip_folder DIR OUT`: the page's zip of a folder (web/src/zip.hpp), for check_zip.py to read
// back with Python's own zipfile module.
#include "zip.hpp"

#include <cstdio>
#include <exception>
#include <fstream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: zip_folder DIR OUT\n");
        return 2;
    }
    try {
        std::ofstream(argv[2], std::ios::binary) << pplab::web::zip_folder(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zip_folder: %s\n", e.what());
        return 1;
    }
    return 0;
}
