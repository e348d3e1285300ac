import { afterAll, describe, expect, it } from 'vitest';
import { semanticEngine } from '../src/embeddings/engine.js';
import { Project } from '../src/project/project.js';
import { namedIn, projectNames } from '../src/project/project-name.js';
import { makeProject, removeProject } from './helpers/project.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeProject));
const project = (files: Record<string, string>) => {
  const d = makeProject(files);
  dirs.push(d);
  return d;
};

describe("the project's own name", () => {
  it('is read from the manifests at the root, never from the folder name', () => {
    expect(projectNames(project({ 'package.json': '{"name":"@acme/tiny-store","version":"1.0.0"}' }))).toEqual(['tiny-store']);
    expect(projectNames(project({ 'Cargo.toml': '[package]\nname = "serde_json"\nversion = "1.0.0"\n\n[dependencies]\nname = "x"\n' }))).toEqual(['serde_json']);
    expect(projectNames(project({ 'go.mod': 'module github.com/go-chi/chi/v5\n\ngo 1.20\n' }))).toEqual(['chi']);
    expect(projectNames(project({ 'pyproject.toml': '[build-system]\nrequires = []\n[project]\nname = "requests"\n' }))).toEqual(['requests']);
    expect(projectNames(project({ 'pom.xml': '<project><parent><artifactId>gson-parent</artifactId></parent><artifactId>gson</artifactId></project>' }))).toEqual(['gson']);
    expect(projectNames(project({ 'package.json': '{ not json', 'src/a.ts': 'export const a = 1;\n' }))).toEqual([]);
  });

  it('is found where a request writes it as a word, in any spelling, not inside an identifier', () => {
    expect(namedIn('serde_json 在序列化浮点数时', ['serde_json'])).toEqual(['serde_json']);
    expect(namedIn('How does Serde JSON print floats?', ['serde_json'])).toEqual(['serde_json']);
    expect(namedIn('ESLintの autofix', ['eslint'])).toEqual(['eslint']);
    expect(namedIn('call createPinia twice', ['pinia'])).toEqual([]);
    // a name is text, not a pattern
    expect(namedIn('a trickyyname here', ['(tricky+name)'])).toEqual([]);
    expect(namedIn('a (tricky+name) here', ['(tricky+name)'])).toEqual(['(tricky+name)']);
  });

  it('is no concept of the request: it no longer dilutes the words that tell symbols apart', async () => {
    const files = {
      'src/format.ts': 'export function formatPrice(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n',
      'src/cart.ts': 'export class Cart {\n  items: number[] = [];\n}\n',
    };
    const named = project({ ...files, 'package.json': '{"name":"tiny-store"}' });
    const unnamed = project({ ...files, 'package.json': '{"name":"other-thing"}' });
    const score = async (root: string) => {
      const p = new Project(root);
      await p.refresh();
      const [r] = await semanticEngine(p).scoreSymbols('tiny-store: format the price', [{ name: 'formatPrice', container: null, file: 'src/format.ts', signature: 'formatPrice(cents: number): string', line: 1 }]);
      p.db.close();
      return r!.score;
    };
    const [withName, without] = [await score(named), await score(unnamed)];
    expect(withName).toBeGreaterThan(without);
    expect(withName).toBeGreaterThanOrEqual(0.6);
  });
});
