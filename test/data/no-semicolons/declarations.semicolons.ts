// Every declaration form, written without semicolons (prettier `semi: false`). Its twin
// declarations.semicolons.ts is the same file with every statement end written; test/asi.test.ts
// checks that both index to the same declarations.
import { readFileSync } from 'node:fs';
import type { Stats } from 'node:fs';

export const VERSION = '1.0.0';
let counter = 0;
var legacy = true;

// a call signature, then a generic call signature: `E` ⏎ `<M …>` reads as `E<M …>` without ASI
export interface Register<E> {
  (method: string, path: string): E;
  <M extends string, P extends string>(method: M, path: P): E;
  readonly name: string;
  count?: number;
  [key: string]: unknown;
  new (options: Options): Register<E>;
  new <T>(options: T): Register<T>;
  <T>(value: T): E;
  handle<T>(value: T): E;
  handle(value: string): E;
  (customName: string): E;
}

export interface Options {
  size: number;
  label?: string;
}

export interface Factory extends Options {
  <T>(value: T): T;
  // a comment between two signatures
  <T, U>(value: T, other: U): [T, U];

  box<T>(value: T): { value: T };
  map<K, V>(entries?: [K, V][]): Map<K, V>;
}

export type Handler = {
  (event: string): void;
  <T>(event: T): void;
  priority: number;
};

export type Pair<A, B> = [A, B];
export type Mode = 'read' | 'write';
export type Lookup<T> = T extends string
  ? 'text'
  : T extends number
    ? 'count'
    : never;

export enum Color {
  Red,
  Green = 'green',
  Blue = 4,
}

export const enum Flag {
  On = 1,
  Off = 0,
}

export abstract class Shape<T> {
  static created = 0;
  readonly id: number = 1;
  name = 'shape';
  protected area: number;
  // an index signature after a type: `number` ⏎ `[key …]` is not `number[…]`
  [key: string]: unknown;
  #secret: number;
  *points(): Generator<number> {
    yield this.area;
  }
  [Symbol.iterator]() {
    return this.points();
  }

  constructor(
    public readonly kind: string,
    private scale = 1,
  ) {
    this.area = 0;
  }

  abstract describe(): string;
  abstract resize<U>(by: U): Shape<U>;

  measure(): number;
  measure(unit: string): number;
  measure(unit?: string): number {
    return unit ? this.area : this.scale;
  }

  get size() {
    return this.area;
  }
  set size(v: number) {
    this.area = v;
  }

  convert<U>(to: U): U {
    return to;
  }

  static create(): Shape<number> | undefined {
    return undefined;
  }
}

function logged(_target: unknown, _key: string) {}

export class Circle extends Shape<number> implements Options {
  size = 2;
  label = 'circle';
  @logged
  radius = 1;
  @logged describe() {
    return `circle ${this.radius}`;
  }
  resize<U>(by: U): Shape<U> {
    return by as unknown as Shape<U>;
  }
}

export function after(x: Options): number {
  return x.size;
}

export function overloaded(a: string): string;
export function overloaded(a: number): number;
export function overloaded(a: string | number) {
  return a;
}

export async function load<T>(path: string): Promise<T> {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function* generate() {
  yield 1;
}

export const identity = <T>(x: T) => x;
export const pick = <T, K extends keyof T>(obj: T, key: K): T[K] => obj[key];
const wrap = async <T,>(x: T) => [x];
export const plain = (x: number) => x * 2;
export const handler: Handler = Object.assign(() => {}, { priority: 1 });
export const config = {
  size: 1,
  label: 'x',
};

export namespace Geometry {
  export const unit = 1;
  export interface Point {
    x: number;
    y: number;
    <T>(scale: T): Point;
  }
  export function distance(a: Point, b: Point) {
    return Math.hypot(a.x - b.x, a.y - b.y);
  }
  export namespace Inner {
    export type Id = string;
  }
}

declare module 'virtual:config' {
  export const settings: Options;
}

export function main(stats: Stats) {
  counter++;
  const local = identity(stats)
  ;[counter] = [counter + 1];
  ;(async () => {
    await wrap(local);
  })();
  return pick({ a: legacy }, 'a');
}

export default class Registry {
  items: string[] = [];
  add(item: string) {
    this.items.push(item);
  }
}

export { wrap as wrapped };
