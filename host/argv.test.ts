import { describe, expect, it } from "vitest";
import { composeFlags, CORE_FLAGS, parseFlags, UnknownOptionError } from "./index.js";
import { TERMINAL_UI_FLAGS } from "./argv.js";
import { definePlugin, ErrorCode, type FlagSpec } from "../kernel/index.js";

const flags: FlagSpec[] = [
  ...CORE_FLAGS,
  { name: "--model", key: "model", value: "<pattern>", description: "m" },
  { name: "--name", alias: "-n", key: "name", value: "<name>", description: "n" },
  { name: "--no-session", key: "noSession", description: "s" },
  { name: "--extension", alias: "-e", key: "extensions", value: "<path>", repeatable: true, description: "e" },
];

describe("flags", () => {
  it("parses values, aliases, booleans, repeatables and positionals", () => {
    const parsed = parseFlags(["--model=a/b", "-n", " my name ", "--no-session", "-e", "x.ts", "--extension", "y.ts", "hello", "--", "--not-a-flag"], flags);
    expect(parsed.values).toEqual({ model: "a/b", name: "my name", noSession: true, extensions: ["x.ts", "y.ts"] });
    expect(parsed.positionals).toEqual(["hello", "--not-a-flag"]);
    expect(parsed.unknown).toEqual([]);
  });

  it("a forgotten value and a value given to a boolean are usage errors", () => {
    expect(() => parseFlags(["--model", "--no-session"], flags)).toThrow(expect.objectContaining({ code: ErrorCode.USAGE, message: "Option --model needs a value <pattern>" }));
    expect(() => parseFlags(["--no-session=yes"], flags)).toThrow("Option --no-session takes no value");
  });

  it("collects unknown flags (extensions may declare them later); a re-parse with them known gives the same positionals", () => {
    const argv = ["--plan", "--temperature", "0.2", "prompt text"];
    const first = parseFlags(argv, flags);
    expect(first.unknown).toEqual(["--plan", "--temperature"]);
    const later = parseFlags(argv, [...flags, { name: "--plan", key: "plan", description: "" }, { name: "--temperature", key: "temperature", value: "<t>", description: "" }]);
    expect(later).toEqual({ values: { plan: true, temperature: "0.2" }, positionals: ["prompt text"], unknown: [] });
  });

  it("two plugins declaring one flag fail naming both", () => {
    const a = definePlugin({ name: "a", flags: [{ name: "--x", key: "x", description: "" }], apply() {} });
    const b = definePlugin({ name: "b", flags: [{ name: "--y", alias: "-h", key: "y", description: "" }], apply() {} });
    expect(composeFlags([a]).map((entry) => entry.owner)).toEqual([...CORE_FLAGS, ...TERMINAL_UI_FLAGS].map(() => "kernel").concat("a"));
    expect(() => composeFlags([a, a])).toThrow('Flag --x is declared by both "a" and "a"');
    expect(() => composeFlags([b])).toThrow('Flag -h is declared by both "kernel" and "b"');
  });

  it("an optional value is taken only when the next argument is not a flag", () => {
    const list: FlagSpec[] = [...flags, { name: "--list-models", key: "listModels", value: "[pattern]", optionalValue: true, description: "" }];
    expect(parseFlags(["--list-models"], list).values).toEqual({ listModels: true });
    expect(parseFlags(["--list-models", "--no-session"], list).values).toEqual({ listModels: true, noSession: true });
    expect(parseFlags(["--list-models", "sonnet"], list).values).toEqual({ listModels: "sonnet" });
    expect(parseFlags(["--list-models=gpt"], list).values).toEqual({ listModels: "gpt" });
  });

  it("conflicting flags fail naming both as written, in argv order, whichever side declares the conflict", () => {
    const session: FlagSpec[] = [
      ...flags,
      { name: "--continue", alias: "-c", key: "continue", conflicts: ["--session", "--no-session"], description: "" },
      { name: "--session", key: "session", value: "<path>", description: "" },
    ];
    expect(() => parseFlags(["-c", "--session", "x"], session)).toThrow(
      expect.objectContaining({ code: ErrorCode.USAGE, message: "Options -c and --session cannot be used together" }),
    );
    expect(() => parseFlags(["--no-session", "--continue"], session)).toThrow("Options --no-session and --continue cannot be used together");
    expect(() => parseFlags(["--continue", "-c"], session)).not.toThrow();
    expect(parseFlags(["--session", "x", "--no-session"], session).values).toEqual({ session: "x", noSession: true });
  });

  it("an unknown option error carries the flag as written", () => {
    const error = new UnknownOptionError("--print");
    expect(error).toMatchObject({ code: ErrorCode.USAGE, message: "Unknown option: --print", option: "--print" });
  });

  it("an unknown option names the known flag a slip away, and only a close one", () => {
    expect(new UnknownOptionError("--mdoe", CORE_FLAGS).message).toBe("Unknown option: --mdoe (did you mean --mode?)");
    expect(new UnknownOptionError("--frobnicate", CORE_FLAGS).message).toBe("Unknown option: --frobnicate");
    expect(new UnknownOptionError("-x is a flag?", CORE_FLAGS).message).toBe(
      'Unknown option: -x is a flag? (a prompt that starts with "-" goes after --: atomic -p -- "-x is a flag?")',
    );
    expect(new UnknownOptionError("-q", CORE_FLAGS).message).toBe("Unknown option: -q");
    expect(new UnknownOptionError("--modle", flags).message).toBe("Unknown option: --modle (did you mean --model?)");
    // Two letters of four differ: no slip of --fork.
    expect(new UnknownOptionError("--port", CORE_FLAGS).message).toBe("Unknown option: --port");
  });

  it("an unknown option a flag names in seeAlso points to that flag", () => {
    const listen = { name: "--listen", key: "listen", value: "<url>", seeAlso: ["--port", "--host"], description: "listen" };
    expect(new UnknownOptionError("--port", [...CORE_FLAGS, listen]).message).toBe("Unknown option: --port (did you mean --listen?)");
    expect(new UnknownOptionError("--hots", [...CORE_FLAGS, listen]).message).toBe("Unknown option: --hots");
  });
});
