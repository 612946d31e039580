/** The server a print-mode connection error names (issue 36, D14: never a catalog template). */
import { describe, expect, it } from "vitest";
import { retryLine, withServer } from "./run.js";

describe("withServer", () => {
  it("adds the server to a connection error that does not name it", () => {
    expect(withServer("Connection error.", "https://api.example.com/v1")).toBe("Connection error. (server: https://api.example.com/v1)");
    expect(withServer("Request to api.example.com failed: ECONNRESET", "https://api.example.com/v1")).toBe("Request to api.example.com failed: ECONNRESET");
    expect(withServer("400 Bad request", "https://api.example.com/v1")).toBe("400 Bad request");
  });

  it("never shows a base URL whose {region}, {resource} or {location} was filled only for the request", () => {
    const message = "Connection error. (Request to bedrock-runtime.eu-west-1.amazonaws.com failed: connect ECONNREFUSED)";
    for (const url of ["https://bedrock-runtime.{region}.amazonaws.com", "https://{resource}.openai.azure.com/openai/v1", "https://{location}-aiplatform.googleapis.com"]) {
      expect(withServer(message, url)).toBe(message);
      expect(retryLine({ attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: message }, url)).not.toContain("{");
    }
  });
});
