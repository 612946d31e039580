/**
 * Plugin `login`: subscription and account logins as pi 1.6 has them (Claude Pro/Max, ChatGPT
 * through Codex, GitHub Copilot, Sign in with ChatGPT, xAI, Kimi Code, OpenRouter, Meta, Radius),
 * stored in auth.json in pi's format. It tells the model registry how a stored login becomes a
 * request's key (refreshed under the file's lock when due), and offers the login over the
 * protocol (`login`, `login_input`, `login_wait`, `login_cancel`, `get_login_providers`, the
 * `login_update` event). `atomic login` / `atomic logout` are cli.ts.
 */
import { z } from "zod";
import { defineSetting, definePlugin } from "../../kernel/index.js";
import type {} from "../models/api.js";
import { loginCommands, type LoginRuntime } from "./commands.js";
import { LoginUpdateSchema } from "./protocol.js";

export default definePlugin({
  name: "login",
  requires: ["models"],
  description: "OAuth logins (Claude Pro/Max, ChatGPT, GitHub Copilot, ...) stored in auth.json as pi keeps them, refreshed before they expire.",
  settings: {
    deviceId: defineSetting(() => z.string(), {
      scope: "user",
      description: "This installation's id (a UUID, pi's key): Sign in with ChatGPT names the agent host by it. Created on first use.",
    }),
  },
  apply(k) {
    const models = k.service("models");
    // The logins and their flows load on first use (a login command, or a request for a provider
    // whose login auth.json holds): most starts never sign in, and the first token need not wait.
    let loaded: Promise<LoginRuntime> | undefined;
    let started: LoginRuntime | undefined;
    const runtime = () =>
      (loaded ??= Promise.all([import("./logins.js"), import("./sessions.js")]).then(([{ Logins }, { LoginSessions }]) => {
        const logins = new Logins({ agentDir: k.config.agentDir, env: k.config.env, catalogModelIds: (provider) => models.modelsOf(provider).map((model) => model.id) });
        const sessions = new LoginSessions(
          logins,
          (update) => k.events.emit("login_update", update),
          () => models.reloadCredentials(),
        );
        started = { logins, sessions };
        return started;
      }));
    models.setLoginResolver(async (provider, signal) => (await runtime()).logins.requestAuth(provider, signal));
    k.registerEvent("login_update", LoginUpdateSchema);
    for (const command of loginCommands(runtime)) k.registerCommand(command);
    k.hooks.shutdown.tapPromise(k.name, async () => started?.sessions.cancelAll());
  },
});
