/**
 * The names a project calls itself in its manifests (package.json, Cargo.toml, go.mod,
 * pyproject.toml, setup.cfg, pom.xml): "serde_json", "pinia", "eslint". A request that names the
 * project ("serde_json 在序列化…", "ESLint の autofix") says where, not what: every symbol of the
 * project is in it. The root folder's name is not used (a checkout may be called anything: app,
 * src, project).
 */
import fs from 'node:fs';
import path from 'node:path';
import { normalize } from '../util/words.js';

const MAX_MANIFEST = 256 * 1024;

/** Each manifest with the pattern whose first group is the project's name in it. */
const MANIFESTS: [file: string, name: (text: string) => string | undefined][] = [
  ['package.json', (t) => {
    try {
      const n = (JSON.parse(t) as { name?: unknown }).name;
      return typeof n === 'string' ? n.replace(/^@[^/]+\//, '') : undefined;
    } catch {
      return undefined;
    }
  }],
  ['Cargo.toml', (t) => /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/msu.exec(t)?.[1]],
  ['go.mod', (t) => /^module\s+(\S+)/mu.exec(t)?.[1]?.split('/').filter((s) => !/^v\d+$/u.test(s)).pop()],
  ['pyproject.toml', (t) => /^\[(?:project|tool\.poetry)\][^[]*?^name\s*=\s*["']([^"']+)["']/msu.exec(t)?.[1]],
  ['setup.cfg', (t) => /^\[metadata\][^[]*?^name\s*=\s*(\S+)/msu.exec(t)?.[1]],
  // the project's own artifactId: the first one outside <parent>
  ['pom.xml', (t) => /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/u.exec(t.replace(/<parent>[\s\S]*?<\/parent>/u, ''))?.[1]],
];

/** Lower-cased names (at least 3 characters), from the manifests at the project's root. */
export function projectNames(root: string): string[] {
  const out = new Set<string>();
  for (const [file, nameIn] of MANIFESTS) {
    const p = path.join(root, file);
    let text: string;
    try {
      const st = fs.statSync(p);
      if (!st.isFile() || st.size > MAX_MANIFEST) continue;
      text = fs.readFileSync(p, 'utf8');
    } catch {
      continue;
    }
    const name = nameIn(text);
    if (name && name.length >= 3) out.add(normalize(name));
  }
  return [...out];
}

/**
 * The names of `names` that a text writes as a word of its own, spelt as written or with `-`, `_`,
 * `.` and spaces exchanged or left out (serde_json, serde-json, Serde JSON; ESLint for eslint), not
 * inside an identifier (createPinia does not name pinia).
 */
export function namedIn(text: string, names: readonly string[]): string[] {
  const t = normalize(text);
  return names.filter((n) => {
    const parts = n.split(/[\s_.-]+/u).filter(Boolean).map((p) => p.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
    if (parts.length === 0) return false;
    // ASCII boundaries: Japanese and Chinese write no space between a name and the next word (piniaのストア)
    return new RegExp(`(?<![a-z0-9])${parts.join('[\\s_.-]*')}(?![a-z0-9])`, 'u').test(t);
  });
}
