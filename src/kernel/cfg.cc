#include "kernel/cfg.h"

#include <algorithm>

namespace ptxfu::kernel {

void successors(const Kernel& k, const Function& f, uint32_t pc, std::vector<uint32_t>& out) {
  out.clear();
  const Inst& in = k.insts[pc];
  const bool guarded = in.guard >= 0;
  switch (in.kind) {
    case Kind::func_end: return;
    case Kind::bra:
      out.push_back(in.target);
      if (guarded) out.push_back(pc + 1);
      return;
    case Kind::ret:
    case Kind::exit:
      out.push_back(f.end);
      if (guarded) out.push_back(pc + 1);
      return;
    default: out.push_back(pc + 1); return;
  }
}

// Cooper, Harvey and Kennedy's iterative dominator algorithm ("A Simple,
// Fast Dominance Algorithm", 2001) on the reversed graph rooted at the end.
void compute_ipdoms(Kernel& k, Function& f) {
  const uint32_t n = f.end - f.begin + 1;
  const uint32_t root = n - 1;
  std::vector<std::vector<uint32_t>> succ(n), pred(n);
  std::vector<uint32_t> tmp;
  for (uint32_t i = 0; i < n; ++i) {
    successors(k, f, f.begin + i, tmp);
    for (uint32_t s : tmp) {
      succ[i].push_back(s - f.begin);
      pred[s - f.begin].push_back(i);
    }
  }
  // Postorder of the reversed graph (edges s -> i for every i -> s) from the root.
  constexpr uint32_t kUnseen = 0xffffffff;
  std::vector<uint32_t> order, number(n, kUnseen);
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  std::vector<bool> seen(n, false);
  seen[root] = true;
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    if (next < pred[v].size()) {
      const uint32_t w = pred[v][next++];
      if (!seen[w]) {
        seen[w] = true;
        stack.push_back({w, 0});
      }
      continue;
    }
    number[v] = static_cast<uint32_t>(order.size());
    order.push_back(v);
    stack.pop_back();
  }
  std::vector<uint32_t> idom(n, kUnseen);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = idom[a];
      while (number[b] < number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const uint32_t v = *it;
      if (v == root) continue;
      uint32_t best = kUnseen;
      for (uint32_t s : succ[v]) {  // v's predecessors in the reversed graph
        if (idom[s] == kUnseen) continue;
        best = best == kUnseen ? s : intersect(s, best);
      }
      if (best != kUnseen && idom[v] != best) {
        idom[v] = best;
        changed = true;
      }
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    Inst& in = k.insts[f.begin + i];
    if (in.kind != Kind::bra && in.kind != Kind::ret && in.kind != Kind::exit && in.kind != Kind::call) continue;
    in.ipdom = idom[i] == kUnseen || i == root ? f.end : f.begin + idom[i];
  }
}

}  // namespace ptxfu::kernel
