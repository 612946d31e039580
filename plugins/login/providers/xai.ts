/**
 * xAI (`xai`): a SuperGrok or X Premium subscription through xAI's device flow. The access token
 * is used as the API key; a refresh answer without a new refresh token keeps the old one.
 */
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import type { LoginFlow } from "../flow.js";
import { errorCode, errorDetail, oauthRequest, positiveNumber, refusedRefresh, requiredString, type OAuthResponse } from "../http.js";
import { deviceGrantLogin } from "./device-grant.js";

const CLIENT_ID = "b1a00492-073a-47ea-816f-4c329264a828";
const SCOPE = "openid profile email offline_access grok-cli:access api:access";
const TOKEN_URL = "https://auth.x.ai/oauth2/token";
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;
const DEFAULT_LIFETIME_SECONDS = 3600;

export const xaiLogin: LoginFlow = {
  login: (io, _options, context) =>
    deviceGrantLogin(
      {
        provider: "xAI",
        authorizationUrl: "https://auth.x.ai/oauth2/device/code",
        authorizationFields: { client_id: CLIENT_ID, scope: SCOPE, referrer: "atomic" },
        tokenUrl: TOKEN_URL,
        tokenFields: (deviceCode) => ({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: CLIENT_ID, device_code: deviceCode }),
        preferComplete: true,
        httpsOnly: true,
        complete: (response) => credentialOf(response),
      },
      io,
      context,
    ),

  async refresh(credential, signal, context) {
    const response = await oauthRequest(context, TOKEN_URL, signal, { form: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh } });
    if (!response.ok) {
      const detail = `HTTP ${response.status}${errorCode(response) ? `: ${errorDetail(response)}` : ""}`;
      throw refusedRefresh(response) ? new LoginExpiredError(`xAI refused the refresh token (${detail})`) : new Error(`xAI token refresh failed (${detail})`);
    }
    return credentialOf(response, credential.refresh);
  },

  requestAuth: (credential) => ({ apiKey: credential.access }),
};

function credentialOf(response: OAuthResponse, previousRefresh?: string): OAuthCredential {
  const what = "xAI token answer";
  const refresh = previousRefresh && response.json?.refresh_token === undefined ? previousRefresh : requiredString(response.json, "refresh_token", what);
  const expiresIn = response.json?.expires_in === undefined ? DEFAULT_LIFETIME_SECONDS : positiveNumber(response.json.expires_in);
  if (expiresIn === undefined) throw new Error(`${what}: invalid expires_in`);
  return { type: "oauth", access: requiredString(response.json, "access_token", what), refresh, expires: Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS };
}
