/**
 * Commands to a host (a session's sibling, or the connection's own for listing), typed by the
 * protocol types: the data of a success, or a thrown Error carrying the command's error text
 * (the handler turns it into a JSON-RPC error).
 */
import type { Response, TransportHost } from "../../kernel/index.js";
import type { CommandOf, CommandType, DataOf } from "../../lib/protocol-types/index.js";

export async function call<T extends CommandType>(host: Pick<TransportHost, "submit">, command: CommandOf<T>): Promise<DataOf<T>> {
  let response: Response | undefined;
  await host.submit(command, { source: "acp", respond: (answer) => (response = answer) });
  if (!response) return undefined as DataOf<T>;
  const answered = response as Response;
  if (!answered.success) throw new Error(answered.error);
  return answered.data as DataOf<T>;
}
