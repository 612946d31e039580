import { describe, expect, it } from "vitest";
import { findShell, sharedShell, shellCandidates, shellPathProblem, withCommandPrefix } from "./shell.js";

const only =
  (...present: string[]) =>
  async (path: string) =>
    present.includes(path);

describe("findShell", () => {
  it("takes shellPath as given, without looking", async () => {
    expect(await findShell({ shellPath: "/opt/zsh", env: {}, platform: "linux", isExecutable: only() })).toBe("/opt/zsh");
  });

  it("prefers bash on PATH, then /bin/bash, then sh", async () => {
    const env = { PATH: "/usr/local/bin:/usr/bin" };
    expect(await findShell({ env, platform: "linux", isExecutable: only("/usr/bin/bash", "/bin/bash") })).toBe("/usr/bin/bash");
    expect(await findShell({ env, platform: "linux", isExecutable: only("/bin/bash", "/usr/bin/sh") })).toBe("/bin/bash");
    expect(await findShell({ env, platform: "linux", isExecutable: only("/usr/bin/sh", "/bin/sh") })).toBe("/usr/bin/sh");
    expect(await findShell({ env: {}, platform: "darwin", isExecutable: only("/bin/sh") })).toBe("/bin/sh");
  });

  it("never looks in relative PATH entries (a bash planted in the project)", () => {
    expect(shellCandidates({ env: { PATH: ".:bin::/usr/bin" }, platform: "linux" })).toEqual(["/usr/bin/bash", "/bin/bash", "/usr/bin/sh", "/bin/sh"]);
    expect(shellCandidates({ env: { Path: ".;tools;C:\\bin" }, platform: "win32" })).toEqual(["C:\\bin\\bash.exe", "C:\\bin\\sh.exe"]);
  });

  it("fails with a hint when there is no shell at all", async () => {
    await expect(findShell({ env: { PATH: "/nowhere" }, platform: "linux", isExecutable: only() })).rejects.toThrow(
      "No shell found (looked for bash, then sh): set shellPath in settings.json",
    );
  });

  it("on Windows looks for bash.exe on Path, then Git Bash, then sh.exe", () => {
    const env = { Path: "C:\\Tools\\;D:\\bin", ProgramFiles: "C:\\Program Files" };
    expect(shellCandidates({ env, platform: "win32" })).toEqual([
      "C:\\Tools\\bash.exe",
      "D:\\bin\\bash.exe",
      "C:\\Program Files\\Git\\bin\\bash.exe",
      "C:\\Tools\\sh.exe",
      "D:\\bin\\sh.exe",
    ]);
  });

  it("is resolved once and shared", async () => {
    let looks = 0;
    const shell = sharedShell({ env: { PATH: "/bin" }, platform: "linux", isExecutable: async (path) => (looks++, path === "/bin/bash") });
    expect(await Promise.all([shell(), shell()])).toEqual(["/bin/bash", "/bin/bash"]);
    expect(await shell()).toBe("/bin/bash");
    expect(looks).toBe(1);
  });
});

describe("withCommandPrefix", () => {
  it("puts the prefix on its own line, and ignores a blank one", () => {
    expect(withCommandPrefix("ls", "set -e")).toBe("set -e\nls");
    expect(withCommandPrefix("ls", "  ")).toBe("ls");
    expect(withCommandPrefix("ls", undefined)).toBe("ls");
  });
});

describe("shellPathProblem", () => {
  it("names a shellPath path that cannot be executed; a bare name is left to PATH at run time", async () => {
    expect(await shellPathProblem("/no/such/shell", only())).toBe(
      'Settings shellPath "/no/such/shell" is not an executable file: the bash tool and the bash command fail until it names one (without it, bash, else sh, is found on PATH).',
    );
    expect(await shellPathProblem("/opt/zsh", only("/opt/zsh"))).toBeUndefined();
    expect(await shellPathProblem("C:\\Git\\bin\\bash.exe", only())).toContain("is not an executable file");
    expect(await shellPathProblem("zsh", only())).toBeUndefined();
  });
});
