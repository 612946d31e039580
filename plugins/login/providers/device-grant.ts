/**
 * The standard device authorization grant (RFC 8628) several providers share (xAI, Kimi, Meta,
 * Radius): ask for a code, show it, poll the token endpoint with the device code. What differs
 * (addresses, fields, the body's encoding, what the token answer becomes) is the caller's.
 */
import { pollDeviceCode, type PollResult } from "../device-code.js";
import type { FlowContext, LoginIo } from "../flow.js";
import { errorCode, errorDetail, oauthRequest, positiveNumber, trustedUrl, type OAuthResponse } from "../http.js";

export interface DeviceGrant<T> {
  provider: string;
  authorizationUrl: string;
  authorizationFields: Record<string, string>;
  tokenUrl: string;
  tokenFields(deviceCode: string): Record<string, string>;
  /** Prefer the address that already carries the code (`verification_uri_complete`). */
  preferComplete: boolean;
  /** Only https addresses may be shown (xAI). */
  httpsOnly?: boolean;
  defaultExpiresSeconds?: number;
  /** The token answer, once the code has been entered. */
  complete(response: OAuthResponse): T;
  /** A server error (5xx) fails the login instead of being polled again (Kimi). */
  failOnServerError?: boolean;
  /** Poll at once rather than after one interval (Radius). */
  pollAtOnce?: boolean;
}

export async function deviceGrantLogin<T>(grant: DeviceGrant<T>, io: LoginIo, context: FlowContext): Promise<T> {
  const start = await oauthRequest(context, grant.authorizationUrl, io.signal, { form: grant.authorizationFields });
  if (!start.ok) throw new Error(`${grant.provider} device authorization failed (HTTP ${start.status}): ${errorDetail(start)}`);
  const deviceCode = start.json?.device_code;
  const userCode = start.json?.user_code;
  const plain = trustedUrl(start.json?.verification_uri, grant.httpsOnly);
  const complete = trustedUrl(start.json?.verification_uri_complete, grant.httpsOnly);
  const verificationUri = grant.preferComplete ? (complete ?? plain) : plain;
  if (typeof deviceCode !== "string" || !deviceCode || typeof userCode !== "string" || !userCode || !verificationUri) {
    throw new Error(`${grant.provider}'s device authorization answer is incomplete or names an untrusted address: ${start.text.slice(0, 300)}`);
  }
  const intervalSeconds = positiveNumber(start.json?.interval);
  const expiresInSeconds = positiveNumber(start.json?.expires_in) ?? grant.defaultExpiresSeconds;
  io.notify({ type: "device_code", userCode, verificationUri, ...(intervalSeconds ? { intervalSeconds } : {}), ...(expiresInSeconds ? { expiresInSeconds } : {}) });
  return pollDeviceCode<T>({
    ...(intervalSeconds ? { intervalSeconds } : {}),
    ...(expiresInSeconds ? { expiresInSeconds } : {}),
    waitFirst: !grant.pollAtOnce,
    signal: io.signal,
    poll: async (): Promise<PollResult<T>> => {
      const response = await oauthRequest(context, grant.tokenUrl, io.signal, { form: grant.tokenFields(deviceCode) });
      if (grant.failOnServerError && response.status >= 500)
        return { status: "failed", message: `${grant.provider} device token request failed (HTTP ${response.status}): ${errorDetail(response)}` };
      if (response.ok && typeof response.json?.access_token === "string") {
        try {
          return { status: "complete", value: grant.complete(response) };
        } catch (error) {
          return { status: "failed", message: (error as Error).message };
        }
      }
      switch (errorCode(response)) {
        case "authorization_pending":
          return { status: "pending" };
        case "slow_down":
          return { status: "slow_down", intervalSeconds: positiveNumber(response.json?.interval) };
        case "access_denied":
        case "authorization_denied":
          return { status: "failed", message: `${grant.provider} sign-in was denied.` };
        case "expired_token":
          return { status: "failed", message: `The ${grant.provider} device code expired: log in again.` };
        default:
          return { status: "failed", message: `${grant.provider} device sign-in failed (HTTP ${response.status}): ${errorDetail(response)}` };
      }
    },
  });
}
