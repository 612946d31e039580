/**
 * Logins run for a protocol client (RPC, ACP): `start` answers as soon as the flow names the
 * address to open or the device code to enter, the login goes on in the background, and every
 * notice (and the end) goes out as a `login_update` event. A client that cannot reach the
 * loopback callback hands in the pasted redirect URL or code (`input`); `cancel` stops a login.
 * A login left waiting ends after 15 minutes; starting another for the same provider ends the
 * first (both would wait on the same callback port).
 */
import { secureRandomHex } from "../../lib/random-ids/index.js";
import type { LoginIo, LoginNotice, LoginOptions, PasteRequest } from "./flow.js";
import type { Logins } from "./logins.js";
import type { LoginStart, LoginUpdate } from "./protocol.js";

const LOGIN_TIMEOUT_MS = 15 * 60 * 1000;

export type { LoginStart, LoginUpdate };

interface Running {
  id: string;
  provider: string;
  acceptsInput: boolean;
  controller: AbortController;
  done: Promise<void>;
  /** The flow's request for pasted text, while it waits for one. */
  paste?: { resolve: (text: string) => void };
  /** Text handed in before the flow asked for it. */
  early?: string;
}

export class LoginSessions {
  readonly #logins: Logins;
  readonly #emit: (update: LoginUpdate) => void;
  readonly #afterLogin: (provider: string) => Promise<void>;
  readonly #running = new Map<string, Running>();
  /** How the latest logins ended (a `login_wait` may come after the end): their error, or undefined on success. */
  readonly #ended = new Map<string, { provider: string; error?: string }>();

  constructor(logins: Logins, emit: (update: LoginUpdate) => void, afterLogin: (provider: string) => Promise<void>) {
    this.#logins = logins;
    this.#emit = emit;
    this.#afterLogin = afterLogin;
  }

  async start(provider: string, options: LoginOptions): Promise<LoginStart> {
    const entry = this.#logins.provider(provider);
    const method = this.#logins.method(entry, options.method);
    for (const other of this.#running.values()) if (other.provider === provider) other.controller.abort(new Error("Replaced by a new login for the same provider"));
    const id = `login-${secureRandomHex(6)}`;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(new Error("The login timed out (15 minutes)")), LOGIN_TIMEOUT_MS);
    timeout.unref();
    let first: (start: LoginStart) => void;
    let failedEarly: (error: Error) => void;
    const started = new Promise<LoginStart>((resolve, reject) => ((first = resolve), (failedEarly = reject)));
    const acceptsInput = entry.methods.find((candidate) => candidate.id === method)?.takesInput ?? false;
    let announced = false;
    const running: Running = { id, provider, acceptsInput, controller, done: Promise.resolve() };
    const io: LoginIo = {
      signal: controller.signal,
      notify: (notice) => {
        this.#emit({ loginId: id, provider, ...noticeFields(notice) });
        if (announced || notice.type === "progress") return;
        announced = true;
        const { type, ...fields } = notice;
        first({ loginId: id, provider, method, acceptsInput, kind: type, ...fields } as LoginStart);
      },
      pasted: (request: PasteRequest, signal: AbortSignal) => this.#pasted(running, request, signal),
    };
    this.#running.set(id, running);
    running.done = this.#logins
      .login(provider, io, { ...options, method })
      .then(async () => {
        if (!announced) failedEarly(new Error(`The ${provider} login ended without naming where to sign in`));
        await this.#afterLogin(provider);
        this.#emit({ loginId: id, provider, status: "succeeded" });
      })
      .catch((error: Error) => {
        const cancelled = controller.signal.aborted;
        const reason = controller.signal.reason;
        const message = cancelled ? (reason instanceof Error && reason.message !== "This operation was aborted" ? reason.message : "Login cancelled") : error.message;
        this.#emit({ loginId: id, provider, status: cancelled ? "cancelled" : "failed", message });
        failedEarly(new Error(message));
        throw new Error(message);
      })
      .then(
        () => this.#remember(id, { provider }),
        (error: Error) => {
          this.#remember(id, { provider, error: error.message });
          throw error;
        },
      )
      .finally(() => {
        clearTimeout(timeout);
        this.#running.delete(id);
      });
    running.done.catch(() => undefined);
    return started;
  }

  /** Hands pasted text to a running login and waits for how it ends. */
  async input(loginId: string, text: string): Promise<string> {
    const running = this.#get(loginId);
    if (!running.acceptsInput) throw new Error(`This ${running.provider} login takes no pasted input: it ends when the sign-in is completed (login_wait).`);
    if (running.paste) {
      running.paste.resolve(text);
      running.paste = undefined;
    } else {
      running.early = text;
    }
    await running.done;
    return running.provider;
  }

  /** Waits for a login to end, or says how it ended (resolves on success, rejects with its failure). */
  async wait(loginId: string): Promise<string> {
    const ended = this.#ended.get(loginId);
    if (ended) {
      if (ended.error !== undefined) throw new Error(ended.error);
      return ended.provider;
    }
    const running = this.#get(loginId);
    await running.done;
    return running.provider;
  }

  cancel(loginId: string): boolean {
    const running = this.#running.get(loginId);
    if (!running) return false;
    running.controller.abort(new Error("Login cancelled"));
    return true;
  }

  /** Ends every login (the host is shutting down). */
  async cancelAll(): Promise<void> {
    const all = [...this.#running.values()];
    for (const running of all) running.controller.abort(new Error("Login cancelled: Atomic is shutting down"));
    await Promise.allSettled(all.map((running) => running.done));
  }

  #remember(loginId: string, outcome: { provider: string; error?: string }): void {
    this.#ended.set(loginId, outcome);
    if (this.#ended.size > 20) this.#ended.delete(this.#ended.keys().next().value!);
  }

  #get(loginId: string): Running {
    const running = this.#running.get(loginId);
    if (!running) throw new Error(`No login ${loginId} is running (it ended, or never started).`);
    return running;
  }

  #pasted(running: Running, _request: PasteRequest, signal: AbortSignal): Promise<string> {
    if (running.early !== undefined) {
      const text = running.early;
      running.early = undefined;
      return Promise.resolve(text);
    }
    return new Promise<string>((resolve, reject) => {
      if (signal.aborted) return reject(new Error("No longer waiting for pasted text"));
      running.paste = { resolve };
      signal.addEventListener(
        "abort",
        () => {
          if (running.paste?.resolve === resolve) running.paste = undefined;
          reject(new Error("No longer waiting for pasted text"));
        },
        { once: true },
      );
    });
  }
}

function noticeFields(notice: LoginNotice): Omit<LoginUpdate, "loginId" | "provider"> {
  const { type, ...fields } = notice;
  return { status: type, ...fields };
}
