/**
 * Stored credentials: `<agent dir>/auth.json`, `{"<provider>": {"type":"api_key","key":"..."}}`.
 * Written with mode 0600 through a temp file and a rename, so a crash never leaves a half file
 * and the key is never readable by other users. Keys are never logged.
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ONE_SHOT } from "../../kernel/index.js";

const credentialSchema = () => z.looseObject({ type: z.literal("api_key"), key: z.string() });
type Credential = z.output<ReturnType<typeof credentialSchema>>;

export function authFilePath(agentDir: string): string {
  return join(agentDir, "auth.json");
}

export class AuthStore {
  readonly #path: string;
  readonly #agentDir: string;
  #entries = new Map<string, Credential>();
  /** Other keys of the file (other credential types) are kept verbatim on write. */
  #raw: Record<string, unknown> = {};

  constructor(agentDir: string) {
    this.#agentDir = agentDir;
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
      text = await readFile(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        this.#raw = {};
        this.#entries.clear();
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
    this.#raw = json as Record<string, unknown>;
    this.#entries.clear();
    for (const [provider, value] of Object.entries(this.#raw)) {
      const parsed = credentialSchema().safeParse(value, ONE_SHOT);
      if (parsed.success && parsed.data.key !== "") this.#entries.set(provider, parsed.data);
    }
    return undefined;
  }

  key(provider: string): string | undefined {
    return this.#entries.get(provider)?.key;
  }

  has(provider: string): boolean {
    return this.#entries.has(provider);
  }

  providers(): string[] {
    return [...this.#entries.keys()];
  }

  async set(provider: string, key: string): Promise<void> {
    await this.#loadForUpdate();
    const entry: Credential = { type: "api_key", key };
    this.#raw[provider] = entry;
    this.#entries.set(provider, entry);
    await this.#write();
  }

  /** Removes the provider's credential; false when there was none. */
  async remove(provider: string): Promise<boolean> {
    await this.#loadForUpdate();
    if (!(provider in this.#raw)) return false;
    delete this.#raw[provider];
    this.#entries.delete(provider);
    await this.#write();
    return true;
  }

  /** A broken file is never overwritten: the user may have keys in it worth rescuing. */
  async #loadForUpdate(): Promise<void> {
    const problem = await this.load();
    if (problem) throw new Error(`${problem} (not modified; fix or remove the file first)`);
  }

  async #write(): Promise<void> {
    await mkdir(this.#agentDir, { recursive: true, mode: 0o700 });
    const tmp = `${this.#path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(this.#raw, null, 2) + "\n", { mode: 0o600 });
    // writeFile's mode only applies on creation; chmod covers a leftover temp file.
    await chmod(tmp, 0o600);
    await rename(tmp, this.#path);
  }
}

function report(warn: (message: string) => void, message: string): string {
  warn(message);
  return message;
}
