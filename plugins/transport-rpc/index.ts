/**
 * Plugin `transport-rpc`: JSON lines over stdin/stdout per the spec's Framing section. Only
 * what is RPC-specific lives here: LF framing, JSON decoding and encoding, stdout ownership and
 * backpressure. Commands go to the host's scheduler; teardown is the host's (stdin EOF or a
 * closed stdout asks for it).
 */
import { claimStdout, definePlugin, type TransportHost } from "../../kernel/index.js";
import { LineReader } from "./line-reader.js";
import { RecordWriter } from "./record-writer.js";

export { LineReader } from "./line-reader.js";
export { RecordWriter, serialize, serializeParts } from "./record-writer.js";

export default definePlugin({
  name: "transport-rpc",
  description: "Strict JSONL RPC over stdin/stdout.",
  apply(k) {
    k.registerTransport({ name: "rpc", description: "JSON lines on stdin/stdout (the RPC protocol).", serve: serveRpc });
  },
});

async function serveRpc(host: TransportHost): Promise<number> {
  const stdout = claimStdout();
  const writer = new RecordWriter({ write: (parts) => stdout.writeParts(parts), onceDrain: (resolve) => stdout.onceDrain(resolve) });
  const respond = (record: object) => writer.writeRecord(record);
  host.events.subscribe(respond);
  host.events.addPressureSource(() => writer.pressure());

  const reader = new LineReader((line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      host.reject({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${(error as Error).message}` }, { respond });
      return;
    }
    void host.submit(parsed, { source: "rpc", respond });
  });
  const stdin = process.stdin;
  const onData = (chunk: Buffer) => reader.push(chunk);
  stdin.on("data", onData);
  stdin.once("end", () => {
    reader.end();
    void host.shutdown("eof");
  });
  // A client that stops reading (closed pipe) ends the session like EOF instead of crashing it.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") host.log.error(`stdout: ${error.message}`);
    void host.shutdown("eof");
  });

  const reason = await host.closing;
  stdin.removeListener("data", onData);
  stdin.pause();
  await host.shutdown(reason);
  await stdout.flush();
  return 0;
}
