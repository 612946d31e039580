/**
 * Identifiers (session ids, session entry ids, extension dialog ids) and unpredictable names.
 *
 * Identifiers need to be unique, not secret: they are printed in `get_state`, session file names
 * and listings. They come from `Math.random` (which V8 seeds per process from the system's
 * entropy), not `node:crypto`, because loading that module costs a fresh process ~7 ms, about a
 * tenth of Atomic's own startup, before its first response. Session ids are UUIDv7 (RFC 9562):
 * a millisecond timestamp first, so they also sort by creation time.
 *
 * Names that must not be guessable (a temp file in a shared folder, a marker a document could
 * otherwise forge) use `secureRandomHex`, which loads `node:crypto` on first use.
 */
import { createRequire } from "node:module";

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function randomByte(): number {
  return (Math.random() * 256) | 0;
}

/** `bytes` random bytes as hex, for identifiers (not secrets). */
export function randomHex(bytes: number): string {
  let out = "";
  for (let i = 0; i < bytes; i++) out += HEX[randomByte()];
  return out;
}

/** A UUIDv7: 48 bits of Unix milliseconds, version 7, 74 random bits with the RFC variant. */
export function uuidV7(now = Date.now()): string {
  const time = now.toString(16).padStart(12, "0").slice(-12);
  const version = `7${randomHex(2).slice(1)}`;
  const variant = `${HEX[0x80 | (randomByte() & 0x3f)]}${randomHex(1)}`;
  return `${time.slice(0, 8)}-${time.slice(8)}-${version}-${variant}-${randomHex(6)}`;
}

let crypto: typeof import("node:crypto") | undefined;

/** `bytes` bytes from the operating system's CSPRNG, as hex. */
export function secureRandomHex(bytes: number): string {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return crypto.randomBytes(bytes).toString("hex");
}
