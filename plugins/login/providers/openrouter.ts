/**
 * OpenRouter (`openrouter`): its PKCE flow trades the code for a permanent API key the user
 * controls, kept as the access token (no refresh token, never expiring). OpenRouter sends no
 * `state`: the callback waits on a random path of an ephemeral port instead.
 */
import { randomUUID } from "node:crypto";
import type { OAuthCredential } from "../../../lib/oauth/index.js";
import { parseAuthorizationInput } from "../authorization-input.js";
import { callbackHost, callbackOrPaste, startCallbackServer } from "../callback-server.js";
import type { FlowContext, LoginFlow } from "../flow.js";
import { errorDetail, oauthRequest } from "../http.js";
import { pkcePair } from "../pkce.js";

export const openrouterLogin: LoginFlow = {
  async login(io, _options, context) {
    const { verifier, challenge } = pkcePair();
    const callback = await startCallbackServer({
      providerName: "OpenRouter",
      host: callbackHost(context.env),
      port: 0,
      path: `/oauth/callback/${randomUUID()}`,
      complete: (query) => exchange(query.get("code")!, verifier, io.signal, context),
      signal: io.signal,
    });
    const url = new URL("https://openrouter.ai/auth");
    url.search = new URLSearchParams({ callback_url: callback.redirectUri, code_challenge: challenge, code_challenge_method: "S256" }).toString();
    io.notify({ type: "progress", message: `Listening for the OpenRouter callback on ${callback.redirectUri}` });
    io.notify({ type: "auth_url", url: url.toString(), instructions: "Sign in in your browser. If the browser runs on another machine, paste the address it ends on here." });
    return callbackOrPaste(io, callback, { message: "Or paste the redirect URL (or code) here", placeholder: callback.redirectUri }, async (input) => {
      const code = parseAuthorizationInput(input).code;
      if (!code) throw new Error("The pasted text carries no authorization code.");
      io.notify({ type: "progress", message: "Exchanging the authorization code for an API key..." });
      return exchange(code, verifier, io.signal, context);
    });
  },
  // The key does not expire: nothing to refresh.
  refresh: async (credential) => credential,
  requestAuth: (credential) => ({ apiKey: credential.access }),
};

async function exchange(code: string, verifier: string, signal: AbortSignal, context: FlowContext): Promise<OAuthCredential> {
  const response = await oauthRequest(context, "https://openrouter.ai/api/v1/auth/keys", signal, { json: { code, code_verifier: verifier, code_challenge_method: "S256" } });
  if (!response.ok) throw new Error(`OpenRouter key exchange failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const key = response.json?.key;
  if (typeof key !== "string" || key === "") throw new Error('OpenRouter\'s answer carries no "key"');
  return { type: "oauth", access: key, refresh: "", expires: Number.MAX_SAFE_INTEGER };
}
