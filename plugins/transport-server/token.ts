/**
 * The WebSocket listener's bearer token (DECISIONS, Security): `<agent dir>/serve/token`, 32
 * random bytes in base64url, created 0600 in the 0700 serve folder and kept across restarts (a
 * page that reconnects after a restart still holds a valid token). A token file that group or
 * others may read refuses the start: the token may already have leaked, and quietly narrowing
 * the mode would hide that. Delete the file to rotate the token.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { constants } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { privateDir } from "../../lib/private-dir/index.js";

const TOKEN_BYTES = 32;
/** base64url of 32 bytes, unpadded. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function tokenPath(agentDir: string): string {
  return join(agentDir, "serve", "token");
}

/** The token in the file, made first when there is none. */
export async function loadToken(path: string): Promise<string> {
  if (!privateDir(dirname(path))) throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot use ${dirname(path)} for the server's token: it must be a folder of this user (made 0700)`);
  const made = await createToken(path);
  if (made) return made;
  const stats = await stat(path);
  if ((stats.mode & 0o077) !== 0)
    throw new KernelError(
      ErrorCode.UNAVAILABLE,
      `Refusing to start: the token file ${path} is readable by group or others (mode ${(stats.mode & 0o777).toString(8)}); delete it to make a new token, or chmod 600 it if it never left this user`,
    );
  if (process.getuid && stats.uid !== process.getuid()) throw new KernelError(ErrorCode.UNAVAILABLE, `Refusing to start: the token file ${path} belongs to another user`);
  const token = (await readFile(path, "utf8")).trim();
  if (!TOKEN_SHAPE.test(token)) throw new KernelError(ErrorCode.UNAVAILABLE, `The token file ${path} does not hold a token (43 base64url characters); delete it to make a new one`);
  return token;
}

/** A new token written with O_EXCL at 0600; undefined when the file already exists. */
async function createToken(path: string): Promise<string | undefined> {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot create the token file ${path}: ${(error as Error).message}`);
  }
  try {
    await handle.writeFile(`${token}\n`);
    // The umask may only narrow the mode, but a mode given at open is not the final word on every filesystem.
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
  return token;
}

/** Equal tokens, in time that does not depend on where they differ (digests make the lengths equal). */
export function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
