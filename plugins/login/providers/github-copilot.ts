/**
 * GitHub Copilot (`github-copilot`): VS Code's Copilot OAuth app through GitHub's device flow
 * (github.com, or a GitHub Enterprise domain). The GitHub token it yields is kept as the refresh
 * token; the short-lived Copilot token it is exchanged for is the access token, and names the
 * account's API address (`proxy-ep`). At login, the models the account offers are listed
 * (`availableModelIds`), and those of Atomic's catalog still waiting for the account to accept
 * their policy are enabled, as VS Code does.
 */
import { LoginExpiredError, oauthEndpoint, type OAuthCredential } from "../../../lib/oauth/index.js";
import { pollDeviceCode } from "../device-code.js";
import type { FlowContext, LoginFlow } from "../flow.js";
import { errorCode, errorDetail, oauthRequest, positiveNumber, trustedUrl } from "../http.js";

const CLIENT_ID = "Iv1.b507a08c87ecfe98";
export const COPILOT_HEADERS = {
  "User-Agent": "GitHubCopilotChat/0.35.0",
  "Editor-Version": "vscode/1.107.0",
  "Editor-Plugin-Version": "copilot-chat/0.35.0",
  "Copilot-Integration-Id": "vscode-chat",
};
const API_VERSION = "2026-06-01";
const INDIVIDUAL_API = "https://api.individual.githubcopilot.com";
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

export const githubCopilotLogin: LoginFlow = {
  async login(io, options, context) {
    const typed = options.enterpriseDomain?.trim() ?? "";
    const enterprise = typed ? normalizeDomain(typed) : undefined;
    if (typed && !enterprise) throw new Error(`Not a GitHub Enterprise URL or domain: ${typed}`);
    const domain = enterprise ?? "github.com";
    const start = await oauthRequest(
      context,
      `https://${domain}/login/device/code`,
      io.signal,
      { form: { client_id: CLIENT_ID, scope: "read:user" } },
      { "User-Agent": COPILOT_HEADERS["User-Agent"] },
    );
    if (!start.ok) throw new Error(`GitHub device code request failed (HTTP ${start.status}): ${errorDetail(start)}`);
    const { device_code: deviceCode, user_code: userCode, interval, expires_in: expiresIn } = start.json ?? {};
    const verificationUri = trustedUrl(start.json?.verification_uri);
    if (
      typeof deviceCode !== "string" ||
      typeof userCode !== "string" ||
      !verificationUri ||
      typeof expiresIn !== "number" ||
      (interval !== undefined && typeof interval !== "number")
    ) {
      throw new Error(`GitHub's device code answer is incomplete or names an untrusted address: ${start.text.slice(0, 300)}`);
    }
    io.notify({ type: "device_code", userCode, verificationUri, ...(typeof interval === "number" ? { intervalSeconds: interval } : {}), expiresInSeconds: expiresIn });
    const githubToken = await pollDeviceCode<string>({
      intervalSeconds: interval as number | undefined,
      expiresInSeconds: expiresIn,
      waitFirst: true,
      signal: io.signal,
      poll: async () => {
        const response = await oauthRequest(
          context,
          `https://${domain}/login/oauth/access_token`,
          io.signal,
          { form: { client_id: CLIENT_ID, device_code: deviceCode, grant_type: "urn:ietf:params:oauth:grant-type:device_code" } },
          { "User-Agent": COPILOT_HEADERS["User-Agent"] },
        );
        const token = response.json?.access_token;
        if (response.ok && typeof token === "string") return { status: "complete", value: token };
        const code = errorCode(response);
        if (code === "authorization_pending") return { status: "pending" };
        if (code === "slow_down") return { status: "slow_down", intervalSeconds: positiveNumber(response.json?.interval) };
        return {
          status: "failed",
          message: `GitHub device sign-in failed: ${code ?? `HTTP ${response.status}`}${response.json?.error_description ? `: ${String(response.json.error_description)}` : ""}`,
        };
      },
    });
    const credential = await copilotToken(githubToken, enterprise, io.signal, context);
    const models = await listModels(credential, context, io.signal);
    let enabled: string[] = [];
    if (models.waitingPolicy.length > 0) {
      io.notify({ type: "progress", message: "Enabling models..." });
      enabled = await enableModels(credential, models.waitingPolicy, context, io.signal);
    }
    return { ...credential, availableModelIds: [...new Set([...models.available, ...enabled])] };
  },

  async refresh(credential, signal, context) {
    const next = await copilotToken(credential.refresh, enterpriseOf(credential), signal, context);
    // The model list is a convenience: a refresh never fails for it, and keeps the last one.
    const models = await listModels(next, context, signal).catch(() => undefined);
    const availableModelIds = models?.available ?? credential.availableModelIds;
    return { ...next, ...(availableModelIds ? { availableModelIds } : {}) };
  },

  requestAuth: (credential, context) => ({ apiKey: credential.access, baseUrl: oauthEndpoint(copilotBaseUrl(credential.access, enterpriseOf(credential)), context.env) }),
};

