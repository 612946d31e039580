/**
 * Context files are project data: read only when they are regular files inside the project
 * (docs/decisions.md, Trust). A symlink leaving the project, a FIFO or a device is skipped with one
 * stderr note and the prompt goes on; the user's own agent dir may link anywhere, but only to a
 * regular file.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { probeLog, promptAndSettle, startAgent } from "./helpers/agent-harness.js";
import { stderrContains } from "./helpers/extension-agent.js";
import { tempDir, textTurn, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function systemPromptFor(agentDir: string, cwd: string): Promise<string> {
  client = startAgent({ agentDir, cwd, turns: [textTurn("ok")] });
  await promptAndSettle(client, "hello");
  return (await probeLog(client)).systemPrompts[0]!;
}

describe.skipIf(process.platform === "win32")("context files that are not regular files inside the project", () => {
  it("skips an AGENTS.md that links outside the project, with a note, and falls back to CLAUDE.md", async () => {
    const secrets = tempDir("atomic-secrets-");
    writeFileSync(join(secrets, "credentials"), "aws_secret_access_key = LEAKED");
    const project = tempDir("atomic-project-");
    symlinkSync(join(secrets, "credentials"), join(project, "AGENTS.md"));
    writeFileSync(join(project, "CLAUDE.md"), "PROJECT: fallback rules");
    const prompt = await systemPromptFor(tempDir("atomic-agent-"), project);
    expect(prompt).not.toContain("LEAKED");
    expect(prompt).toContain("PROJECT: fallback rules");
    await stderrContains(client!, `Skipped context file ${join(project, "AGENTS.md")}: it links to ${join(secrets, "credentials")}, outside the project ${project}`);
    expect(client!.stderr).toContain(`Skipped context file ${join(project, "AGENTS.md")}: it links to ${join(secrets, "credentials")}, outside the project ${project}`);
  });

  it("keeps a link that stays inside the repository (a monorepo package pointing at shared docs)", async () => {
    const repo = tempDir("atomic-project-");
    mkdirSync(join(repo, ".git"));
    mkdirSync(join(repo, "docs"));
    writeFileSync(join(repo, "docs", "agents.md"), "SHARED: lint before commit");
    const app = join(repo, "packages", "app");
    mkdirSync(app, { recursive: true });
    symlinkSync(join("..", "..", "docs", "agents.md"), join(app, "AGENTS.md"));
    const prompt = await systemPromptFor(tempDir("atomic-agent-"), app);
    expect(prompt).toContain(`<context_file path="${join(app, "AGENTS.md")}">\nSHARED: lint before commit\n</context_file>`);
    expect(client!.stderr).not.toContain("Skipped context file");
  });

  it("does not wait on an AGENTS.md that is a FIFO: the prompt runs and the FIFO is named on stderr", async () => {
    const project = tempDir("atomic-project-");
    execFileSync("mkfifo", [join(project, "AGENTS.md")]);
    const prompt = await systemPromptFor(tempDir("atomic-agent-"), project);
    expect(prompt).toContain("You are Atomic");
    expect(prompt).not.toContain("# Project Context");
    await stderrContains(client!, `Skipped context file ${join(project, "AGENTS.md")}: it is a FIFO, not a regular file`);
    expect(client!.stderr).toContain(`Skipped context file ${join(project, "AGENTS.md")}: it is a FIFO, not a regular file`);
  });

  it("lets the agent dir link its AGENTS.md anywhere, but never to a device", async () => {
    const dotfiles = tempDir("atomic-dotfiles-");
    writeFileSync(join(dotfiles, "agents.md"), "GLOBAL: from dotfiles");
    const agentDir = tempDir("atomic-agent-");
    symlinkSync(join(dotfiles, "agents.md"), join(agentDir, "AGENTS.md"));
    const project = tempDir("atomic-project-");
    symlinkSync("/dev/zero", join(project, "AGENTS.md"));
    const prompt = await systemPromptFor(agentDir, project);
    expect(prompt).toContain("GLOBAL: from dotfiles");
    await stderrContains(client!, `Skipped context file ${join(project, "AGENTS.md")}: it links to /dev/zero, outside the project ${project}`);
    expect(client!.stderr).toContain(`Skipped context file ${join(project, "AGENTS.md")}: it links to /dev/zero, outside the project ${project}`);
    await client!.close();

    const deviceAgentDir = tempDir("atomic-agent-");
    symlinkSync("/dev/zero", join(deviceAgentDir, "CLAUDE.md"));
    const second = await systemPromptFor(deviceAgentDir, tempDir("atomic-cwd-"));
    expect(second).not.toContain("# Project Context");
    await stderrContains(client!, `Skipped context file ${join(deviceAgentDir, "CLAUDE.md")}: it is a character device, not a regular file`);
    expect(client!.stderr).toContain(`Skipped context file ${join(deviceAgentDir, "CLAUDE.md")}: it is a character device, not a regular file`);
  });

  it("notes a skipped file once, not on every prompt", async () => {
    const project = tempDir("atomic-project-");
    execFileSync("mkfifo", [join(project, "AGENTS.md")]);
    client = startAgent({ agentDir: tempDir("atomic-agent-"), cwd: project, turns: [textTurn("one")] });
    await promptAndSettle(client, "first");
    await promptAndSettle(client, "second");
    expect(client.stderr.split("Skipped context file").length - 1).toBe(1);
  });
});
