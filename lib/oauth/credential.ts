/**
 * An OAuth login as pi keeps it in auth.json, `{"type":"oauth","access":...,"refresh":...,"expires":<ms>}`
 * plus what a provider adds (Codex `accountId`, Copilot `enterpriseUrl` and `availableModelIds`,
 * ChatGPT `clientId` and `scopes`). `expires` is when to stop using `access` (pi's flows already
 * take a safety margin off the server's lifetime). Extra fields are kept as they are.
 */
export interface OAuthCredential {
  type: "oauth";
  access: string;
  refresh: string;
  expires: number;
  [field: string]: unknown;
}

/** pi's test of a stored OAuth entry: the three fields with their types, `expires` a finite number. */
export function isOAuthCredential(value: unknown): value is OAuthCredential {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  return entry.type === "oauth" && typeof entry.access === "string" && typeof entry.refresh === "string" && typeof entry.expires === "number" && Number.isFinite(entry.expires);
}

/** What a request needs from a login: the key (bearer token), and for some providers an address or headers. */
export interface OAuthRequestAuth {
  apiKey: string;
  /** The account's own API address (GitHub Copilot's, from its token). */
  baseUrl?: string;
  headers?: Record<string, string>;
}

/**
 * The server refused the stored refresh token (revoked, expired, or used up by another client):
 * only a new login helps. Flows throw it from `refresh`; the message says what the server said.
 */
export class LoginExpiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoginExpiredError";
  }
}
