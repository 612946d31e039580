/**
 * ChatGPT Plus/Pro through the Codex API (`openai-codex`): the Codex CLI's OAuth client. The
 * browser method's redirect URI is fixed at localhost:1455 (shared with the Codex CLI: when the
 * port is taken, the pasted redirect URL is the way in); the device-code method polls OpenAI's
 * own device endpoints, which hand back a code and verifier to exchange. The access token is a
 * JWT naming the ChatGPT account (`accountId`, sent as `chatgpt-account-id` by the Codex adapter).
 */
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import { callbackPort, pastedCode } from "../authorization-input.js";
import { callbackHost, callbackOrPaste, startCallbackServer } from "../callback-server.js";
import { pollDeviceCode } from "../device-code.js";
import type { FlowContext, LoginFlow, LoginIo } from "../flow.js";
import { errorCode, errorDetail, oauthRequest, refusedRefresh, type OAuthResponse } from "../http.js";
import { pkcePair, randomState } from "../pkce.js";

const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const AUTH = "https://auth.openai.com";
const REDIRECT_URI = "http://localhost:1455/auth/callback";
const DEVICE_VERIFICATION_URI = `${AUTH}/codex/device`;
const DEVICE_REDIRECT_URI = `${AUTH}/deviceauth/callback`;
const DEVICE_CODE_SECONDS = 15 * 60;
const SCOPE = "openid profile email offline_access";
const ACCOUNT_CLAIM = "https://api.openai.com/auth";

export const openaiCodexLogin: LoginFlow = {
  async login(io, options, context) {
    if (options.method === "device_code") return deviceLogin(io, context);
    const { verifier, challenge } = pkcePair();
    const state = randomState();
    const callback = await startCallbackServer({
      providerName: "OpenAI",
      host: callbackHost(context.env),
      port: callbackPort(1455, context.env),
      path: "/auth/callback",
      redirectHost: "localhost",
      state,
      complete: async (query) => query.get("code")!,
      signal: io.signal,
    }).catch(() => undefined);
    const redirectUri = callback?.redirectUri ?? REDIRECT_URI;
    const url = new URL(`${AUTH}/oauth/authorize`);
    for (const [name, value] of Object.entries({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      id_token_add_organizations: "true",
      codex_cli_simplified_flow: "true",
      originator: "pi",
    }))
      url.searchParams.set(name, value);
    io.notify({
      type: "auth_url",
      url: url.toString(),
      instructions: "Sign in in your browser. If the browser runs on another machine (or port 1455 is taken), paste the address it ends on here.",
    });
    const code = await callbackOrPaste(io, callback, { message: "Or paste the redirect URL (or code) here", placeholder: redirectUri }, async (input) => pastedCode(input, state));
    io.notify({ type: "progress", message: "Exchanging the authorization code for tokens..." });
    return exchange(code, verifier, redirectUri, io.signal, context);
  },

  async refresh(credential, signal, context) {
    const response = await oauthRequest(context, `${AUTH}/oauth/token`, signal, { form: { grant_type: "refresh_token", refresh_token: credential.refresh, client_id: CLIENT_ID } });
    if (!response.ok && refusedRefresh(response)) throw new LoginExpiredError(`OpenAI refused the refresh token (HTTP ${response.status}: ${errorDetail(response)})`);
    return credentialOf(response, "refresh");
  },

  requestAuth: (credential) => ({ apiKey: credential.access }),
};

async function deviceLogin(io: LoginIo, context: FlowContext): Promise<OAuthCredential> {
  const start = await oauthRequest(context, `${AUTH}/api/accounts/deviceauth/usercode`, io.signal, { json: { client_id: CLIENT_ID } });
  if (start.status === 404) throw new Error("OpenAI has no device-code sign-in for this account or server: use the browser method.");
  if (!start.ok) throw new Error(`OpenAI device code request failed (HTTP ${start.status}): ${errorDetail(start)}`);
  const deviceAuthId = start.json?.device_auth_id;
  const userCode = start.json?.user_code;
  const rawInterval = start.json?.interval;
  const intervalSeconds = typeof rawInterval === "string" ? Number(rawInterval.trim()) : rawInterval;
  if (typeof deviceAuthId !== "string" || typeof userCode !== "string" || typeof intervalSeconds !== "number" || !Number.isFinite(intervalSeconds) || intervalSeconds < 0) {
    throw new Error(`OpenAI device code answer is incomplete: ${start.text.slice(0, 300)}`);
  }
  io.notify({ type: "device_code", userCode, verificationUri: DEVICE_VERIFICATION_URI, intervalSeconds, expiresInSeconds: DEVICE_CODE_SECONDS });
  const grant = await pollDeviceCode<{ code: string; verifier: string }>({
    intervalSeconds,
    expiresInSeconds: DEVICE_CODE_SECONDS,
    signal: io.signal,
    poll: async () => {
      const response = await oauthRequest(context, `${AUTH}/api/accounts/deviceauth/token`, io.signal, { json: { device_auth_id: deviceAuthId, user_code: userCode } });
      if (response.ok) {
        const code = response.json?.authorization_code;
        const verifier = response.json?.code_verifier;
        if (typeof code !== "string" || typeof verifier !== "string")
          return { status: "failed", message: `OpenAI device token answer is incomplete: ${response.text.slice(0, 300)}` };
        return { status: "complete", value: { code, verifier } };
      }
      if (response.status === 403 || response.status === 404 || errorCode(response) === "deviceauth_authorization_pending") return { status: "pending" };
      if (errorCode(response) === "slow_down") return { status: "slow_down" };
      return { status: "failed", message: `OpenAI device sign-in failed (HTTP ${response.status}): ${errorDetail(response)}` };
    },
  });
  return exchange(grant.code, grant.verifier, DEVICE_REDIRECT_URI, io.signal, context);
}

async function exchange(code: string, verifier: string, redirectUri: string, signal: AbortSignal, context: FlowContext): Promise<OAuthCredential> {
  const response = await oauthRequest(context, `${AUTH}/oauth/token`, signal, {
    form: { grant_type: "authorization_code", client_id: CLIENT_ID, code, code_verifier: verifier, redirect_uri: redirectUri },
  });
  return credentialOf(response, "exchange");
}

function credentialOf(response: OAuthResponse, what: string): OAuthCredential {
  if (!response.ok) throw new Error(`OpenAI Codex token ${what} failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const { access_token: access, refresh_token: refresh, expires_in: expiresIn } = response.json ?? {};
  if (typeof access !== "string" || !access || typeof refresh !== "string" || !refresh || typeof expiresIn !== "number") {
    throw new Error(`OpenAI Codex token ${what}: the answer lacks access_token, refresh_token or expires_in`);
  }
  const accountId = chatgptAccountId(access);
  if (!accountId) throw new Error("The OpenAI access token names no ChatGPT account (chatgpt_account_id): is this a ChatGPT Plus/Pro account?");
  return { type: "oauth", access, refresh, expires: Date.now() + expiresIn * 1000, accountId };
}

/** The ChatGPT account a Codex access token (a JWT) was issued for. */
export function chatgptAccountId(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, { chatgpt_account_id?: unknown } | undefined>;
    const id = payload[ACCOUNT_CLAIM]?.chatgpt_account_id;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}
