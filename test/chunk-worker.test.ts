import { afterEach, describe, expect, it } from 'vitest';
import { applyChunks, chunksAfterLink, planChunks, syncChunks } from '../src/embeddings/chunks.js';
import { indexProject } from '../src/project/indexing.js';
import { Project } from '../src/project/project.js';
import { makeProject, removeProject } from './helpers/project.js';

let root: string | undefined;
afterEach(() => root && removeProject(root));

type Row = Record<string, unknown>;
const chunkRows = (p: Project): Row[] =>
  p.db.prepare('SELECT path, kind, name, container, start_line, end_line, name_line, doc_line, signature, doc, body, text, hash FROM chunks ORDER BY path, start_line, name').all() as Row[];

describe('chunks planned by a worker beside linking (#14)', () => {
  it('writes the chunks that chunking after linking writes, the containers linking sets included', async () => {
    // a Go method declared in another file than its receiver's type: its container is set by
    // linking, which the worker's reading may precede
    const files: Record<string, string> = {
      'go.mod': 'module example.com/app\n\ngo 1.21\n',
      'store/store.go': 'package store\n\n// Store keeps the items.\ntype Store struct {\n\titems []int\n}\n',
      'store/get.go': 'package store\n\n// Get returns the first item.\nfunc (s *Store) Get() int {\n\treturn s.items[0]\n}\n',
    };
    for (let i = 0; i < 20; i++) {
      files[`src/m${i}.ts`] = `/** Part ${i}. */\nexport function part${i}(x: number): number {\n  return x + ${i};\n}\n\nexport class Holder${i} {\n  value(): number {\n    return part${i}(1);\n  }\n}\n`;
    }
    root = makeProject(files);
    const p = new Project(root);
    const stats = await indexProject(p.db, p.root, { workers: 0, chunkWorkerBytes: 0 });
    const planned = chunkRows(p);
    const get = planned.find((r) => r.name === 'Get');
    expect(get).toMatchObject({ kind: 'method', container: 'Store', path: 'store/get.go' });
    expect(get!.text).toMatch(/^method Store\.Get\n/);
    expect(planned.filter((r) => r.path === 'src/m5.ts').map((r) => `${r.kind} ${r.container ?? ''}.${r.name}`)).toEqual([
      'function .part5', 'class .Holder5', 'method Holder5.value',
    ]);

    // the same rows chunked on this thread after linking, from scratch
    p.db.exec('DELETE FROM chunks; DELETE FROM chunk_files;');
    const again = syncChunks(p.db, p.root);
    expect(again.files).toBe(stats.files);
    expect(chunkRows(p)).toEqual(planned);
  });

  it('plans again the files whose containers linking set after the plan was made', async () => {
    root = makeProject({
      'go.mod': 'module example.com/app\n\ngo 1.21\n',
      'store/store.go': 'package store\n\ntype Store struct {\n\titems []int\n}\n',
      'store/get.go': 'package store\n\nfunc (s *Store) Get() int {\n\treturn s.items[0]\n}\n',
      'store/put.go': 'package store\n\nfunc Put(s *Store, x int) {\n\ts.items = append(s.items, x)\n}\n',
    });
    const p = new Project(root);
    await indexProject(p.db, p.root, { workers: 0 });
    // the index as a plan made before linking saw it: the method's container not yet set
    p.db.exec('DELETE FROM chunks; DELETE FROM chunk_files;');
    const linked = p.db.prepare("SELECT id, container_name FROM symbols WHERE container_import_id IS NOT NULL").all() as { id: number; container_name: string }[];
    expect(linked.map((s) => s.container_name)).toEqual(['Store']);
    p.db.prepare('UPDATE symbols SET container_name = NULL WHERE container_import_id IS NOT NULL').run();
    const early = planChunks(p.db, p.root);
    expect(early.work.flatMap((w) => w.chunks).find((c) => c.name === 'Get')).toMatchObject({ container: null });
    // linked
    for (const s of linked) p.db.prepare('UPDATE symbols SET container_name = ? WHERE id = ?').run(s.container_name, s.id);
    const plan = chunksAfterLink(p.db, p.root, early);
    expect(plan.work.map((w) => w.path).sort()).toEqual(early.work.map((w) => w.path).sort());
    applyChunks(p.db, plan);
    expect(chunkRows(p).find((r) => r.name === 'Get')).toMatchObject({ container: 'Store', path: 'store/get.go' });
    expect(chunkRows(p).find((r) => r.name === 'Put')).toMatchObject({ container: null });
  });
});

