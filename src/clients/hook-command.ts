/**
 * The hook command init writes: a POSIX shell line that runs our hook and decides what a failure to
 * run it means. Every client treats a hook that exits with an unexpected code as "not blocking", so
 * a command that cannot start (code-intel uninstalled or moved, node missing, a broken native
 * module) would switch the guard off without a word. The line therefore checks the hook's exit
 * status itself (the hook exits 0 whenever it ran, denials included):
 *  - in a project set up on this machine (a `.code-intel/` folder at or above the project dir), a
 *    pre-tool event is denied: the client's denial on stdout, the reason on stderr, exit code 2,
 *    which Claude Code, Codex and Gemini CLI read as "block" and Cursor's `failClosed` blocks too;
 *    the other events warn on stderr (exit 1) and never block the person;
 *  - in a project never set up here (a teammate who cloned committed hooks but has no code-intel),
 *    it exits 0 without a word: a committed hook must not lock out someone who never installed it.
 */
import path from 'node:path';
import { type Client, format } from '../hooks/dialects.js';
import { PACKAGE_ROOT } from '../util/paths.js';

/** Where init writes Codex's and Cursor's project hooks (relative to the root); the hook reads them back to tell which clients the project runs. */
export const CODEX_HOOKS_FILE = '.codex/hooks.json';
export const CURSOR_HOOKS_FILE = '.cursor/hooks.json';

export const HOOK_JS = path.join(PACKAGE_ROOT, 'dist', 'src', 'hooks', 'main.js');
/** how our hook commands are recognised when merging or removing (a re-run replaces, never duplicates) */
export const HOOK_MARK = '--installed-by=code-intel';

export const isOurHook = (h: unknown): boolean =>
  !!h && typeof h === 'object' && String((h as Record<string, unknown>).command ?? '').includes(HOOK_MARK);

/** single-quoted for sh: the only character a single-quoted word cannot hold is the quote itself */
export const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command for `event` in `client`'s dialect. `portable`: the configs name the `code-intel-hook`
 * bin (a global install on PATH) rather than this checkout's file.
 */
export function hookCommand(event: string, client: Client, portable: boolean): string {
  // this checkout's hook run by the node that runs init, by its path: a \`node\` found on PATH can be
  // a shim the agent put in a folder ahead of the real one (~/.local/bin), exiting 0 for every hook
  // (red team adv20). A portable command (committed for teammates) stays on PATH: see docs/guard.md.
  const start = portable ? 'code-intel-hook' : `${shQuote(process.execPath)} ${shQuote(HOOK_JS)}`;
  const run = `${start} ${event}${client === 'claude-code' ? '' : ` --client=${client}`} ${HOOK_MARK}`;
  const why = (portable ? 'the code-intel-hook command is not installed here, not on PATH, or broken' : `${HOOK_JS} is missing or broken`).replace(/%/g, '%%');
  // the project dir the client names (Claude Code, Gemini CLI), else the hook's cwd; walk up to the project
  const findSetup = 'd="${CLAUDE_PROJECT_DIR:-${GEMINI_PROJECT_DIR:-$PWD}}"; while [ ! -d "$d/.code-intel" ] && [ "$d" != / ] && [ "$d" != . ] && [ -n "$d" ]; do d=$(dirname "$d"); done';
  // the message is a printf format in single quotes: nothing in it is expanded but the exit status
  const say = (fmt: string) => `printf ${shQuote(fmt + '\\n')} "$s" >&2`;
  let onFailure: string;
  if (event === 'pre-tool-use') {
    const denial = format(client, 'pre-tool-use', 'the write guard could not run; denying to be safe (the reason is on stderr)');
    const reason = `code-intel: the write guard could not run (${why}; exit status %s), so this call is denied to be safe. Reinstall code-intel (npm install -g code-intel) or run \`code-intel init\` again in this project; \`code-intel init --remove\` takes the guard out.`;
    onFailure = `printf '%s\\n' ${shQuote(denial)}; ${say(reason)}; exit 2`;
  } else {
    onFailure = `${say(`code-intel: the ${event} hook could not run (${why}; exit status %s)`)}; exit 1`;
  }
  return `${run} || { s=$?; ${findSetup}; if [ -d "$d/.code-intel" ]; then ${onFailure}; fi; exit 0; }`;
}
