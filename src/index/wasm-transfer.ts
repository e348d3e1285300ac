/**
 * web-tree-sitter hands a node to wasm through a transfer buffer on every question asked of it
 * (`.type`, `.parent`, `.endIndex`, ...): five 32-bit words written, and the answer's words read,
 * each through the emscripten module's `setValue` / `getValue` — a string test, a switch on the
 * type name and a little-endian DataView call per word. On effect that was ≈ 0.7 s of 13 s of
 * extraction CPU. On a little-endian machine a 32-bit word of the heap is an element of the
 * module's own Int32Array view (`HEAP32`, replaced by the module whenever memory grows), so for
 * 'i32' both functions read and write that view directly; every other type goes to the original.
 *
 * The module object is the options object given to `Parser.init` (emscripten's `Module`); where it
 * is not (another caller initialised the binding first, another version), nothing is changed.
 */
type Getter = (ptr: number, type?: string) => unknown;
type Setter = (ptr: number, value: unknown, type?: string) => void;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Replaces the module's setValue/getValue with direct views for 32-bit words; true when it did. */
export function fastTransfer(module: Record<string, unknown>): boolean {
  const get = module.getValue, set = module.setValue;
  if (!LITTLE_ENDIAN || typeof get !== 'function' || typeof set !== 'function' || !(module.HEAP32 instanceof Int32Array)) return false;
  const getValue = get as Getter, setValue = set as Setter;
  module.getValue = (ptr: number, type?: string) => (type === 'i32' ? (module.HEAP32 as Int32Array)[ptr >> 2] : getValue(ptr, type));
  module.setValue = (ptr: number, value: unknown, type?: string) => {
    if (type === 'i32') (module.HEAP32 as Int32Array)[ptr >> 2] = value as number;
    else setValue(ptr, value, type);
  };
  return true;
}
