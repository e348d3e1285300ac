import { createEcmascriptResolver } from './ecmascript.js';
import { createGoResolver } from './go.js';
import { createJavaResolver } from './java.js';
import { createPythonResolver } from './python.js';
import { createRustResolver } from './rust.js';
import type { ModuleResolver } from './types.js';

/** resolver name (the `resolver` column of grammars/languages.json) → factory */
const FACTORIES: Record<string, (root: string, files: ReadonlySet<string>) => ModuleResolver> = {
  ecmascript: createEcmascriptResolver,
  go: createGoResolver,
  java: createJavaResolver,
  python: createPythonResolver,
  rust: createRustResolver,
};

/** the files whose content a resolver reads (by name): a change to one may move any import */
export const RESOLVER_INPUTS: ReadonlySet<string> = new Set(['tsconfig.json', 'package.json', 'go.mod', 'Cargo.toml']);

export function createResolvers(root: string, files: ReadonlySet<string>): Map<string, ModuleResolver> {
  const out = new Map<string, ModuleResolver>();
  for (const [name, make] of Object.entries(FACTORIES)) out.set(name, make(root, files));
  return out;
}
