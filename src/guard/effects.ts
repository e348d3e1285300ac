/**
 * The guard judged by effect: at every hook event of a guarded /code turn, the working tree is
 * compared with the baseline the guard accepted last; every change this turn may not make is put
 * back, and whatever stood there is kept under .code-intel/guard/reverted/<time>/ and reported (in
 * the session timeline and to the agent). This holds however the change was made: a shell form
 * the command analyser never heard of, an interpreter, another MCP server's tool, a background
 * process that wrote after its command returned (caught at the next event), or a tool that failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionStore } from '../session/store.js';
import { type Anchor, readAnchor, writeAnchor } from './anchor.js';
import { forbids, type GuardMode } from './mode.js';
import { hashOf, isGuardOwned, type Manifest, ProtectedFiles } from './protected.js';
import { type GitHistory, type HistoryStat, historyUnchanged, keepIndex, putBackHistory, readHistory, statOfHistory } from './git-history.js';
import { changedGitMarks, type GitMarks, scanGitMarks, undoGitMark } from './nested-git.js';
import { isRawPath, shownPath, TreeSnapshot } from './tree-snapshot.js';

export interface Undo {
  /** project-relative path, or an absolute one outside the project (user settings) */
  path: string;
  why: string;
  /** where the content that stood there was kept */
  kept?: string;
}

export interface EffectReport {
  undone: Undo[];
  /** changes that could not be put back (reported, and the guard then denies) */
  failed: string[];
  keepDir?: string;
  /** the snapshot store had been changed from outside and was rebuilt */
  rebuilt?: boolean;
}

const TREE = 'tree';
const COMMIT = 'commit';
const PROTECTED = 'protected';
/** the snapshot store's fingerprint (TreeSnapshot.fingerprint) and ignore rules, as the guard left them */
const STORE = 'store';
const EXCLUDES = 'excludes';
/** the /code prompt whose turn the baseline was taken for (a turn before any session) */
const TURN = 'turn';
/** how many states the guard has accepted: the anchor (anchor.ts) holds the latest (a session asks whether one came after its READY) */
export const SEQ = 'seq';
/** the tree the turn began with: its .gitignore files say what is the project's (hiddenSince) */
const RULES = 'rules';
/** '1' while the accepted tree's .gitignore files differ from RULES' (then every event looks for hidden files) */
const RULES_CHANGED = 'rules_changed';
/** the `.git` entries below the root and the folders watched for them (nested-git.ts) */
const GIT_MARKS = 'git_marks';
/** the project's own HEAD, refs and index as accepted (git-history.ts); '' where the root holds no repository */
const GIT_HISTORY = 'git_history';
/** its stat alone (HistoryStat): every event reads this, not the refs */
const GIT_STAT = 'git_history_stat';
/** how many times an undo may reveal further changes (a reverted .gitignore shows what it hid) */
const MAX_ROUNDS = 8;

const isIgnoreRules = (rel: string) => /(^|\/)\.gitignore$/.test(rel);

/** Records what the project looks like now as the accepted state (a session starts). */
export function acceptBaseline(store: SessionStore, root: string): void {
  store.transaction(() => {
    const snap = new TreeSnapshot(root);
    snap.renewIfOutdated();
    snap.trackIgnored();
    const tree = snap.capture();
    const manifest = new ProtectedFiles(root).capture();
    const history = readHistory(root);
    if (history) keepIndex(root, history);
    store.setGuardValues({ [RULES]: tree, [GIT_MARKS]: JSON.stringify(scanGitMarks(root, undefined, (r) => snap.ignored(r))), ...historyValues(history) });
    recordAccepted(store, root, snap, tree, snap.accept(tree), manifest);
  });
}

/**
 * The baseline a new session starts from. In a /code turn the guard has held since the prompt, it
 * is what the guard accepted, after undoing what changed since (`before`: the mode just before the
 * session was made): a process left behind that keeps writing while start_session runs must not
 * have its change taken in as the project's state. Elsewhere the project as it stands.
 */
