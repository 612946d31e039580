/** The confinement programs as data: bubblewrap's arguments and the macOS profile (not runnable here), the host patterns, the environment. */
import { describe, expect, it } from "vitest";
import { bwrapArgs, INNER_PROXY_SOCKET, TMP_BYTES } from "./bwrap.js";
import { confinedEnv, isSecretName } from "./environment.js";
import { throughForwarder } from "./forwarder.js";
import { isHostAllowed, parseHostPattern } from "./host-patterns.js";
import { DEFAULT_POLICY, type SandboxPolicy } from "./policy.js";
import { sandboxExecArgs, seatbeltProfile } from "./seatbelt.js";

const policy = (overrides: Partial<SandboxPolicy>): SandboxPolicy => ({ ...DEFAULT_POLICY, mode: "workspace-write", ...overrides });
const command = { file: "/bin/bash", args: ["-c", "make test"] };

describe("bubblewrap arguments", () => {
  const plan = {
    bwrap: "/usr/bin/bwrap",
    workspace: "/w",
    writable: ["/w", "/cache"],
    pinned: ["/w/.git", "/w/.git/modules/lib"],
    protectedPaths: ["/w/.git/hooks", "/w/.git/modules/lib/config"],
    denied: [
      { path: "/h/.ssh", directory: true },
      { path: "/a/auth.json", directory: false },
    ],
    maskFile: "/p/masked",
    cwd: "/w/sub",
  };

  it("workspace-write, no network: read-only root, writable roots, pinned git dirs, protected and masked paths after them, private bounded /tmp", () => {
    const args = bwrapArgs({ ...plan, policy: policy({}) }, command);
    expect(args.join(" ")).toBe(
      [
        "--new-session --die-with-parent --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try --unshare-net --cap-drop ALL",
        `--ro-bind / / --dev /dev --proc /proc --size ${TMP_BYTES} --tmpfs /tmp`,
        "--bind /w /w --bind /cache /cache --bind /w/.git /w/.git --bind /w/.git/modules/lib /w/.git/modules/lib",
        "--ro-bind /w/.git/hooks /w/.git/hooks --ro-bind /w/.git/modules/lib/config /w/.git/modules/lib/config",
        "--perms 0000 --tmpfs /h/.ssh --remount-ro /h/.ssh --ro-bind /p/masked /a/auth.json",
        "--chdir /w/sub -- /bin/bash -c make test",
      ].join(" "),
    );
  });

  it("read-only binds the workspace read-only; network true keeps the host's; an allow-list binds the proxy socket", () => {
    const readOnly = bwrapArgs({ ...plan, policy: policy({ mode: "read-only" }) }, command);
    expect(readOnly).not.toContain("--bind");
    expect(readOnly.join(" ")).toContain("--ro-bind /w /w");
    expect(bwrapArgs({ ...plan, policy: policy({ network: true }) }, command)).not.toContain("--unshare-net");
    const listed = bwrapArgs(
      { ...plan, policy: policy({ network: ["example.com"] }), proxySocket: "/p/proxy.sock" },
      throughForwarder({ kind: "node", program: "/usr/bin/node" }, command),
    );
    expect(listed).toContain("--unshare-net");
    expect(listed.join(" ")).toContain(`--bind /p/proxy.sock ${INNER_PROXY_SOCKET} --chdir /w/sub -- /usr/bin/node --no-warnings -e`);
    expect(listed.slice(-6)).toEqual(["--", INNER_PROXY_SOCKET, "3128", "/bin/bash", "-c", "make test"]);
  });
});

