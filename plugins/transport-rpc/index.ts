/**
 * Plugin `transport-rpc`: JSON lines over stdin/stdout per the spec's Framing section.
 * A thin layer over the kernel: input lines -> command registry; event bus -> stdout.
 * Teardown on stdin EOF or a closed stdout (exit 0), SIGTERM (143), SIGINT (130), SIGHUP (129): answer what was read, abort
 * the run (its closing events are written), let plugins cancel and drain, flush.
 */
import { claimStdout, definePlugin, type PluginContext } from "../../kernel/index.js";
import { Dispatcher } from "./dispatcher.js";
import { LineReader } from "./line-reader.js";
import { RecordWriter } from "./record-writer.js";

export interface Transport {
  name: string;
  /** Runs until the input ends or a signal arrives; resolves with the exit code. */
  serve(): Promise<number>;
}

declare module "../../kernel/services.js" {
  interface Services {
    transport: Transport;
  }
}

export default definePlugin({
  name: "transport-rpc",
  description: "Strict JSONL RPC over stdin/stdout.",
  apply(k) {
    claimStdout();
    k.provide("transport", { name: "rpc", serve: () => serveRpc(k) });
  },
});

function serveRpc(k: PluginContext): Promise<number> {
  const stdout = claimStdout();
  const writer = new RecordWriter({ write: (parts) => stdout.writeParts(parts), onceDrain: (resolve) => stdout.onceDrain(resolve) });
  k.events.subscribe((event) => writer.writeRecord(event));
  k.events.addPressureSource(() => writer.pressure());

  const dispatcher = new Dispatcher({
    commands: k.commands,
    respond: (record) => writer.writeRecord(record),
    onUiResponse: (reply) => {
      void k.hooks.ui_response.promise(reply as { id: string }).catch(() => undefined);
    },
    onInternalError: (error) => k.log.error(`rpc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const reader = new LineReader((line) => dispatcher.handleLine(line));
  const stdin = process.stdin;

  return new Promise<number>((resolve) => {
    let closing = false;
    const teardown = async (reason: "eof" | "signal", code: number) => {
      if (closing) return;
      closing = true;
      stdin.removeListener("data", onData);
      stdin.pause();
      try {
        await dispatcher.idle();
        await k.hooks.shutdown.promise({ reason });
        await dispatcher.idle();
      } catch (error) {
        k.log.error(`shutdown: ${error instanceof Error ? error.message : String(error)}`);
      }
      await stdout.flush();
      resolve(code);
    };
    const onData = (chunk: Buffer) => reader.push(chunk);
    stdin.on("data", onData);
    stdin.once("end", () => {
      reader.end();
      void teardown("eof", 0);
    });
    process.once("SIGTERM", () => void teardown("signal", 143));
    process.once("SIGINT", () => void teardown("signal", 130));
    process.once("SIGHUP", () => void teardown("signal", 129));
    // A client that stops reading (closed pipe) ends the session like EOF instead of crashing it.
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") k.log.error(`stdout: ${error.message}`);
      void teardown("eof", 0);
    });
  });
}
