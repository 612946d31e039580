/**
 * OAuth logins shared by the login plugin (which signs in and knows each provider's refresh),
 * the model registry (which finds a login in auth.json) and provider adapters: pi's auth.json
 * format, refresh under the file's lock, and the test-only endpoint override.
 */
export { isOAuthCredential, LoginExpiredError, type OAuthCredential, type OAuthRequestAuth } from "./credential.js";
export { oauthEndpoint, testOrigin, TEST_ORIGIN_ENV } from "./endpoints.js";
export {
  AUTH_FILE_MODE,
  currentOAuthCredential,
  expiresSoon,
  MIN_VALIDITY_MS,
  readAuthFile,
  readOAuthCredential,
  REFRESH_TIMEOUT_MS,
  saveOAuthCredential,
  type Refresher,
} from "./store.js";