/** The GitHub token exchanged for a Copilot token (a refused GitHub token means logging in again). */
async function copilotToken(githubToken: string, enterprise: string | undefined, signal: AbortSignal, context: FlowContext): Promise<OAuthCredential> {
  const response = await oauthRequest(context, `https://api.${enterprise ?? "github.com"}/copilot_internal/v2/token`, signal, undefined, {
    Authorization: `Bearer ${githubToken}`,
    ...COPILOT_HEADERS,
  });
  if (response.status === 401 || response.status === 403) throw new LoginExpiredError(`GitHub refused the stored token (HTTP ${response.status}: ${errorDetail(response)})`);
  if (!response.ok) throw new Error(`Copilot token request failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const token = response.json?.token;
  const expiresAt = response.json?.expires_at;
  if (typeof token !== "string" || typeof expiresAt !== "number") throw new Error("Copilot's token answer lacks token or expires_at");
  return { type: "oauth", refresh: githubToken, access: token, expires: expiresAt * 1000 - EXPIRY_MARGIN_MS, ...(enterprise ? { enterpriseUrl: enterprise } : {}) };
}

/** The account's API address: the token's `proxy-ep` (`proxy.X` -> `https://api.X`), else the enterprise's or the individual one. */
export function copilotBaseUrl(token: string, enterprise?: string): string {
  const proxy = /proxy-ep=([^;]+)/.exec(token)?.[1];
  if (proxy) return `https://${proxy.replace(/^proxy\./, "api.")}`;
  return enterprise ? `https://copilot-api.${enterprise}` : INDIVIDUAL_API;
}

function enterpriseOf(credential: OAuthCredential): string | undefined {
  return typeof credential.enterpriseUrl === "string" && credential.enterpriseUrl ? normalizeDomain(credential.enterpriseUrl) : undefined;
}

function normalizeDomain(input: string): string | undefined {
  try {
    return new URL(input.includes("://") ? input : `https://${input}`).hostname || undefined;
  } catch {
    return undefined;
  }
}

interface AccountModels {
  /** Chat models (with tool calls) the account's picker offers and its policy allows. */
  available: string[];
  /** Catalog models whose policy the account has not accepted yet. */
  waitingPolicy: string[];
}

async function listModels(credential: OAuthCredential, context: FlowContext, signal: AbortSignal): Promise<AccountModels> {
  const baseUrl = copilotBaseUrl(credential.access, enterpriseOf(credential));
  const response = await withRateLimitRetry(() =>
    oauthRequest(context, `${baseUrl}/models`, signal, undefined, { Authorization: `Bearer ${credential.access}`, ...COPILOT_HEADERS, "X-GitHub-Api-Version": API_VERSION }),
  );
  if (!response.ok) throw new Error(`Copilot model list failed (HTTP ${response.status}): ${errorDetail(response)}`);
  const data = response.json?.data;
  if (!Array.isArray(data)) throw new Error("Copilot's model list has no data");
  const models = data.flatMap((item: { id?: unknown; capabilities?: { supports?: { tool_calls?: unknown } }; model_picker_enabled?: unknown; policy?: { state?: unknown } }) =>
    typeof item?.id === "string" && item.capabilities?.supports?.tool_calls !== false
      ? [{ id: item.id, picker: item.model_picker_enabled === true, policy: item.policy?.state }]
      : [],
  );
  const picked = models.filter((model) => model.picker && model.policy !== "disabled").map((model) => model.id);
  // Some individual accounts flag no model for the picker though their policies enable them.
  const policyFallback = baseUrl === INDIVIDUAL_API && picked.length === 0;
  const available = policyFallback ? models.filter((model) => model.policy === "enabled").map((model) => model.id) : picked;
  const catalog = new Set(context.catalogModelIds());
  const waitingPolicy = models.filter((model) => model.policy === "unconfigured" && catalog.has(model.id) && (model.picker || policyFallback)).map((model) => model.id);
  return { available, waitingPolicy };
}

/** Best effort, in order; a rate limit that outlasts the retries stops the rest. */
async function enableModels(credential: OAuthCredential, ids: string[], context: FlowContext, signal: AbortSignal): Promise<string[]> {
  const baseUrl = copilotBaseUrl(credential.access, enterpriseOf(credential));
  const enabled: string[] = [];
  for (const id of ids) {
    const response = await withRateLimitRetry(() =>
      oauthRequest(
        context,
        `${baseUrl}/models/${encodeURIComponent(id)}/policy`,
        signal,
        { json: { state: "enabled" } },
        {
          Authorization: `Bearer ${credential.access}`,
          ...COPILOT_HEADERS,
          "openai-intent": "chat-policy",
          "x-interaction-type": "chat-policy",
        },
      ),
    ).catch((error: Error) => {
      if (signal.aborted) throw error;
      return undefined;
    });
    if (response?.status === 429) break;
    if (response?.ok) enabled.push(id);
  }
  return enabled;
}

/** Two more tries after a 429 (after 0.5 s, then 1 s), within 5 s in all. */
async function withRateLimitRetry(send: () => ReturnType<typeof oauthRequest>): ReturnType<typeof oauthRequest> {
  const deadline = Date.now() + 5_000;
  for (let retry = 0; ; retry++) {
    const response = await send();
    if (response.status !== 429 || retry === 2) return response;
    const waitMs = 500 * 2 ** retry;
    if (Date.now() + waitMs >= deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
