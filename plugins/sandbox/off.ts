/**
 * The sandbox service when the mode is "off" (the default): commands run as asked and files are
 * not guarded. What confines (launcher.ts: bubblewrap, sandbox-exec, the proxy, the file guard)
 * is loaded only when a mode is on, so a start without a sandbox does not evaluate it.
 */
import type { CommandSpawn, ConfinedSpawn, SandboxApi, SandboxState } from "./api.js";
import { explainFailure, sandboxSummary } from "./messages.js";
import type { SandboxPolicy } from "./policy.js";

export class SandboxOff implements SandboxApi {
  readonly policy: SandboxPolicy;
  readonly active = false;
  readonly escalation = false;
  readonly files = undefined;
  readonly summary: string;

  constructor(policy: SandboxPolicy) {
    this.policy = policy;
    this.summary = sandboxSummary(policy, false);
  }

  state(): SandboxState {
    return { ...this.policy, enforcement: "none" };
  }

  async check(): Promise<SandboxState> {
    return this.state();
  }

  explain(output: string): string | undefined {
    return explainFailure(this.policy, false, output);
  }

  async confine(spawn: CommandSpawn): Promise<ConfinedSpawn> {
    return { ...spawn, confined: false, release: () => undefined };
  }

  async close(): Promise<void> {}
}
