#include "model_run.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>

#include "models/config.h"
#include "models/simulator.h"

namespace ptxfu::kernel::testing {

ModelRun run_on_model(const Kernel& k, const Launch& l, bool approximately_timed, uint64_t max_cycles,
                      const std::string& config_yaml, unsigned registers_per_thread) {
  ModelRun run;
  try {
    const char* name = std::getenv("PTXFU_TEST_CONFIG");
    const models::ArchConfig config = config_yaml.empty() ? models::load_config(name ? name : "sm_90")
                                                          : models::load_config_text(config_yaml, "test.yaml");
    models::SimJob job;
    job.config = &config;
    job.kernel = &k;
    job.launch = l;
    if (k.straight_line) {  // its one CTA: the launch's block
      job.threads = static_cast<unsigned>(l.block.x);
      job.warps = (job.threads + 31) / 32;
    }
    job.style = approximately_timed ? models::TimingStyle::approximately_timed : models::TimingStyle::loosely_timed;
    if (max_cycles) job.max_cycles = max_cycles;
    job.registers_per_thread = registers_per_thread;
    models::SimResult r = models::simulate({job}).front();
    run.result.ok = r.ok;
    run.result.error = r.error;
    run.cycles = r.cycles;
    run.result.warp_instructions = r.warp_instructions;
    run.result.ctas = r.ctas;
    run.stalls = r.stalls;
    for (const models::LineProfile& p : r.lines) {
      run.lines.push_back(p.stalls);
      run.issued.push_back(p.warp_instructions);
    }
    if (r.ok) run.result.memory = std::move(r.memory);
  } catch (const std::exception& e) {
    run.result.ok = false;
    run.result.error = std::string("exception: ") + e.what();
  }
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

Cli ptxfu(const std::string& args) {
  Cli r;
  FILE* p = popen((std::string(PTXFU_EXE) + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace ptxfu::kernel::testing
