// UnitBase (models/unit_base.h), the base of every execution unit, with
// small subclasses of the kind a load/store unit will be: a latency decided
// per instruction (a hit or a miss) and a result that is only known when it
// is out (finish()). A test initiator drives them in both TLM styles; the
// warp instruction rides on the payload as an extension, with no data.
// Occupancy's books are checked on their own first. SystemC elaborates once
// per process: every module is built and run in one sc_start().
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/unit_base.h"

// libsystemc references sc_main; the simulator (which defines it for ptxfu)
// is not linked into this test.
int sc_main(int, char**) { return 0; }

namespace ptxfu::models {
namespace {

TEST(Occupancy, LatencyIsPerInstructionAndResultsMayOvertake) {
  Occupancy books;
  WarpOp slow, fast, queued;
  books.start(slow, 10, 2, 40);  // a miss
  EXPECT_EQ(slow.issue_cycle, 10u);
  EXPECT_EQ(slow.free_cycle, 12u);
  EXPECT_EQ(slow.done_cycle, 50u);
  books.start(fast, 11, 2, 3);  // arrives while the unit is busy: starts at 12, a hit
  EXPECT_EQ(fast.issue_cycle, 12u);
  EXPECT_EQ(fast.free_cycle, 14u);
  EXPECT_EQ(fast.done_cycle, 15u);  // before the miss
  queued.timing.lanes = 8;
  queued.timing.interval = 3;
  queued.timing.latency = 7;
  books.start(queued, 0);  // the configured timing: 32/8 * 3 = 12 cycles from 14
  EXPECT_EQ(queued.issue_cycle, 14u);
  EXPECT_EQ(queued.free_cycle, 26u);
  EXPECT_EQ(queued.done_cycle, 21u);
  EXPECT_EQ(books.busy_cycles, 16u);
  EXPECT_EQ(books.warp_instructions, 3u);
  Occupancy::finish(slow, 33);  // known only when it is out
  EXPECT_EQ(slow.done_cycle, 33u);
  Occupancy::finish(slow, 5);  // never before its start
  EXPECT_EQ(slow.done_cycle, 10u);
}

// Odd warps miss: 30 cycles more than the configured latency.
class HitMissUnit : public UnitBase {
 public:
  explicit HitMissUnit(sc_core::sc_module_name name) : UnitBase(name, Unit::alu, false, true) {}

 protected:
  unsigned latency(const WarpOp& op) const override { return op.timing.latency + (op.warp % 2 ? 30 : 0); }
};

// Answers `kAnswer` cycles after the start, from a process of its own, as a
// memory system would.
class LaterUnit : public UnitBase {
 public:
  static constexpr uint64_t kAnswer = 9;
  explicit LaterUnit(sc_core::sc_module_name name) : UnitBase(name, Unit::alu, false, false) {
    SC_HAS_PROCESS(LaterUnit);
    SC_THREAD(answer);
  }

 protected:
  bool execute(WarpOp& op, tlm::tlm_generic_payload& trans) override {
    pending_.push_back(&trans);
    wake_.notify(kCycle * static_cast<double>(op.issue_cycle + kAnswer) - sc_core::sc_time_stamp());
    return false;
  }

 private:
  void answer() {
    for (;;) {
      wait(wake_);
      const uint64_t now = to_cycles(sc_core::sc_time_stamp());
      uint64_t next = ~uint64_t{0};
      for (size_t i = 0; i < pending_.size();) {
        const uint64_t due = op_of(*pending_[i]).issue_cycle + kAnswer;
        if (due <= now) {
          finish(*pending_[i], now);
          pending_.erase(pending_.begin() + static_cast<long>(i));
        } else {
          next = std::min(next, due);
          ++i;
        }
      }
      if (!pending_.empty()) wake_.notify(kCycle * static_cast<double>(next - now));
    }
  }
  std::vector<tlm::tlm_generic_payload*> pending_;
  sc_core::sc_event wake_;
};

// What the initiator saw of one instruction.
struct Seen {
  uint64_t end_req = 0;  // AT: END_REQ (the unit takes the next one)
  uint64_t done = 0;     // LT: annotated completion; AT: BEGIN_RESP
  bool ok = false;
};

// Sends one instruction per warp, each at a cycle of `send`.
class Initiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::vector<Seen> seen;

