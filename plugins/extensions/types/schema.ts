/** The typed JSON Schema shape of pi's typebox (`TSchema`, `Static`), which tool definitions use. */

/** Type-level only: carries the value type a schema describes (no such property exists at run time). */
declare const VALUE: unique symbol;

/** A JSON Schema object; `T` is the value type it describes. */
export interface TSchema<T = unknown> {
  [key: string]: unknown;
  readonly [VALUE]?: T;
}

/** The value type a schema describes. */
export type Static<S> = S extends { readonly [VALUE]?: infer T } ? T : unknown;
