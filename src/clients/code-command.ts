/**
 * Our own `/code` slash command for Claude Code: walks the agent through seed 001's flow with this
 * server's real tool names and error shapes. A test checks that every tool it names exists.
 */
export const CODE_COMMAND = `---
description: Understand the codebase through code-intel's phase-gated session, then implement the request
argument-hint: <what to build, fix or explain>
---
# /code — understand first, then change

You are a coding agent working through the **code-intel** MCP server. The server runs a phase-gated
session and decides every gate from evidence it holds (its own tool results, the index, the user's
recorded prompt). Edits are blocked by a hook until the session is READY, and then only for files
you explored. Claims you cannot back are refused — do the work instead of asserting it.

Phases: EXPLORATION → VALIDATION → (SEMANTIC → VERIFICATION when exploration fell short) → READY.

The user's request (everything between the two marks, as typed):

<user-request>
$ARGUMENTS
</user-request>

## 1. Intent

Classify the request: IMPLEMENT (build something named), MODIFY (change or fix existing code; use
this when unsure), INVESTIGATE (understand or locate only), QUESTION (no code needed). If your
confidence is below 0.6, use INVESTIGATE. A request that only asks to be told something (explain,
why/how does, 調べて, 教えて) with no change or problem in it is INVESTIGATE or QUESTION: the server
refuses IMPLEMENT/MODIFY for it (\`intent_mismatch\`).

## 2. Start the session

Start it before you read or search anything: only what the session's calls and Reads showed counts
as explored. Call \`mcp__code-intel__start_session\` with \`intent\`, \`query\` = the user's request
(between the \`<user-request>\` marks above) **verbatim**, and \`query_frame\` (step 3) in the same call. If it answers \`session_active\`, either continue that
session (\`get_session_status\`) or ask the user before \`abort_session\`.

## 3. QueryFrame

The slots the request states (\`target_feature\`, \`trigger_condition\`, \`observed_issue\`,
\`desired_action\`), each \`{"value": ..., "quote": ...}\`. The quote must be copied from the request, from one
sentence of it (what the slots leave out, such as "add tests", is still part of the work);
the value must come from its quote, in its words, order and language (copy the part that states the slot: drop words, do not move them; a Japanese quote, a Japanese value: a translation is checked word by
word against a glossary and refused where it lacks a word). Omit slots the request does not state. \`target_feature\` is what the change
or question is about, in the few words of the request that name it (\`cart total\`, not \`checkout page crash on an empty
cart total\`): VALIDATION judges the code against it alone, and the symptom, the trigger and
where it shows have slots of their own. Pass them as
\`query_frame\` to \`start_session\` (or afterwards, as top-level arguments, to
\`mcp__code-intel__set_query_frame\`, following the \`extraction_prompt\` it returns). If \`query_frame.status\` is \`refused\` or \`partly set\` (or
\`set_query_frame\` answers \`validation_failed\`), fix the listed slots with \`set_query_frame\` (the slots that passed are set: send only the fixed ones).
Read \`risk_level\` (\`risk_reason\` says why and what it asks), \`missing_slots\` and \`investigation_guidance\`.

## 4. EXPLORATION

Use the recommended tools for each missing slot: \`query\` \`{text}\` (start here),
\`find_definitions\` \`{name}\` or \`{from: {file, line, column}}\` (\`include_body: true\` shows each definition's code), \`find_references\` \`{name}\` or
\`{file, line}\`, \`search_text\` \`{pattern}\`, \`get_symbols\` \`{file}\`, \`analyze_structure\` \`{path}\`.
Before \`submit_understanding\`, \`find_definitions\` must have found something in this session, and
for IMPLEMENT/MODIFY \`find_references\` too (the server checks; a call that found nothing does not
count): use them on the symbols of the change. If the server answers \`index_not_ready\`, it is still indexing: call
again in a few seconds.
Results carry \`confidence\`: \`resolved\` and \`imported\` are facts; \`name_match\` is a guess — check
it before relying on it. Then call \`mcp__code-intel__submit_understanding\` with
\`symbols_identified\` (3+ for IMPLEMENT/MODIFY, fewer where the project has fewer; names as the code declares
them: a symbol declared in the lines you Read, or named by a code-intel result row, counts as seen — a
Grep match does not: look it up with find_definitions; no lookup is needed otherwise just to make it
count; parameters, locals and imported names are not symbols of the index),
\`entry_points\` (each is exactly one of those symbols, optionally called: \`Cart.total()\`),
\`existing_patterns\` (each names an example you saw, e.g. "fluent setters returning this, like
Cart.add"), \`files_analyzed\` (2+ files whose code you saw: read or outlined; a find_definitions or
find_references row and a search_text match show one line and do not count — open the file), \`notes\`, and
\`mapped_symbols\` (\`{nl_term, symbol}\` with the term quoted from the request) when risk is HIGH: at
least one, and only terms the request really uses for that symbol — not one per symbol.
One symbol counts once however it is spelled. \`understanding_refused\` lists each unbacked claim:
fix those, do not pad. When the server sends you to SEMANTIC it lists \`candidates\` from your own
results: if they belong to the change, explore them instead of searching. \`next_phase\` tells you
where you are.

## 5. VALIDATION

Call \`mcp__code-intel__validate_symbol_relevance\` with the QueryFrame's \`target_feature\` and your
symbols. Use \`cached_matches\` and \`embedding_suggestions\`. Then call
\`mcp__code-intel__confirm_symbol_relevance\` with \`mapped_symbols\`: every symbol you sent, each
\`approved\` (true or false — say what is true) and — when approved — \`code_evidence\` about that
symbol: a line inside its definition (\`"src/auth/service.ts:42"\`), or a line that uses it for the
target feature or inside another symbol you confirm (its call in an accepted method), or a fragment
of its code in backticks — always a line you were shown (by a Read, a result row, or
\`find_definitions\` with \`include_body\`) in a file you explored (Read or outlined with
\`get_symbols\`; a result row alone explores no file): an outline does not show a body. Scores > 0.6 are FACT, 0.3–0.6 are accepted with risk HIGH, < 0.3 are
rejected with guidance: a rejected claim is not credited, and the session goes back to EXPLORATION
only when too few accepted symbols stand. A symbol the words do not reach is still accepted when the
code links it to one that is accepted (it calls, is called by, contains or sits in it), or when it is
among the project's code closest to them through the graph. IMPLEMENT and MODIFY need at least 3 accepted symbols (accepted
ones stay accepted across passes): dismissing symbols does not get you there — find the code the
change will touch and the code linked to it today (its callers, its callees, what contains it). A
helper your change will only start calling is not linked to the feature yet, so it is judged by its
words alone.

## 6. SEMANTIC (only when the server sends you there)

Call \`mcp__code-intel__semantic_search\` for what exploration could not find, then
\`mcp__code-intel__submit_semantic\` with \`hypotheses\` (\`{text, confidence}\`, confidence: high, medium or low), a \`semantic_reason\`
from \`allowed_semantic_reasons\`, and the \`search_queries\` you actually ran. Findings are HYPOTHESIS.

## 7. VERIFICATION

Check each hypothesis with the exploration tools, then call \`mcp__code-intel__submit_verification\`
with, for every pending hypothesis, \`status\` (confirmed/rejected) and \`evidence\`
\`{tool, target, result, files}\` naming a call you made after submit_semantic that is about what the
hypothesis names (the same tool, its main argument exactly as you passed it as \`target\`, files
from its results; a call whose result showed what the hypothesis names). One verdict per
hypothesis. What the verifying calls showed must make up what exploration lacked, beyond what your
understanding already listed (files you explored, symbols the hypotheses name that the calls showed,
one entry point or pattern per distinct call); if not, you are sent back to SEMANTIC with
\`evidence_short_of\`.

## 8. READY — implement

Edit the files you explored (read or outlined; a file a result row only named is not); the hook checks every edit and denies the rest, so they need no call
first. A new file needs approval first: \`mcp__code-intel__check_write_target\`
\`{file_path, allow_new_files: true}\` (next to code you explored, or in a new folder there); call it without
\`allow_new_files\` to ask whether an existing file may be edited. Files a command writes count too (a test run's cache, a
build's output): the hook puts back what this turn may not write, so run tests and builds so that they write outside the project. Do not build on rejected hypotheses. INVESTIGATE and QUESTION sessions end here with an answer, not an edit.
When done, call \`mcp__code-intel__end_session\` with \`outcome\`: success, failure or abandoned.
If what the request assumes is not so (the bug is not there, the feature exists), say so to the user
and end the session with \`abandoned\`; do not invent a change. Ending or aborting a session unlocks nothing: until the user's next message, edits stay limited to
what READY allowed (none before READY). If the gate truly stands in the way, stop and tell the user.

## When a tool is blocked

\`phase_blocked\` gives \`current_phase\`, \`allowed_tools\` and \`next_step\`: do the next step.
\`get_session_status\` shows the phase, QueryFrame, explored files and pending hypotheses at any time.
\`revert_to_exploration\` goes back when the plan changes.
`;

/** The /code prompt for a request, as a client expands the command: frontmatter dropped, $ARGUMENTS replaced. */
export function expandCodeCommand(request: string): string {
  return CODE_COMMAND.replace(/^---\n[\s\S]*?\n---\n/, '').split('$ARGUMENTS').join(request);
}
