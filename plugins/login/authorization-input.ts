/**
 * What a user pastes when the browser's redirect cannot reach this machine: the whole redirect
 * URL, its query (`code=...&state=...`), Anthropic's `code#state`, or the bare code.
 */
import { testOrigin } from "../../lib/oauth/index.js";

export function parseAuthorizationInput(input: string): { code?: string; state?: string } {
  const value = input.trim();
  if (!value) return {};
  if (URL.canParse(value)) {
    const url = new URL(value);
    return defined({ code: url.searchParams.get("code"), state: url.searchParams.get("state") });
  }
  if (value.includes("#")) {
    const [code, state] = value.split("#", 2);
    return defined({ code, state });
  }
  if (value.includes("code=")) {
    const params = new URLSearchParams(value);
    return defined({ code: params.get("code"), state: params.get("state") });
  }
  return { code: value };
}

/** The code of a pasted answer whose `state`, when it carries one, is this login's. */
export function pastedCode(input: string, state: string): string {
  const parsed = parseAuthorizationInput(input);
  if (parsed.state !== undefined && parsed.state !== state)
    throw new Error("The pasted answer belongs to another sign-in (its state does not match): paste the one from this sign-in.");
  if (!parsed.code) throw new Error("The pasted text carries no authorization code.");
  return parsed.code;
}

/**
 * The port a provider's redirect URI names. Under the test origin (tests only) any free port, so
 * tests running side by side never fight over one.
 */
export function callbackPort(preferred: number, env: NodeJS.ProcessEnv): number {
  return testOrigin(env) ? 0 : preferred;
}

function defined(fields: { code?: string | null; state?: string | null }): { code?: string; state?: string } {
  return { ...(fields.code ? { code: fields.code } : {}), ...(fields.state ? { state: fields.state } : {}) };
}
