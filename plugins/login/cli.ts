/**
 * `atomic login [provider]` and `atomic logout <provider>` (also `atomic auth login|logout`, pi's
 * spelling). The login prints the address to open (and opens it in a browser when run in a
 * terminal) or the device code to enter, and takes a pasted redirect URL or code on stdin: the
 * fallback when the browser cannot reach this machine. Ctrl-C cancels. The login is stored in
 * auth.json (mode 0600) in pi's format.
 */
import { spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { readAuthFile } from "../../lib/oauth/index.js";
import type { CliIo } from "../../lib/cli-io/index.js";
import { PasteEndedError, type LoginIo, type LoginNotice, type LoginOptions } from "./flow.js";
import { LOGIN_PROVIDERS, type LoginProvider } from "./flows.js";
import { Logins, noLoginMessage } from "./logins.js";
import { LOGIN_CANCELLED } from "./http.js";

export { runLogoutCommand } from "./logout.js";

const LOGIN_USAGE = `Usage: atomic login [provider] [--method <browser|copy_code|device_code>] [--no-browser] [--enterprise <domain>]
  Without a provider: the providers with a login, and whether you are logged in.
  --no-browser   do not open a browser; use the provider's method for another machine when it has one
  --enterprise   github-copilot: your GitHub Enterprise domain (default github.com)
`;

interface LoginArgs {
  provider?: string;
  method?: string;
  browser: boolean;
  enterpriseDomain?: string;
}

export async function runLoginCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseLoginArgs(argv);
  if (typeof parsed === "string") return usage(io, parsed === "help" ? "" : parsed, LOGIN_USAGE, parsed === "help" ? 0 : 2);
  const logins = new Logins({ agentDir: io.agentDir, env: io.env });
  const terminal = Boolean((io.stdin as { isTTY?: boolean }).isTTY && (io.stdout as { isTTY?: boolean }).isTTY);
  const lines = new Lines(io.stdin);
  try {
    let provider = parsed.provider;
    if (!provider) {
      const status = await logins.status();
      const unreadable = await readAuthFile(logins.authPath).then(
        () => undefined,
        (error: Error) => error.message,
      );
      if (unreadable) io.stderr.write(`${unreadable}: no login can be shown or stored until it is fixed or removed\n`);
      io.stdout.write(`Providers with a login (${logins.authPath}):\n`);
      status.forEach((entry, index) => io.stdout.write(`  ${index + 1}. ${entry.provider.padEnd(15)} ${entry.name}${entry.loggedIn ? "  [logged in]" : ""}\n`));
      if (!terminal) return usage(io, "atomic login needs a provider name when it does not run in a terminal.", LOGIN_USAGE, 2);
      const answer = (await lines.next(`Log in to which (1-${status.length})? `, io)).trim();
      provider = status[Number(answer) - 1]?.provider ?? status.find((entry) => entry.provider === answer)?.provider;
      if (!provider) return usage(io, `No provider ${JSON.stringify(answer)} in the list.`, "", 2);
    }
    const entry = LOGIN_PROVIDERS.find((candidate) => candidate.provider === provider);
    if (!entry) return usage(io, noLoginMessage(provider), "", 2);
    const options: LoginOptions = { method: chooseMethod(entry, parsed, logins) };
    if (parsed.enterpriseDomain !== undefined) options.enterpriseDomain = parsed.enterpriseDomain;
    else if (provider === "github-copilot" && terminal)
      options.enterpriseDomain = await lines.next("GitHub Enterprise URL or domain (blank for github.com): ", io, { allowEmpty: true });
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once("SIGINT", onSigint);
    try {
      await logins.login(provider, terminalIo(io, lines, controller.signal, parsed.browser && terminal), options);
    } catch (error) {
      const message = (error as Error).message;
      io.stderr.write(controller.signal.aborted || message === LOGIN_CANCELLED ? "Login cancelled.\n" : `Login to ${entry.name} failed: ${message}\n`);
      return 1;
    } finally {
      process.off("SIGINT", onSigint);
    }
    io.stdout.write(`Logged in to ${entry.name}. Credentials saved to ${logins.authPath}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n`);
    return 1;
  } finally {
    lines.close();
  }
}

function parseLoginArgs(argv: string[]): LoginArgs | string {
  const args: LoginArgs = { browser: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--no-browser") args.browser = false;
    else if (arg === "--method" || arg === "--enterprise") {
      const value = argv[++i];
      if (value === undefined || value.startsWith("-")) return `${arg} needs a value.`;
      if (arg === "--method") args.method = value;
      else args.enterpriseDomain = value;
    } else if (arg.startsWith("-")) return `Unknown option ${arg}.`;
    else if (args.provider !== undefined) return "atomic login takes one provider name.";
    else args.provider = arg;
  }
  return args;
}

