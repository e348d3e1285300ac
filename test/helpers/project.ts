import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

/** Writes files into a fresh temp directory and returns its real path. */
export function makeProject(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-test-')));
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  }
  return dir;
}

/** Copies a fixture repository into a temp directory (indexing writes .code-intel/ into the root). */
export function copyFixture(name: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `code-intel-${name}-`)));
  fs.cpSync(path.join(REPO_ROOT, 'fixtures', name), dir, { recursive: true });
  return dir;
}

export function removeProject(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // a tree nested past what one path can name (the guard kept one aside whole): rm walks it by parts
    spawnSync('rm', ['-rf', dir]);
  }
}

/** A small TypeScript project used by the server and CLI tests. */
export const SAMPLE = {
  'src/util/format.ts': `/** Formats a price. */\nexport function formatPrice(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n`,
  'src/util/index.ts': `export * from './format';\nexport { formatPrice as price } from './format';\n`,
  'src/cart.ts': [
    `import { formatPrice } from './util';`,
    `import { price } from './util/index';`,
    ``,
    `export class Cart {`,
    `  private items: number[] = [];`,
    `  add(cents: number): this {`,
    `    this.items.push(cents);`,
    `    return this;`,
    `  }`,
    `  total(): string {`,
    `    // formatPrice in a comment is not a reference`,
    `    const label = "formatPrice";`,
    `    return formatPrice(this.items.reduce((a, b) => a + b, 0)) + price(0) + label;`,
    `  }`,
    `}`,
    ``,
  ].join('\n'),
  'src/main.ts': [
    `import { Cart } from './cart';`,
    ``,
    `export function checkout(formatPrice: (n: number) => string): string {`,
    `  const cart = new Cart().add(100);`,
    `  return formatPrice(1) + cart.total();`,
    `}`,
    ``,
  ].join('\n'),
  'README.md': '# sample\nUse formatPrice to show prices.\n',
  '.gitignore': 'generated/\n',
  'generated/big.ts': 'export const ignored = 1;\n',
};
