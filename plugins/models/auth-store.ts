/**
 * Stored credentials: `<agent dir>/auth.json`, `{"<provider>": {"type":"api_key","key":"..."}}`,
 * and pi's OAuth logins (`{"type":"oauth",...}`, lib/oauth: read and refreshed at request time).
 * Written under the same lock as settings (concurrent `atomic auth set` runs keep every key),
 * with mode 0600 through a temp file and a rename, so a crash never leaves a half file and the
 * key is never readable by other users; a file that cannot be parsed is never replaced. Keys
 * are never logged. The agents of one process share one store (models plugin): a key one of them
 * stores or removes is what the others use at once; a reload reads the file again only when it
 * changed on disk.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ONE_SHOT } from "../../kernel/index.js";
import { JsonFileUpdates } from "../../lib/locked-json/index.js";
import { isOAuthCredential } from "../../lib/oauth/index.js";

/** pi's `api_key` entry; `env` holds what the key needs besides (Cloudflare's account and gateway ids). */
const credentialSchema = () => z.looseObject({ type: z.literal("api_key"), key: z.string(), env: z.record(z.string(), z.string()).optional() });
type Credential = z.output<ReturnType<typeof credentialSchema>>;

export function authFilePath(agentDir: string): string {
  return join(agentDir, "auth.json");
}

export class AuthStore {
  readonly #path: string;
  readonly #updates: JsonFileUpdates;
  #entries = new Map<string, Credential>();
  /** Providers with an OAuth login (its tokens are read fresh when a request needs them). */
  #logins = new Set<string>();
  /** Entries that are neither a usable login nor a usable key, with what is wrong (`atomic config` lists them, a prompt says so). */
  #broken = new Map<string, string>();
  /** The file as last read (inode, size, mtime), and what that read reported. */
  #read: { stamp: string; error: string | undefined } | undefined;

  /** `updates`: the process's queue of JSON file updates (siblings writing at once wait there, not on the lock). */
  constructor(agentDir: string, updates: JsonFileUpdates = new JsonFileUpdates()) {
    this.#path = authFilePath(agentDir);
    this.#updates = updates;
  }

  get path(): string {
    return this.#path;
  }

  /**
   * (Re)reads the file. A missing file is empty. A broken one is reported (returned and passed
   * to `warn`) and leaves the credentials read so far in place.
   */
  async load(warn: (message: string) => void = () => {}): Promise<string | undefined> {
    const stamp = await stat(this.#path).then(
      (stats) => `${stats.ino}:${stats.size}:${stats.mtimeMs}`,
      () => "absent",
    );
    if (this.#read?.stamp === stamp) {
      if (this.#read.error) warn(this.#read.error);
      return this.#read.error;
    }
    const error = await this.#reload(warn);
    this.#read = { stamp, error };
    return error;
  }

  async #reload(warn: (message: string) => void): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        this.#adopt({});
        return undefined;
      }
      return report(warn, `Cannot read ${this.#path}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = text.trim() === "" ? {} : JSON.parse(text);
    } catch (error) {
      return report(warn, `Invalid JSON in ${this.#path}: ${(error as Error).message}`);
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return report(warn, `Invalid ${this.#path}: expected an object of provider credentials`);
    }
    this.#adopt(json as Record<string, unknown>);
    // Told once per read of the file (requests read it again only when it changed).
    for (const problem of this.#broken.values()) warn(problem);
    return undefined;
  }

  key(provider: string): string | undefined {
    return this.#entries.get(provider)?.key;
  }

  /** Variables stored with the provider's key (pi's `env`), used before the process environment's. */
  env(provider: string): Record<string, string> | undefined {
    return this.#entries.get(provider)?.env;
  }

  has(provider: string): boolean {
    return this.#entries.has(provider) || this.#logins.has(provider);
  }

  /** The provider's stored credential is an OAuth login (`atomic login`, or pi's). */
  isLogin(provider: string): boolean {
    return this.#logins.has(provider);
  }

  /** What is wrong with the provider's entry when it can be used neither as a login nor as a key. */
  problem(provider: string): string | undefined {
    return this.#broken.get(provider);
  }

  /** Every unusable entry's problem, as the last read found them. */
  problems(): string[] {
    return [...this.#broken.values()];
  }

  providers(): string[] {
    return [...new Set([...this.#entries.keys(), ...this.#logins])];
  }

  async set(provider: string, key: string): Promise<void> {
    await this.#update((raw) => {
      raw[provider] = { type: "api_key", key } satisfies Credential;
    });
  }

  /** Removes the provider's credential; false when there was none. */
  async remove(provider: string): Promise<boolean> {
    let had = false;
    await this.#update((raw) => {
      had = provider in raw;
      delete raw[provider];
    });
    return had;
  }

  /** Read-modify-write under the lock; the in-memory view follows what was written. */
  async #update(mutate: (raw: Record<string, unknown>) => void): Promise<void> {
    const written = await this.#updates.update(this.#path, (raw) => void mutate(raw), { mode: 0o600, dirMode: 0o700 });
    this.#adopt(written);
    this.#read = undefined;
  }

  #adopt(raw: Record<string, unknown>): void {
    this.#entries.clear();
    this.#logins.clear();
    this.#broken.clear();
    for (const [provider, value] of Object.entries(raw)) {
      if (isOAuthCredential(value)) {
        this.#logins.add(provider);
        continue;
      }
      const missing = incompleteLogin(value);
      if (missing) {
        this.#broken.set(provider, incompleteLoginProblem(this.#path, provider, missing));
        continue;
      }
      const parsed = credentialSchema().safeParse(value, ONE_SHOT);
      if (parsed.success && parsed.data.key !== "") this.#entries.set(provider, parsed.data);
    }
  }
}

/** What an entry of type "oauth" lacks to be a login pi and Atomic use (`refresh`, `access` strings, `expires` a number); undefined for any other entry. */
function incompleteLogin(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null || (value as { type?: unknown }).type !== "oauth") return undefined;
  const entry = value as Record<string, unknown>;
  const wrong = (field: string, expected: "string" | "number") =>
    entry[field] === undefined
      ? `"${field}" is missing`
      : typeof entry[field] !== expected || (expected === "number" && !Number.isFinite(entry[field]))
        ? `"${field}" is not a ${expected}`
        : undefined;
  return [wrong("refresh", "string"), wrong("access", "string"), wrong("expires", "number")].filter((problem): problem is string => problem !== undefined);
}

function incompleteLoginProblem(path: string, provider: string, missing: string[]): string {
  return `Incomplete login in ${path}: the "${provider}" entry is of type "oauth" but ${missing.join(", ")}, so it is not used: log in again (atomic login ${provider}) or remove it (atomic logout ${provider})`;
}

function report(warn: (message: string) => void, message: string): string {
  warn(message);
  return message;
}
