/**
 * ACP sign-in: `initialize` offers one agent auth method per provider Atomic can log in to, and
 * `authenticate` runs that login through the protocol's login commands. The editor shows the link
 * (a URL elicitation tied to the `authenticate` request, when the client supports them; else an
 * `_atomic/login` notification carries it), and the request answers once the login is stored.
 * A client that declines the elicitation, or cancels the request, cancels the login.
 */
import type { TransportHost } from "../../kernel/index.js";
import { call } from "./call.js";

type Acp = typeof import("@agentclientprotocol/sdk");

export interface AuthMethodInfo {
  id: string;
  name: string;
  description: string;
}

/** The login providers as ACP auth methods (none when the login plugin is not loaded). */
export async function authMethods(host: TransportHost): Promise<AuthMethodInfo[]> {
  const listed = await call<"get_login_providers">(host, { type: "get_login_providers" }).catch(() => undefined);
  return (listed?.providers ?? []).map((entry) => ({
    id: entry.provider,
    name: entry.name,
    description: `Sign in to ${entry.provider}${entry.loggedIn ? " (logged in; signing in again replaces the login)" : ""}: ${entry.methods[0]?.label ?? "browser"}.`,
  }));
}

/** What `authenticate` needs of the connection: calls to the client, and whether it shows URL elicitations. */
export interface AuthClient {
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params: unknown): Promise<void>;
  elicitsUrls: boolean;
}

export async function authenticate(
  acp: Acp,
  host: TransportHost,
  client: AuthClient,
  methodId: string,
  requestId: string | number,
  signal: AbortSignal,
): Promise<Record<string, never>> {
  const started = await call<"login">(host, { type: "login", provider: methodId }).catch((error: Error) => {
    throw acp.RequestError.invalidParams({ methodId }, error.message);
  });
  const { loginId } = started;
  const cancel = () => void call<"login_cancel">(host, { type: "login_cancel", loginId }).catch(() => undefined);
  signal.addEventListener("abort", cancel, { once: true });
  const url = started.kind === "auth_url" ? started.url! : started.verificationUri!;
  const message = started.kind === "auth_url" ? `Sign in to ${started.provider} in your browser.` : `Enter the code ${started.userCode} to sign in to ${started.provider}.`;
  try {
    if (client.elicitsUrls) {
      const answer = client.request("elicitation/create", { mode: "url", requestId, elicitationId: loginId, url, message }) as Promise<{ action?: string }>;
      void answer.then(
        (response) => {
          if (response?.action !== "accept") cancel();
        },
        () => undefined,
      );
    } else {
      await client.notify("_atomic/login", { loginId, provider: started.provider, kind: started.kind, url, message, ...(started.userCode ? { userCode: started.userCode } : {}) });
    }
    await call<"login_wait">(host, { type: "login_wait", loginId }).catch((error: Error) => {
      throw new acp.RequestError(-32000, `Login to ${started.provider} failed: ${error.message}`);
    });
    return {};
  } finally {
    signal.removeEventListener("abort", cancel);
    if (client.elicitsUrls) await client.notify("elicitation/complete", { elicitationId: loginId }).catch(() => undefined);
  }
}
