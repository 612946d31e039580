import { describe, expect, it } from "vitest";
import { UsageError } from "../../kernel/index.js";
import { listenerFor, listenUrlMeant } from "./listen-url.js";

const context = { agentDir: "/agent", cwd: "/work", env: {}, ws: {} } as Parameters<typeof listenerFor>[1];

describe("--listen URLs a user writes instead", () => {
  it("suggests the listener they most likely meant", () => {
    expect(listenUrlMeant("8080")).toBe("ws://127.0.0.1:8080");
    expect(listenUrlMeant(":8080")).toBe("ws://127.0.0.1:8080");
    expect(listenUrlMeant("localhost:8080")).toBe("ws://localhost:8080");
    expect(listenUrlMeant("0.0.0.0:3000")).toBe("ws://0.0.0.0:3000");
    expect(listenUrlMeant("[::1]:3000")).toBe("ws://[::1]:3000");
    expect(listenUrlMeant("http://127.0.0.1:8080/")).toBe("ws://127.0.0.1:8080");
    expect(listenUrlMeant("https://example.test:443")).toBe("wss://example.test:443");
    expect(listenUrlMeant("/tmp/atomic.sock")).toBe("unix:/tmp/atomic.sock");
    expect(listenUrlMeant("./here.sock")).toBe("unix:./here.sock");
    expect(listenUrlMeant("agent.sock")).toBe("unix:agent.sock");
  });

  it("suggests nothing when nothing is close", () => {
    for (const url of ["tcp://127.0.0.1:1", "websocket", "stdin", "123456", ""]) expect(listenUrlMeant(url), url).toBeUndefined();
  });

  it("puts the suggestion in the usage error", () => {
    expect(() => listenerFor("8080", context)).toThrow(
      new UsageError('Invalid --listen "8080": expected stdio, unix:PATH or ws://HOST:PORT (did you mean --listen ws://127.0.0.1:8080?)'),
    );
    expect(() => listenerFor("tcp://127.0.0.1:1", context)).toThrow(new UsageError('Invalid --listen "tcp://127.0.0.1:1": expected stdio, unix:PATH or ws://HOST:PORT'));
  });
});
