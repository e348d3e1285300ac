import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMIT_REPOS, COMMITS_FILE, type CommitManifest, NEVER_TRAIN } from '../train/commits.js';

const REPO = path.resolve(import.meta.dirname, '..');
const lower = (r: string) => r.toLowerCase();

describe('commit manifest (train/commits.json)', () => {
  const manifest = JSON.parse(fs.readFileSync(COMMITS_FILE, 'utf8')) as CommitManifest;
  const bench = JSON.parse(fs.readFileSync(path.join(REPO, 'bench', 'data', 'relevance-commits.json'), 'utf8')) as { repos: { repo: string }[]; commits: { repo: string; commit: string }[] };

  it('never mines a repository a benchmark measures, nor a held-out history', () => {
    const never = new Set(NEVER_TRAIN.map(lower));
    // the relevance bench's own repositories (tune and eval) must be on the list, whatever is added there later
    for (const r of bench.repos) expect(never.has(lower(r.repo)), `${r.repo} is measured by the relevance bench but not in NEVER_TRAIN`).toBe(true);
    for (const held of ['vuejs/pinia', 'vuejs/core', 'unjs/nitro', 'nuxt/nuxt', 'honojs/hono', 'tanstack/query', 'mobxjs/mobx']) expect(never.has(held)).toBe(true);
    const mined = [...manifest.repos.map((r) => r.repo), ...Object.keys(manifest.commits), ...COMMIT_REPOS.map((r) => r.repo)];
    expect(mined.filter((r) => never.has(lower(r)))).toEqual([]);
  });

  it('records repository, head and commit ids (no code), with a validation split of its own', () => {
    expect(manifest.repos.length).toBeGreaterThanOrEqual(5);
    expect(manifest.repos.some((r) => r.split === 'valid')).toBe(true);
    expect(manifest.repos.some((r) => r.split === 'train')).toBe(true);
    const benchCommits = new Set(bench.commits.map((c) => c.commit));
    let total = 0;
    for (const r of manifest.repos) {
      expect(r.head, r.repo).toMatch(/^[0-9a-f]{40}$/);
      const ids = manifest.commits[r.repo] ?? [];
      expect(ids.length, r.repo).toBe(r.selected);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{40}$/);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => benchCommits.has(id))).toEqual([]);
      total += ids.length;
    }
    expect(total).toBeGreaterThan(1000);
  });
});
