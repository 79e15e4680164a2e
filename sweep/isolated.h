// One point's simulation, in this process or in a child process.
//
// models::simulate() runs any number of simulations one after another in one
// process, and that is how a sweep runs with one job. A child process is
// needed only where the process itself is the boundary: SystemC keeps one
// simulation context per process, so points run side by side on several
// cores each need a process of their own; and a point that crashes, or runs
// past the sweep's --timeout, must be ended without ending the sweep.
// simulate_isolated() and run_point_isolated() share the one place that
// forks; each returns what its in-process twin would have returned.
#pragma once
#include <atomic>
#include <mutex>

#include <vector>

#include "models/simulator.h"
#include "sweep/spec.h"

namespace ptxfu::sweep {

// models::simulate() of one job; an exception becomes a failed result
// (ok false, error "simulation failed: ...").
models::SimResult simulate_one(const models::SimJob& job);

struct Isolation {
  double timeout_s = 0;                          // 0: none; past it the child is killed: "timed out after T s"
  const std::atomic<int>* stop = nullptr;        // non-zero: end the child now (the result is then not a point's)
  std::unique_lock<std::mutex>* held = nullptr;  // released once the child exists (see simulate_isolated)
};

// simulate_one(job) in a forked child. The result comes back whole but for
// what a sweep does not record: the buffers (memory), issue records,
// per-line profile and registers stay in the child. A child that dies, sends
// nothing readable or is timed out gives a failed result saying so ("worker
// killed by signal 11 (Segmentation fault)"). The child has a parent-death
// signal, so it never outlives its parent thread. Callers on several threads
// hold one mutex while they build jobs and pass it as `held`: fork() then
// copies no thread of theirs mid-way through a library call.
models::SimResult simulate_isolated(const models::SimJob& job, const Isolation& isolation);

// A point's results: its simulation's; for a host program, the total of its
// launches and then each launch's (a program that fails: one failed result).
using PointResult = std::vector<models::SimResult>;

// The point of a built job, in this process or, as simulate_isolated, in a child.
PointResult run_point(const PointJob& pj);
PointResult run_point_isolated(const PointJob& pj, const Isolation& isolation);

}  // namespace ptxfu::sweep
