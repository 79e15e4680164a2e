// Legality of the synchronisation instructions outside the arithmetic table
// (issue 24): fence (with a semantics and a scope, .mbarrier_init, .proxy),
// membar, elect.sync, setmaxnreg, griddepcontrol, barrier.cluster and
// cp.async (copy, commit_group, wait_group, wait_all, mbarrier.arrive), as
// rows of data: qualifier groups (in any order, as ptxas reads them), the
// operands, and the target and PTX version each row needs. ptxas 13.0's
// verdicts on their candidates are tb/unit/isa/data/sync_forms.ptxas.
#pragma once
#include <string_view>
#include <vector>

#include "isa/decode.h"
#include "isa/registers.h"
#include "isa/statement.h"

namespace ptxfu::isa {

// A mnemonic's words, each with its leading dot after the first
// ("mbarrier.try_wait.parity": "mbarrier", ".try_wait", ".parity").
std::vector<std::string_view> mnemonic_words(std::string_view mnemonic);

// Whether `st` is one of the families the sync rows cover.
bool is_sync_statement(const Statement& st);

// Checks `st` (is_sync_statement) against the rows on the target `caps`;
// on failure `err` holds ptxas's words where they are known.
bool check_sync_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa
