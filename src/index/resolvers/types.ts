/** A file found in the project, a dependency outside it, or nothing (with why). */
export type Resolution = { file: string } | { external: true } | { unresolved: string };

/** Resolves an import specifier written in `importer` (both project-relative, `/`-separated). */
export type ModuleResolver = (importer: string, spec: string) => Resolution;
