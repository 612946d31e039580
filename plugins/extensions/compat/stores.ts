/**
 * pi's one-off reads of the stores an extension may consult: a stored credential from
 * `<agent dir>/auth.json` (the file Atomic's `auth`/`login` write, in pi's format), whether a
 * folder holds project resources that only load once the project is trusted, and the error
 * class pi throws when a credential change could not be synchronised (for `instanceof`).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** A stored credential as auth.json holds it: `{type: "api_key", key}` or an OAuth login (`{type: "oauth", ...}`). */
export type StoredCredential = { type: string; [field: string]: unknown };

/** The provider's entry of the auth file (default `<agent dir>/auth.json`), read now; undefined when there is none or the file cannot be read. */
export function readStoredCredentialFrom(agentDir: string, providerId: string, authPath = join(agentDir, "auth.json")): StoredCredential | undefined {
  try {
    const data = JSON.parse(readFileSync(resolve(authPath), "utf8").replace(/^\uFEFF/, "")) as Record<string, unknown> | null;
    const entry = data && typeof data === "object" && !Array.isArray(data) ? data[providerId] : undefined;
    return entry && typeof entry === "object" ? (entry as StoredCredential) : undefined;
  } catch {
    return undefined;
  }
}

/** What a project's `.atomic/` may hold that Atomic reads only for a trusted project (or with `--approve`). */
const TRUSTED_PROJECT_RESOURCES = ["settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md"];

const canonical = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/**
 * Whether trusting the project in `cwd` would change what loads: its `.atomic/` holds settings,
 * MCP servers, extensions, skills, prompts, themes or system prompt files, or a folder above it
 * (the user's home aside) holds `.atomic/skills`.
 */
export function hasTrustRequiringProjectResources(cwd: string): boolean {
  let dir = canonical(cwd);
  if (TRUSTED_PROJECT_RESOURCES.some((name) => existsSync(join(dir, ".atomic", name)))) return true;
  const home = canonical(process.env.HOME || homedir());
  for (let parent = dirname(dir); parent !== dir; dir = parent, parent = dirname(parent)) {
    if (parent !== home && existsSync(join(parent, ".atomic", "skills"))) return true;
  }
  return false;
}

export type CredentialSynchronizationOperation = "login" | "logout" | "setRuntimeApiKey" | "removeRuntimeApiKey";

/** A credential change was stored, but the models it affects could not be refreshed afterwards. */
export class CredentialSynchronizationError extends Error {
  readonly providerId: string;
  readonly operation: CredentialSynchronizationOperation;
  readonly credential: StoredCredential | undefined;

  constructor(providerId: string, operation: CredentialSynchronizationOperation, credential: StoredCredential | undefined, options?: ErrorOptions) {
    super(`Credential ${operation} committed for ${providerId}, but local synchronization failed`, options);
    this.name = "CredentialSynchronizationError";
    this.providerId = providerId;
    this.operation = operation;
    this.credential = credential;
  }
}
