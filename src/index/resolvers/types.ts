/**
 * A file found in the project, a dependency outside it, or nothing (with why). `rest`: names still
 * to look up from that file's exports, one after the other (Rust `crate::a::b` resolves `crate` to
 * the crate root and leaves `a`, `b` to the module graph, inline modules included).
 */
export type Resolution =
  | { file: string; rest?: string[] }
  /** a package whose files share one scope (Go directory, Java package): its exports are theirs */
  | { package: string[]; rest?: string[] }
  | { external: true }
  | { unresolved: string };

/**
 * Resolves an import specifier written in `importer` (both project-relative, `/`-separated).
 * `scope`: the inline modules / namespaces the import is written in, outermost first (Rust
 * `mod tests { use super::*; }`), for languages whose relative specifiers depend on them.
 */
export type ModuleResolver = {
  (importer: string, spec: string, scope?: readonly string[]): Resolution;
  /** the specifier of `name` inside the module `spec` (Python `a.b` + `c` → `a.b.c`): how a member
   * that a module does not define is looked up as its submodule */
  join?: (spec: string, name: string) => string;
};