describe("the macOS profile", () => {
  it("denies by default, passes every path as a parameter, and opens the network as the policy says", () => {
    const { profile, params } = seatbeltProfile({
      policy: policy({ network: ["example.com"] }),
      writable: ['/Users/a b/w"x'],
      pinned: ['/Users/a b/w"x/.git'],
      protectedPaths: ['/Users/a b/w"x/.git/hooks'],
      denied: ["/Users/ada/.ssh"],
      tempDir: "/private/tmp/atomic-sandbox-1/tmp",
      proxyPort: 51234,
    });
    expect(profile.split("\n").slice(0, 2)).toEqual(["(version 1)", "(deny default)"]);
    expect(profile).not.toContain("/Users");
    expect(params).toEqual({
      WRITABLE_0: "/private/tmp/atomic-sandbox-1/tmp",
      WRITABLE_1: '/Users/a b/w"x',
      PROTECTED_0: '/Users/a b/w"x/.git/hooks',
      PINNED_0: '/Users/a b/w"x/.git',
      DENIED_0: "/Users/ada/.ssh",
    });
    expect(profile).toContain('(allow file-write* (subpath (param "WRITABLE_0")) (subpath (param "WRITABLE_1")))');
    // The git dir itself by its literal path: renaming it would carry the protected paths away.
    expect(profile).toContain('(deny file-write* (subpath (param "PROTECTED_0")) (literal (param "PINNED_0")))');
    expect(profile).toContain('(deny file-read* (subpath (param "DENIED_0")))');
    expect(profile).toContain('(allow network-outbound (remote ip "localhost:51234"))');
    expect(profile).not.toContain("(allow network*)");
    // Later rules win: the denials come after the allowances they narrow.
    expect(profile.indexOf("(deny file-read*")).toBeGreaterThan(profile.indexOf("(allow file-read*)"));
    expect(sandboxExecArgs({ profile, params }, command).slice(0, 4)).toEqual(["-p", profile, "-D", "WRITABLE_0=/private/tmp/atomic-sandbox-1/tmp"]);
    expect(sandboxExecArgs({ profile, params }, command).slice(-3)).toEqual(["/bin/bash", "-c", "make test"]);
  });

  it("no network: no network rule at all; read-only: only the temp folder is writable", () => {
    const { profile, params } = seatbeltProfile({ policy: policy({ mode: "read-only" }), writable: ["/w"], pinned: ["/w/.git"], protectedPaths: [], denied: [], tempDir: "/t" });
    expect(profile).not.toMatch(/network/);
    expect(params).toEqual({ WRITABLE_0: "/t" });
  });
});

describe("host patterns", () => {
  it("exact names and IPs, *. for subdomains only, optional port, case-insensitive", () => {
    const patterns = ["example.com", "*.npmjs.org", "127.0.0.1:8080", "[::1]"].map(parseHostPattern);
    expect(isHostAllowed(patterns, "Example.COM", 443)).toBe(true);
    expect(isHostAllowed(patterns, "www.example.com", 443)).toBe(false);
    expect(isHostAllowed(patterns, "registry.npmjs.org", 443)).toBe(true);
    expect(isHostAllowed(patterns, "npmjs.org", 443)).toBe(false);
    expect(isHostAllowed(patterns, "evilnpmjs.org", 443)).toBe(false);
    expect(isHostAllowed(patterns, "127.0.0.1", 8080)).toBe(true);
    expect(isHostAllowed(patterns, "127.0.0.1", 80)).toBe(false);
    expect(isHostAllowed(patterns, "[::1]", 22)).toBe(true);
  });
});

describe("the confined environment", () => {
  it("drops what carries credentials, keeps the rest, adds the sandbox's", () => {
    expect(["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "DB_PASSWORD", "SSH_AUTH_SOCK", "NPM_CONFIG_TOKEN"].every(isSecretName)).toBe(true);
    expect(["PATH", "HOME", "KEYBOARD_LAYOUT", "TOKENIZERS_PARALLELISM", "LANG"].some(isSecretName)).toBe(false);
    expect(confinedEnv({ PATH: "/bin", OPENAI_API_KEY: "sk", TMPDIR: "/var/x" }, { TMPDIR: "/tmp" })).toEqual({ PATH: "/bin", TMPDIR: "/tmp" });
  });
});
