/**
 * Settings key `serve` (docs/decisions.md, Server mode): where the server listens and its limits.
 * `--listen` on the command line replaces `listen`. Swapping the transport is a config change.
 */
import { z } from "zod";
import { defineSetting, type Settings } from "../../kernel/index.js";
import { type EventOptions, startingEventOptions } from "../event-options/api.js";
import { listenUrlProblem } from "./listen-syntax.js";
import { allowedOriginProblem, normalOrigin } from "./origin-syntax.js";

export const DEFAULT_LIMITS = {
  maxAgents: 32,
  maxConnections: 64,
  idleUnloadMs: 30 * 60_000,
  replayRecords: 4096,
  replayBytes: 16 * 1024 * 1024,
  outboundBytes: 8 * 1024 * 1024,
} as const;
export const DEFAULT_KEEPALIVE_MS = 30_000;

const count = () => z.number().int().positive();

export const serveSetting = defineSetting(
  () =>
    z.object({
      listen: z
        .array(
          z
            .string()
            .min(1)
            .superRefine((url, context) => {
              const expected = listenUrlProblem(url);
              if (expected) context.addIssue({ code: "custom", message: expected });
            }),
        )
        .min(1)
        .optional()
        .meta({ description: 'Listener URLs: "stdio", "unix:PATH", "ws://HOST:PORT" (default: stdio).' }),
      maxAgents: count()
        .optional()
        .meta({ description: `Agents loaded at once (default ${DEFAULT_LIMITS.maxAgents}).` }),
      maxConnections: count()
        .optional()
        .meta({ description: `Connections at once (default ${DEFAULT_LIMITS.maxConnections}).` }),
      idleUnloadMs: count().optional().meta({ description: "An agent with no connection, run or dialog is unloaded after this long (default 30 min)." }),
      replayRecords: count()
        .optional()
        .meta({ description: `Events each agent keeps for replay (default ${DEFAULT_LIMITS.replayRecords}).` }),
      replayBytes: count().optional().meta({ description: "Bytes of events each agent keeps for replay (default 16 MiB)." }),
      outboundBytes: count().optional().meta({ description: "Bytes waiting for one connection before it counts as a slow consumer (default 8 MiB)." }),
      allowOrigins: z
        .array(
          z.string().superRefine((origin, context) => {
            const expected = allowedOriginProblem(origin);
            if (expected) context.addIssue({ code: "custom", message: expected });
          }),
        )
        .optional()
        .meta({
          description:
            'Browser origins a WebSocket listener accepts besides its own, each a scheme, host and port as a page\'s Origin header has them ("https://app.example.com").',
        }),
      keepaliveMs: count().optional().meta({ description: "A WebSocket listener pings each client this often and drops one that has not answered the last ping (default 30 s)." }),
    }),
  {
    scope: "trusted",
    description: "atomic serve: listeners (listen) and limits (maxAgents, maxConnections, idleUnloadMs, replayRecords, replayBytes, outboundBytes, allowOrigins).",
  },
);

export type ServeSettings = z.output<ReturnType<(typeof serveSetting)["schema"]>>;

declare module "../../kernel/config.js" {
  interface Settings {
    serve?: ServeSettings;
  }
  interface CliOptions {
    listen?: string[];
    connect?: string;
    allowRemote?: boolean;
    web?: boolean;
  }
}

export interface ServerLimits {
  maxAgents: number;
  maxConnections: number;
  idleUnloadMs: number;
  replayRecords: number;
  replayBytes: number;
  outboundBytes: number;
}

export interface ServerConfig {
  listen: string[];
  limits: ServerLimits;
  allowOrigins: string[];
  keepaliveMs: number;
  /** What each connection starts with (the `eventOptions` setting); `set_event_options` changes one connection's. */
  eventOptions: EventOptions;
}

/** The settings with their defaults, `--listen` winning over `listen`. */
export function serverConfig(settings: Settings, listenFlags: readonly string[] | undefined): ServerConfig {
  const serve = settings.serve ?? {};
  return {
    listen: listenFlags && listenFlags.length > 0 ? [...listenFlags] : (serve.listen ?? ["stdio"]),
    limits: {
      maxAgents: serve.maxAgents ?? DEFAULT_LIMITS.maxAgents,
      maxConnections: serve.maxConnections ?? DEFAULT_LIMITS.maxConnections,
      idleUnloadMs: serve.idleUnloadMs ?? DEFAULT_LIMITS.idleUnloadMs,
      replayRecords: serve.replayRecords ?? DEFAULT_LIMITS.replayRecords,
      replayBytes: serve.replayBytes ?? DEFAULT_LIMITS.replayBytes,
      outboundBytes: serve.outboundBytes ?? DEFAULT_LIMITS.outboundBytes,
    },
    allowOrigins: (serve.allowOrigins ?? []).map(normalOrigin),
    keepaliveMs: serve.keepaliveMs ?? DEFAULT_KEEPALIVE_MS,
    eventOptions: startingEventOptions(settings),
  };
}
