/**
 * The ACP connection over stdin/stdout (the SDK's stable v1 entry, newline-delimited JSON-RPC):
 * `initialize`, then any number of sessions, each on its own sibling host. Handlers only map
 * ACP to Atomic's commands and events; everything else (unknown methods, malformed params) is
 * answered by the SDK. Input EOF or a signal closes every session, then the host.
 */
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadable } from "node:stream/web";
import { claimStdout } from "../../lib/stdout/index.js";
import type { EmbeddedHost, TransportHost } from "../../kernel/index.js";
import { authenticate, authMethods } from "./auth.js";
import { call } from "./call.js";
import { configOptions, InvalidConfig, setConfigOption } from "./config-options.js";
import { AcpSession, TurnError, type SessionClient } from "./session.js";
import { historyUpdates } from "./updates.js";
import { mcpEntries, type AcpMcpServer } from "./mcp-servers.js";

type Acp = typeof import("@agentclientprotocol/sdk");

/** The file of a stored session by its id: this folder's sessions first, then every folder's. */
async function sessionPath(host: EmbeddedHost, sessionId: string): Promise<string | undefined> {
  for (const all of [false, true]) {
    const { sessions } = await call<"list_sessions">(host, { type: "list_sessions", all });
    const found = sessions.find((info) => info.id === sessionId);
    if (found) return found.path;
  }
  return undefined;
}

/**
 * Atomic's session options in ACP's `_meta`: `{"atomic": {"sandbox": "workspace-write"}}` (a mode,
 * or the whole sandbox setting object), applied to that session's sibling host as a settings override.
 */
function sessionSettings(meta: unknown): Record<string, unknown> | undefined {
  const atomic = typeof meta === "object" && meta !== null ? (meta as { atomic?: unknown }).atomic : undefined;
  if (typeof atomic !== "object" || atomic === null || !("sandbox" in atomic)) return undefined;
  const sandbox = (atomic as { sandbox: unknown }).sandbox;
  return { sandbox: typeof sandbox === "string" ? { mode: sandbox } : sandbox };
}

