import { describe, expect, it } from "vitest";
import { describeConfigValue, resolveConfigValue } from "./config-value.js";

const env = { MY_KEY: "from-env", EMPTY: "" };

describe("resolveConfigValue (apiKey values)", () => {
  it("uses a literal as is", async () => {
    expect(await resolveConfigValue("sk-literal-123", { env })).toBe("sk-literal-123");
  });

  it("reads an environment variable by bare name, $NAME or ${NAME}", async () => {
    expect(await resolveConfigValue("MY_KEY", { env })).toBe("from-env");
    expect(await resolveConfigValue("$MY_KEY", { env })).toBe("from-env");
    expect(await resolveConfigValue("${MY_KEY}", { env })).toBe("from-env");
  });

  it("treats an unset bare name as a literal but an unset $NAME as missing", async () => {
    expect(await resolveConfigValue("NOT_SET_ANYWHERE", { env })).toBe("NOT_SET_ANYWHERE");
    expect(await resolveConfigValue("$NOT_SET_ANYWHERE", { env })).toBeUndefined();
    expect(await resolveConfigValue("$EMPTY", { env })).toBeUndefined();
  });

  it("runs !command through the shell and uses its trimmed output", async () => {
    expect(await resolveConfigValue("!printf '  secret-from-cmd\\n'", { env })).toBe("secret-from-cmd");
    expect(await resolveConfigValue("!echo $MY_KEY", { env })).toBe("from-env");
  });

  it("reports a failing command without echoing its output", async () => {
    const failing = resolveConfigValue("!echo $MY_KEY; exit 3", { env });
    await expect(failing).rejects.toThrow(/API key command failed \(3\)/);
    await expect(resolveConfigValue("!echo $MY_KEY; exit 3", { env })).rejects.not.toThrow(/from-env/);
  });

  it("keeps header-like literals literal when bare names are not env names", async () => {
    expect(await resolveConfigValue("MY_KEY", { env, bareNameIsEnv: false })).toBe("MY_KEY");
    expect(await resolveConfigValue("$MY_KEY", { env, bareNameIsEnv: false })).toBe("from-env");
  });

  it("describes values without running commands", () => {
    expect(describeConfigValue("!false", { env })).toEqual({ kind: "command", resolvable: true });
    expect(describeConfigValue("MY_KEY", { env })).toEqual({ kind: "env", envName: "MY_KEY", resolvable: true });
    expect(describeConfigValue("${NOPE}", { env })).toEqual({ kind: "env", envName: "NOPE", resolvable: false });
    expect(describeConfigValue("abc", { env })).toEqual({ kind: "literal", resolvable: true });
  });
});