/** `--method`, else with `--no-browser` the provider's method for another machine (pi's choice), else its first. */
function chooseMethod(entry: LoginProvider, args: LoginArgs, logins: Logins): string {
  if (args.method !== undefined) return logins.method(entry, args.method);
  if (!args.browser) return entry.methods.find((method) => method.id !== "browser")?.id ?? entry.methods[0]!.id;
  return entry.methods[0]!.id;
}

function terminalIo(io: CliIo, lines: Lines, signal: AbortSignal, openBrowser: boolean): LoginIo {
  return {
    signal,
    notify(notice: LoginNotice) {
      if (notice.type === "auth_url") {
        io.stdout.write(`Open this address to sign in:\n  ${notice.url}\n${notice.instructions}\n`);
        if (openBrowser) openInBrowser(notice.url);
      } else if (notice.type === "device_code") {
        io.stdout.write(`Open ${notice.verificationUri} and enter the code: ${notice.userCode}\nWaiting for the sign-in...\n`);
        if (openBrowser) openInBrowser(notice.verificationUri);
      } else {
        io.stdout.write(`${notice.message}\n`);
      }
    },
    pasted: (request, signal) =>
      lines.next(`${request.message}${request.placeholder ? ` (${request.placeholder})` : ""}: `, io, {
        signal,
        ended: "stdin ended before the code was pasted: run atomic login in a terminal, or write the code to its stdin",
      }),
  };
}

/** The platform's URL opener, detached; a machine without one just shows the address. */
function openInBrowser(url: string): void {
  const [command, ...args] = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    const child = spawn(command!, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // Nothing to open it with: the address is on the screen.
  }
}

/** Lines typed or piped on stdin, read only while a question waits (so a finished login does not hold stdin open). */
class Lines {
  readonly #stdin: NodeJS.ReadableStream;
  #reader?: Interface;
  readonly #queued: string[] = [];
  /** The question waiting for a line: true when it took the line. */
  #waiting?: (line: string) => boolean;
  /** Fails the question waiting when stdin ends. */
  #onEnd?: () => void;
  #ended = false;

  constructor(stdin: NodeJS.ReadableStream) {
    this.#stdin = stdin;
  }

  /**
   * The next line (non-empty unless `allowEmpty`); rejects when `signal` aborts, and once stdin has
   * ended with a PasteEndedError saying `ended` (unanswered, a login would wait for nothing).
   */
  next(prompt: string, io: Pick<CliIo, "stdout">, options: { signal?: AbortSignal; allowEmpty?: boolean; ended?: string } = {}): Promise<string> {
    const { signal, allowEmpty = false, ended = "stdin ended before the question was answered" } = options;
    io.stdout.write(prompt);
    for (let queued = this.#queued.shift(); queued !== undefined; queued = this.#queued.shift()) if (allowEmpty || queued.trim() !== "") return Promise.resolve(queued);
    this.#reader ??= this.#open();
    return new Promise<string>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error(LOGIN_CANCELLED));
      const stop = () => {
        if (this.#waiting === done) this.#waiting = undefined;
        if (this.#onEnd === onEnd) this.#onEnd = undefined;
        signal?.removeEventListener("abort", onAbort);
      };
      const done = (line: string) => {
        if (!allowEmpty && line.trim() === "") return false;
        stop();
        resolve(line);
        return true;
      };
      const onAbort = () => {
        stop();
        // The question is over (the browser's callback came): what follows starts on a line of its own.
        io.stdout.write("\n");
        reject(new Error(LOGIN_CANCELLED));
      };
      const onEnd = () => {
        stop();
        io.stdout.write("\n");
        reject(new PasteEndedError(ended));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting = done;
      if (this.#ended) return onEnd();
      this.#onEnd = onEnd;
    });
  }

  close(): void {
    this.#reader?.close();
    (this.#stdin as { pause?: () => void }).pause?.();
  }

  #open(): Interface {
    const reader = createInterface({ input: this.#stdin, terminal: false });
    reader.on("line", (line) => {
      if (this.#waiting?.(line)) this.#waiting = undefined;
      else if (!this.#waiting) this.#queued.push(line);
    });
    reader.on("close", () => {
      this.#ended = true;
      this.#onEnd?.();
    });
    return reader;
  }
}

function usage(io: CliIo, message: string, text: string, code: number): number {
  (code === 0 ? io.stdout : io.stderr).write(`${message ? `${message}\n` : ""}${text}`);
  return code;
}
