// Legality of the asynchronous-copy, barrier, memory and texture
// instructions outside the arithmetic table (issue 24): mbarrier.*,
// cp.async.bulk and its tensor, prefetch and reduce forms, ld/st with their
// cache, eviction and ordering qualifiers, createpolicy, prefetch/prefetchu,
// applypriority, discard, multimem.*, red.async, st.async,
// tensormap.replace, tex/tld4/txq/suq/suld/sust/sured, as rows of data: the words that name the
// instruction, its qualifier groups (in any order, as ptxas reads them), its
// operand patterns, and the target and PTX version the row and each word
// need. ptxas 13.0's verdicts on their candidates are in
// tb/unit/isa/data/sync_forms.ptxas, beside the sync rows' (sync_forms.h).
// The rows and their hooks are in async_rows_{copy,memory,texture}.cc, the
// matcher that reads them in async_forms.cc (async_rows.h: what they share).
#pragma once

#include "isa/decode.h"
#include "isa/registers.h"
#include "isa/statement.h"

namespace ptxfu::isa {

// Whether `st` is one of the families the async rows cover.
bool is_async_statement(const Statement& st);

// Checks `st` (is_async_statement) against the rows on the target `caps`;
// on failure `err` holds ptxas's words where they are known.
bool check_async_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa
