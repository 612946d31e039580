/**
 * Claude Pro/Max (`anthropic`): Claude Code's OAuth client with PKCE. The browser method listens
 * on localhost:53692 (any free port when that one is taken) and takes a pasted redirect URL too;
 * the copy-code method sends the browser to Anthropic's page that shows `code#state` to paste.
 * Tokens are JSON-posted; the access token (`sk-ant-oat...`) is sent as a bearer token with
 * Claude Code's identity (plugins/provider-anthropic/oauth.ts).
 */
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import { callbackPort, pastedCode } from "../authorization-input.js";
import { callbackHost, callbackOrPaste, startCallbackServer } from "../callback-server.js";
import type { LoginFlow, LoginIo } from "../flow.js";
import { errorDetail, oauthRequest, refusedRefresh, requiredString, type OAuthResponse } from "../http.js";
import { pkcePair, randomState } from "../pkce.js";

const CLIENT_ID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e";
const AUTHORIZE_URL = "https://claude.ai/oauth/authorize";
const TOKEN_URL = "https://platform.claude.com/v1/oauth/token";
const CALLBACK_PORT = 53692;
const CALLBACK_PATH = "/callback";
const COPY_CODE_REDIRECT_URI = "https://platform.claude.com/oauth/code/callback";
const SCOPES = "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";
/** Stop using a token five minutes before Anthropic says it expires. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

export const anthropicLogin: LoginFlow = {
  async login(io, options, context) {
    const { verifier, challenge } = pkcePair();
    const state = randomState();
    const exchange = (code: string, redirectUri: string) => {
      io.notify({ type: "progress", message: "Exchanging the authorization code for tokens..." });
      return exchangeCode(code, state, verifier, redirectUri, io, context);
    };
    if (options.method === "copy_code") {
      io.notify({ type: "auth_url", url: authorizeUrl(COPY_CODE_REDIRECT_URI, challenge, state), instructions: "Sign in in your browser, then paste the code Anthropic shows." });
      const input = await io.pasted({ message: "Paste the code Anthropic shows after you sign in", placeholder: "code#state" }, io.signal);
      return exchange(pastedCode(input, state), COPY_CODE_REDIRECT_URI);
    }
    const start = (port: number) =>
      startCallbackServer({
        providerName: "Anthropic",
        host: callbackHost(context.env),
        port,
        path: CALLBACK_PATH,
        redirectHost: "localhost",
        state,
        complete: async (query) => query.get("code")!,
        signal: io.signal,
      });
    // Anthropic accepts any loopback port: the usual one when free (it can be forwarded into a container or over SSH), else another.
    const callback = await start(callbackPort(CALLBACK_PORT, context.env))
      .catch(() => start(0))
      .catch(() => undefined);
    const redirectUri = callback?.redirectUri ?? `http://localhost:${CALLBACK_PORT}${CALLBACK_PATH}`;
    io.notify({
      type: "auth_url",
      url: authorizeUrl(redirectUri, challenge, state),
      instructions: "Sign in in your browser. If the browser runs on another machine, paste the address it ends on here.",
    });
    const code = await callbackOrPaste(io, callback, { message: "Or paste the redirect URL (or code) here", placeholder: redirectUri }, async (input) => pastedCode(input, state));
    return exchange(code, redirectUri);
  },

  async refresh(credential, signal, context) {
    const response = await oauthRequest(context, TOKEN_URL, signal, { json: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh } });
    if (!response.ok) {
      const detail = `Anthropic refused the refresh token (HTTP ${response.status}: ${errorDetail(response)})`;
      throw refusedRefresh(response) ? new LoginExpiredError(detail) : new Error(`Anthropic token refresh failed (HTTP ${response.status}): ${errorDetail(response)}`);
    }
    return credentialOf(response, "refresh", credential.refresh);
  },

  requestAuth: (credential) => ({ apiKey: credential.access }),
};

function authorizeUrl(redirectUri: string, challenge: string, state: string): string {
  const query = new URLSearchParams({
    code: "true",
    client_id: CLIENT_ID,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: SCOPES,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
  });
  return `${AUTHORIZE_URL}?${query}`;
}

async function exchangeCode(code: string, state: string, verifier: string, redirectUri: string, io: LoginIo, context: Parameters<LoginFlow["login"]>[2]): Promise<OAuthCredential> {
  const response = await oauthRequest(context, TOKEN_URL, io.signal, {
    json: { grant_type: "authorization_code", client_id: CLIENT_ID, code, state, redirect_uri: redirectUri, code_verifier: verifier },
  });
  if (!response.ok) throw new Error(`Anthropic token exchange failed (HTTP ${response.status}): ${errorDetail(response)}`);
  return credentialOf(response, "exchange");
}

/** `previousRefresh`: kept when a refresh answer names no new refresh token. */
function credentialOf(response: OAuthResponse, what: string, previousRefresh?: string): OAuthCredential {
  const label = `Anthropic token ${what}`;
  const expiresIn = response.json?.expires_in;
  if (typeof expiresIn !== "number") throw new Error(`${label}: the answer has no expires_in`);
  return {
    type: "oauth",
    refresh: previousRefresh && !response.json?.refresh_token ? previousRefresh : requiredString(response.json, "refresh_token", label),
    access: requiredString(response.json, "access_token", label),
    expires: Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS,
  };
}
