/**
 * Sign in with ChatGPT (`openai`): a ChatGPT subscription's tokens used directly on the OpenAI
 * API. Each login registers a client of its own: the authorize request names the dynamic client
 * and this installation (`urn:uuid:<device id>`), and the callback on 127.0.0.1:1455 carries the
 * client id OpenAI issued, which the exchange and every refresh then use. The grant must include
 * `chatgpt.tokens.use.direct`, or the token is useless to the API.
 */
import { randomBytes } from "node:crypto";
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import { callbackPort } from "../authorization-input.js";
import { callbackHost, callbackOrPaste, startCallbackServer } from "../callback-server.js";
import type { LoginFlow } from "../flow.js";
import { errorDetail, oauthRequest, refusedRefresh, type OAuthResponse } from "../http.js";
import { pkcePair } from "../pkce.js";

const AUTHORIZE_URL = "https://auth.openai.com/api/accounts/authorize";
const TOKEN_URL = "https://auth.openai.com/api/accounts/oauth/token";
const RESOURCE = "https://api.openai.com/v1";
const CALLBACK_PORT = 1455;
const DIRECT_SCOPE = "chatgpt.tokens.use.direct";
const SCOPE = `openid profile email offline_access resource.invoke ${DIRECT_SCOPE}`;
const EXPIRY_MARGIN_MS = 3 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Authorization {
  code: string;
  clientId: string;
}

export const openaiChatgptLogin: LoginFlow = {
  async login(io, _options, context) {
    const deviceId = await context.deviceId();
    if (!UUID.test(deviceId)) throw new Error(`Sign in with ChatGPT needs this installation's device id as a UUID, not ${JSON.stringify(deviceId)} (settings.json "deviceId")`);
    const { verifier, challenge } = pkcePair();
    const state = randomBytes(32).toString("base64url");
    const callback = await startCallbackServer({
      providerName: "ChatGPT",
      host: callbackHost(context.env),
      port: callbackPort(CALLBACK_PORT, context.env),
      path: "/auth/callback",
      state,
      complete: async (query) => authorization(query, state),
      signal: io.signal,
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") throw error;
      throw new Error(`Port ${CALLBACK_PORT} is in use, probably by another unfinished login (Atomic's, pi's) or the Codex CLI: finish or cancel that one and try again.`);
    });
    // 127.0.0.1:1455 (another port only under the test origin).
    const redirectUri = callback.redirectUri;
    const url = new URL(AUTHORIZE_URL);
    url.search = new URLSearchParams({
      client_id: "dynamic_agent_client",
      agent_name_hint: "Atomic",
      ext_agent_host_id: `urn:uuid:${deviceId.toLowerCase()}`,
      response_type: "code",
      redirect_uri: redirectUri,
      resource: RESOURCE,
      scope: SCOPE,
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
      nonce: randomBytes(32).toString("base64url"),
    }).toString();
    io.notify({ type: "auth_url", url: url.toString(), instructions: "Sign in in your browser. If the callback does not arrive, paste the address the browser ends on here." });
    const granted = await callbackOrPaste(io, callback, { message: "Or paste the redirect URL here", placeholder: redirectUri }, async (input) =>
      fromPastedUrl(input, state, redirectUri),
    );
    io.notify({ type: "progress", message: "Exchanging the authorization code for tokens..." });
    const response = await oauthRequest(context, TOKEN_URL, io.signal, {
      form: { grant_type: "authorization_code", client_id: granted.clientId, code: granted.code, code_verifier: verifier, redirect_uri: redirectUri, resource: RESOURCE },
    });
    if (response.ok && (typeof response.json?.id_token !== "string" || response.json.id_token.trim() === "")) throw new Error("OpenAI's token answer carries no ID token");
    return credentialOf(response, granted.clientId, "exchange");
  },

  async refresh(credential, signal, context) {
    const clientId = credential.clientId;
    if (typeof clientId !== "string" || clientId.trim() === "") throw new LoginExpiredError("The stored ChatGPT login has no issued client id");
    const response = await oauthRequest(context, TOKEN_URL, signal, {
      form: { grant_type: "refresh_token", client_id: clientId, refresh_token: credential.refresh, resource: RESOURCE },
    });
    if (!response.ok && refusedRefresh(response)) throw new LoginExpiredError(`OpenAI refused the refresh token (HTTP ${response.status}: ${errorDetail(response)})`);
    return credentialOf(response, clientId, "refresh");
  },

  requestAuth: (credential) => ({ apiKey: credential.access }),
};

function authorization(query: URLSearchParams, state: string): Authorization {
  const code = query.get("code");
  if (!code) throw new Error("The callback carries no authorization code");
  if (query.get("state") !== state) throw new Error("The callback's state does not match this sign-in");
  const clientId = query.get("client_id")?.trim();
  if (!clientId) throw new Error("OpenAI's callback carries no issued client id");
  return { code, clientId };
}

async function fromPastedUrl(input: string, state: string, redirectUri: string): Promise<Authorization> {
  if (!URL.canParse(input.trim())) throw new Error("Paste the whole address the browser ended on");
  const url = new URL(input.trim());
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname) throw new Error(`The pasted address must start with ${redirectUri}`);
  const error = url.searchParams.get("error");
  if (error) throw new Error(`ChatGPT authorization failed: ${error}`);
  return authorization(url.searchParams, state);
}

function credentialOf(response: OAuthResponse, clientId: string, what: string): OAuthCredential {
  if (!response.ok) throw new Error(`OpenAI token ${what} failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const { access_token: access, refresh_token: refresh, scope, expires_in: expiresIn } = response.json ?? {};
  for (const [field, value] of Object.entries({ access_token: access, refresh_token: refresh, scope })) {
    if (typeof value !== "string" || value.trim() === "") throw new Error(`OpenAI's token answer has no valid ${field}`);
  }
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn <= 0) throw new Error("OpenAI's token answer has no valid expires_in");
  const scopes = (scope as string).trim().split(/\s+/);
  if (!scopes.includes(DIRECT_SCOPE)) throw new Error(`The ChatGPT grant does not include ${DIRECT_SCOPE}, which the API needs`);
  return { type: "oauth", access: access as string, refresh: refresh as string, expires: Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS, clientId, scopes };
}
