/**
 * Logins as a whole: run a provider's flow and store what it yields in auth.json (pi's format),
 * and turn a stored login into what a request sends, refreshing it first when it is about to
 * expire (lib/oauth: under the file's lock, once for every agent and process). A login the
 * server refused to refresh is an error that says to log in again.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  currentOAuthCredential,
  LoginExpiredError,
  readAuthFile,
  saveOAuthCredential,
  readOAuthCredential,
  type OAuthCredential,
  type OAuthRequestAuth,
} from "../../lib/oauth/index.js";
import { updateJsonFile } from "../../lib/locked-json/index.js";
import { providerNamed } from "../../lib/closest/models.js";
import type { FlowContext, LoginIo, LoginOptions } from "./flow.js";
import { LOGIN_PROVIDERS, loginProvider, type LoginProvider } from "./flows.js";

export interface LoginsOptions {
  agentDir: string;
  env: NodeJS.ProcessEnv;
  /** The model ids of a provider's catalog (empty when the catalog is not at hand, as in `atomic login`). */
  catalogModelIds?: (provider: string) => string[];
}

export interface LoginStatus {
  provider: string;
  name: string;
  methods: { id: string; label: string }[];
  loggedIn: boolean;
  /** When the stored access token stops being used (ms since the epoch); refreshed before then. */
  expires?: number;
}

export class Logins {
  readonly authPath: string;
  readonly #options: LoginsOptions;

  constructor(options: LoginsOptions) {
    this.#options = options;
    this.authPath = join(options.agentDir, "auth.json");
  }

  providers(): readonly LoginProvider[] {
    return LOGIN_PROVIDERS;
  }

  /** The provider's login, or an error naming those there are. */
  provider(provider: string): LoginProvider {
    const found = loginProvider(provider);
    if (!found) throw new Error(noLoginMessage(provider));
    return found;
  }

  /** The method to use: the one asked for (checked), else the provider's first. */
  method(entry: LoginProvider, method: string | undefined): string {
    if (method === undefined) return entry.methods[0]!.id;
    if (!entry.methods.some((candidate) => candidate.id === method)) {
      throw new Error(`${entry.name} has no "${method}" login; its methods: ${entry.methods.map((candidate) => candidate.id).join(", ")}.`);
    }
    return method;
  }

  /** Runs the login and stores the result (replacing the provider's API key or earlier login). */
  async login(provider: string, io: LoginIo, options: LoginOptions = {}): Promise<OAuthCredential> {
    const entry = this.provider(provider);
    const method = this.method(entry, options.method);
    // A sign-in cannot be done twice with one code: an auth.json it could not be stored in is found out first.
    await readAuthFile(this.authPath).catch((error: Error) => {
      throw new Error(`${error.message}; fix or remove it first: the login is stored there`);
    });
    const flow = await entry.load();
    const credential = await flow.login(io, { ...options, method }, this.context(provider));
    await saveOAuthCredential(this.authPath, provider, credential);
    return credential;
  }

  async status(): Promise<LoginStatus[]> {
    return Promise.all(
      LOGIN_PROVIDERS.map(async (entry) => {
        const stored = await readOAuthCredential(this.authPath, entry.provider).catch(() => undefined);
        return {
          provider: entry.provider,
          name: entry.name,
          methods: entry.methods.map(({ id, label }) => ({ id, label })),
          loggedIn: stored !== undefined,
          ...(stored && stored.expires < Number.MAX_SAFE_INTEGER ? { expires: stored.expires } : {}),
        };
      }),
    );
  }

  /** What a request to `provider` sends for its stored login; undefined when it has none. */
  async requestAuth(provider: string, signal?: AbortSignal): Promise<OAuthRequestAuth | undefined> {
    const entry = loginProvider(provider);
    const context = this.context(provider);
    if (!entry) {
      // A login an extension of pi's made: usable as it is until it expires, never refreshed here.
      const stored = await readOAuthCredential(this.authPath, provider);
      if (stored && stored.expires <= Date.now())
        throw new Error(`The ${provider} login in ${this.authPath} has expired, and Atomic cannot refresh a login it has no flow for: log in again where it was made.`);
      return stored && { apiKey: stored.access };
    }
    const flow = await entry.load();
    let credential: OAuthCredential | undefined;
    try {
      credential = await currentOAuthCredential(this.authPath, provider, (current, refreshSignal) => flow.refresh(current, refreshSignal, context), signal);
    } catch (error) {
      if (error instanceof LoginExpiredError) throw new Error(`The ${entry.name} login is no longer valid (${error.message}). Log in again: atomic login ${provider}`);
      if (signal?.aborted) throw error;
      throw new Error(`Refreshing the ${entry.name} login failed: ${(error as Error).message}`);
    }
    return credential && flow.requestAuth(credential, context);
  }

  context(provider: string): FlowContext {
    return {
      env: this.#options.env,
      deviceId: () => deviceId(this.#options.agentDir),
      catalogModelIds: () => this.#options.catalogModelIds?.(provider) ?? [],
    };
  }
}

/** This installation's id, pi's settings.json `deviceId`: created (a UUID) and saved on first use. */
async function deviceId(agentDir: string): Promise<string> {
  const path = join(agentDir, "settings.json");
  const existing = await readFile(path, "utf8")
    .then((text) => (JSON.parse(text) as { deviceId?: unknown }).deviceId)
    .catch(() => undefined);
  if (typeof existing === "string" && existing !== "") return existing;
  let id: string = randomUUID();
  await updateJsonFile(path, (settings) => {
    if (typeof settings.deviceId === "string" && settings.deviceId !== "") id = settings.deviceId;
    else settings.deviceId = id;
  });
  return id;
}

/** For a provider with no login: the one probably meant (a model family's provider, a slip of a name), then every one there is. */
export function noLoginMessage(provider: string): string {
  const names = LOGIN_PROVIDERS.map((entry) => entry.provider);
  const meant = providerNamed(names, provider);
  return `No login for "${provider}"${meant ? ` (did you mean ${meant}?)` : ""}. Providers with a login: ${names.join(", ")}.`;
}
