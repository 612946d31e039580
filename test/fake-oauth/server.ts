/**
 * A loopback fake of every OAuth server Atomic's logins talk to (Anthropic, OpenAI, GitHub and
 * Copilot, xAI, Kimi, OpenRouter, Meta, Radius), for `ATOMIC_OAUTH_TEST_ORIGIN`: a request for
 * `https://<host>/<path>` arrives here as `/<host>/<path>`. It checks what the real servers check
 * (PKCE, redirect URI, the code's client), rotates refresh tokens (a used or revoked one is
 * `invalid_grant`), approves device codes when told to (or at once), and records every request.
 * `browse(url)` plays the user's browser: it opens the authorize address and follows the
 * redirect to the login's loopback callback.
 *
 * @example
 * const oauth = await startFakeOAuth();
 * // spawn: ATOMIC_OAUTH_TEST_ORIGIN=<oauth.origin> atomic login anthropic
 * await oauth.browse(urlPrintedByTheLogin);
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { route, type FakeState } from "./routes.js";

export interface OAuthRequest {
  method: string;
  /** The provider host the request was for (`claude.ai`, `auth.openai.com`, ...). */
  host: string;
  /** The path on that host. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** Parsed JSON or form fields; undefined without a body. */
  body: Record<string, unknown> | undefined;
}

export interface BrowseResult {
  /** The authorize answer's status (302 for a redirect). */
  status: number;
  /** Where it redirected (the login's callback). */
  location?: string;
  /** The page body (the copy-code page shows `code#state`). */
  body: string;
  /** The callback's answer, when the redirect was followed. */
  callback?: { status: number; body: string };
}

export interface FakeOAuth {
  /** `http://127.0.0.1:<port>`: the value of ATOMIC_OAUTH_TEST_ORIGIN. */
  origin: string;
  requests: OAuthRequest[];
  /** Token-endpoint requests of one grant type (`refresh_token`, `authorization_code`, ...). */
  grants(grantType: string): OAuthRequest[];
  /** A refresh token the fake accepts for `provider`, as if a login had been made (for seeding auth.json). */
  issueRefreshToken(provider: string): string;
  /** The refresh token (or GitHub / Meta identity token) is refused from now on. */
  revoke(token: string): void;
  /** Device codes wait for `approve` (default: approved at the first poll). */
  holdDeviceCodes(hold: boolean): void;
  approve(userCode: string): void;
  /** Access-token lifetime in seconds (default 3600). */
  setLifetime(seconds: number): void;
  /** Delay every refresh answer (to let concurrent refreshes overlap). */
  setRefreshDelay(ms: number): void;
  browse(url: string, options?: { follow?: boolean }): Promise<BrowseResult>;
  /** `url` as the fake serves it (`https://host/path` -> `<origin>/host/path`). */
  local(url: string): string;
  close(): Promise<void>;
}

export async function startFakeOAuth(): Promise<FakeOAuth> {
  const state: FakeState = {
    codes: new Map(),
    refresh: new Map(),
    devices: new Map(),
    revoked: new Set(),
    holdDevices: false,
    lifetime: 3600,
    refreshDelayMs: 0,
    counter: 0,
  };
  const requests: OAuthRequest[] = [];
  const server = createServer((req, res) => void handle(req, res).catch((error: Error) => send(res, 500, { error: "server_error", error_description: error.message })));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const [, host = "", ...rest] = url.pathname.split("/");
    const raw = await new Promise<string>((resolve) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => resolve(text));
    });
    const type = String(req.headers["content-type"] ?? "");
    const body = raw === "" ? undefined : type.includes("json") ? (JSON.parse(raw) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(raw));
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    const request: OAuthRequest = { method: req.method ?? "GET", host, path: `/${rest.join("/")}`, query: url.searchParams, headers, body };
    requests.push(request);
    const answer = await route(state, request, origin);
    if (answer.redirect) {
      res.writeHead(302, { location: answer.redirect });
      res.end();
      return;
    }
    send(res, answer.status ?? 200, answer.json ?? answer.text ?? "");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const local = (url: string) => {
    const parsed = new URL(url);
    return parsed.origin === origin ? url : `${origin}/${parsed.host}${parsed.pathname}${parsed.search}`;
  };

  return {
    origin,
    requests,
    grants: (grantType) => requests.filter((request) => request.body?.grant_type === grantType),
    issueRefreshToken(provider) {
      const token = `refresh-${provider}-${++state.counter}`;
      state.refresh.set(token, { provider, extra: {} });
      return token;
    },
    revoke: (token) => void state.revoked.add(token),
    holdDeviceCodes: (hold) => void (state.holdDevices = hold),
    approve(userCode) {
      for (const device of state.devices.values()) if (device.userCode === userCode) device.approved = true;
    },
    setLifetime: (seconds) => void (state.lifetime = seconds),
    setRefreshDelay: (ms) => void (state.refreshDelayMs = ms),
    local,
    async browse(url, options = {}) {
      const response = await fetch(local(url), { redirect: "manual" });
      const result: BrowseResult = { status: response.status, body: await response.text() };
      const location = response.headers.get("location");
      if (location) result.location = location;
      if (location && options.follow !== false) {
        const callback = await fetch(location, { redirect: "manual" });
        result.callback = { status: callback.status, body: await callback.text() };
      }
      return result;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, payload: unknown): void {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  res.writeHead(status, { "content-type": typeof payload === "string" ? "text/plain" : "application/json" });
  res.end(text);
}
