/**
 * Agent handles (docs/server.md, Envelope): "a_" and 10 base32 characters (50 random bits), the
 * server's name for an agent, stable across session switches and restarts. Unique, not secret.
 */
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

export const HANDLE_PATTERN = /^a_[a-z2-7]{10}$/;

export function newHandle(taken: (handle: string) => boolean): string {
  for (;;) {
    let handle = "a_";
    for (let i = 0; i < 10; i++) handle += BASE32[(Math.random() * 32) | 0];
    if (!taken(handle)) return handle;
  }
}
