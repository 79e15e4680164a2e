// Lowering of the asynchronous copies (cp.async and its groups), the
// mbarrier instructions and elect.sync (the loader's members
// Lowerer::async_copy, mbarrier and elect). Syntax as in the PTX ISA's
// "Data Movement and Conversion Instructions: cp.async" and "Parallel
// Synchronization and Communication Instructions: mbarrier"; cache hints,
// memory-order semantics and scopes do not change values and are read past.
#include <fmt/format.h>

#include "kernel/kernel.h"
#include "kernel/lower.h"

namespace ptxfu::kernel::loading {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool has_word(const Words& words, std::string_view w) {
  for (std::string_view x : words)
    if (x == w) return true;
  return false;
}

[[noreturn]] void unsupported(const Kernel& k, const isa::Statement& st) {
  fail(k, st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
}

}  // namespace

void Lowerer::async_copy(Inst& in, const isa::Statement& st, const Words& words) {
  if (words.size() < 3 || words[1] != "async") unsupported(k_, st);
  if (words[2] == "bulk") return bulk_copy(in, st, words);
  const std::string_view op = words[2];
  if (op == "commit_group") {
    in.kind = Kind::async_commit;
    only_qualifiers(st, words, 3, {});
    expect_operands(st, 0, 0);
    return;
  }
  if (op == "wait_group" || op == "wait_all") {
    in.kind = Kind::async_wait;
    only_qualifiers(st, words, 3, {});
    expect_operands(st, op == "wait_all" ? 0 : 1, op == "wait_all" ? 0 : 1);
    in.bar_wait = op == "wait_all";  // wait_all commits first
    if (op == "wait_group") {
      tok_ = &st.operands[0];
      in.src[0] = source(in, st.operands[0].text, 32, false);
      if (in.src[0].kind != Operand::Kind::imm) fail(st.operands[0], "cp.async.wait_group takes an integer constant");
      in.num_src = 1;
    }
    return;
  }
  if (op == "mbarrier") {  // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
    if (words.size() < 4 || words[3] != "arrive") unsupported(k_, st);
    in.kind = Kind::async_arrive;
    in.async_noinc = has_word(words, "noinc");
    in.space = has_word(words, "shared") || has_word(words, "shared::cta") ? Space::shared : Space::generic;
    only_qualifiers(st, words, 4, {"noinc", "shared", "shared::cta", "b64"});
    expect_operands(st, 1, 1);
    tok_ = &st.operands[0];
    in.addr = address(in, st.operands[0].text, in.space);
    return;
  }
  if (op != "ca" && op != "cg") unsupported(k_, st);
  // cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NB} [dst], [src], cp-size{, src-size | ignore-src}{,
  // policy}
  only_qualifiers(st, words, 3,
                  {"shared", "shared::cta", "global", "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B"});
  if (!(has_word(words, "shared") || has_word(words, "shared::cta")) || !has_word(words, "global"))
    fail(st.mnemonic, fmt::format("'{}': expected cp.async.{}.shared.global", st.mnemonic.text, op));
  const bool policy = has_word(words, "L2::cache_hint");
  expect_operands(st, policy ? 4 : 3, policy ? 5 : 4);
  in.space = Space::shared;
  tok_ = &st.operands[0];
  in.addr = address(in, st.operands[0].text, Space::shared);
  tok_ = &st.operands[1];
  in.addr2 = address(in, st.operands[1].text, Space::global);
  tok_ = &st.operands[2];
  const Operand size = source(in, st.operands[2].text, 32, false);
  if (size.kind != Operand::Kind::imm || (size.value != 4 && size.value != 8 && size.value != 16))
    fail(st.operands[2], "cp.async's copy size is 4, 8 or 16");
  if (op == "cg" && size.value != 16) fail(st.operands[2], "cp.async.cg copies 16 bytes");
  in.access_bytes = static_cast<uint8_t>(size.value);
  const unsigned extra = st.num_operands - 3 - (policy ? 1 : 0);  // src-size or ignore-src
  if (extra == 1) {
    tok_ = &st.operands[3];
    const auto s = lookup(trimmed(st.operands[3].text));
    const bool pred = !st.operands[3].text.empty() && (st.operands[3].text[0] == '!' || (s && s->bits == 1));
    in.src[0] = source(in, st.operands[3].text, pred ? 1 : 32, false);
    in.num_src = 1;
    in.bar_wait = pred;  // ignore-src: a predicate; else src-size: a byte count
  }
}

void Lowerer::bulk_copy(Inst& in, const isa::Statement& st, const Words& words) {
  in.bulk = true;
  const std::string_view op = words.size() > 3 ? words[3] : "";
  if (op == "commit_group" || op == "wait_group") {
    in.kind = op == "commit_group" ? Kind::async_commit : Kind::async_wait;
    only_qualifiers(st, words, 4, {"read"});
    expect_operands(st, op == "wait_group", op == "wait_group");
    in.bar_wait = false;
    if (op == "wait_group") {
      tok_ = &st.operands[0];
      in.src[0] = source(in, st.operands[0].text, 32, false);
      if (in.src[0].kind != Operand::Kind::imm)
        fail(st.operands[0], "cp.async.bulk.wait_group takes an integer constant");
      in.num_src = 1;
    }
    return;
  }
  if (op == "prefetch") {  // into L2: no data moves that a kernel can see
    in.kind = Kind::nop;
    return;
  }
  in.kind = Kind::bulk_copy;
  const bool tensor = op == "tensor";
  if (tensor) {
    if (words.size() < 5 || words[4].size() != 2 || words[4][1] != 'd' || words[4][0] < '1' || words[4][0] > '5')
      fail(st.mnemonic, fmt::format("'{}': expected cp.async.bulk.tensor.Nd (1d to 5d)", st.mnemonic.text));
    in.bulk_dims = static_cast<uint8_t>(words[4][0] - '0');
  }
  const size_t first = tensor ? 5 : 3;
  only_qualifiers(st, words, first,
                  {"shared::cluster", "shared::cta", "global", "mbarrier::complete_tx::bytes", "bulk_group", "tile",
                   "L2::cache_hint"});
  const bool to_shared = has_word(words, "mbarrier::complete_tx::bytes");
  if (to_shared == has_word(words, "bulk_group") || !has_word(words, "global") ||
      (!to_shared && !has_word(words, "shared::cta")))
    fail(st.mnemonic, fmt::format("'{}': the kernel executor runs bulk copies global to shared (.mbarrier::"
                                  "complete_tx::bytes) and shared::cta to global (.bulk_group)",
                                  st.mnemonic.text));
  in.bulk_to_global = !to_shared;
  in.space = Space::shared;
  const bool policy = has_word(words, "L2::cache_hint");
  const unsigned want = (tensor ? 2 : 3) + (to_shared ? 1 : 0) + (policy ? 1 : 0);
  expect_operands(st, want, want);
  const isa::Token& shared_side = st.operands[to_shared ? 0 : 1];
  const isa::Token& global_side = st.operands[to_shared ? 1 : 0];
  tok_ = &shared_side;
  in.addr = address(in, shared_side.text, Space::shared);
  if (tensor) {
    tensor_operand(in, global_side);
  } else {
    tok_ = &global_side;
    in.addr2 = address(in, global_side.text, Space::global);
    tok_ = &st.operands[2];
    in.src[0] = source(in, st.operands[2].text, 32, false);
    in.num_src = 1;
  }
  if (to_shared) {
    const isa::Token& bar = st.operands[tensor ? 2 : 3];
    tok_ = &bar;
    in.addr3 = address(in, bar.text, Space::shared);
  }
}

void Lowerer::tensor_operand(Inst& in, const isa::Token& tok) {
  tok_ = &tok;
  const std::string_view text = trimmed(tok.text);
  const size_t comma = text.find(',');
  const size_t brace = text.find('{');
  if (text.size() < 2 || text.front() != '[' || text.back() != ']' || comma == std::string_view::npos ||
      brace == std::string_view::npos || text.find('}') == std::string_view::npos)
    fail(tok, "expected [tensorMap, {coordinates}]");
  const std::string map(trimmed(text.substr(1, comma - 1)));
  const auto s = lookup(map);
  const bool param = s && s->kind == Symbol::Kind::kernel_param;
  in.addr2 = address(in, "[" + map + "]", param ? Space::param : Space::generic);
  std::string_view coords = text.substr(brace + 1, text.find('}') - brace - 1);
  unsigned n = 0;
  bool extra = false;
  while (!coords.empty() && !extra) {
    const size_t c = coords.find(',');
    const std::string_view part = trimmed(coords.substr(0, c));
    coords = c == std::string_view::npos ? std::string_view{} : coords.substr(c + 1);
    extra = n == in.bulk_dims;
    if (!extra) in.src[n++] = source(in, part, 32, false);
  }
  if (n != in.bulk_dims || extra)
    fail(tok, fmt::format("a {}d tensor copy takes {} coordinates", in.bulk_dims, in.bulk_dims));
  in.num_src = static_cast<uint8_t>(n);
}

void Lowerer::mbarrier(Inst& in, const isa::Statement& st, const Words& words) {
  static constexpr std::pair<std::string_view, MBarrierOp> kOps[] = {
      {"init", MBarrierOp::init},
      {"arrive", MBarrierOp::arrive},
      {"arrive_drop", MBarrierOp::arrive_drop},
      {"expect_tx", MBarrierOp::expect_tx},
      {"complete_tx", MBarrierOp::complete_tx},
      {"test_wait", MBarrierOp::test_wait},
      {"try_wait", MBarrierOp::try_wait},
      {"pending_count", MBarrierOp::pending_count},
      {"inval", MBarrierOp::inval},
  };
  bool found = false;
  for (const auto& [n, o] : kOps)
    if (words.size() > 2 && words[1] == n) in.mbar = o, found = true;
  if (!found || words.back() != "b64") unsupported(k_, st);
  if (has_word(words, "shared::cluster")) unsupported(k_, st);  // clusters: not modelled
  only_qualifiers(st, words, 2, {"shared", "shared::cta", "parity", "noComplete", "expect_tx", "b64"});
  in.space = has_word(words, "shared") || has_word(words, "shared::cta") ? Space::shared : Space::generic;
  in.mbar_parity = has_word(words, "parity");
  in.mbar_no_complete = has_word(words, "noComplete");
  in.mbar_expect_tx = has_word(words, "expect_tx") && in.mbar != MBarrierOp::expect_tx;
  const MBarrierOp o = in.mbar;
  const bool arrive = o == MBarrierOp::arrive || o == MBarrierOp::arrive_drop;
  const bool wait = o == MBarrierOp::test_wait || o == MBarrierOp::try_wait;
  if (in.mbar_parity && !wait) unsupported(k_, st);
  if (o == MBarrierOp::pending_count) {  // mbarrier.pending_count.b64 count, state
    expect_operands(st, 2, 2);
    tok_ = &st.operands[0];
    in.dst[0] = dest(in, st.operands[0].text, 32);
    tok_ = &st.operands[1];
    in.src[0] = source(in, st.operands[1].text, 64, false);
    in.num_dst = in.num_src = 1;
    return;
  }
  unsigned k = 0;
  if (arrive || wait) {  // state or waitComplete first
    expect_operands(st, 2, wait ? 4 : 3);
    tok_ = &st.operands[0];
    in.dst[0] = dest(in, st.operands[0].text, wait ? 1 : 64);
    in.num_dst = 1;
    k = 1;
  } else {
    expect_operands(st, 1, o == MBarrierOp::inval ? 1 : 2);
  }
  tok_ = &st.operands[k];
  in.addr = address(in, st.operands[k].text, in.space);
  for (unsigned i = k + 1; i < st.num_operands; ++i) {  // count, txCount, state, parity, suspendTimeHint
    tok_ = &st.operands[i];
    const bool state = wait && i == k + 1 && !in.mbar_parity;
    in.src[in.num_src++] = source(in, st.operands[i].text, state ? 64 : 32, false);
  }
  if ((o == MBarrierOp::init || o == MBarrierOp::expect_tx || o == MBarrierOp::complete_tx) && in.num_src != 1)
    fail(st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", st.mnemonic.text));
  if ((in.mbar_expect_tx || in.mbar_no_complete || wait) && in.num_src == 0)
    fail(st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", st.mnemonic.text));
}

void Lowerer::elect(Inst& in, const isa::Statement& st, const Words& words) {
  // elect.sync d|p, membermask
  only_qualifiers(st, words, 1, {"sync"});
  if (!has_word(words, "sync")) unsupported(k_, st);
  tok_ = &st.operands[0];
  const std::string_view d0 = st.operands[0].text;
  const size_t bar = d0.find('|');
  if (bar == std::string_view::npos) fail(st.operands[0], "elect.sync writes d|p");
  in.dst[0] = dest(in, d0.substr(0, bar), 32);
  in.dst[1] = dest(in, d0.substr(bar + 1), 1);
  in.num_dst = 2;
  tok_ = &st.operands[1];
  in.src[0] = source(in, st.operands[1].text, 32, false);
  in.num_src = 1;
}

}  // namespace ptxfu::kernel::loading
