/**
 * The extractor's binding writes and reads 32-bit words of the wasm heap through its Int32Array view
 * instead of emscripten's setValue/getValue (src/index/wasm-transfer.ts): the words must be the ones
 * the little-endian DataView calls would write and read, other types must go to the originals, and
 * the binding the index loads must really take the fast path (an upgrade of web-tree-sitter that
 * breaks its assumption shows here, not as a slower index).
 */
import { describe, expect, it } from 'vitest';
import { languageFor } from '../src/index/languages.js';
import { fastTransferActive, loadLanguage } from '../src/index/parser.js';
import { fastTransfer } from '../src/index/wasm-transfer.js';

describe('fast transfer of nodes to wasm', () => {
  it('reads and writes 32-bit words as the DataView did, and hands other types on', () => {
    const buffer = new ArrayBuffer(64);
    const view = new DataView(buffer);
    const other: string[] = [];
    const module: Record<string, unknown> = {
      HEAP32: new Int32Array(buffer),
      getValue: (ptr: number, type?: string) => (type === 'i32' ? view.getInt32(ptr, true) : (other.push(`get ${type}`), 0)),
      setValue: (ptr: number, value: number, type?: string) => (type === 'i32' ? view.setInt32(ptr, value, true) : other.push(`set ${type}`)),
    };
    expect(fastTransfer(module)).toBe(true);
    const get = module.getValue as (ptr: number, type?: string) => number;
    const set = module.setValue as (ptr: number, value: number, type?: string) => void;
    for (const [ptr, value] of [[0, 1], [4, -1], [8, 0x7fffffff], [12, -0x80000000], [16, 123456789]] as const) {
      set(ptr, value, 'i32');
      expect(view.getInt32(ptr, true)).toBe(value);
      view.setInt32(ptr + 32, value, true);
      expect(get(ptr + 32, 'i32')).toBe(value);
    }
    set(0, 1, 'i8');
    get(0, 'i16');
    expect(other).toEqual(['set i8', 'get i16']);
  });

  it('is what the index’s own binding uses', async () => {
    await loadLanguage(languageFor('a.ts')!);
    expect(fastTransferActive()).toBe(true);
  });
});
