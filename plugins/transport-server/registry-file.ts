/**
 * `<agent dir>/serve/agents.json` (docs/server.md, Persistence): the agents a server knows, by handle,
 * so a restarted server lists them (`notLoaded`) and loads each on first use. 0600 in a 0700
 * folder, written atomically under a lock; each write changes only its own handle, so two servers
 * sharing an agent dir do not erase each other's agents. A file that cannot be read is moved
 * aside (never overwritten) and the server starts with none.
 */
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Logger } from "../../kernel/index.js";
import { updateJsonFile } from "../../lib/locked-json/index.js";

const AgentRecordSchema = z.object({
  cwd: z.string(),
  sessionId: z.string(),
  sessionFile: z.string().optional(),
  name: z.string().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  thinkingLevel: z.string().optional(),
  /** The `sandbox` setting it was opened with: every load lays it over the files again. */
  sandbox: z.record(z.string(), z.unknown()).optional(),
});

/** What the server remembers of an agent (the model only matters while its session file is not written yet; the sandbox always). */
export type AgentRecord = z.output<typeof AgentRecordSchema>;

const HANDLE = /^a_[a-z2-7]{10}$/;

export function registryPath(agentDir: string): string {
  return join(agentDir, "serve", "agents.json");
}

export class RegistryFile {
  readonly path: string;
  readonly #log: Logger;
  #writes: Promise<void> = Promise.resolve();

  constructor(agentDir: string, log: Logger) {
    this.path = registryPath(agentDir);
    this.#log = log;
  }

  async load(): Promise<Map<string, AgentRecord>> {
    const agents = new Map<string, AgentRecord>();
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.#log.warn(`Cannot read ${this.path}: ${(error as Error).message}; starting with no agents`);
      return agents;
    }
    let stored: unknown;
    try {
      stored = JSON.parse(text);
    } catch (error) {
      const aside = `${this.path}.unreadable-${Date.now()}`;
      await rename(this.path, aside).catch(() => undefined);
      this.#log.warn(`${this.path} is not valid JSON (${(error as Error).message}): moved to ${aside}; starting with no agents`);
      return agents;
    }
    const listed = (stored as { agents?: unknown } | null)?.agents;
    if (typeof listed !== "object" || listed === null) return agents;
    for (const [handle, value] of Object.entries(listed)) {
      const record = AgentRecordSchema.safeParse(value);
      if (HANDLE.test(handle) && record.success) agents.set(handle, record.data);
      else this.#log.warn(`${this.path}: skipped the unreadable entry "${handle}"`);
    }
    return agents;
  }

  /** Records (or, with `undefined`, forgets) one agent; writes happen in call order. */
  save(handle: string, record: AgentRecord | undefined): Promise<void> {
    const write = this.#writes.then(() =>
      updateJsonFile(
        this.path,
        (current) => {
          const agents = typeof current.agents === "object" && current.agents !== null ? { ...(current.agents as Record<string, unknown>) } : {};
          if (record) agents[handle] = record;
          else delete agents[handle];
          return { version: 1, agents };
        },
        { mode: 0o600, dirMode: 0o700 },
      ).then(() => undefined),
    );
    this.#writes = write.catch((error: unknown) => this.#log.warn(`Cannot save the agent registry: ${(error as Error).message}`));
    return this.#writes;
  }

  /** Resolves once every write asked for so far is done. */
  flush(): Promise<void> {
    return this.#writes;
  }
}
