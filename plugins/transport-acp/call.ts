/**
 * Commands to one session's host, typed by the protocol types: the data of a success, or a
 * thrown Error carrying the command's error text (the handler turns it into a JSON-RPC error).
 */
import type { EmbeddedHost } from "../../kernel/index.js";
import type { CommandOf, CommandType, DataOf } from "../../lib/protocol-types/index.js";

export async function call<T extends CommandType>(host: EmbeddedHost, command: CommandOf<T>): Promise<DataOf<T>> {
  const response = await host.send(command, "acp");
  if (!response) return undefined as DataOf<T>;
  if (!response.success) throw new Error(response.error);
  return response.data as DataOf<T>;
}
