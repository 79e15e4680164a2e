// A directory of one test's own, removed when the test ends. ctest runs many
// test processes at once, all with the same testing::TempDir(): fixed file
// names there collide, and a test that scans the directory sees the others'.
#pragma once
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace ptxfu::testing_support {

class ScratchDir {
 public:
  ScratchDir() : path_(::testing::TempDir() + "ptxfu_XXXXXX") {
    if (::mkdtemp(path_.data()) == nullptr) throw std::runtime_error("cannot create " + path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // The path of `name` inside the directory.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace ptxfu::testing_support
