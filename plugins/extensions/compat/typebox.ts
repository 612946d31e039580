/**
 * Atomic's `typebox` (and `@sinclair/typebox`) for extensions: the `Type` builders pi
 * extensions use, producing plain JSON Schema objects, with `Static<T>` inferring the value type.
 * A schema is ordinary JSON Schema, so it goes to the model as is and is validated by the kernel.
 */
import type { Static, TSchema } from "../types/schema.js";

export type { Static, TSchema } from "../types/schema.js";

/** Marks a property schema as optional inside `Type.Object` (a non-enumerable key: JSON never shows it). */
const OPTIONAL: unique symbol = Symbol.for("atomic.typebox.optional") as never;

export interface TOptional<T = unknown> extends TSchema<T> {
  readonly [OPTIONAL]: true;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<P> = { [K in keyof P]: P[K] extends TOptional ? K : never }[keyof P];
type RequiredKeys<P> = Exclude<keyof P, OptionalKeys<P>>;
type ObjectValue<P extends Record<string, TSchema>> = Simplify<{ [K in RequiredKeys<P>]: Static<P[K]> } & { [K in OptionalKeys<P>]?: Static<P[K]> }>;

/** Schema keywords every builder accepts (description, default, min/max, ...). */
export type SchemaOptions = Record<string, unknown>;

const schema = <T>(base: Record<string, unknown>, options?: SchemaOptions): TSchema<T> => ({ ...base, ...options }) as TSchema<T>;

function isOptional(value: TSchema): boolean {
  return (value as Record<symbol, unknown>)[OPTIONAL] === true;
}

function optional<T>(inner: TSchema<T>): TOptional<T> {
  const copy = { ...inner };
  Object.defineProperty(copy, OPTIONAL, { value: true, enumerable: false });
  return copy as TOptional<T>;
}

function object<P extends Record<string, TSchema>>(properties: P, options?: SchemaOptions): TSchema<ObjectValue<P>> {
  const required = Object.keys(properties).filter((key) => !isOptional(properties[key]!));
  return schema({ type: "object", properties, ...(required.length > 0 ? { required } : {}) }, options);
}

function literal<const V extends string | number | boolean | null>(value: V, options?: SchemaOptions): TSchema<V> {
  const type = value === null ? "null" : typeof value;
  return schema({ const: value, type }, options);
}

function enumOf<const V extends string | number>(values: readonly V[] | Record<string, V>, options?: SchemaOptions): TSchema<V> {
  // A TypeScript numeric enum object also maps numbers back to names: keep the numbers then.
  const all: V[] = Array.isArray(values) ? [...values] : Object.values(values);
  const list = all.some((v) => typeof v === "number") ? all.filter((v) => typeof v === "number") : all;
  return schema({ enum: [...new Set(list)] }, options);
}

function partial<P extends Record<string, TSchema>>(object: TSchema<ObjectValue<P>> & { properties?: P }, options?: SchemaOptions): TSchema<Partial<ObjectValue<P>>> {
  const { required: _required, ...rest } = object as Record<string, unknown>;
  return schema(rest, options);
}

/** The builders, named as TypeBox names them (an ordinary object: each agent's extensions get a copy). */
export const Type = {
  Object: object,
  String: (options?: SchemaOptions) => schema<string>({ type: "string" }, options),
  Number: (options?: SchemaOptions) => schema<number>({ type: "number" }, options),
  Integer: (options?: SchemaOptions) => schema<number>({ type: "integer" }, options),
  Boolean: (options?: SchemaOptions) => schema<boolean>({ type: "boolean" }, options),
  Null: (options?: SchemaOptions) => schema<null>({ type: "null" }, options),
  Any: (options?: SchemaOptions) => schema<any>({}, options),
  Unknown: (options?: SchemaOptions) => schema<unknown>({}, options),
  Literal: literal,
  Enum: enumOf,
  Array: <T>(items: TSchema<T>, options?: SchemaOptions) => schema<T[]>({ type: "array", items }, options),
  Tuple: <const T extends readonly TSchema[]>(items: T, options?: SchemaOptions) =>
    schema<{ [K in keyof T]: Static<T[K]> }>({ type: "array", prefixItems: items, minItems: items.length, maxItems: items.length }, options),
  Union: <const T extends readonly TSchema[]>(anyOf: T, options?: SchemaOptions) => schema<Static<T[number]>>({ anyOf }, options),
  Intersect: <const T extends readonly TSchema[]>(allOf: T, options?: SchemaOptions) => schema<unknown>({ allOf }, options),
  Record: <V>(_key: TSchema<string>, value: TSchema<V>, options?: SchemaOptions) => schema<Record<string, V>>({ type: "object", additionalProperties: value }, options),
  Optional: optional,
  Partial: partial,
  /** The schema as given, typed as `T` (how pi's `StringEnum` is built). */
  Unsafe: <T = unknown>(raw: Record<string, unknown>) => ({ ...raw }) as TSchema<T>,
  Readonly: <T>(inner: TSchema<T>) => inner,
};
