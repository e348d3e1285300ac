/** Variables whose value a program runs as a command. */


/**
 * Variables whose value a program runs as a shell command (git's pager, editor, external diff, ssh
 * command, its settings from the environment; less's preprocessor): set for a command, by `env` or
 * by `export`, the value is judged as code (red team adv41: `GIT_EXTERNAL_DIFF='cmd' git diff`,
 * `GIT_CONFIG_VALUE_0='cmd' git status` with core.fsmonitor).
 */
export const RUNS_VALUE_NAMES = 'GIT_EXTERNAL_DIFF|GIT_PAGER|PAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|GIT_ASKPASS|SSH_ASKPASS|GIT_PROXY_COMMAND|GIT_CONFIG_VALUE_\\d+|GIT_CONFIG_PARAMETERS|LESSOPEN|LESSCLOSE|MANPAGER|SYSTEMD_PAGER|BROWSER|RSYNC_RSH|TAR_OPTIONS|GIT_TRACE\\w*';

const RUNS_VALUE = new RegExp(`^(?:${RUNS_VALUE_NAMES})$`);

/**
 * The shell code in `NAME=value` words that set a variable a program runs (RUNS_VALUE): the value,
 * or for TAR_OPTIONS a tar command with those options; a GIT_TRACE* path is written (`: > F` stands for it).
 */
export function codeOfAssignments(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const m = /^([A-Za-z_]\w*)\+?=(.*)$/s.exec(w);
    if (!m || !RUNS_VALUE.test(m[1]!) || !m[2]!.trim()) continue;
    const [name, value] = [m[1]!, m[2]!];
    if (name === 'TAR_OPTIONS') out.push(`tar ${value}`);
    else if (name.startsWith('GIT_TRACE')) {
      if (value.includes('/')) out.push(`: >> '${value.replace(/'/g, "'\\''")}'`);
    } else out.push(value.replace(/^!/, ''));
  }
  return out;
}
