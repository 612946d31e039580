/**
 * Stored credentials: `<agent dir>/auth.json`, `{"<provider>": {"type":"api_key","key":"..."}}`,
 * and pi's OAuth logins (`{"type":"oauth",...}`, lib/oauth: read and refreshed at request time).
 * Written under the same lock as settings (concurrent `atomic auth set` runs keep every key),
 * with mode 0600 through a temp file and a rename, so a crash never leaves a half file and the
 * key is never readable by other users; a file that cannot be parsed is never replaced. Keys
 * are never logged.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ONE_SHOT } from "../../kernel/index.js";
import { updateJsonFile } from "../../lib/locked-json/index.js";
import { isOAuthCredential } from "../../lib/oauth/index.js";

const credentialSchema = () => z.looseObject({ type: z.literal("api_key"), key: z.string() });
type Credential = z.output<ReturnType<typeof credentialSchema>>;

export function authFilePath(agentDir: string): string {
  return join(agentDir, "auth.json");
}

export class AuthStore {
  readonly #path: string;
  #entries = new Map<string, Credential>();
  /** Providers with an OAuth login (its tokens are read fresh when a request needs them). */
  #logins = new Set<string>();
  /** The file as last read (mtime and size), so `reloadIfChanged` reads it only after a change. */
  #version = "";

  constructor(agentDir: string) {
    this.#path = authFilePath(agentDir);
  }

  get path(): string {
    return this.#path;
  }

  /**
   * (Re)reads the file. A missing file is empty. A broken one is reported (returned and passed
   * to `warn`) and leaves the credentials read so far in place.
   */
  async load(warn: (message: string) => void = () => {}): Promise<string | undefined> {
    let text: string;
    try {
      this.#version = await fileVersion(this.#path);
      text = await readFile(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        this.#version = "missing";
        this.#entries.clear();
        this.#logins.clear();
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
    return undefined;
  }

  /** Reads the file again when another process (a login, a logout, a refresh) has changed it. */
  async reloadIfChanged(warn?: (message: string) => void): Promise<void> {
    const version = await fileVersion(this.#path).catch(() => "missing");
    if (version !== this.#version) await this.load(warn);
  }

  key(provider: string): string | undefined {
    return this.#entries.get(provider)?.key;
  }

  has(provider: string): boolean {
    return this.#entries.has(provider) || this.#logins.has(provider);
  }

  /** The provider's stored credential is an OAuth login (`atomic login`, or pi's). */
  isLogin(provider: string): boolean {
    return this.#logins.has(provider);
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
    const written = await updateJsonFile(this.#path, (raw) => void mutate(raw), { mode: 0o600, dirMode: 0o700 });
    this.#adopt(written);
  }

  #adopt(raw: Record<string, unknown>): void {
    this.#entries.clear();
    this.#logins.clear();
    for (const [provider, value] of Object.entries(raw)) {
      if (isOAuthCredential(value)) {
        this.#logins.add(provider);
        continue;
      }
      const parsed = credentialSchema().safeParse(value, ONE_SHOT);
      if (parsed.success && parsed.data.key !== "") this.#entries.set(provider, parsed.data);
    }
  }
}

async function fileVersion(path: string): Promise<string> {
  const info = await stat(path);
  return `${info.mtimeMs}:${info.size}:${info.ino}`;
}

function report(warn: (message: string) => void, message: string): string {
  warn(message);
  return message;
}
