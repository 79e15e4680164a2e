#include "model_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "models/config.h"
#include "models/simulator.h"

namespace ptxfu::kernel::testing {
namespace {

template <typename T>
void put(std::ostream& o, const T& v) {
  o.write(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_bytes(std::ostream& o, const std::string& s) {
  put(o, uint64_t{s.size()});
  o.write(s.data(), static_cast<std::streamsize>(s.size()));
}
template <typename T>
bool get(std::istream& i, T& v) {
  return static_cast<bool>(i.read(reinterpret_cast<char*>(&v), sizeof v));
}
bool get_bytes(std::istream& i, std::string& s) {
  uint64_t n = 0;
  if (!get(i, n) || n > (uint64_t{1} << 34)) return false;
  s.resize(n);
  return static_cast<bool>(i.read(s.data(), static_cast<std::streamsize>(n)));
}

void simulate_into(const Kernel& k, const Launch& l, bool at, uint64_t max_cycles, const std::string& yaml,
                   unsigned registers_per_thread, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  try {
    const char* name = std::getenv("PTXFU_TEST_CONFIG");
    const models::ArchConfig config =
        yaml.empty() ? models::load_config(name ? name : "sm_90") : models::load_config_text(yaml, "test.yaml");
    models::SimJob job;
    job.config = &config;
    job.kernel = &k;
    job.launch = l;
    job.style = at ? models::TimingStyle::approximately_timed : models::TimingStyle::loosely_timed;
    if (max_cycles) job.max_cycles = max_cycles;
    job.registers_per_thread = registers_per_thread;
    const models::SimResult r = models::simulate({job}).front();
    put(out, uint8_t{r.ok});
    put_bytes(out, r.error);
    put(out, r.cycles);
    put(out, r.warp_instructions);
    put(out, r.ctas);
    put(out, r.warp_stalls);
    put(out, uint64_t{r.lines.size()});
    for (const models::LineProfile& p : r.lines) {
      put(out, p.stalls);
      put(out, p.warp_instructions);
    }
    put(out, uint64_t{r.memory.buffers.size()});
    for (const Buffer& b : r.memory.buffers) {
      put(out, b.base);
      put(out, int64_t{b.arg});
      put_bytes(out, b.name);
      put_bytes(out, std::string(b.bytes.begin(), b.bytes.end()));
    }
  } catch (const std::exception& e) {
    put(out, uint8_t{0});
    put_bytes(out, std::string("exception: ") + e.what());
  }
}

}  // namespace

ModelRun run_on_model(const Kernel& k, const Launch& l, bool approximately_timed, uint64_t max_cycles,
                      const std::string& config_yaml, unsigned registers_per_thread) {
  char path[] = "/tmp/ptxfu_model_run_XXXXXX";
  const int fd = mkstemp(path);
  ModelRun run;
  if (fd < 0) {
    run.result.ok = false;
    run.result.error = "mkstemp failed";
    return run;
  }
  close(fd);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    simulate_into(k, l, approximately_timed, max_cycles, config_yaml, registers_per_thread, path);
    std::_Exit(0);  // no gtest or SystemC teardown in the child
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::ifstream in(path, std::ios::binary);
  uint8_t ok = 0;
  bool read = WIFEXITED(status) && WEXITSTATUS(status) == 0 && get(in, ok) && get_bytes(in, run.result.error);
  run.result.ok = read && ok;
  if (read && ok) {
    uint64_t buffers = 0, lines = 0;
    read = get(in, run.cycles) && get(in, run.result.warp_instructions) && get(in, run.result.ctas) &&
           get(in, run.stalls) && get(in, lines);
    run.lines.resize(read ? lines : 0);
    run.issued.resize(run.lines.size());
    for (size_t i = 0; read && i < run.lines.size(); ++i) read = get(in, run.lines[i]) && get(in, run.issued[i]);
    read = read && get(in, buffers);
    for (uint64_t i = 0; read && i < buffers; ++i) {
      Buffer b;
      int64_t arg = 0;
      std::string bytes;
      read = get(in, b.base) && get(in, arg) && get_bytes(in, b.name) && get_bytes(in, bytes);
      b.arg = static_cast<int>(arg);
      b.bytes.assign(bytes.begin(), bytes.end());
      run.result.memory.buffers.push_back(std::move(b));
    }
    if (!read) run.result.ok = false, run.result.error = "the model's child process wrote a short result";
  } else if (!read) {
    run.result.error = "the model's child process died (status " + std::to_string(status) + ")";
  }
  std::remove(path);
  return run;
}

RunResult run_on_model_both_styles(const Kernel& k, const Launch& l) {
  ModelRun lt = run_on_model(k, l, false);
  const ModelRun at = run_on_model(k, l, true);
  EXPECT_TRUE(lt.result.ok) << lt.result.error;
  EXPECT_EQ(lt.result.ok, at.result.ok) << at.result.error;
  EXPECT_EQ(lt.cycles, at.cycles) << "loosely and approximately timed runs differ";
  EXPECT_EQ(lt.result.warp_instructions, at.result.warp_instructions);
  EXPECT_EQ(lt.stalls, at.stalls);
  EXPECT_TRUE(lt.lines == at.lines) << "per-line stalls differ between the styles";
  EXPECT_EQ(lt.result.memory.buffers.size(), at.result.memory.buffers.size());
  for (size_t i = 0; i < lt.result.memory.buffers.size() && i < at.result.memory.buffers.size(); ++i)
    EXPECT_TRUE(lt.result.memory.buffers[i].bytes == at.result.memory.buffers[i].bytes)
        << "buffer " << lt.result.memory.buffers[i].name << " differs between the styles";
  EXPECT_GT(lt.cycles, 0u);
  return std::move(lt.result);
}

}  // namespace ptxfu::kernel::testing
