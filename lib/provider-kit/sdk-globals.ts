/**
 * The web globals the bundled OpenAI and Anthropic SDKs see in place of Node's (scripts/bundle.mjs
 * injects these bindings into their modules; the SDKs' code is unchanged). Both SDKs build a
 * `Headers` and test `body instanceof FormData` on every request, and either global loads undici
 * on Node 20 (see fetch-headers.ts): `Headers` is the standard class without it, and `FormData`
 * answers `instanceof` for an ordinary body without touching the global, which it defers to for
 * anything that says it is form data and for construction (file uploads, which Atomic never sends).
 */
export { FetchHeaders as Headers } from "./fetch-headers.js";

export class FormData {
  constructor(...args: ConstructorParameters<typeof globalThis.FormData>) {
    // A constructor that returns an object makes `new` yield it: callers get the real class.
    return new globalThis.FormData(...args) as unknown as FormData;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "FormData" && value instanceof globalThis.FormData;
  }
}

/**
 * `globalThis.ReadableStream` as the SDKs read it: both test every request's body against it,
 * and reading the global loads Node's whole web streams implementation (~2 ms of a first
 * request) for a body that is a JSON string. A body is a web stream only if it has `getReader`;
 * anything that does is checked against the real class, which `new` also builds.
 */
export class ReadableStream {
  constructor(...args: ConstructorParameters<typeof globalThis.ReadableStream>) {
    return new globalThis.ReadableStream(...args) as unknown as ReadableStream;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && typeof (value as { getReader?: unknown }).getReader === "function" && value instanceof globalThis.ReadableStream;
  }
}
