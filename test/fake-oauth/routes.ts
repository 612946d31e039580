/** The fake OAuth servers' routes, by provider host and path (see server.ts). */
import { createHash } from "node:crypto";
import type { OAuthRequest } from "./server.js";

interface Code {
  provider: string;
  challenge?: string;
  redirectUri?: string;
  state?: string;
  clientId?: string;
}

export interface FakeState {
  codes: Map<string, Code>;
  /** Valid refresh tokens (and GitHub / Meta identity tokens), by token. */
  refresh: Map<string, { provider: string; extra: Record<string, unknown> }>;
  /** Device codes, by device code. */
  devices: Map<string, { provider: string; userCode: string; approved: boolean }>;
  revoked: Set<string>;
  holdDevices: boolean;
  lifetime: number;
  refreshDelayMs: number;
  counter: number;
}

export interface Answer {
  status?: number;
  json?: unknown;
  text?: string;
  redirect?: string;
}

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const ACCOUNT_CLAIM = "https://api.openai.com/auth";

export async function route(state: FakeState, req: OAuthRequest, origin: string): Promise<Answer> {
  const at = `${req.method} ${req.host}${req.path}`;
  const body = req.body ?? {};
  const q = req.query;
  switch (at) {
    case "GET claude.ai/oauth/authorize": {
      const code = authorize(state, "anthropic", q);
      const redirect = q.get("redirect_uri")!;
      if (redirect === "https://platform.claude.com/oauth/code/callback") return { text: `${code}#${q.get("state")}` };
      return { redirect: withQuery(redirect, { code, state: q.get("state")! }) };
    }
    case "POST platform.claude.com/v1/oauth/token":
      return token(state, "anthropic", body);
    case "GET auth.openai.com/oauth/authorize":
      return { redirect: withQuery(q.get("redirect_uri")!, { code: authorize(state, "openai-codex", q), state: q.get("state")! }) };
    case "POST auth.openai.com/oauth/token":
      return token(state, "openai-codex", body);
    case "POST auth.openai.com/api/accounts/deviceauth/usercode": {
      const device = newDevice(state, "openai-codex");
      return { json: { device_auth_id: device.deviceCode, user_code: device.userCode, interval: "1" } };
    }
    case "POST auth.openai.com/api/accounts/deviceauth/token": {
      const device = state.devices.get(String(body.device_auth_id));
      if (!device || device.userCode !== body.user_code) return { status: 400, json: { error: { code: "invalid_device" } } };
      if (!approved(state, device)) return { status: 403, json: { error: { code: "deviceauth_authorization_pending" } } };
      const verifier = `device-verifier-${++state.counter}`;
      const code = `code-${++state.counter}`;
      state.codes.set(code, { provider: "openai-codex", challenge: s256(verifier), redirectUri: "https://auth.openai.com/deviceauth/callback" });
      return { json: { authorization_code: code, code_verifier: verifier } };
    }
    case "GET auth.openai.com/api/accounts/authorize": {
      if (
        q.get("client_id") !== "dynamic_agent_client" ||
        !/^urn:uuid:[0-9a-f-]{36}$/.test(q.get("ext_agent_host_id") ?? "") ||
        !q.get("scope")?.includes("chatgpt.tokens.use.direct")
      ) {
        return { status: 400, text: "bad authorize request" };
      }
      const clientId = `issued-client-${++state.counter}`;
      const code = authorize(state, "openai", q, clientId);
      return { redirect: withQuery(q.get("redirect_uri")!, { code, state: q.get("state")!, client_id: clientId }) };
    }
    case "POST auth.openai.com/api/accounts/oauth/token":
      return token(state, "openai", body);
    case "POST github.com/login/device/code": {
      const device = newDevice(state, "github-copilot");
      return { json: { device_code: device.deviceCode, user_code: device.userCode, verification_uri: "https://github.com/login/device", interval: 1, expires_in: 900 } };
    }
    case "POST github.com/login/oauth/access_token": {
      const device = state.devices.get(String(body.device_code));
      if (!device) return { json: { error: "expired_token" } };
      if (!approved(state, device)) return { json: { error: "authorization_pending" } };
      const githubToken = `ghu_fake${++state.counter}`;
      state.refresh.set(githubToken, { provider: "github-copilot", extra: {} });
      return { json: { access_token: githubToken, token_type: "bearer", scope: "read:user" } };
    }
    case "GET api.github.com/copilot_internal/v2/token": {
      const githubToken = bearer(req);
      if (!valid(state, githubToken, "github-copilot")) return { status: 401, json: { message: "Bad credentials" } };
      await delay(state.refreshDelayMs);
      return { json: { token: `tid=${++state.counter};exp=1;proxy-ep=proxy.individual.githubcopilot.com;`, expires_at: Math.floor(Date.now() / 1000) + state.lifetime } };
    }
    case "GET api.individual.githubcopilot.com/models":
      return {
        json: {
          data: [
            { id: "gpt-6.1-sol", model_picker_enabled: true, policy: { state: "enabled" }, capabilities: { supports: { tool_calls: true } } },
            { id: "claude-opus-5", model_picker_enabled: true, policy: { state: "unconfigured" }, capabilities: { supports: { tool_calls: true } } },
            { id: "embedding-only", model_picker_enabled: true, capabilities: { supports: { tool_calls: false } } },
          ],
        },
      };
    case "POST auth.x.ai/oauth2/device/code": {
      const device = newDevice(state, "xai");
      return {
        json: {
          device_code: device.deviceCode,
          user_code: device.userCode,
          verification_uri: "https://accounts.x.ai/device",
          verification_uri_complete: `https://accounts.x.ai/device?code=${device.userCode}`,
          interval: 1,
          expires_in: 600,
        },
      };
    }
    case "POST auth.x.ai/oauth2/token":
      return token(state, "xai", body);
    case "POST auth.kimi.com/api/oauth/device_authorization": {
      const device = newDevice(state, "kimi-coding");
      return {
        json: {
          device_code: device.deviceCode,
          user_code: device.userCode,
          verification_uri: "https://www.kimi.com/device",
          verification_uri_complete: `https://www.kimi.com/device?user_code=${device.userCode}`,
          interval: 1,
          expires_in: 600,
        },
      };
    }
    case "POST auth.kimi.com/api/oauth/token":
      return token(state, "kimi-coding", body);
    case "GET openrouter.ai/auth": {
      const code = `code-${++state.counter}`;
      state.codes.set(code, { provider: "openrouter", challenge: q.get("code_challenge")! });
      return { redirect: withQuery(q.get("callback_url")!, { code }) };
    }
    case "POST openrouter.ai/api/v1/auth/keys": {
      const code = state.codes.get(String(body.code));
      if (!code || code.challenge !== s256(String(body.code_verifier))) return { status: 403, json: { error: { message: "Invalid code or verifier" } } };
      state.codes.delete(String(body.code));
      return { json: { key: `sk-or-v1-fake${++state.counter}` } };
    }
    case "POST auth.meta.com/oidc/device/authorization/": {
      const device = newDevice(state, "meta");
      return { json: { device_code: device.deviceCode, user_code: device.userCode, verification_uri: "https://auth.meta.com/device", interval: 1, expires_in: 600 } };
    }
    case "POST auth.meta.com/oidc/device/token/": {
      const device = state.devices.get(String(body.device_code));
      if (!device || !approved(state, device)) return { status: 400, json: { error: device ? "authorization_pending" : "expired_token" } };
      const identity = `meta-identity-${++state.counter}`;
      state.refresh.set(identity, { provider: "meta", extra: {} });
      return { json: { access_token: identity, token_type: "Bearer" } };
    }
    case "POST api.meta.ai/muse-code/key":
      if (!valid(state, bearer(req), "meta")) return { status: 401, json: { detail: "Session expired" } };
      await delay(state.refreshDelayMs);
      return { json: { api_key: `meta-key-${++state.counter}` } };
    case "GET radius.pi.dev/v1/oauth":
      return { json: { authorizationEndpoint: "https://radius.pi.dev/oauth/authorize" } };
    case "GET radius.pi.dev/oauth/authorize":
      return { redirect: withQuery(q.get("redirect_uri")!, { code: authorize(state, "radius", q), state: q.get("state")! }) };
    case "POST radius.pi.dev/v1/oauth/device": {
      const device = newDevice(state, "radius");
      return { json: { device_code: device.deviceCode, user_code: device.userCode, verification_uri: "https://radius.pi.dev/device", interval: 1, expires_in: 600 } };
    }
    case "POST radius.pi.dev/v1/oauth/token":
      return token(state, "radius", body);
  }
  return { status: 404, json: { error: "not_found", error_description: `The fake has no ${at} (origin ${origin})` } };
}