  Initiator(sc_core::sc_module_name name, std::vector<uint64_t> send, bool lt)
      : sc_module(name), socket("socket"), seen(send.size()), send_(std::move(send)), lt_(lt) {
    socket.register_nb_transport_bw(this, &Initiator::nb_transport_bw);
    for (size_t i = 0; i < send_.size(); ++i) {
      auto t = std::make_unique<tlm::tlm_generic_payload>();
      auto* ext = new WarpOpExtension;  // the payload owns it
      t->set_extension(ext);
      t->set_command(tlm::TLM_IGNORE_COMMAND);
      WarpOp& op = ext->op;
      op.warp = static_cast<uint32_t>(i);
      op.timing.lanes = 16;  // two cycles a warp
      op.timing.latency = 4;
      txns_.push_back(std::move(t));
    }
    SC_HAS_PROCESS(Initiator);
    SC_THREAD(run);
  }

 private:
  void run() {
    uint64_t free = 0;  // AT: END_REQ of the last request; the next may not begin before it
    for (size_t i = 0; i < send_.size(); ++i) {
      tlm::tlm_generic_payload& t = *txns_[i];
      const sc_core::sc_time at = kCycle * static_cast<double>(send_[i]);
      if (lt_) {
        sc_core::sc_time delay = at;
        socket->b_transport(t, delay);
        seen[i].done = to_cycles(delay);
        record(i);
        continue;
      }
      wait(std::max(at, kCycle * static_cast<double>(free)) - sc_core::sc_time_stamp());
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      EXPECT_EQ(socket->nb_transport_fw(t, phase, delay), tlm::TLM_UPDATED);
      EXPECT_EQ(phase, tlm::END_REQ);
      seen[i].end_req = free = to_cycles(sc_core::sc_time_stamp() + delay);
    }
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time&) {
    EXPECT_EQ(phase, tlm::BEGIN_RESP);
    const size_t i = op_of(t).warp;
    seen[i].done = to_cycles(sc_core::sc_time_stamp());
    record(i);
    tlm::tlm_phase end = tlm::END_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(socket->nb_transport_fw(t, end, delay), tlm::TLM_COMPLETED);
    return tlm::TLM_ACCEPTED;
  }

  void record(size_t i) {
    tlm::tlm_generic_payload& t = *txns_[i];
    seen[i].ok = t.get_response_status() == tlm::TLM_OK_RESPONSE && t.get_data_ptr() == nullptr;
  }

  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> txns_;
  std::vector<uint64_t> send_;
  bool lt_;
};

struct Bench {
  // Warp i is sent at cycle send[i]; odd warps miss in HitMissUnit.
  const std::vector<uint64_t> send = {0, 1, 2, 10};
  HitMissUnit hit_miss_lt{"hit_miss_lt"}, hit_miss_at{"hit_miss_at"};
  LaterUnit later{"later"};
  Initiator lt{"lt", send, true}, at{"at", send, false}, at_later{"at_later", send, false};
  uint64_t end = 0;

  Bench() {
    lt.socket.bind(hit_miss_lt.socket);
    at.socket.bind(hit_miss_at.socket);
    at_later.socket.bind(later.socket);
    sc_core::sc_start();
    end = to_cycles(sc_core::sc_time_stamp());
  }
};

const Bench& bench() {
  static const Bench b;
  return b;
}

TEST(UnitBase, LatencyPerInstructionInBothStyles) {
  const Bench& b = bench();
  // Starts: 0, 2 (busy until then), 4, 10; hits take 4 cycles, misses 34.
  const uint64_t done[] = {0 + 4, 2 + 34, 4 + 4, 10 + 34};
  const uint64_t free[] = {2, 4, 6, 12};
  for (size_t i = 0; i < b.send.size(); ++i) {
    EXPECT_EQ(b.lt.seen[i].done, done[i]) << "LT warp " << i;
    EXPECT_EQ(b.at.seen[i].done, done[i]) << "AT warp " << i;
    EXPECT_EQ(b.at.seen[i].end_req, free[i]) << "AT warp " << i;
    for (const Initiator* init : {&b.lt, &b.at}) {
      EXPECT_TRUE(init->seen[i].ok) << i;
    }
  }
  EXPECT_EQ(b.hit_miss_at.busy_cycles(), 8u);
  EXPECT_EQ(b.hit_miss_at.warp_instructions(), 4u);
}

TEST(UnitBase, ResultsKnownOnlyWhenOut) {
  const Bench& b = bench();
  const uint64_t start[] = {0, 2, 4, 10};
  for (size_t i = 0; i < b.send.size(); ++i) {
    EXPECT_EQ(b.at_later.seen[i].done, start[i] + LaterUnit::kAnswer) << i;
    EXPECT_EQ(b.at_later.seen[i].end_req, start[i] + 2) << i;
    EXPECT_TRUE(b.at_later.seen[i].ok) << i;
  }
  EXPECT_EQ(b.end, 10 + 34u);  // the last miss
}

}  // namespace
}  // namespace ptxfu::models
