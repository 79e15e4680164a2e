#include "cosim/scoreboard.h"

#include <cstdio>
#include <sstream>

namespace ptxfu::cosim {

namespace {

std::string hex(uint32_t v, unsigned lanes) {
  char buf[16];
  std::snprintf(buf, sizeof buf, lanes == 2 ? "0x%08x" : "0x%04x", lanes == 2 ? v : v & 0xffffu);
  return buf;
}

}  // namespace

std::string eval_line(const Form& form, const uint32_t* src) {
  std::string s = form.mnemonic;
  for (unsigned i = 0; i < form.num_src; ++i) s += " " + hex(src[i], form.lanes);
  return s;
}

Scoreboard::Scoreboard(unsigned tag_bits) : tag_mask_(tag_bits >= 32 ? 0xffffffffu : (1u << tag_bits) - 1) {}

void Scoreboard::issue(const Expected& beat, const ExpectedThread* thread) {
  Expected& e = pending_.push_back();
  e = beat;
  e.tag &= tag_mask_;
  const uint32_t mask = lane_mask(*e.form);
  for (unsigned t = 0; t < e.threads; ++t) {
    ExpectedThread& th = pending_threads_.push_back();
    th = thread[t];
    th.expected &= mask;
  }
}

void Scoreboard::withdraw() {
  pending_threads_.pop_back(pending_[pending_.size() - 1].threads);
  pending_.pop_back();
}

const Expected* Scoreboard::pop_oldest() {
  const Expected* e = &pending_[0];
  pending_threads_.pop_front(e->threads);
  pending_.pop_front();
  return e;
}

void Scoreboard::record(const Expected& e, const ExpectedThread* th, unsigned thread, uint32_t got, uint64_t arrived,
                        std::string what) {
  ++records_;
  if (first_.size() >= kKeep) return;
  static const ExpectedThread kNone;
  if (th == nullptr) th = &kNone;
  Mismatch m;
  if (e.form != nullptr) {
    m.line = eval_line(*e.form, th->src);
    m.lanes = e.form->lanes;
  } else {
    m.line = "# (no instruction)";
  }
  m.expected = th->expected;
  m.got = got;
  m.issued = e.issued;
  m.arrived = arrived;
  m.where = e.where;
  if (e.threads > 1) m.where += (m.where.empty() ? "thread " : " thread ") + std::to_string(thread);
  m.what = std::move(what);
  first_.push_back(std::move(m));
}

const Expected* Scoreboard::arrive(uint32_t tag, uint64_t arrived, const uint32_t* got) {
  tag &= tag_mask_;
  if (pending_.empty()) {
    Expected ghost;
    ghost.issued = arrived;
    ++beats_failed_;
    ++timing_mismatches_;
    record(ghost, nullptr, 0, got[0], arrived, "output (tag " + std::to_string(tag) + ") without a request");
    return nullptr;
  }
  const Expected& e = pending_[0];
  const ExpectedThread* first = e.threads != 0 ? &pending_threads_[0] : nullptr;
  const uint32_t mask = lane_mask(*e.form);
  const unsigned num_lanes = e.form->lanes;
  ++beats_checked_;
  const uint64_t before = records_;
  if (tag != e.tag) {
    ++timing_mismatches_;
    record(e, first, 0, got[0] & mask, arrived, "tag " + std::to_string(tag) + " instead of " + std::to_string(e.tag));
  } else {
    for (unsigned t = 0; t < e.threads; ++t) {
      if (!(e.active >> t & 1)) continue;
      ++threads_checked_;
      const ExpectedThread& th = pending_threads_[t];
      const uint32_t g = got[t] & mask;
      if (g == th.expected) continue;
      ++value_mismatches_;
      std::string lanes;
      for (unsigned l = 0; l < num_lanes; ++l)
        if (lane(g, l) != lane(th.expected, l)) lanes += (lanes.empty() ? "lane " : ",") + std::to_string(l);
      record(e, &th, t, g, arrived, "value (" + lanes + ")");
    }
    const uint64_t latency = arrived - e.issued;
    if (e.at_least ? latency < e.latency : latency != e.latency) {
      ++timing_mismatches_;
      record(e, first, 0, got[0] & mask, arrived,
             "latency " + std::to_string(latency) + " cycles, configured " + std::to_string(e.latency));
    }
  }
  if (records_ != before) ++beats_failed_;
  return pop_oldest();
}

const Expected* Scoreboard::give_up(uint64_t now, const std::string& why) {
  if (pending_.empty()) return nullptr;
  ++beats_missing_;
  ++beats_failed_;
  ++timing_mismatches_;
  const Expected& e = pending_[0];
  record(e, e.threads != 0 ? &pending_threads_[0] : nullptr, 0, 0, now, "missing: " + why);
  return pop_oldest();
}

std::string Scoreboard::report(const Mismatch& m) {
  std::ostringstream os;
  os << m.line << "\n# " << (m.where.empty() ? "" : m.where + ": ") << "expected " << hex(m.expected, m.lanes)
     << " got " << hex(m.got, m.lanes) << ": " << m.what << "; issued in cycle " << m.issued << ", arrived in cycle "
     << m.arrived;
  return os.str();
}

std::string Scoreboard::errors(const std::vector<Mismatch>& first, uint64_t records, unsigned max_reported) {
  std::string s;
  unsigned shown = 0;
  for (const Mismatch& m : first) {
    if (shown == max_reported) break;
    ++shown;
    s += report(m) + "\n";
  }
  if (records > shown)
    s += "# " + std::to_string(records - shown) + " further mismatch(es) not shown (" + std::to_string(records) +
         " in all)\n";
  return s;
}

}  // namespace ptxfu::cosim
