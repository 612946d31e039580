import { describe, expect, it } from "vitest";
import { composePolicy, describePolicy, sandboxModeMeant, sandboxSettingSchema, type PolicyInputs } from "./policy.js";

const base: PolicyInputs = { projectTrusted: false, cwd: "/work/app", agentDir: "/home/ada/.atomic/agent", env: { HOME: "/home/ada" } };

describe("sandbox policy", () => {
  it("defaults to off (pi's behaviour) and always denies the agent's credentials and the secret folders", () => {
    const { policy } = composePolicy(base);
    expect(policy).toMatchObject({ mode: "off", network: false, writableRoots: [], approval: "never" });
    expect(policy.denyRead).toEqual(
      expect.arrayContaining([
        "/home/ada/.atomic/agent/auth.json",
        "/home/ada/.atomic/agent/serve/token",
        "/home/ada/.ssh",
        "/home/ada/.aws",
        "/home/ada/.gnupg",
        "/home/ada/.config/gcloud",
        "/var/run/docker.sock",
      ]),
    );
  });

  it("resolves ~ and relative paths, adds configured denyRead to the fixed ones", () => {
    const { policy } = composePolicy({ ...base, user: { mode: "workspace-write", writableRoots: ["~/.npm", "../shared"], denyRead: ["secrets"] } });
    expect(policy.writableRoots).toEqual(["/home/ada/.npm", "/work/shared"]);
    expect(policy.denyRead).toContain("/work/app/secrets");
    expect(policy.denyRead).toContain("/home/ada/.ssh");
  });

  it("an untrusted project may tighten, never loosen (each attempt is a note)", () => {
    const user = { mode: "workspace-write" as const, network: ["registry.npmjs.org", "github.com"], approval: "on-request" as const };
    const tightened = composePolicy({ ...base, user, project: { mode: "read-only", network: ["github.com"], denyRead: ["/etc/app.key"], approval: "never" } });
    expect(tightened.policy).toMatchObject({ mode: "read-only", network: ["github.com"], approval: "never" });
    expect(tightened.policy.denyRead).toContain("/etc/app.key");
    expect(tightened.notes).toEqual([]);

    const loosened = composePolicy({ ...base, user: { mode: "read-only" }, project: { mode: "off", network: true, writableRoots: ["/"], approval: "on-request" } });
    expect(loosened.policy).toMatchObject({ mode: "read-only", network: false, writableRoots: [], approval: "never" });
    expect(loosened.notes).toHaveLength(4);
    expect(loosened.notes[0]).toBe(
      'Ignored sandbox.mode "off" (the user\'s is "read-only") in the project\'s settings: an untrusted project may tighten the sandbox, not loosen it',
    );

    // Off is the loosest: a project may turn the sandbox on, but not open the network it brings.
    const opted = composePolicy({ ...base, project: { mode: "workspace-write", network: ["registry.npmjs.org"] } });
    expect(opted.policy).toMatchObject({ mode: "workspace-write", network: false });
    expect(opted.notes).toHaveLength(1);
  });

  it("a trusted project counts as the user's; --sandbox sets the mode; a session override comes last", () => {
    expect(composePolicy({ ...base, user: { mode: "read-only" }, project: { mode: "off" }, projectTrusted: true }).policy.mode).toBe("off");
    expect(composePolicy({ ...base, user: { mode: "read-only" }, cliMode: "workspace-write" }).policy.mode).toBe("workspace-write");
    const session = composePolicy({ ...base, cliMode: "workspace-write", override: { mode: "read-only", network: ["Example.com:443"] } });
    expect(session.policy).toMatchObject({ mode: "read-only", network: ["example.com:443"] });
  });

  it("validates the setting: modes, host patterns, unknown keys", () => {
    const schema = sandboxSettingSchema();
    expect(schema.safeParse({ mode: "workspace-write", network: ["*.npmjs.org", "127.0.0.1:8080", "[::1]"], approval: "on-request" }).success).toBe(true);
    expect(schema.safeParse({ mode: "sealed" }).success).toBe(false);
    expect(schema.safeParse({ network: ["http://example.com"] }).success).toBe(false);
    expect(schema.safeParse({ writeableRoots: ["/x"] }).success).toBe(false);
  });

  it("describes itself in one line", () => {
    expect(describePolicy(composePolicy(base).policy)).toBe("off (commands and file tools run with your rights, as in pi)");
    expect(describePolicy(composePolicy({ ...base, cliMode: "workspace-write" }).policy)).toBe(
      "workspace-write (writable: workspace, private /tmp; network off; escalation never)",
    );
  });
});

describe("a --sandbox mode written another way", () => {
  it("is matched to the mode meant, and nothing is suggested when none is close", () => {
    expect(sandboxModeMeant("workspace")).toBe("workspace-write");
    expect(sandboxModeMeant("readonly")).toBe("read-only");
    expect(sandboxModeMeant("Read_Only")).toBe("read-only");
    expect(sandboxModeMeant("workspace-wirte")).toBe("workspace-write");
    expect(sandboxModeMeant("OFF")).toBe("off");
    for (const given of ["hi", "on", "none", "write", "strict", ""]) expect(sandboxModeMeant(given), given).toBeUndefined();
  });
});
