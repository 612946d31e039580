/**
 * What the model is told: the sandbox in the bash tool's description, and after a confined
 * command failed, which of its errors came from the sandbox ("blocked by the sandbox: ..."), so it
 * can change course (stay in the workspace, ask for an escalation) rather than retry blindly.
 */
import type { SandboxPolicy } from "./policy.js";

function writablePlaces(policy: SandboxPolicy): string {
  return policy.mode === "read-only" ? "only a private /tmp" : ["the working directory", ...policy.writableRoots, "a private /tmp"].join(", ").replace(/, ([^,]+)$/, " and $1");
}

function networkWords(policy: SandboxPolicy): string {
  if (policy.network === true) return "the network is on";
  if (policy.network === false || policy.network.length === 0) return "there is no network";
  return `the network reaches only ${policy.network.join(", ")} (through a proxy: HTTP(S)_PROXY is set)`;
}

const ESCALATE_HINT = "To run it outside the sandbox, call bash again with escalate: true and a reason; the user decides.";

export function sandboxSummary(policy: SandboxPolicy, escalation: boolean): string {
  return (
    `Commands run in a sandbox (${policy.mode}): ${writablePlaces(policy)} ${policy.mode === "read-only" ? "is" : "are"} writable (/tmp is emptied after each command), ` +
    `${networkWords(policy)}, and credential folders are unreadable. What it blocks fails with errors such as "Read-only file system" or "Permission denied".` +
    (escalation ? ` If the task truly needs more, call bash with escalate: true and a reason: the user is asked.` : "")
  );
}

const READ_ONLY_FS = /read-only file system|EROFS/i;
const NETWORK_DOWN =
  /could not resolve|temporary failure in name resolution|name or service not known|network is unreachable|EAI_AGAIN|ENOTFOUND|ENETUNREACH|connection refused|ECONNREFUSED|blocked by the sandbox: network|403 Forbidden|CONNECT tunnel failed/i;
const DENIED = /permission denied|EACCES/i;
const BUSY = /device or resource busy|EBUSY/i;

export function explainFailure(policy: SandboxPolicy, escalation: boolean, output: string): string | undefined {
  const notes: string[] = [];
  if (READ_ONLY_FS.test(output)) {
    notes.push(
      policy.mode === "read-only"
        ? "blocked by the sandbox: it is read-only, so nothing but /tmp can be written"
        : `blocked by the sandbox: write outside the workspace (${writablePlaces(policy)} are writable; git's hooks, config and .git files, .atomic and the agent's folder stay read-only)`,
    );
  }
  // Only the sandbox's own mount points answer "busy" to a rename or a write.
  if (policy.mode === "workspace-write" && BUSY.test(output))
    notes.push("blocked by the sandbox: git's hooks, config and .git files, .atomic and the agent's folder stay read-only, and a git dir cannot be moved or replaced");
  if (policy.network !== true && NETWORK_DOWN.test(output)) notes.push(`blocked by the sandbox: ${networkWords(policy)}`);
  if (DENIED.test(output))
    notes.push("blocked by the sandbox, perhaps: credential folders (~/.ssh, ~/.aws, ~/.gnupg, the agent's auth.json, ...) and the denyRead paths are unreadable");
  if (notes.length === 0) return undefined;
  return `[${notes.join(". ")}.${escalation ? ` ${ESCALATE_HINT}` : ""}]`;
}