/** A token endpoint: authorization code (PKCE, redirect URI, client checked), device code, or refresh (rotated). */
async function token(state: FakeState, provider: string, body: Record<string, unknown>): Promise<Answer> {
  const grant = body.grant_type;
  if (grant === "authorization_code") {
    const code = state.codes.get(String(body.code));
    if (!code || code.provider !== provider) return invalidGrant("unknown code");
    if (code.redirectUri !== undefined && code.redirectUri !== body.redirect_uri) return invalidGrant("redirect_uri does not match");
    if (code.challenge !== undefined && code.challenge !== s256(String(body.code_verifier))) return invalidGrant("PKCE verification failed");
    if (code.clientId !== undefined && code.clientId !== body.client_id) return invalidGrant("client_id does not match");
    if (provider === "anthropic" && code.state !== body.state) return invalidGrant("state does not match");
    state.codes.delete(String(body.code));
    return { json: tokens(state, provider, code.clientId) };
  }
  if (grant === DEVICE_GRANT) {
    const device = state.devices.get(String(body.device_code));
    if (!device || device.provider !== provider) return { status: 400, json: { error: "expired_token" } };
    if (!approved(state, device)) return { status: 400, json: { error: "authorization_pending" } };
    state.devices.delete(String(body.device_code));
    return { json: tokens(state, provider) };
  }
  if (grant === "refresh_token") {
    const old = String(body.refresh_token);
    await delay(state.refreshDelayMs);
    if (!valid(state, old, provider)) return invalidGrant("Refresh token not found or invalid");
    const { extra } = state.refresh.get(old)!;
    state.refresh.delete(old);
    if (extra.clientId !== undefined && extra.clientId !== body.client_id) return invalidGrant("client_id does not match");
    return { json: tokens(state, provider, extra.clientId as string | undefined) };
  }
  return { status: 400, json: { error: "unsupported_grant_type" } };
}

