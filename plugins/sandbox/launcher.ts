/**
 * The `sandbox` service: every command the model starts is rewritten here into its confined form
 * (bubblewrap on Linux, sandbox-exec on macOS), or refused with a message the model can act on.
 * It never runs a command unconfined unless the mode is "off" or the client approved an
 * escalation. The private folder (the mask file, the proxy's socket, macOS's temp folder) and
 * the proxy are made on first use and removed at shutdown.
 */
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommandSpawn, ConfinedSpawn, ConfineOptions, FileGuard, SandboxApi, SandboxState } from "./api.js";
import { SandboxBlockedError } from "./api.js";
import { bwrapArgs, type ExistingPath } from "./bwrap.js";
import { confinedEnv } from "./environment.js";
import { askEscalation, type EscalationDeps } from "./escalation.js";
import { explainFailure, sandboxSummary } from "./messages.js";
import { createFileGuard, memoizedLayout, type RealLayout } from "./file-guard.js";
import { findForwarder, proxyEnv, throughForwarder, type Forwarder } from "./forwarder.js";
import type { SandboxPolicy } from "./policy.js";
import { findOnPath, probeSandbox, type Probe } from "./probe.js";
import { startProxy, type RunningProxy } from "./proxy.js";
import { isWithin } from "./real-path.js";
import { Turns } from "./turns.js";
import { sandboxExecArgs, seatbeltProfile } from "./seatbelt.js";

export interface LauncherOptions {
  policy: SandboxPolicy;
  cwd: string;
  agentDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  escalation: EscalationDeps;
}

export class SandboxLauncher implements SandboxApi {
  readonly policy: SandboxPolicy;
  readonly active: boolean;
  readonly escalation: boolean;
  readonly files: FileGuard | undefined;
  readonly summary: string;
  readonly #options: LauncherOptions;
  readonly #layout: () => Promise<RealLayout>;
  readonly #turns = new Turns();
  #probe: Promise<Probe> | undefined;
  #probed: Probe | undefined;
  #private: Promise<string> | undefined;
  #proxy: Promise<RunningProxy> | undefined;
  #forwarder: Promise<Forwarder> | undefined;
  #closed = false;

