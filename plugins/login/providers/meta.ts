/**
 * Meta (`meta`): the Muse subscription's device flow at auth.meta.com. Meta's identity token is
 * not accepted for inference: it mints a Model API key (about a day long) at api.meta.ai. The
 * identity token is kept as the refresh token and the key as the access token, so a "refresh"
 * mints a new key; the identity token itself cannot be renewed, so a refused mint means logging
 * in again.
 */
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import type { FlowContext, LoginFlow } from "../flow.js";
import { errorDetail, oauthRequest, trustedUrl } from "../http.js";
import { deviceGrantLogin } from "./device-grant.js";

const CLIENT_ID = "1031625952748946";
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const metaLogin: LoginFlow = {
  async login(io, _options, context) {
    const identity = await deviceGrantLogin(
      {
        provider: "Meta",
        authorizationUrl: "https://auth.meta.com/oidc/device/authorization/",
        authorizationFields: { client_id: CLIENT_ID },
        tokenUrl: "https://auth.meta.com/oidc/device/token/",
        tokenFields: (deviceCode) => ({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: deviceCode, client_id: CLIENT_ID }),
        preferComplete: true,
        complete: (response) => response.json!.access_token as string,
      },
      io,
      context,
    );
    io.notify({ type: "progress", message: "Enabling Meta Model API access..." });
    return mintKey(identity, io.signal, context);
  },
  refresh: (credential, signal, context) => mintKey(credential.refresh, signal, context),
  requestAuth: (credential) => ({ apiKey: credential.access }),
};

async function mintKey(identityToken: string, signal: AbortSignal, context: FlowContext): Promise<OAuthCredential> {
  const response = await oauthRequest(context, "https://api.meta.ai/muse-code/key", signal, { json: {} }, { Authorization: `Bearer ${identityToken}`, "x-api-version": "1.0.0" });
  if (response.status === 401 || response.status === 403) throw new LoginExpiredError(`Meta refused the sign-in (HTTP ${response.status}: ${errorDetail(response)})`);
  if (!response.ok) throw new Error(`Meta API key mint failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const key = response.json?.api_key;
  if (typeof key !== "string" || key === "") {
    const action = trustedUrl(response.json?.action_url);
    throw new Error(`Meta issued no API key.${action ? ` Finish setting up at ${action}` : ""}`);
  }
  return { type: "oauth", refresh: identityToken, access: key, expires: Date.now() + KEY_LIFETIME_MS };
}
