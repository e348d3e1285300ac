/**
 * Which tool may run in which phase. One row per tool; a reader can check the whole policy here.
 * Tools not in the table (start_session) are handled before any session exists.
 */
export const PHASES = ['EXPLORATION', 'VALIDATION', 'SEMANTIC', 'VERIFICATION', 'READY', 'FINISHED', 'ABORTED'] as const;
export type Phase = (typeof PHASES)[number];

const E = 'EXPLORATION', V = 'VALIDATION', S = 'SEMANTIC', F = 'VERIFICATION', R = 'READY';
const LIVE = [E, V, S, F, R] as const;

export const TOOL_PHASES: Record<string, readonly Phase[]> = {
  //  tool                          phases where it may run
  query:                           [E, F, R],
  find_definitions:                [E, F, R],
  find_references:                 [E, F, R],
  search_text:                     [E, F, R],
  get_symbols:                     [E, F, R],
  analyze_structure:               [E, F, R],
  set_query_frame:                 [E],
  submit_understanding:            [E],
  validate_symbol_relevance:       [V],
  confirm_symbol_relevance:        [V],
  semantic_search:                 [S],
  submit_semantic:                 [S],
  submit_verification:             [F],
  check_write_target:              [R],
  revert_to_exploration:           [V, S, F, R],
  get_session_status:              [...LIVE, 'FINISHED', 'ABORTED'],
  end_session:                     LIVE,
  abort_session:                   LIVE,
};

/** Every tool the server offers: those of the phases, and start_session, which opens one. */
export const SERVER_TOOLS: ReadonlySet<string> = new Set([...Object.keys(TOOL_PHASES), 'start_session']);

/** Read-only tools that any agent may use freely when no session is active. */
export const FREE_WITHOUT_SESSION = new Set([
  'query', 'find_definitions', 'find_references', 'search_text', 'get_symbols', 'analyze_structure', 'semantic_search',
]);

export function allowedTools(phase: Phase): string[] {
  return Object.entries(TOOL_PHASES)
    .filter(([, phases]) => phases.includes(phase))
    .map(([tool]) => tool);
}

export function isAllowed(tool: string, phase: Phase): boolean {
  return TOOL_PHASES[tool]?.includes(phase) ?? false;
}

/** What the agent should do next in each phase, in plain words. */
export const NEXT_STEP: Record<Phase, string> = {
  EXPLORATION:
    'Call set_query_frame (if not done), explore with query, find_definitions, find_references, search_text, get_symbols, analyze_structure, then submit_understanding.',
  VALIDATION: 'Call validate_symbol_relevance with the target feature and your symbols, then confirm_symbol_relevance with code_evidence for each.',
  SEMANTIC: 'Call semantic_search to fill what exploration missed, then submit_semantic with hypotheses and a semantic_reason that matches the missing requirements.',
  VERIFICATION: 'Check each hypothesis with the exploration tools, then submit_verification citing those calls as evidence.',
  READY: 'Edit the files you explored (the hook checks each edit); a new file needs check_write_target with allow_new_files: true first. Call end_session when done.',
  FINISHED: "This session is over: report to the user. Until the user's next message, edits stay limited to what READY allowed; start a new session only for a new request.",
  ABORTED: "This session was aborted: tell the user why. Until the user's next message, edits stay limited to what READY allowed (none before READY); start a new session only for a new request.",
};

/** The same next steps in Japanese, added to answers when the user's request was Japanese. */
export const NEXT_STEP_JA: Record<Phase, string> = {
  EXPLORATION:
    'set_query_frame（未実施なら）の後、query・find_definitions・find_references・search_text・get_symbols・analyze_structure で探索し、submit_understanding を呼んでください。',
  VALIDATION: 'validate_symbol_relevance を target_feature とシンボルで呼び、各シンボルの code_evidence を添えて confirm_symbol_relevance を呼んでください。',
  SEMANTIC: 'semantic_search で不足を補い、missing_requirements に合う semantic_reason と仮説を添えて submit_semantic を呼んでください。',
  VERIFICATION: '各仮説を探索ツールで確認し、その呼び出しを evidence として submit_verification を呼んでください。',
  READY: '探索済みのファイルを編集してください（各編集はフックが確認します）。新しいファイルは先に check_write_target（allow_new_files: true）で承認を得てください。終わったら end_session を呼んでください。',
  FINISHED: 'このセッションは終了しました。ユーザーに報告してください。ユーザーの次のメッセージまでは READY で許された範囲の編集だけが可能です。新しい依頼のときだけ start_session を呼んでください。',
  ABORTED: 'このセッションは中止されました。理由をユーザーに伝えてください。ユーザーの次のメッセージまでは READY で許された範囲の編集だけが可能です（READY 前なら編集不可）。新しい依頼のときだけ start_session を呼んでください。',
};

/** INVESTIGATE and QUESTION reach READY to answer, never to edit. */
const READY_READ_ONLY = 'Answer the user from what you explored (name the files and symbols). This session never edits files. Call end_session when done.';
const READY_READ_ONLY_JA = '探索した内容（ファイルとシンボル）をもとにユーザーに回答してください。このセッションではファイルを編集しません。終わったら end_session を呼んでください。';

export function nextStepFor(phase: Phase, intent?: string, ja = false): string {
  if (phase === 'READY' && (intent === 'INVESTIGATE' || intent === 'QUESTION')) return ja ? READY_READ_ONLY_JA : READY_READ_ONLY;
  return (ja ? NEXT_STEP_JA : NEXT_STEP)[phase];
}
