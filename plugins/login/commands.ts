/**
 * The login commands: list the providers with a login, start one (the answer names the address
 * or device code), hand in a pasted redirect URL or code, wait for it to end, cancel it. They run
 * in the immediate lane: a login waits on a person, and must not hold up other commands.
 */
import { z } from "zod";
import { defineCommand, type CommandDefinition } from "../../kernel/index.js";
import type { Logins } from "./logins.js";
import { LoginMethodSchema, LoginProviderSchema, LoginStartSchema } from "./protocol.js";
import type { LoginSessions } from "./sessions.js";
import { readOAuthCredential } from "../../lib/oauth/index.js";

/** Built per schema, on first use (not at startup). */
const loginIdInput = () => ({ loginId: z.string().describe("The id the `login` response gave.") });

/** The logins and their running sessions, loaded on first use. */
export interface LoginRuntime {
  logins: Logins;
  sessions: LoginSessions;
}

export function loginCommands(runtime: () => Promise<LoginRuntime>): CommandDefinition<any, any>[] {
  const LoggedIn = () =>
    z.object({
      provider: z.string().describe("The provider now logged in to (its login is stored in auth.json)."),
      expires: z.number().optional().meta({ description: "When the access token stops being used (ms since the epoch); it is refreshed before then." }),
    });
  const loggedIn = async (provider: string) => {
    const stored = await readOAuthCredential((await runtime()).logins.authPath, provider);
    return { provider, ...(stored && stored.expires < Number.MAX_SAFE_INTEGER ? { expires: stored.expires } : {}) };
  };
  return [
    defineCommand({
      name: "get_login_providers",
      description: "The providers Atomic can sign in to with a subscription or account login (as pi's /login), their methods and whether auth.json holds a login.",
      lane: "immediate",
      input: () => z.object({}),
      output: () => z.object({ providers: z.array(LoginProviderSchema()).describe("In pi's order.") }),
      run: async () => ({ providers: await (await runtime()).logins.status() }),
    }),
    defineCommand({
      name: "login",
      description:
        "Start a login. Answers once the address to open (`kind: auth_url`) or the device code to enter (`kind: device_code`) is known; the login goes on in the background and reports through `login_update` events. Finish it with `login_input` (a pasted redirect URL or code) or `login_wait`.",
      lane: "immediate",
      input: () =>
        z
          .object({
            provider: z.string().describe("The provider (see get_login_providers)."),
            method: LoginMethodSchema().optional().meta({ description: "One of the provider's methods; default its first." }),
            enterpriseDomain: z.string().optional().meta({ description: "github-copilot: a GitHub Enterprise domain (default github.com)." }),
          })
          .meta({ examples: [{ provider: "anthropic" }, { provider: "github-copilot", method: "device_code" }] }),
      output: LoginStartSchema,
      run: async ({ provider, method, enterpriseDomain }) =>
        (await runtime()).sessions.start(provider, { ...(method ? { method } : {}), ...(enterpriseDomain ? { enterpriseDomain } : {}) }),
    }),
    defineCommand({
      name: "login_input",
      description: "Hand a running login the redirect URL (or code) pasted from the browser, when the browser could not reach this machine; answers when the login has ended.",
      lane: "immediate",
      input: () =>
        z
          .object({ ...loginIdInput(), input: z.string().min(1).describe("The whole redirect URL, its query, `code#state`, or the code.") })
          .meta({ examples: [{ loginId: "login-1a2b3c4d5e6f", input: "http://localhost:1455/auth/callback?code=ac_123&state=9f2c" }] }),
      output: LoggedIn,
      run: async ({ loginId, input }) => loggedIn(await (await runtime()).sessions.input(loginId, input)),
    }),
    defineCommand({
      name: "login_wait",
      description: "Wait for a login to end (the browser came back, or the device code was entered); asked after the end, how it ended.",
      lane: "immediate",
      input: () => z.object(loginIdInput()).meta({ examples: [{ loginId: "login-1a2b3c4d5e6f" }] }),
      output: LoggedIn,
      run: async ({ loginId }) => loggedIn(await (await runtime()).sessions.wait(loginId)),
    }),
    defineCommand({
      name: "login_cancel",
      description: "Stop a running login (its callback port is closed); false when it had already ended.",
      lane: "immediate",
      input: () => z.object(loginIdInput()).meta({ examples: [{ loginId: "login-1a2b3c4d5e6f" }] }),
      output: () => z.object({ cancelled: z.boolean().describe("A running login was stopped.") }),
      run: async ({ loginId }) => ({ cancelled: (await runtime()).sessions.cancel(loginId) }),
    }),
  ];
}
