/** Logging for the server: always stderr, because stdout carries the MCP protocol. */
const quiet = () => process.env.CODE_INTEL_LOG === 'silent';

export const log = {
  info(msg: string): void {
    if (!quiet()) process.stderr.write(`[code-intel] ${msg}\n`);
  },
  error(msg: string, e?: unknown): void {
    const detail = e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : e === undefined ? '' : String(e);
    process.stderr.write(`[code-intel] ERROR ${msg}${detail ? `: ${detail}` : ''}\n`);
  },
};
