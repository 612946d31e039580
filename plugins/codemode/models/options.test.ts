/**
 * A script's options to `models.classify()` / `models.generateImages()`: the data options of pi
 * 1.6's typed calls pass, a wrong type is refused naming the option as an extension's call words
 * it, and function, host-only and unknown options are refused saying why (never dropped).
 */
import { describe, expect, it } from "vitest";
import { FUNCTION_MARK } from "../sandbox/protocol.js";
import { checkCallOptions } from "./options.js";

/** How a function in the script's options arrives (the prelude's mark). */
const FN = { [FUNCTION_MARK]: true };

describe("a script's models.* call options", () => {
  it("takes the data options, and none when the script gives none", () => {
    const options = {
      apiKey: "script-key",
      headers: { "x-trace": "t1", "x-drop": null },
      timeoutMs: 5000,
      maxRetries: 0,
      maxRetryDelayMs: 0,
      identity: { userAgent: { custom: "bot/1" }, attribution: { name: "bot", url: "https://bot.example" } },
      telemetry: {},
    };
    expect(checkCallOptions("classify", { ...options, temperature: 0.5 })).toEqual({ ...options, temperature: 0.5 });
    expect(checkCallOptions("generateImages", { ...options, metadata: { run: 7 } })).toEqual({ ...options, metadata: { run: 7 } });
    expect(checkCallOptions("classify", null)).toEqual({});
    expect(checkCallOptions("classify", {})).toEqual({});
  });

  it("names the option of a wrong type, worded as an extension's typed call words it", () => {
    const problem =
      (options: unknown, call: "classify" | "generateImages" = "classify") =>
      () =>
        checkCallOptions(call, options);
    expect(problem({ timeoutMs: "5" })).toThrow('models.classify() options.timeoutMs must be a positive number of milliseconds, got "5".');
    expect(problem({ timeoutMs: 0 })).toThrow("options.timeoutMs must be a positive number of milliseconds, got 0.");
    expect(problem({ maxRetries: 1.5 })).toThrow("models.classify() options.maxRetries must be a whole number of 0 or more, got 1.5.");
    expect(problem({ maxRetryDelayMs: -1 }, "generateImages")).toThrow("models.generateImages() options.maxRetryDelayMs must be a number of milliseconds, 0 or more, got -1.");
    expect(problem({ headers: { "x-n": 1 } })).toThrow("options.headers must be an object of string (or null) values, got an object.");
    expect(problem({ apiKey: "" })).toThrow('options.apiKey must be a non-empty string, got "".');
    expect(problem({ identity: { userAgent: "long" } })).toThrow(/^models\.classify\(\) options\.identity must be \{ userAgent\?: "short" \| "detailed"/);
    expect(problem({ temperature: -1 })).toThrow("options.temperature must be a positive number, got -1.");
    expect(problem({ maxRetries: FN })).toThrow("options.maxRetries must be a whole number of 0 or more, got a function.");
    expect(problem("fast")).toThrow("models.classify() expects an options object as its third argument, got a string.");
    expect(problem(FN)).toThrow("models.classify() expects an options object as its third argument, got a function.");
  });

  it("refuses a function option saying it cannot cross the sandbox, whatever value arrived", () => {
    for (const name of ["onPayload", "onResponse", "fetch", "transformHeaders"]) {
      expect(() => checkCallOptions("classify", { timeoutMs: 1000, [name]: FN })).toThrow(
        `models.classify() options.${name} cannot be given from a script: it takes a function, and functions cannot cross the sandbox`,
      );
    }
    expect(() => checkCallOptions("generateImages", { onPayload: "replace" })).toThrow("options.onPayload cannot be given from a script");
  });

  it("refuses the host's own options and those the call does not take, listing what a script may give", () => {
    expect(() => checkCallOptions("classify", { signal: {} })).toThrow("models.classify() options.signal cannot be given from a script: the call is cancelled with the script");
    expect(() => checkCallOptions("classify", { env: { TYPESAFE_API_KEY: "k" } })).toThrow("options.env cannot be given from a script");
    expect(() => checkCallOptions("classify", { timeout: 5000 })).toThrow(
      'models.classify() does not take options.timeout. A script may give: apiKey, headers, timeoutMs, maxRetries, maxRetryDelayMs, identity, telemetry, temperature. See "Models" in docs/codemode.md.',
    );
    expect(() => checkCallOptions("generateImages", { temperature: 0.2 })).toThrow(
      "models.generateImages() does not take options.temperature. A script may give: apiKey, headers, timeoutMs, maxRetries, maxRetryDelayMs, identity, telemetry, metadata.",
    );
  });
});
