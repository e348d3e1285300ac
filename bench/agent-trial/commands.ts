/** The harness commands as an agent is told about them (COMMANDS.md, `trial.js help`). */
import { TRIAL_JS } from './state.js';

export function commandList(dir?: string): string {
  const t = `node ${TRIAL_JS}`;
  return `# Your tools

You have no Claude Code tools of your own: each one is a shell command of this harness. Run them from
any directory${dir ? ` with \`export TRIAL_DIR=${dir}\` set (or pass \`--dir ${dir}\`)` : ' with TRIAL_DIR set to the trial directory (or pass --dir DIR)'}.
FILE and paths are relative to the project root (or absolute). Quote arguments for the shell; for
multi-line text use \`$'line 1\\nline 2'\` or put it in a file outside the project (\`--old-file\`,
\`--new-file\`, \`--content-file\`, \`--args-file\`); a value that starts with \`-\` is written
\`--old='-x'\`. \`call TOOL --args-file F\` reads the JSON arguments from F.

| command | stands for | what it does |
|---|---|---|
| \`${t} call TOOL 'JSON'\` | \`mcp__code-intel__TOOL\` | call one code-intel MCP tool with JSON arguments (\`{}\` when omitted); prints its answer as JSON |
| \`${t} tools [TOOL]\` | (the MCP tool list) | the code-intel tools with their descriptions and input schemas |
| \`${t} read FILE [--offset N] [--limit N]\` | Read | the file with line numbers, up to 2000 lines from line N (1-based) |
| \`${t} grep PATTERN [--path P] [--glob G] [-i] [--content [-C N]] [--count] [--head-limit N]\` | Grep | regex search (ripgrep syntax); default: files with matches; \`--content\`: matching lines with line numbers |
| \`${t} edit FILE --old TEXT --new TEXT [--replace-all]\` | Edit | replace exactly one occurrence of TEXT (every one with --replace-all); \`--old-file F\` / \`--new-file F\` read the text from a file; the file must have been read first |
| \`${t} write FILE --content TEXT\` (or \`--content-file F\`) | Write | create or overwrite FILE (an existing file must have been read first) |
| \`${t} bash 'CMD' [--timeout MS]\` | Bash | run CMD with \`bash -c\` in the project root (120000 ms by default, at most 600000); prints stdout, stderr and the exit code |
| \`${t} stop\` | (end of your turn) | say you are done: the Stop hook runs |

How to read the output:
- \`DENIED: reason\` — a hook refused the call before it ran; nothing happened.
- \`HOOK PostToolUse fed back to the agent: …\` — the client's hook told you something after the call
  (for example that the write guard undid a change): act on it.
- \`HOOK … message to the user: …\` — what the person at the keyboard was shown.
- An MCP answer with \`"error"\` is the server refusing (\`phase_blocked\`, \`understanding_refused\`, …): its
  \`message\`, \`hint\` and \`next_step\` say what to do.
- Exit status: 0 the call ran, 1 it failed (or the MCP tool answered an error), 2 denied.

Only these commands count as your actions: do not read or change the project or the trial directory
any other way.
`;
}

export const OPERATOR_USAGE = `agent-trial — act as Claude Code driving code-intel, one tool call per command

Operator commands (all state in --dir DIR or $TRIAL_DIR):
  setup --repo PATH --request "TEXT" [--rev REV] [--files-from GLOB]...
                           copy PATH (a directory, or a git dir with --rev) into DIR/project, git init +
                           commit, code-intel init + index, DIR/PROMPT.md, then the user types /code TEXT
  prompt "TEXT"            a new user message (transcript + UserPromptSubmit)
  report [--json]          what happened: calls per tool and phase, denials, undos, refusals, outcome
  help                     this text and the agent's command list
`;
