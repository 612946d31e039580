/**
 * The loopback server a browser login redirects to. Only a GET of the expected path with the
 * expected `state` is taken (a stray request, or one whose `state` does not match, is refused
 * with a page saying so and the login keeps waiting); the first good one completes the login,
 * whose success or failure the browser page then shows. The fallback when the browser cannot
 * reach this machine: the user pastes the redirect URL (or code), raced against the callback.
 */
import { createServer, type ServerResponse } from "node:http";
import { LOGIN_CANCELLED } from "./http.js";
import { PasteEndedError, type LoginIo, type PasteRequest } from "./flow.js";

export interface CallbackOptions<T> {
  providerName: string;
  host: string;
  /** 0: any free port. */
  port: number;
  path: string;
  /** The host named in the redirect URI (Anthropic registers `localhost`); default `host`. */
  redirectHost?: string;
  /** The `state` the callback must carry; undefined for a provider that sends none (OpenRouter: a random path instead). */
  state?: string;
  /** Turns the callback's query into the login's result (the code exchange may run here, so the page shows how it went). */
  complete(query: URLSearchParams): Promise<T>;
  signal: AbortSignal;
}

export interface CallbackServer<T> {
  redirectUri: string;
  result: Promise<T>;
  close(): void;
}

export async function startCallbackServer<T>(options: CallbackOptions<T>): Promise<CallbackServer<T>> {
  if (options.signal.aborted) throw new Error(LOGIN_CANCELLED);
  let settle!: { resolve: (value: T) => void; reject: (error: Error) => void };
  const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined);
  let claimed = false;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method !== "GET" || url.pathname !== options.path) return page(response, 404, "Not found", "This is not the sign-in callback.");
    if (options.state !== undefined && url.searchParams.get("state") !== options.state) {
      return page(
        response,
        400,
        "Sign-in refused",
        "The state of this callback does not match the sign-in that is waiting (a stale or forged link). Start the sign-in again if this was yours.",
      );
    }
    if (claimed) return page(response, 409, "Already handled", "This sign-in has already been handled.");
    const error = url.searchParams.get("error");
    if (error) {
      claimed = true;
      const description = url.searchParams.get("error_description") ?? error;
      page(response, 400, `${options.providerName} sign-in failed`, description);
      return settle.reject(new Error(`${options.providerName} authorization failed: ${description}`));
    }
    if (!url.searchParams.get("code")) return page(response, 400, "Sign-in failed", "The callback carries no authorization code.");
    claimed = true;
    options.complete(url.searchParams).then(
      (value) => {
        page(response, 200, "Signed in", `Signed in to ${options.providerName}. You can close this page.`);
        settle.resolve(value);
      },
      (failure: Error) => {
        page(response, 502, `${options.providerName} sign-in failed`, failure.message);
        settle.reject(failure);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address === "string") {
    server.close();
    throw new Error("The sign-in callback server did not bind to a TCP port");
  }
  const onAbort = () => settle.reject(new Error(LOGIN_CANCELLED));
  options.signal.addEventListener("abort", onAbort, { once: true });
  const host = options.redirectHost ?? options.host;
  return {
    redirectUri: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}${options.path}`,
    result,
    close() {
      options.signal.removeEventListener("abort", onAbort);
      settle.reject(new Error("The sign-in callback server was closed"));
      server.close();
      // A browser's spare keep-alive connection would otherwise hold the port (and reach this closed login).
      server.closeAllConnections();
    },
  };
}

/**
 * The login's result from whichever comes first: the browser's callback, or the text the user
 * pastes (`fromPaste` checks and uses it). Without a callback server only the paste is waited for.
 */
export async function callbackOrPaste<T>(io: LoginIo, callback: CallbackServer<T> | undefined, request: PasteRequest, fromPaste: (input: string) => Promise<T>): Promise<T> {
  const stopPaste = new AbortController();
  const pasted = io.pasted(request, AbortSignal.any([stopPaste.signal, io.signal])).then(fromPaste);
  pasted.catch(() => undefined);
  // Once nothing can be pasted, the browser's callback is the one way left in.
  const pastedOrCallback = pasted.catch((error: unknown) => (error instanceof PasteEndedError ? new Promise<never>(() => undefined) : Promise.reject(error)));
  try {
    return await (callback ? Promise.race([callback.result, pastedOrCallback]) : pasted);
  } catch (error) {
    if (io.signal.aborted) throw new Error(LOGIN_CANCELLED);
    throw error;
  } finally {
    stopPaste.abort();
    callback?.close();
  }
}

/** Where a browser callback server listens: `ATOMIC_OAUTH_CALLBACK_HOST` (a container's `0.0.0.0`), else 127.0.0.1. */
export function callbackHost(env: NodeJS.ProcessEnv): string {
  return env.ATOMIC_OAUTH_CALLBACK_HOST || "127.0.0.1";
}

function page(response: ServerResponse, status: number, title: string, message: string): void {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  response.end(
    `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><body style="font-family:sans-serif;margin:3em"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body>`,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