  constructor(options: LauncherOptions) {
    this.#options = options;
    this.policy = options.policy;
    this.active = options.policy.mode !== "off";
    this.escalation = this.active && options.policy.approval === "on-request";
    this.summary = sandboxSummary(options.policy, this.escalation);
    const context = { policy: options.policy, cwd: options.cwd, agentDir: options.agentDir };
    this.#layout = memoizedLayout(context);
    this.files = this.active ? createFileGuard(context, this.#layout, this.#turns) : undefined;
  }

  /** Whether the sandbox can start here (tried once). */
  probe(): Promise<Probe> {
    return (this.#probe ??= probeSandbox(this.#options.platform, this.#options.env).then((probe) => (this.#probed = probe)));
  }

  state(): SandboxState {
    const probed = this.#probed;
    const enforcement = !this.active
      ? "none"
      : (probed?.enforcement ?? (this.#options.platform === "darwin" ? "sandbox-exec" : this.#options.platform === "linux" ? "bubblewrap" : "none"));
    return { ...this.policy, enforcement, ...(this.active && probed && !probed.ok ? { unavailable: probed.reason } : {}) };
  }

  async check(): Promise<SandboxState> {
    if (this.active) await this.probe();
    return this.state();
  }

  explain(output: string): string | undefined {
    return explainFailure(this.policy, this.escalation, output);
  }

  async confine(spawn: CommandSpawn, options: ConfineOptions = {}): Promise<ConfinedSpawn> {
    const unconfined: ConfinedSpawn = { ...spawn, confined: false, release: () => undefined };
    if (!this.active) return unconfined;
    if (options.escalate) {
      await askEscalation(this.#options.escalation, {
        command: options.command ?? [spawn.file, ...spawn.args].join(" "),
        reason: options.escalate.reason,
        cwd: spawn.cwd,
        mode: this.policy.mode,
        ...(options.toolCallId ? { toolCallId: options.toolCallId } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return unconfined;
    }
    const probe = await this.probe();
    if (!probe.ok) throw new SandboxBlockedError(`blocked by the sandbox: ${probe.reason}. The command was not run.`);
    if (this.#closed) throw new SandboxBlockedError("blocked by the sandbox: the agent is shutting down; the command was not run");
    const release = await this.#turns.take("commands");
    try {
      const confined = probe.enforcement === "bubblewrap" ? await this.#bubblewrap(probe.program, spawn) : await this.#seatbelt(probe.program, spawn);
      return { ...confined, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  async #bubblewrap(bwrap: string, spawn: CommandSpawn): Promise<ConfinedSpawn> {
    const [layout, dir] = await Promise.all([this.#existingLayout(), this.#privateDir()]);
    const listed = Array.isArray(this.policy.network);
    const [proxy, forwarder] = listed
      ? await Promise.all([this.#startProxy({ socketPath: join(dir, "proxy.sock") }), (this.#forwarder ??= findForwarder(this.#options.env, findOnPath))])
      : [];
    const command = forwarder ? throughForwarder(forwarder, spawn) : spawn;
    // A forwarder kept under /tmp (this node, in a test's temp folder) would be hidden by the private /tmp: bound back in.
    const writable = layout.writable.map((entry) => entry.path);
    const extraBinds = forwarder && isWithin(forwarder.program, "/tmp") ? ["--ro-bind", dirname(forwarder.program), dirname(forwarder.program)] : [];
    const args = bwrapArgs(
      {
        bwrap,
        policy: this.policy,
        workspace: layout.workspace,
        writable,
        pinned: layout.pinned,
        protectedPaths: layout.protectedPaths.map((entry) => entry.path),
        denied: layout.denied,
        maskFile: join(dir, "masked"),
        cwd: spawn.cwd,
        ...(proxy ? { proxySocket: proxy.address } : {}),
      },
      command,
    );
    if (extraBinds.length > 0) args.splice(args.indexOf("--chdir"), 0, ...extraBinds);
    const env = confinedEnv(spawn.env, { TMPDIR: "/tmp", ...(proxy ? proxyEnv() : {}) });
    return { file: bwrap, args, cwd: spawn.cwd, env, confined: true, release: () => undefined };
  }

  async #seatbelt(sandboxExec: string, spawn: CommandSpawn): Promise<ConfinedSpawn> {
    const [layout, dir] = await Promise.all([this.#existingLayout(), this.#privateDir()]);
    const tempDir = join(dir, "tmp");
    const proxy = Array.isArray(this.policy.network) ? await this.#startProxy({ port: 0 }) : undefined;
    const profile = seatbeltProfile({
      policy: this.policy,
      writable: layout.writable.map((entry) => entry.path),
      pinned: layout.pinned,
      protectedPaths: layout.protectedPaths.map((entry) => entry.path),
      denied: layout.denied.map((entry) => entry.path),
      tempDir,
      ...(proxy?.port !== undefined ? { proxyPort: proxy.port } : {}),
    });
    const env = confinedEnv(spawn.env, { TMPDIR: tempDir, ...(proxy ? proxyEnv(proxy.address) : {}) });
    return { file: sandboxExec, args: sandboxExecArgs(profile, spawn), cwd: spawn.cwd, env, confined: true, release: () => undefined };
  }

  /** The real layout, keeping only what exists (a bind needs its source; a mask, its target). */
  async #existingLayout(): Promise<{ workspace: string; writable: ExistingPath[]; pinned: string[]; protectedPaths: ExistingPath[]; denied: ExistingPath[] }> {
    const layout = await this.#layout();
    const existing = async (paths: string[]) =>
      (await Promise.all(paths.map(async (path) => ({ path, info: await stat(path).catch(() => undefined) })))).flatMap(({ path, info }) =>
        info ? [{ path, directory: info.isDirectory() }] : [],
      );
    const [writable, pinned, protectedPaths, denied] = await Promise.all([
      existing(layout.writable),
      existing(layout.pinned),
      existing(layout.protectedPaths),
      existing(layout.denied),
    ]);
    // Only what lies inside a writable folder needs protecting again (the rest is read-only anyway).
    const inWritable = (entry: ExistingPath) => writable.some((root) => isWithin(entry.path, root.path));
    // A pinned folder is bound writable: never one outside the writable folders, nor one inside a protected path.
    const pinnable = pinned.filter((entry) => entry.directory && inWritable(entry) && !layout.protectedPaths.some((path) => isWithin(entry.path, path)));
    return { workspace: layout.workspace, writable, pinned: pinnable.map((entry) => entry.path), protectedPaths: protectedPaths.filter(inWritable), denied };
  }

  /** 0700 (mkdtemp), holding the empty mode-000 file bound over denied files and the proxy's socket. */
  #privateDir(): Promise<string> {
    return (this.#private ??= (async () => {
      // The pid in the name tells whose folder it is (one left by a killed agent can be recognised).
      const dir = await mkdtemp(join(privateDirBase(tmpdir(), process.pid), `atomic-sandbox-${process.pid}-`));
      await writeFile(join(dir, "masked"), "", { mode: 0o000 });
      if (this.#options.platform === "darwin") await import("node:fs/promises").then(({ mkdir }) => mkdir(join(dir, "tmp"), { mode: 0o700 }));
      return dir;
    })());
  }

  #startProxy(listen: { socketPath?: string; port?: number }): Promise<RunningProxy> {
    return (this.#proxy ??= startProxy(this.policy.network as string[], listen));
  }

  /** Teardown: the proxy stops, the private folder goes. */
  async close(): Promise<void> {
    this.#closed = true;
    const proxy = await this.#proxy?.catch(() => undefined);
    await proxy?.close();
    const dir = await this.#private?.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/** The longest path a Unix socket can have here: `sun_path` is 104 bytes on macOS, 108 on Linux, with its NUL. */
const SOCKET_PATH_MAX = 103;

/**
 * Where the private folder goes: the temp dir, unless the proxy's socket inside it would be too
 * long to bind (Node 20 cuts such a path short without an error, and the sandbox then finds no
 * socket), then `/tmp`.
 */
export function privateDirBase(tmp: string, pid: number): string {
  const socket = join(tmp, `atomic-sandbox-${pid}-XXXXXX`, "proxy.sock");
  return Buffer.byteLength(socket) > SOCKET_PATH_MAX ? "/tmp" : tmp;
}
