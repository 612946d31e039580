/**
 * Kimi Code (`kimi-coding`): the subscription's device flow at auth.kimi.com (`KIMI_CODE_OAUTH_HOST`
 * or `KIMI_OAUTH_HOST` name another host, as in pi). The access token goes as a bearer token;
 * a refresh is tried again on a rate limit, a server error or a dropped connection.
 */
import { LoginExpiredError, type OAuthCredential } from "../../../lib/oauth/index.js";
import type { FlowContext, LoginFlow } from "../flow.js";
import { errorCode, errorDetail, oauthRequest, requiredString, type OAuthResponse } from "../http.js";
import { deviceGrantLogin } from "./device-grant.js";

const CLIENT_ID = "17e5f671-d194-4dfb-9706-5516cb48c098";
const REFRESH_RETRIES = 3;

export const kimiCodingLogin: LoginFlow = {
  async login(io, _options, context) {
    const host = oauthHost(context);
    return deviceGrantLogin(
      {
        provider: "Kimi Code",
        authorizationUrl: `${host}/api/oauth/device_authorization`,
        authorizationFields: { client_id: CLIENT_ID },
        tokenUrl: `${host}/api/oauth/token`,
        tokenFields: (deviceCode) => ({ client_id: CLIENT_ID, device_code: deviceCode, grant_type: "urn:ietf:params:oauth:grant-type:device_code" }),
        preferComplete: true,
        defaultExpiresSeconds: 15 * 60,
        failOnServerError: true,
        complete: credentialOf,
      },
      io,
      context,
    );
  },

  async refresh(credential, signal, context) {
    let last: Error | undefined;
    for (let attempt = 0; attempt <= REFRESH_RETRIES; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
      let response: OAuthResponse;
      try {
        response = await oauthRequest(context, `${oauthHost(context)}/api/oauth/token`, signal, {
          form: { client_id: CLIENT_ID, grant_type: "refresh_token", refresh_token: credential.refresh },
        });
      } catch (error) {
        last = error as Error;
        continue;
      }
      if (response.ok) return credentialOf(response);
      if (response.status === 401 || response.status === 403 || errorCode(response) === "invalid_grant") {
        throw new LoginExpiredError(`Kimi Code refused the refresh token (HTTP ${response.status}: ${errorDetail(response)})`);
      }
      last = new Error(`Kimi Code token refresh failed (HTTP ${response.status}): ${errorDetail(response)}`);
      if (response.status !== 429 && response.status < 500) break;
    }
    throw last ?? new Error("Kimi Code token refresh failed");
  },

  // A bearer token, which is how the Chat Completions adapter sends the key.
  requestAuth: (credential) => ({ apiKey: credential.access }),
};

function oauthHost(context: FlowContext): string {
  return (context.env.KIMI_CODE_OAUTH_HOST || context.env.KIMI_OAUTH_HOST || "https://auth.kimi.com").replace(/\/+$/, "");
}

function credentialOf(response: OAuthResponse): OAuthCredential {
  const what = "Kimi Code token answer";
  const expiresIn = response.json?.expires_in;
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn <= 0) throw new Error(`${what}: invalid expires_in`);
  return {
    type: "oauth",
    access: requiredString(response.json, "access_token", what),
    refresh: requiredString(response.json, "refresh_token", what),
    expires: Date.now() + expiresIn * 1000,
  };
}
