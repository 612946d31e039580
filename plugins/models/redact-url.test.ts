/** Base URLs shown to clients: secrets in the query and user info replaced. */
import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.js";

describe("redactUrl", () => {
  it("hides query values and user info, keeps the rest", () => {
    expect(redactUrl("https://gw.example/v1?key=sk-123&region=eu")).toBe("https://gw.example/v1?key=***&region=***");
    expect(redactUrl("https://me:pw@gw.example/v1")).toBe("https://***:***@gw.example/v1");
    expect(redactUrl("https://api.openai.com/v1")).toBe("https://api.openai.com/v1");
    expect(redactUrl("not a url")).toBe("not a url");
  });
});