function tokens(state: FakeState, provider: string, clientId?: string): Record<string, unknown> {
  const n = ++state.counter;
  const refresh = `refresh-${provider}-${n}`;
  state.refresh.set(refresh, { provider, extra: clientId ? { clientId } : {} });
  return {
    access_token: accessToken(provider, n),
    refresh_token: refresh,
    expires_in: state.lifetime,
    token_type: "Bearer",
    ...(provider === "openai" ? { id_token: "fake.id.token", scope: "openid profile email offline_access resource.invoke chatgpt.tokens.use.direct" } : {}),
  };
}

/** Anthropic's subscription tokens start `sk-ant-oat`; Codex's is a JWT naming the ChatGPT account. */
export function accessToken(provider: string, n: number): string {
  if (provider === "anthropic") return `sk-ant-oat01-fake${n}`;
  if (provider === "openai-codex") {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    return `${part({ alg: "none" })}.${part({ [ACCOUNT_CLAIM]: { chatgpt_account_id: "acct-fake" }, n })}.sig`;
  }
  return `${provider}-access-${n}`;
}

function authorize(state: FakeState, provider: string, q: URLSearchParams, clientId?: string): string {
  if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) throw new Error("authorize without PKCE");
  const code = `code-${++state.counter}`;
  state.codes.set(code, {
    provider,
    challenge: q.get("code_challenge")!,
    redirectUri: q.get("redirect_uri")!,
    state: q.get("state") ?? undefined,
    ...(clientId ? { clientId } : {}),
  });
  return code;
}

function newDevice(state: FakeState, provider: string): { deviceCode: string; userCode: string } {
  const deviceCode = `device-${++state.counter}`;
  const userCode = `CODE-${state.counter}`;
  state.devices.set(deviceCode, { provider, userCode, approved: false });
  return { deviceCode, userCode };
}

function approved(state: FakeState, device: { approved: boolean }): boolean {
  if (!state.holdDevices) device.approved = true;
  return device.approved;
}

function valid(state: FakeState, token: string, provider: string): boolean {
  return state.refresh.get(token)?.provider === provider && !state.revoked.has(token);
}

function bearer(req: OAuthRequest): string {
  return (req.headers.authorization ?? "").replace(/^Bearer /, "");
}

function invalidGrant(description: string): Answer {
  return { status: 400, json: { error: "invalid_grant", error_description: description } };
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

function withQuery(url: string, query: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
  return target.toString();
}

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