export function sessionBaseline(store: SessionStore, root: string, before: GuardMode): EffectReport | undefined {
  if (before.kind === 'locked' && before.turn && !before.session && store.guardValue(TURN) === before.turn && store.guardValue(TREE)) {
    return enforceEffects(store, root, before, true);
  }
  acceptBaseline(store, root);
  return undefined;
}

/**
 * The accepted state, in the sealed records and (once they are committed) in the anchor outside the
 * project, with the next sequence number: a database put back from earlier has a lower one.
 */
function recordAccepted(store: SessionStore, root: string, snap: TreeSnapshot, tree: string, commit: string, manifest: Manifest): void {
  const seq = Number(store.guardValue(SEQ) ?? 0) + 1;
  const history = store.guardValue(GIT_HISTORY);
  const anchor: Anchor = { root: path.resolve(root), seq, commit, tree, excludes: snap.excludes(), store: snap.fingerprint(), protected: manifest, ...(history ? { history: JSON.parse(history) as GitHistory } : {}) };
  const rules = store.guardValue(RULES);
  const rulesChanged = rules !== undefined && snap.rulesDiffer(rules, tree) ? '1' : '0';
  store.setGuardValues({ [TREE]: tree, [COMMIT]: commit, [PROTECTED]: JSON.stringify(manifest), [STORE]: anchor.store, [EXCLUDES]: anchor.excludes, [SEQ]: String(seq), [RULES_CHANGED]: rulesChanged });
  store.afterCommit(() => writeAnchor(anchor));
}

/**
 * Is this watched file (absolute path) as the guard last accepted it? False for one the accepted
 * state did not hold (made during the turn) or one changed since; true where no baseline exists yet.
 */
export function asAccepted(store: SessionStore, file: string): boolean {
  const raw = store.guardValue(PROTECTED);
  if (raw === undefined) return true;
  const m = JSON.parse(raw) as Manifest;
  return file in m && m[file] !== null && m[file] === hashOf(file);
}

/** Makes `dir` a folder, removing a file or link that stands in its way under .code-intel/guard/ (the guard's own). */
function guardFolder(root: string, dir: string): void {
  const own = path.join(root, '.code-intel', 'guard');
  for (let d = dir; d.startsWith(own); d = path.dirname(d)) {
    try {
      if (!fs.lstatSync(d).isDirectory()) fs.rmSync(d, { force: true });
    } catch {
      // not there yet
    }
  }
  fs.mkdirSync(dir, { recursive: true });
}

/**
 * A folder for what an undo moves aside that nothing could have made beforehand (a fixed name could:
 * with links in it, the guard's own copy would be written where they point).
 */
