/**
 * Hook evidence waits until the client's transcript shows it (guard/transcript.ts): a prompt
 * until the user's line is there, a Read or Grep until the assistant's tool call (and, for Grep,
 * its result) is. Evidence found counts; evidence still missing after SETTLE_MS, or whose
 * transcript is not the client's, never does. Run before any decision that reads evidence.
 */
import path from 'node:path';
import type { SessionStore, ShownLines } from '../session/store.js';
import { grepLinesWithin } from './grep-shown.js';
import { resultShowsFile } from './read-shown.js';
import { resultMentions, transcriptHasToolUse, transcriptPromptLine, transcriptResultText, transcriptToolResult, validTranscript } from './transcript.js';

/** How long the client may take to write a line to its transcript. */
const SETTLE_MS = 2 * 60_000;

export function settleEvidence(store: SessionStore, root: string): void {
  for (const p of store.pendingPrompts()) {
    const file = validTranscript(p.transcript);
    const late = !file || Date.now() - p.at > SETTLE_MS;
    // a quick look first: the write (and its lock) only when there is something to settle
    if (file && transcriptPromptLine(file, p.prompt, p.at, store.claimedPromptLines())) store.settlePrompt(p.id, (claimed) => transcriptPromptLine(file, p.prompt, p.at, claimed), late);
    else if (late) store.settlePrompt(p.id, undefined, true);
  }
  const s = store.active();
  if (!s) return;
  for (const e of store.pendingEvidence(s.id)) {
    const a = e.args as { transcript?: string; tool_use_id?: string; tool_name?: string; file_path?: string; offset?: unknown; limit?: unknown };
    const file = validTranscript(a.transcript);
    // a Grep is matched by its id (Claude Code); a Read by its id, or by file where the client names no id (Gemini CLI)
    const found = !!file && !!a.tool_name && (a.tool_name === 'Grep'
      ? !!a.tool_use_id && transcriptHasToolUse(file, a.tool_use_id, 'Grep') && grepInTranscript(file, a.tool_use_id, e.files, e.lines, root)
      // the call names the file as the agent wrote it (through a symlink: not the file recorded)
      : e.files.length === 1 && transcriptHasToolUse(file, a.tool_use_id || undefined, a.tool_name, path.resolve(root, a.file_path ?? e.files[0]!), { offset: a.offset, limit: a.limit })
        && readResultAgrees(file, a.tool_use_id, root, e.files[0]!, e.lines));
    if (found) store.settleEvidence(s.id, e.seq, true);
    else if (!file || Date.now() - e.at > SETTLE_MS) store.settleEvidence(s.id, e.seq, false);
  }
}

/** The transcript's result of the Grep lists its files, and shows every line recorded as shown. */
function grepInTranscript(file: string, id: string, files: string[], lines: ShownLines | undefined, root: string): boolean {
  const text = transcriptResultText(file, id);
  if (text === undefined || !resultMentions(text, files, root)) return false;
  return !lines || grepLinesWithin(lines, text, files.map((rel) => ({ rel, printed: [rel, path.join(root, rel)] })), root);
}

/**
 * A Read the transcript names by id (Claude Code) counts once the transcript holds its result, not
 * an error, showing the lines recorded of the file (read-shown.ts resultShowsFile). A client that
 * names no id (Gemini CLI) keeps the call's own check.
 */
export function readResultAgrees(file: string, id: string | undefined, root: string, rel: string, lines: ShownLines | undefined): boolean {
  if (!id) return true;
  const result = transcriptToolResult(file, id);
  if (!result || result.error) return false;
  const [first, last] = lines?.[rel]?.[0] ?? [1, Number.MAX_SAFE_INTEGER];
  return resultShowsFile(path.resolve(root, rel), first, last, result.text);
}
