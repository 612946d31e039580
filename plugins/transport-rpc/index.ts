/**
 * Plugin `transport-rpc`: JSON lines over stdin/stdout per docs/protocol-guide.md, Framing. Only
 * what is RPC-specific lives here: LF framing, JSON decoding and encoding, exact id echo, stdout
 * ownership and backpressure. Commands go to the host's scheduler; teardown is the host's
 * (stdin EOF or a closed stdout asks for it).
 */
import { claimStdout } from "../../lib/stdout/index.js";
import { definePlugin, type TransportHost } from "../../kernel/index.js";
import { LineReader, MAX_LINE_BYTES, rawNumericId, RecordWriter } from "../../lib/jsonl/index.js";
import { deltaUpdateJson, type EventOptionsApi } from "../event-options/api.js";
import { InputGate } from "./input-gate.js";

export default definePlugin({
  name: "transport-rpc",
  description: "Strict JSONL RPC over stdin/stdout.",
  apply(k) {
    k.registerTransport({
      name: "rpc",
      description: "JSON lines on stdin/stdout (the RPC protocol).",
      dialogs: true,
      serve: (host) => serveRpc(host, k.maybeService("eventOptions")),
    });
  },
});

async function serveRpc(host: TransportHost, options: EventOptionsApi | undefined): Promise<number> {
  const stdout = claimStdout();
  const stdin = process.stdin;
  const writer = new RecordWriter({ write: (parts) => stdout.writeParts(parts), onceDrain: (resolve) => stdout.onceDrain(resolve) });
  // Responses and events share the writer; when it is full, or too many records wait for an
  // answer, stdin is not read until they drain: memory stays bounded whatever the client does.
  const gate = new InputGate({ pause: () => stdin.pause(), resume: () => stdin.resume(), congestion: () => writer.pressure() });
  host.events.subscribe((event) => {
    if (event.type === "message_update" && options?.deltaUpdates) writer.writeJson(deltaUpdateJson(event));
    else writer.writeRecord(event);
    gate.check();
  });
  host.events.addPressureSource(() => writer.pressure());

  const reader = new LineReader(
    (line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        host.reject(
          { type: "response", command: "parse", success: false, error: `Failed to parse command: ${(error as Error).message}` },
          { respond: gate.track((r) => writer.writeRecord(r)) },
        );
        return;
      }
      const rawId = typeof parsed === "object" && parsed !== null ? rawNumericId(line, (parsed as { id?: unknown }).id) : undefined;
      void host.submit(parsed, { source: "rpc", respond: gate.track((response) => writer.writeRecord(response, rawId)) });
    },
    {
      onOversized: (bytes) =>
        host.reject(
          { type: "response", command: "parse", success: false, error: `Failed to parse command: line exceeds ${MAX_LINE_BYTES} bytes (${bytes} bytes read)` },
          { respond: gate.track((r) => writer.writeRecord(r)) },
        ),
    },
  );
  const onData = (chunk: Buffer) => {
    reader.push(chunk);
    gate.check();
  };
  stdin.on("data", onData);
  stdin.once("end", () => {
    reader.end();
    void host.shutdown("eof");
  });
  let exitCode = 0;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    // A client that closes its end (EPIPE) ends the session like EOF; any other failure to write
    // means records were lost: say why and exit non-zero.
    if (error.code !== "EPIPE") {
      host.log.error(`cannot write to stdout (${error.code ?? "error"}): ${error.message}; records may be lost`);
      exitCode = 1;
    }
    void host.shutdown("eof");
  });

  const reason = await host.closing;
  gate.close();
  stdin.removeListener("data", onData);
  stdin.pause();
  await host.shutdown(reason);
  await stdout.flush();
  return exitCode;
}
