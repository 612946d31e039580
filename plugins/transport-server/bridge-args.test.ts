import { describe, expect, it } from "vitest";
import { BridgeUsageError, parseBridgeArgs } from "./bridge-args.js";

describe("--connect bridge arguments", () => {
  it("reads what picks the agent and what the end of input does; pi's terminal-UI options are ignored", () => {
    expect(parseBridgeArgs(["--mode", "rpc", "--no-themes", "--connect", "unix:/s", "--session", "/x.jsonl", "--close-on-exit"])).toMatchObject({
      connect: "unix:/s",
      resume: "/x.jsonl",
      closeOnExit: true,
      ignored: ["--no-themes"],
    });
    expect(parseBridgeArgs(["--connect=unix:", "--agent", "a_abcdefghij"])).toMatchObject({ connect: "unix:", agent: "a_abcdefghij", closeOnExit: false });
    expect(parseBridgeArgs(["--connect=unix:", "--cwd", "dir"])).toMatchObject({ cwd: "dir" });
    expect(parseBridgeArgs(["--connect", "unix:", "--provider", "p", "--model", "m", "--thinking", "high", "-n", "named", "--no-session"])).toMatchObject({
      provider: "p",
      model: "m",
      thinkingLevel: "high",
      name: "named",
      noSession: true,
    });
  });

  it("refuses what a bridge cannot do, saying why", () => {
    const fails = (argv: string[], message: RegExp) => expect(() => parseBridgeArgs(argv)).toThrow(message);
    fails(["--mode", "rpc"], /--connect needs a URL/);
    fails(["--connect", "unix:", "--mode", "json"], /--connect works with --mode rpc \(got --mode json\)/);
    fails(["--connect", "unix:", "--agent", "a_abcdefghij", "--resume", "x"], /--agent attaches to an open agent/);
    fails(["--connect", "unix:", "--resume", "x", "--no-session"], /cannot be given together/);
    fails(["--connect", "unix:", "--extension", "x.ts"], /--extension is not available with --connect/);
    fails(["--connect", "unix:", "--agent"], /--agent needs a value/);
    fails(["--connect", "unix:", "hello"], /Unexpected argument "hello"/);
    expect(() => parseBridgeArgs(["--connect", "unix:", "hello"])).toThrow(BridgeUsageError);
  });

  it("--agent must be a handle; what opens an agent cannot go with it; --sandbox is the new agent's", () => {
    const fails = (argv: string[], message: RegExp) => expect(() => parseBridgeArgs(argv)).toThrow(message);
    for (const agent of ["a_doesnotexist", "", "A_ZKBJIIXNWS", "a_abcdefghi1", "a_abcdefghijk"])
      fails(["--connect", "unix:", "--agent", agent], /^Invalid --agent ".*": a handle is "a_" and 10 characters a-z or 2-7/);
    fails(["--connect", "unix:", "--agent="], /^Invalid --agent ""/);
    fails(["--connect", "unix:", "--agent", "a_abcdefghij", "--cwd", "d", "--sandbox", "read-only"], /it cannot be given with --cwd, --sandbox$/);
    expect(parseBridgeArgs(["--connect", "unix:", "--sandbox", "workspace-write"])).toMatchObject({ sandbox: "workspace-write" });
  });
});
