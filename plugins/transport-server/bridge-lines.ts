/**
 * The `--connect` bridge's two text transforms, exact to the byte: a client's command gets the
 * agent's handle (as the last member, so it wins over a field of the same name), and a server
 * record loses the server's envelope (`agent`, `seq`, `code`, written first for this), except
 * the bridge's own responses, which no client sees and whose `code` it reads. Records
 * that only a server client knows (`server_hello`, `replay_complete`, ...) are not an RPC
 * client's. Nothing is parsed and re-serialised: ids, numbers and snapshots pass as written.
 */

// `agent` is whatever handle the command named, echoed (a malformed one in an `unknown_agent` failure too).
const ENVELOPE = /^\{(?:"agent":"(?:[^"\\]|\\.)*",)?(?:"seq":\d+,)?(?:"code":"[a-z_]+",)?/;
const SERVER_RECORD = /^\{"type":"(server_hello|replay_complete|client_lagged|connection_closing|server_shutting_down|agent_closed)"/;

/**
 * Ids of the bridge's own commands. A client may use ids like these too: the bridge never picks
 * one its client has sent, and a response with such an id that it is not waiting for is the client's.
 */
export const BRIDGE_ID_PREFIX = "atomic-bridge:";

export type ServerLine =
  | { kind: "server"; type: string; text: string }
  /** Perhaps the bridge's own (its id has the bridge's prefix): the bridge knows which ids it is waiting for. */
  | { kind: "own-response"; text: string }
  | { kind: "response"; text: string }
  | { kind: "event"; text: string };

export function classify(line: string): ServerLine {
  const server = SERVER_RECORD.exec(line);
  if (server) return { kind: "server", type: server[1]!, text: line };
  const match = ENVELOPE.exec(line);
  const text = match && match[0].length > 1 ? `{${line.slice(match[0].length)}` : line;
  // The bridge reads its own answers from the whole line (their `code` says how it exits); `text` is for a client whose id looks like the bridge's.
  if (text.startsWith(`{"id":"${BRIDGE_ID_PREFIX}`)) return { kind: "own-response", text };
  if (text.startsWith('{"id":') || text.startsWith('{"type":"response"')) return { kind: "response", text };
  return { kind: "event", text };
}

export interface ClientLine {
  /** What to send to the server. */
  text: string;
  /** The command expects a response (everything but a reply). */
  answered: boolean;
  /** Its `id`, when it is a string (the only kind of id that can look like the bridge's own). */
  id?: string;
}

/** A client's line for the server: routed to `agent` when it is a JSON object; anything else as it came (the server answers it in order). */
export function route(line: string, agent: string): ClientLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { text: line, answered: true };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { text: line, answered: true };
  const { type, id } = parsed as { type?: unknown; id?: unknown };
  const answered = type !== "extension_ui_response";
  const routing = `"agent":${JSON.stringify(agent)}`;
  const idOf = typeof id === "string" ? { id } : {};
  if (Object.keys(parsed).length === 0) return { text: `{${routing}}`, answered };
  const end = line.lastIndexOf("}");
  return { text: `${line.slice(0, end)},${routing}${line.slice(end)}`, answered, ...idOf };
}
