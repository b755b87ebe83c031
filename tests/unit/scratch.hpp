// A scratch folder per test (ctest runs tests in parallel processes), with what the file and
// CLI tests do in it: write a file, read one back, list what is there.
#pragma once

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pplab::test {

class ScratchDir : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() /
               ("pplab_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                std::to_string(::getpid()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignore;
        std::filesystem::remove_all(dir_, ignore);
    }

    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        const std::filesystem::path p = dir_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    static std::string slurp(const std::filesystem::path& p) {
        std::ifstream f(p, std::ios::binary);
        std::ostringstream s;
        s << f.rdbuf();
        return s.str();
    }
    // A character device node of our own (the null device's numbers) at `name`, for tests of
    // what pplab refuses to replace: a regression then replaces this node, never /dev/null.
    // False where the system does not let us make one (not root).
    bool make_device(const std::string& name) const {
        return ::mknod(path(name).c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    }

    // A pipe (FIFO) at `name`; false where the platform makes none (the page's tests run
    // under Node, on the host's files through emscripten, which has no mkfifo).
    bool make_fifo(const std::string& name) const {
        return ::mkfifo(path(name).c_str(), 0600) == 0;
    }

    std::vector<std::string> listing() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(dir_))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

    std::filesystem::path dir_;
};

} // namespace pplab::test