function freshKeepDir(root: string): string {
  const reverted = path.join(root, '.code-intel', 'guard', 'reverted');
  guardFolder(root, reverted);
  return fs.mkdtempSync(path.join(reverted, `${stamp()}-`));
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/**
 * Up to this many bytes of files, every check hashes every file: a stat can be made to say nothing
 * moved (red team adv80), and hashing a project of this size costs tens of milliseconds (rxjs, 15 MB
 * of 2,279 files: 30 ms, in the hook's process). Larger projects are hashed whole at the turn's boundaries (`thorough`).
 */
const HASH_ALWAYS_BYTES = 16 * 1024 * 1024;

/**
 * Compares the project with the accepted baseline and undoes what `mode` forbids; the result is
 * the new baseline. Runs inside one immediate transaction, so two hooks never check at once.
 * `thorough`: hash every file, whatever its stat says (at a turn's end, a session's start).
 */
export function enforceEffects(store: SessionStore, root: string, mode: GuardMode, thorough = false): EffectReport {
  const report: EffectReport = { undone: [], failed: [] };
  if (mode.kind === 'locked' && mode.tampered) return undoToAnchor(root); // the records say nothing that can be trusted
  if (mode.kind === 'off' || (mode.kind === 'locked' && !mode.session && !mode.turn)) return report; // nothing guarded
  if (mode.kind === 'locked' && !mode.session && store.guardValue(TURN) !== mode.turn) {
    // the first event of a /code turn no session has started in: until now the guard was off, so
    // the project as it stands is the user's; from here nothing of it may change
    store.transaction(() => {
      acceptBaseline(store, root);
      store.setGuardValues({ [TURN]: mode.turn! });
    });
    return report;
  }
  // the common case, one git process and no write: nothing moved since the accepted state
  const commit = store.guardValue(COMMIT);
  const manifest0 = JSON.parse(store.guardValue(PROTECTED) ?? '{}') as Manifest;
  const snap0 = new TreeSnapshot(root);
  // the store is trusted only as the guard left it: its index, config or ignore rules changed by
  // another process could hide a change (assume-unchanged, an exclude line, core.trustctime)
  // (while a .gitignore differs from the turn's, a file it hides changes nothing git sees: the slow path looks for them)
  const marks0 = gitMarks(store);
  const hashAll = thorough || snap0.smallerThan(HASH_ALWAYS_BYTES);
  if (commit && store.guardValue(RULES_CHANGED) !== '1' && snap0.fingerprint() === store.guardValue(STORE) && snap0.unchangedSince(commit) && (!hashAll || snap0.contentUnchanged())
    && new ProtectedFiles(root).changed(manifest0).length === 0
    && (!marks0 || changedGitMarks(marks0, scanGitMarks(root, marks0, (r) => snap0.ignored(r))).length === 0)
    && historyStands(store)) return report;
  return store.transaction(() => {
    const snap = new TreeSnapshot(root);
    const prot = new ProtectedFiles(root);
    const baseline = store.guardValue(TREE);
    if (!baseline) {
      acceptBaseline(store, root);
      return report;
    }
    // read again inside the transaction: another hook may have moved the baseline meanwhile
    const manifest = JSON.parse(store.guardValue(PROTECTED) ?? '{}') as Manifest;
    if (snap.fingerprint() !== store.guardValue(STORE)) {
      // changed by something other than the guard (or made by an older version): rebuilt from the
      // sealed baseline, every file hashed again; throws (the guard then refuses writes) when the
      // state to restore is gone
      snap.rebuild(baseline, store.guardValue(EXCLUDES), store.guardValue(COMMIT));
      report.rebuilt = true;
    }
    const keepDir = freshKeepDir(root);
    const forbid = (rel: string) => forbids(mode, rel, isGuardOwned);
    const current = putBack(root, snap, prot, baseline, manifest, forbid, report, keepDir, hashAll);
    putBackHidden(snap, store.guardValue(RULES), current, baseline, forbid, report, keepDir);
    const marks = putBackGitMarks(root, snap, gitMarks(store), report, keepDir);
    const history = putBackGitHistory(root, store, mode, forbid, report);
    if (report.failed.length > 0) {
      // what could not be put back is never accepted: the baseline stays, every later event tries
      // again, and the hooks refuse writes meanwhile
      store.setGuardValues({ [STORE]: snap.fingerprint(), [EXCLUDES]: snap.excludes() });
    } else {
      if (marks) store.setGuardValues({ [GIT_MARKS]: JSON.stringify(marks) });
      if (history) {
        if (history.indexMoved) keepIndex(root, history.now);
        store.setGuardValues(historyValues(history.now));
      }
      recordAccepted(store, root, snap, current, snap.accept(current), prot.capture(manifest, false));
    }
    try {
      fs.rmdirSync(keepDir); // nothing was kept
    } catch {
      // it holds what was put back
    }
    if (report.undone.length > 0 || report.failed.length > 0 || report.rebuilt) {
      report.keepDir = path.relative(root, keepDir);
      const s = mode.session;
      if (s) store.record(s.id, {
        tool: 'hook:undo', args: { files: report.undone.map((u) => u.path).slice(0, 50), kept_in: report.keepDir },
        phase: s.phase, outcome: 'blocked', files: [], symbols: [], summary: describeUndo(report),
      });
    }
    return report;
  });
}

/**
 * Puts back every change from `baseline` that `forbid` names a reason for (a reverted .gitignore or
 * .gitattributes can reveal more: looked at again), then the guard's own files as `manifest` holds
 * them. Returns the tree as it stands after.
 */
function putBack(root: string, snap: TreeSnapshot, prot: ProtectedFiles, baseline: string, manifest: Manifest, forbid: (rel: string) => string | undefined, report: EffectReport, keepDir: string, hashAll = false): string {
  let current = snap.capture(hashAll);
  // a reverted .gitignore can reveal files that were hidden a moment ago: look again, until
  // nothing more shows (a chain longer than MAX_ROUNDS is not accepted: see failed)
  for (let round = 0; ; round++) {
    let attributes = false;
    const changes = snap.diff(baseline, current).map((ch) => ({ ...ch, why: forbid(ch.path) })).filter((ch) => ch.why);
    // ignore rules first, alone: what a changed .gitignore stopped ignoring (dependencies, build
    // output) shows as added, and must not be swept away with it; the next round looks again
    const rules = changes.filter((ch) => isIgnoreRules(ch.path));
    // (the private index then starts again from the baseline: a file it took in while unignored is ignored again)
    attributes = rules.length > 0;
    const undo = (list: typeof changes): number => {
      let n = 0;
      for (const ch of list) {
        const why = isRawPath(ch.path) ? ch.why!.split(ch.path).join(shownPath(ch.path)) : ch.why!;
        attributes ||= ch.path === '.gitattributes' || ch.path.endsWith('/.gitattributes');
        try {
          const { kept } = snap.restore(baseline, ch.path, keepDir, ch.status);
          report.undone.push({ path: shownPath(ch.path), why, kept: kept && path.relative(root, kept) });
          n++;
        } catch (e) {
          report.failed.push(`${shownPath(ch.path)}: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      return n;
    };
    let restored = undo(rules.length > 0 ? rules : changes);
    // where no ignore rule could be put back, the other changes are undone all the same: a .gitignore
    // made a folder holding a FIFO had held every other change on disk, unnamed (red team adv33)
    if (restored === 0 && rules.length > 0) restored = undo(changes.filter((ch) => !isIgnoreRules(ch.path)));
    if (restored === 0) break;
    if (round === MAX_ROUNDS) {
      report.failed.push(`undoing kept revealing more changes (${MAX_ROUNDS} rounds of .gitignore or .gitattributes files)`);
      break;
    }
    // what the attributes hid is seen in the next round (an index holding them would still apply
    // them), and what restored ignore rules hide again is left out of it
    if (attributes) snap.forgetStat(baseline);
    current = snap.capture();
  }
  // the guard's files, until nothing more shows: a folder's listing is capped, and files put back
  // can reveal others behind them
  for (let round = 0; ; round++) {
    const changed = prot.changed(manifest);
    if (changed.length === 0 || report.failed.length > 0) break;
    if (round === MAX_ROUNDS * 4) {
      report.failed.push(`undoing kept revealing more changes in the write guard's own folders (${round} rounds)`);
      break;
    }
    for (const file of changed) {
      const rel = path.relative(root, file);
      const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
      const shown = inside ? rel.split(path.sep).join('/') : file;
      const r = prot.restore(manifest, file, keepDir);
      const why = inside ? `'${shown}' belongs to the write guard` : `'${shown}' is a client setting that controls the write guard`;
      if (r.restored) report.undone.push({ path: shown, why, kept: r.kept && path.relative(root, r.kept) });
      else report.failed.push(`${shown}: its saved copy is missing`);
    }
  }
  return current;
}

/**
 * New files that a .gitignore changed or added in this turn hides (an explored or approved one, in
 * READY): by the ignore rules the turn began with they are the project's, so they are judged like any
 * new file, and moved aside where the turn may not make them. Without this, one line in an explored
 * .gitignore would let a file appear anywhere in the project, unseen by the guard and by `git status`.
 */
function putBackHidden(snap: TreeSnapshot, rules: string | undefined, current: string, baseline: string, forbid: (rel: string) => string | undefined, report: EffectReport, keepDir: string): void {
  if (rules === undefined || report.failed.length > 0 || !snap.rulesDiffer(rules, current)) return;
  for (const rel of snap.hiddenSince(rules)) {
    const why = forbid(rel);
    if (!why) continue;
    try {
      const { kept } = snap.restore(baseline, rel, keepDir, 'A');
      report.undone.push({ path: rel, why: `${why.replace(/\.$/, '')} (a .gitignore changed in this turn hides it; by the rules the turn began with it is a new file of the project)`, kept: kept && path.relative(snap.root, kept) });
    } catch (e) {
      report.failed.push(`${rel}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
}

const historyValues = (h: GitHistory | undefined): Record<string, string> =>
  ({ [GIT_HISTORY]: h ? JSON.stringify(h) : '', [GIT_STAT]: h ? JSON.stringify(statOfHistory(h)) : '' });

/** The project's history is as accepted (true where none was recorded: no repository, or a baseline from an older version). */
function historyStands(store: SessionStore): boolean {
  const stat = store.guardValue(GIT_STAT);
  if (stat !== undefined) return !stat || historyUnchanged(JSON.parse(stat) as HistoryStat);
  const raw = store.guardValue(GIT_HISTORY); // recorded by an older version
  return !raw || historyUnchanged(JSON.parse(raw) as GitHistory);
}

/**
 * A commit, stash, branch or staged change made since the accepted state that this mode does not
 * allow is put back (git-history.ts). Returns the history to accept, when it moved.
 */
function putBackGitHistory(root: string, store: SessionStore, mode: GuardMode, forbid: (rel: string) => string | undefined, report: EffectReport): { now: GitHistory; indexMoved: boolean } | undefined {
  const raw = store.guardValue(GIT_HISTORY);
  if (raw === undefined) {
    // a baseline from an older version: the history as it stands is taken in
    const now = readHistory(root);
    return now && { now, indexMoved: true };
  }
  if (raw === '' || historyStands(store)) return undefined;
  const accepted = JSON.parse(raw) as GitHistory;
  const r = putBackHistory(root, accepted, mode.kind === 'locked' ? mode.why : undefined, forbid);
  report.undone.push(...r.undone);
  report.failed.push(...r.failed);
  return r.now && { now: r.now, indexMoved: r.now.index !== accepted.index };
}

function gitMarks(store: SessionStore): GitMarks | undefined {
  const raw = store.guardValue(GIT_MARKS);
  return raw === undefined ? undefined : (JSON.parse(raw) as GitMarks);
}

/**
 * A `.git` below the root that the turn began without, or a gitfile changed since: moved aside (a
 * gitfile that stood there is written back). Returns the marks to accept (none before the first
 * baseline that took them: a session from an older version).
 */
function putBackGitMarks(root: string, snap: TreeSnapshot, before: GitMarks | undefined, report: EffectReport, keepDir: string): GitMarks | undefined {
  if (!before) return undefined;
  const ignored = (r: string[]) => snap.ignored(r);
  const now = scanGitMarks(root, before, ignored);
  const changed = changedGitMarks(before, now);
  if (changed.length === 0) return now;
  for (const rel of changed) {
    try {
      const kept = undoGitMark(root, rel, before, keepDir);
      report.undone.push({ path: rel, why: `'${rel}' would make git commands run in ${path.posix.dirname(rel)}/ use another repository, its config and hooks: it belongs to the write guard`, kept: kept && path.relative(root, kept) });
    } catch (e) {
      report.failed.push(`${rel}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return scanGitMarks(root, before, ignored);
}

/**
 * The records are untrusted or gone (changed, removed, emptied, or an earlier copy put back, maybe by
 * the command that wrote): nothing may change from the state the guard last accepted, which the
 * anchor outside the project holds (anchor.ts). Every change since it is put back; the records are
 * not written (a person's `code-intel guard reset` ends this). Nothing to do without an anchor.
 */
export function undoToAnchor(root: string): EffectReport {
  const report: EffectReport = { undone: [], failed: [] };
  const anchor = readAnchor(root);
  if (!anchor) return report;
  const snap = new TreeSnapshot(root);
  if (snap.fingerprint() !== anchor.store) {
    snap.rebuild(anchor.tree, anchor.excludes, anchor.commit);
    report.rebuilt = true;
  } else if (snap.unchangedSince(anchor.commit) && new ProtectedFiles(root).changed(anchor.protected).length === 0 && (!anchor.history || historyUnchanged(anchor.history))) return report;
  const keepDir = freshKeepDir(root);
  const why = 'the write guard\'s records cannot be trusted (changed, removed or put back from earlier): nothing may change until a person runs `code-intel guard reset`';
  putBack(root, snap, new ProtectedFiles(root), anchor.tree, anchor.protected, () => why, report, keepDir);
  let history = anchor.history;
  if (history && !historyUnchanged(history)) {
    // a commit, branch or staged change made while the records were gone goes back with the files
    const r = putBackHistory(root, history, why, () => why);
    report.undone.push(...r.undone);
    report.failed.push(...r.failed);
    history = r.now ?? history; // the same history, with the stat the put-back left
  }
  // the store now holds the anchor's state again: the next look is the quick one
  snap.accept(anchor.tree);
  if (report.failed.length === 0) writeAnchor({ ...anchor, seq: anchor.seq, store: snap.fingerprint(), ...(history ? { history } : {}) }, true);
  try {
    fs.rmdirSync(keepDir);
  } catch {
    report.keepDir = path.relative(root, keepDir);
  }
  return report;
}

/**
 * One paragraph for the agent and the timeline. `turnOver`: said at the user's next prompt, after
 * which nothing of the turn is checked again — what could not be undone stays, and the person is told
 * so, not that writes wait for it (red team adv34).
 */
export function describeUndo(r: EffectReport, turnOver = false): string {
  if (r.undone.length === 0 && r.failed.length === 0 && !r.rebuilt) return '';
  const parts: string[] = [];
  if (r.rebuilt) parts.push('The write guard\'s snapshot store (.code-intel/guard/) had been changed outside the guard; it was rebuilt from its sealed state and every file checked again.');
  if (r.undone.length > 0) {
    const byWhy = new Map<string, string[]>();
    for (const u of r.undone) byWhy.set(u.why, [...(byWhy.get(u.why) ?? []), u.path]);
    const list = [...byWhy].slice(0, 4).map(([why, paths]) => `${paths.slice(0, 6).join(', ')}${paths.length > 6 ? ` and ${paths.length - 6} more` : ''} — ${why.replace(/\.$/, '')}`).join('; ');
    parts.push(`Undid ${r.undone.length} change(s) this /code turn may not make: ${list}.` + (r.keepDir ? ` What stood there is kept in ${r.keepDir}/.` : ''));
  }
  if (r.failed.length > 0 && turnOver) parts.push(`Could not undo what the last /code turn changed: ${r.failed.slice(0, 5).join('; ')}. The turn is over and these changes stay in the project: look at them (git status, git diff) before going on.`);
  else if (r.failed.length > 0) parts.push(`Could not undo: ${r.failed.slice(0, 5).join('; ')}. Writes are refused until the guard can put these back.`);
  return parts.join(' ');
}
