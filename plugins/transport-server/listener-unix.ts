/**
 * Listener `unix:PATH`: a unix domain socket, LF-delimited JSON lines as `--mode rpc`. Hygiene
 * (docs/server.md, Security): the socket is created 0600 (the umask is narrowed while it is bound, so
 * no moment exists where it is wider), the default folder `<agent dir>/serve/` is 0700, a stale
 * socket (nobody answers) is replaced, a live one refuses the start, a path that is something
 * else is never touched, and the file is removed at exit if it is still ours. Node does not tell
 * a unix socket's peer credentials: the file's mode is what keeps other users out.
 */
import { chmod, lstat, unlink } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { privateDir } from "../../lib/private-dir/index.js";
import type { Listener, Wire } from "./listener.js";
import { StreamWire } from "./stream-wire.js";

/** How long a closing socket may take to flush (what it owes is at most `outboundBytes`) to a peer that reads slowly. */
const CLOSE_GRACE_MS = 5_000;

export class UnixListener implements Listener {
  readonly url: string;
  readonly #path: string;
  readonly #defaultFolder: boolean;
  #server: Server | undefined;
  #inode: number | undefined;

  constructor(path: string, defaultFolder: boolean) {
    this.#path = path;
    this.#defaultFolder = defaultFolder;
    this.url = `unix:${path}`;
  }

  async start(accept: (wire: Wire) => void): Promise<void> {
    const path = this.#path;
    if (this.#defaultFolder && !privateDir(dirname(path)))
      throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot use ${dirname(path)} for the server's socket: it must be a folder of this user (made 0700)`);
    await clearStale(path);
    const server = createServer({ allowHalfOpen: true }, (socket) => accept(socketWire(socket, this.url)));
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) => reject(listenError(path, error)));
      // Bound with only the owner's bits: the socket is never reachable by others, not even briefly.
      const umask = process.umask(0o177);
      try {
        server.listen(path, () => resolve());
      } finally {
        process.umask(umask);
      }
    });
    await chmod(path, 0o600);
    this.#inode = (await lstat(path)).ino;
    this.#server = server;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Only our own socket: another server may have replaced a file we thought stale.
    const now = await lstat(this.#path).catch(() => undefined);
    if (now?.isSocket() && now.ino === this.#inode) await unlink(this.#path).catch(() => undefined);
  }
}

function socketWire(socket: Socket, listener: string): Wire {
  const wire = new StreamWire({ listener }, true, {
    input: socket,
    write: (parts) => {
      socket.cork();
      for (const part of parts) socket.write(part);
      socket.uncork();
    },
    buffered: () => socket.writableLength,
    flushed: (callback) => void socket.write("", () => callback()),
    end: () =>
      new Promise<void>((resolve) => {
        if (socket.destroyed) return resolve();
        socket.once("close", () => resolve());
        socket.end();
        setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
      }),
  });
  socket.on("error", () => wire.lost());
  socket.once("close", () => wire.lost());
  return wire;
}

/** A socket file nobody answers on is removed; a live one, or anything that is not a socket, refuses the start. */
async function clearStale(path: string): Promise<void> {
  const stats = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot use ${path} for the server's socket: ${error.message}`);
  });
  if (!stats) return;
  if (!stats.isSocket()) {
    const kind = stats.isFile() ? "a regular file" : stats.isDirectory() ? "a folder" : stats.isSymbolicLink() ? "a symbolic link" : "not a socket";
    throw new KernelError(ErrorCode.CONFLICT, `Cannot listen on ${path}: it exists and is ${kind}; remove it or choose another path`);
  }
  const live = await new Promise<boolean>((resolve, reject) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(false);
      else reject(new KernelError(ErrorCode.UNAVAILABLE, `Cannot check the socket ${path}: ${error.message}`));
    });
  });
  if (live) throw new KernelError(ErrorCode.CONFLICT, `atomic serve is already running at ${path}`);
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot replace the stale socket ${path}: ${error.message}`);
  });
}

function listenError(path: string, error: NodeJS.ErrnoException): KernelError {
  if (error.code === "EADDRINUSE") return new KernelError(ErrorCode.CONFLICT, `atomic serve is already running at ${path}`);
  if (error.code === "ENAMETOOLONG" || (error.code === "EINVAL" && Buffer.byteLength(path) > 100))
    return new KernelError(ErrorCode.UNAVAILABLE, `Cannot listen on ${path}: the path is too long for a unix socket (${Buffer.byteLength(path)} bytes; about 100 fit)`);
  return new KernelError(ErrorCode.UNAVAILABLE, `Cannot listen on ${path}: ${error.message}`);
}
