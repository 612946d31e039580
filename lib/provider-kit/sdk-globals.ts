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
