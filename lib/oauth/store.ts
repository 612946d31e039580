/**
 * OAuth logins in auth.json: read fresh at each use (another process may have refreshed or
 * removed one), and refreshed before they expire under the file's lock, with the answer written
 * before the lock is released. So however many agents share the file, in this process or in
 * others (pi's included: it takes the same lock), one of them refreshes and the rest read what it
 * wrote: the check runs again under the lock. Within a process, concurrent requests for one
 * login also share one refresh without queueing on the lock.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { modifyJsonFile } from "../locked-json/index.js";
import { isOAuthCredential, type OAuthCredential } from "./credential.js";

/** pi's rule: a token with less than five minutes left is refreshed first. */
export const MIN_VALIDITY_MS = 5 * 60 * 1000;
/** A refresh is never cut short by the request that asked for it (the old refresh token may be spent already); this bounds it. */
export const REFRESH_TIMEOUT_MS = 30_000;
/** How long to wait for another process's refresh: longer than one may take. */
const LOCK_WAIT_MS = REFRESH_TIMEOUT_MS + 30_000;

export const AUTH_FILE_MODE = { mode: 0o600, dirMode: 0o700 } as const;

export type Refresher = (credential: OAuthCredential, signal: AbortSignal) => Promise<OAuthCredential>;

/** The file's object; `{}` when there is none. A file that cannot be read or parsed is an error naming it. */
export async function readAuthFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new Error(`Invalid JSON in ${path}: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`Invalid ${path}: expected an object of provider credentials`);
  return value as Record<string, unknown>;
}

/** The provider's OAuth entry as stored now, or undefined (none, or an API key). */
export async function readOAuthCredential(path: string, provider: string): Promise<OAuthCredential | undefined> {
  const entry = (await readAuthFile(path))[provider];
  return isOAuthCredential(entry) ? entry : undefined;
}

/** Stores a new login (replacing whatever the provider had). */
export async function saveOAuthCredential(path: string, provider: string, credential: OAuthCredential): Promise<void> {
  await modifyJsonFile(path, async (current) => ({ next: { ...current, [provider]: credential }, result: undefined }), AUTH_FILE_MODE);
}

export function expiresSoon(credential: OAuthCredential, now = Date.now()): boolean {
  return now + MIN_VALIDITY_MS >= credential.expires;
}

const inFlight = new Map<string, Promise<OAuthCredential>>();

/**
 * The provider's login, refreshed first when it expires within five minutes. Undefined when
 * auth.json holds no OAuth login for it (never logged in, logged out, or an API key instead).
 * `signal` stops the wait, not a refresh already under way.
 */
export async function currentOAuthCredential(path: string, provider: string, refresh: Refresher, signal?: AbortSignal): Promise<OAuthCredential | undefined> {
  const stored = await readOAuthCredential(path, provider);
  if (!stored || !expiresSoon(stored)) return stored;
  const key = `${resolve(path)}\0${provider}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = refreshUnderLock(path, provider, refresh).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return signal ? untilAborted(pending, signal) : pending;
}

/** Under the lock: read again, refresh only if still needed, write before letting go. */
function refreshUnderLock(path: string, provider: string, refresh: Refresher): Promise<OAuthCredential> {
  return modifyJsonFile(
    path,
    async (current) => {
      const entry = current[provider];
      if (!isOAuthCredential(entry))
        throw new Error(`Not logged in to ${provider} any more (its auth.json entry was removed meanwhile): log in again with \`atomic login ${provider}\`.`);
      if (!expiresSoon(entry)) return { result: entry };
      const next = await refresh(entry, AbortSignal.timeout(REFRESH_TIMEOUT_MS));
      return { next: { ...current, [provider]: next }, result: next };
    },
    { ...AUTH_FILE_MODE, lockWaitMs: LOCK_WAIT_MS },
  );
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error("Aborted"));
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error("Aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolvePromise(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
}
