/**
 * What a provider's login is made of, and how it talks to whoever runs it (the terminal of
 * `atomic login`, an RPC client, an editor over ACP). A flow tells (`notify`) the address to open
 * or the device code to enter, and may ask for a pasted redirect URL or code (`pasted`, the
 * fallback when the browser cannot reach this machine's loopback port). Choices the user makes
 * up front (the method, a GitHub Enterprise domain) come as options, not questions.
 */
import type { OAuthCredential, OAuthRequestAuth } from "../../lib/oauth/index.js";

export type LoginNotice =
  | { type: "auth_url"; url: string; instructions: string }
  | { type: "device_code"; userCode: string; verificationUri: string; intervalSeconds?: number; expiresInSeconds?: number }
  | { type: "progress"; message: string };

export interface PasteRequest {
  message: string;
  /** What the pasted text looks like (the redirect URI, `code#state`). */
  placeholder?: string;
}

export interface LoginIo {
  /** Aborted when the login is cancelled. */
  signal: AbortSignal;
  notify(notice: LoginNotice): void;
  /**
   * The text the user pastes. Never settles when nobody can paste (an editor that only shows the
   * link); rejects when `signal` (the flow stops waiting, e.g. the browser's callback came) aborts,
   * and with a PasteEndedError once no text can come any more (a terminal's stdin at its end).
   */
  pasted(request: PasteRequest, signal: AbortSignal): Promise<string>;
}

/** Nothing can be pasted any more: a login that waits only for a paste fails; one with a browser callback keeps waiting for it. */
export class PasteEndedError extends Error {}

export interface LoginOptions {
  /** One of the flow's method ids; default the first. */
  method?: string;
  /** GitHub Copilot: a GitHub Enterprise domain (`company.ghe.com`); default github.com. */
  enterpriseDomain?: string;
}

/** What a flow gets from the process: its environment (the test origin, the callback host). */
export interface FlowContext {
  env: NodeJS.ProcessEnv;
  /** This installation's id (a UUID), created on first use: Sign in with ChatGPT names the agent host by it. */
  deviceId(): Promise<string>;
  /** Model ids of the provider's catalog (GitHub Copilot enables those its account has to accept first). */
  catalogModelIds(): string[];
}

export interface LoginFlow {
  login(io: LoginIo, options: LoginOptions, context: FlowContext): Promise<OAuthCredential>;
  /** A new access token for `credential`; throws LoginExpiredError when the server refuses the refresh token. */
  refresh(credential: OAuthCredential, signal: AbortSignal, context: FlowContext): Promise<OAuthCredential>;
  /** What a request sends for this login. */
  requestAuth(credential: OAuthCredential, context: FlowContext): OAuthRequestAuth;
}

export interface LoginMethod {
  id: "browser" | "copy_code" | "device_code";
  label: string;
  /** The method also takes a pasted redirect URL or code (`login_input`). */
  takesInput: boolean;
}
