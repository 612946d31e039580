/**
 * Radius (`radius`): the pi-messages gateway's own OAuth server (radius.pi.dev, or the gateway
 * `ATOMIC_RADIUS_GATEWAY` / pi's `PI_RADIUS_GATEWAY` names). The browser method asks the gateway
 * where to authorize and waits on 127.0.0.1:1456; the device-code method polls the gateway.
 */
import { randomUUID } from "node:crypto";
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import { callbackPort } from "../authorization-input.js";
import { startCallbackServer } from "../callback-server.js";
import type { FlowContext, LoginFlow } from "../flow.js";
import { errorDetail, oauthRequest, refusedRefresh, requiredString, trustedUrl, type OAuthResponse } from "../http.js";
import { pkcePair } from "../pkce.js";
import { deviceGrantLogin } from "./device-grant.js";

const CLIENT_ID = "pi-gateway";
const SCOPE = "gateway offline_access";
const CALLBACK_PORT = 1456;
const CALLBACK_PATH = "/oauth/callback";
const EXPIRY_MARGIN_MS = 60_000;

export const radiusLogin: LoginFlow = {
  async login(io, options, context) {
    const gateway = gatewayOf(context);
    if (options.method === "device_code") {
      return deviceGrantLogin(
        {
          provider: "Radius",
          authorizationUrl: `${gateway}/v1/oauth/device`,
          authorizationFields: { client_id: CLIENT_ID, scope: SCOPE },
          tokenUrl: `${gateway}/v1/oauth/token`,
          tokenFields: (deviceCode) => ({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: CLIENT_ID, device_code: deviceCode }),
          preferComplete: false,
          pollAtOnce: true,
          complete: credentialOf,
        },
        io,
        context,
      );
    }
    const discovery = await oauthRequest(context, `${gateway}/v1/oauth`, io.signal);
    if (!discovery.ok) throw new Error(`Cannot load the Radius OAuth configuration from ${gateway} (HTTP ${discovery.status}): ${errorDetail(discovery)}`);
    const authorizationEndpoint = trustedUrl(discovery.json?.authorizationEndpoint);
    if (!authorizationEndpoint) throw new Error(`The Radius OAuth configuration from ${gateway} names no valid authorization endpoint`);
    const { verifier, challenge } = pkcePair();
    const state = randomUUID();
    let redirectUri = `http://127.0.0.1:${CALLBACK_PORT}${CALLBACK_PATH}`;
    const callback = await startCallbackServer({
      providerName: "Radius",
      host: "127.0.0.1",
      port: callbackPort(CALLBACK_PORT, context.env),
      path: CALLBACK_PATH,
      state,
      complete: async (query) => {
        const response = await oauthRequest(context, `${gateway}/v1/oauth/token`, io.signal, {
          form: { grant_type: "authorization_code", client_id: CLIENT_ID, redirect_uri: redirectUri, code: query.get("code")!, code_verifier: verifier },
        });
        return credentialOf(response);
      },
      signal: io.signal,
    });
    redirectUri = callback.redirectUri;
    const url = new URL(authorizationEndpoint);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: challenge,
      code_challenge_method: "S256",
      handoff: "url",
      state,
    }).toString();
    io.notify({ type: "progress", message: `Listening for the OAuth callback on ${redirectUri}` });
    io.notify({ type: "auth_url", url: url.toString(), instructions: "Continue in your browser (on another machine, use the device-code method)." });
    try {
      return await callback.result;
    } finally {
      callback.close();
    }
  },

  async refresh(credential, signal, context) {
    const response = await oauthRequest(context, `${gatewayOf(context)}/v1/oauth/token`, signal, {
      form: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh },
    });
    if (!response.ok && refusedRefresh(response)) throw new LoginExpiredError(`Radius refused the refresh token (HTTP ${response.status}: ${errorDetail(response)})`);
    return credentialOf(response);
  },

  requestAuth: (credential) => ({ apiKey: credential.access }),
};

function gatewayOf(context: FlowContext): string {
  const value = context.env.ATOMIC_RADIUS_GATEWAY || context.env.PI_RADIUS_GATEWAY || "https://radius.pi.dev";
  return (/^https?:\/\//i.test(value) ? value : `https://${value}`).replace(/\/+$/, "");
}

function credentialOf(response: OAuthResponse): OAuthCredential {
  if (!response.ok) throw new Error(`Radius OAuth token request failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const what = "Radius token answer";
  const expiresIn = response.json?.expires_in;
  if (typeof expiresIn !== "number") throw new Error(`${what}: no expires_in`);
  const scope = response.json?.scope;
  return {
    type: "oauth",
    access: requiredString(response.json, "access_token", what),
    refresh: requiredString(response.json, "refresh_token", what),
    expires: Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS,
    ...(typeof scope === "string" ? { scope } : {}),
  };
}
