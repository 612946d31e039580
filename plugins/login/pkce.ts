/** PKCE (RFC 7636, S256) and the random `state` of an authorization request. */
import { createHash, randomBytes } from "node:crypto";

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function randomState(bytes = 16): string {
  return randomBytes(bytes).toString("hex");
}
