// For the export tests: a scratch directory per test (ctest runs tests in parallel
// processes), and the `pplab` binary run in it as a student would.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pplab::test {

class Scratch : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir = std::filesystem::temp_directory_path() /
              ("pplab_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
               std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
    }
    void TearDown() override {
        std::error_code ignore;
        std::filesystem::remove_all(dir, ignore);
    }

    std::vector<std::string> listing() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(dir))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    std::string file(const std::string& name) const { return (dir / name).string(); }

    struct Outcome {
        int exit_code = -1;
        std::string err;
    };
    // `pplab render --backend cpu ARGS` in the scratch directory; its stderr is kept. `shell`
    // runs first in the same shell (a limit on file sizes); `backend` "" is the automatic one.
    Outcome render(const std::string& args, const std::string& shell = "",
                   const std::string& backend = "--backend cpu ") const {
        const std::filesystem::path err = dir.parent_path() / (dir.filename().string() + ".err");
        const std::string cmd = shell + "cd '" + dir.string() + "' && '" +
                                std::string(PPLAB_BINARY) + "' render " + backend + args +
                                " >/dev/null 2>'" + err.string() + "'";
        const int status = std::system(cmd.c_str());
        std::stringstream s;
        s << std::ifstream(err).rdbuf();
        std::error_code ignore;
        std::filesystem::remove(err, ignore);
        return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, s.str()};
    }

    std::filesystem::path dir;
};

} // namespace pplab::test