export async function serveAcp(host: TransportHost, version: string): Promise<number> {
  const acp: Acp = await import("@agentclientprotocol/sdk");
  const stdout = claimStdout();
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => (stdout.writeParts([Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)]) ? undefined : new Promise<void>((resolve) => stdout.onceDrain(resolve))),
  });
  const stdin = (Readable.toWeb(process.stdin) as unknown as WebReadable<Uint8Array>).getReader();
  // The SDK drops every unanswered request when its input ends, so EOF reaches it only once the
  // requests read before it are answered (docs/decisions.md, Shutdown).
  let inputEnded!: () => void;
  const eof = new Promise<"eof">((resolve) => (inputEnded = () => resolve("eof")));
  let releaseInput!: () => void;
  const released = new Promise<void>((resolve) => (releaseInput = resolve));
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await stdin.read();
      if (!done) return controller.enqueue(value);
      inputEnded();
      await released;
      controller.close();
    },
    cancel: (reason) => stdin.cancel(reason),
  });
  const sessions = new Map<string, AcpSession>();
  // An editor that goes away closes its end of our stdout (EPIPE): the connection is over, not broken.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") host.log.error(`cannot write to stdout (${error.code ?? "error"}): ${error.message}`);
    void host.shutdown("eof");
  });

  // Requests read before input EOF are still answered (docs/decisions.md, Shutdown): their handlers are tracked.
  const pending = new Set<Promise<unknown>>();
  const answered = <F extends (...args: never[]) => unknown>(handler: F): F =>
    ((...args: Parameters<F>) => {
      const result = Promise.resolve().then(() => handler(...args));
      pending.add(result);
      const settled = () => pending.delete(result);
      void result.then(settled, settled);
      return result;
    }) as F;

  let notified: Promise<void> = Promise.resolve();
  let connection: ReturnType<ReturnType<Acp["agent"]>["connect"]>;
  const client: SessionClient = {
    update: (sessionId, update) => {
      notified = notified
        .then(() => connection.client.notify("session/update", { sessionId, update }))
        .catch((error: unknown) => host.log.warn(`session/update not sent: ${(error as Error).message}`));
    },
    flush: () => notified,
    requestPermission: (params) => connection.client.request("session/request_permission", params),
  };

  // The SDK's own says only "Resource not found": the id goes in the message too, for a client that shows only that.
  const sessionNotFound = (sessionId: string) => new acp.RequestError(-32002, `Session not found: ${sessionId}`, { sessionId });
  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw sessionNotFound(sessionId);
    return session;
  };
  const folder = async (cwd: string): Promise<string> => {
    if (!isAbsolute(cwd)) throw acp.RequestError.invalidParams({ cwd }, `cwd must be an absolute path: ${cwd}`);
    const info = await stat(cwd).catch(() => undefined);
    if (!info?.isDirectory()) throw acp.RequestError.invalidParams({ cwd }, `cwd is not a folder: ${cwd}`);
    return cwd;
  };
  const failed = (error: unknown): never => {
    if (error instanceof TurnError) {
      if (error.code === "failed") throw new acp.RequestError(-32603, error.message);
      // Content the agent did not advertise (audio) is a param the client should not have sent; a busy session is a request at the wrong time.
      throw error.code === "invalid" ? acp.RequestError.invalidParams(undefined, error.message) : acp.RequestError.invalidRequest(undefined, error.message);
    }
    if (error instanceof InvalidConfig) throw acp.RequestError.invalidParams(undefined, error.message);
    if (error instanceof acp.RequestError) throw error;
    throw new acp.RequestError(-32603, error instanceof Error ? error.message : String(error));
  };
  const open = async (
    cwd: string,
    servers: readonly AcpMcpServer[] | undefined,
    meta: unknown,
    load?: (sibling: Awaited<ReturnType<TransportHost["openSibling"]>>) => Promise<string>,
  ) => {
    const settings = sessionSettings(meta);
    const sibling = await host.openSibling({ cwd: await folder(cwd), ...(settings ? { settings } : {}) }).catch((error: Error) => {
      // The client's session options did not validate: its mistake, said with the field.
      if (settings && error.message.includes("the settings passed in"))
        throw acp.RequestError.invalidParams(
          { _meta: meta },
          error.message.replace(/^Invalid settings file the settings passed in: (Invalid )?/gm, (_, invalid = "") => `${invalid}_meta.atomic.`),
        );
      throw error;
    });
    try {
      // The editor's servers join the session's own (mcp.json); they connect while the session opens.
      if (servers && servers.length > 0) {
        await call<"add_mcp_servers">(sibling, { type: "add_mcp_servers", servers: mcpEntries(servers) }).catch((error: Error) => {
          // The user turned MCP off for this run: the session opens without the editor's servers.
          if (error.message.includes("--no-mcp")) return host.log.warn(`ACP session: the editor's MCP servers are not started (${error.message})`);
          throw acp.RequestError.invalidParams({ mcpServers: servers.map((server) => server.name) }, `mcpServers: ${error.message}`);
        });
      }
      const id = load ? await load(sibling) : undefined;
      const session = await AcpSession.attach(sibling, cwd, client, id);
      await sessions.get(session.id)?.close();
      sessions.set(session.id, session);
      return session;
    } catch (error) {
      await sibling.shutdown("exit");
      throw error;
    }
  };

  // Whether the editor shows a URL elicitation (ACP's unstable elicitations): a login's link goes there.
  let elicitsUrls = false;
  const app = acp
    .agent({ name: "atomic" })
    .onRequest(
      "initialize",
      answered(async ({ params }) => {
        elicitsUrls = Boolean((params.clientCapabilities as { elicitation?: { url?: unknown } } | undefined)?.elicitation?.url);
        return {
          protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, embeddedContext: true },
            mcpCapabilities: { http: true, sse: true },
            sessionCapabilities: { close: {}, list: {} },
          },
          agentInfo: { name: "atomic", title: "Atomic", version },
          authMethods: await authMethods(host),
        };
      }),
    )
    .onRequest(
      "authenticate",
      // Not held at EOF: a sign-in needs the editor, which is gone; closing cancels it.
      ({ params, requestId, signal }) =>
        authenticate(
          acp,
          host,
          {
            request: (method, body) => connection.client.request(method as never, body as never) as Promise<unknown>,
            notify: (method, body) => connection.client.notify(method as never, body as never) as Promise<void>,
            elicitsUrls,
          },
          params.methodId,
          requestId as string | number,
          signal,
        ),
    )
    .onRequest(
      "session/new",
      answered(async ({ params }) => {
        const session = await open(params.cwd, params.mcpServers as AcpMcpServer[] | undefined, params._meta).catch(failed);
        return { sessionId: session.id, configOptions: await configOptions(session.host) };
      }),
    )
    .onRequest(
      "session/load",
      answered(async ({ params }) => {
        // Loaded again while open here: its sibling lets the file go first (one writer per session file).
        const already = sessions.get(params.sessionId);
        if (already) {
          sessions.delete(params.sessionId);
          await already.close();
        }
        const session = await open(params.cwd, params.mcpServers as AcpMcpServer[] | undefined, params._meta, async (sibling) => {
          const path = await sessionPath(sibling, params.sessionId);
          if (!path) throw sessionNotFound(params.sessionId);
          const switched = await call<"switch_session">(sibling, { type: "switch_session", sessionPath: path });
          if (switched.cancelled) throw acp.RequestError.invalidRequest(undefined, "Loading the session was cancelled by an extension");
          return params.sessionId;
        }).catch(failed);
        for (const update of historyUpdates((await call<"get_messages">(session.host, { type: "get_messages" })).messages, session.cwd)) client.update(session.id, update);
        await client.flush();
        return { configOptions: await configOptions(session.host) };
      }),
    )
    .onRequest(
      "session/list",
      answered(async ({ params }) => {
        const listed = await call<"list_sessions">(host, { type: "list_sessions", all: true }).catch(failed);
        const sessions = listed.sessions
          .filter((info) => !params.cwd || info.cwd === params.cwd)
          .map((info) => ({ sessionId: info.id, cwd: info.cwd, title: info.name ?? info.firstMessage, updatedAt: info.modified }));
        return { sessions };
      }),
    )
    .onRequest(
      "session/prompt",
      answered(({ params }) => sessionOf(params.sessionId).prompt(params.prompt).catch(failed)),
    )
    .onNotification("session/cancel", async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    })
    .onRequest(
      "session/set_config_option",
      answered(async ({ params }) => ({
        configOptions: await setConfigOption(sessionOf(params.sessionId).host, params.configId, params.value).catch(failed),
      })),
    )
    .onRequest(
      "session/close",
      answered(async ({ params }) => {
        const session = sessionOf(params.sessionId);
        sessions.delete(params.sessionId);
        await session.close();
        return {};
      }),
    );

  connection = app.connect(acp.ndJsonStream(output, input));
  const reason = await Promise.race([eof, connection.closed.then(() => "eof" as const), host.closing]);
  await Promise.all([...sessions.values()].map((session) => session.close()));
  sessions.clear();
  // A request the SDK read last may still be on its way to its handler.
  await new Promise((resolve) => setImmediate(resolve));
  while (pending.size > 0) await Promise.allSettled([...pending]);
  await stdout.flush();
  releaseInput();
  connection.close();
  await host.shutdown(reason);
  await stdout.flush();
  return 0;
}
