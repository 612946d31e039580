/**
 * Listener `stdio`: the process's own stdin/stdout is one connection (the one that spawned the
 * server), framed exactly as `--mode rpc`. Its end of input shuts the server down (docs/server.md,
 * Shutdown); falling behind detaches it rather than closing it.
 */
import { claimStdout } from "../../lib/stdout/index.js";
import type { Listener, Wire } from "./listener.js";
import { StreamWire } from "./stream-wire.js";

export class StdioListener implements Listener {
  readonly url = "stdio";

  async start(accept: (wire: Wire) => void): Promise<void> {
    const stdout = claimStdout();
    const wire = new StreamWire({ listener: this.url, ...(process.getuid ? { uid: process.getuid() } : {}) }, false, {
      input: process.stdin,
      write: (parts) => void stdout.writeParts(parts),
      buffered: () => process.stdout.writableLength,
      flushed: (callback) => void stdout.flush().then(callback),
      // The process's own stdout stays open until exit (the last records are flushed then).
      end: async () => {
        process.stdin.pause();
        await stdout.flush();
      },
    });
    // A client that closes its end of our stdout has left: as the end of its input.
    process.stdout.on("error", () => wire.lost());
    accept(wire);
  }

  async close(): Promise<void> {}
}
