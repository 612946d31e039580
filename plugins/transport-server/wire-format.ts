/**
 * How the server's records are written: the envelope fields first (`agent`, then `seq` on an
 * event or `code` on a failure the server answered), then the record exactly as `--mode rpc`
 * writes it, ids echoed as sent. Keeping the envelope first lets the `--connect` bridge strip it
 * from the text without parsing (and re-serialising) each record.
 */
import type { Id, Response } from "../../kernel/index.js";
import { stringifyRecord, withRawId } from "../../lib/jsonl/index.js";
import type { ServerErrorCode } from "./schemas.js";

export interface Envelope {
  agent?: string | undefined;
  code?: ServerErrorCode | undefined;
  /** A numeric id's original text, when re-serialising the number would change it. */
  rawId?: string | undefined;
}

export function responseJson(response: Response, envelope: Envelope = {}): string {
  let json = stringifyRecord(response);
  if (envelope.rawId) json = withRawId(json, envelope.rawId);
  // A line that is no command at all (`parse`, `unknown`) is the client's mistake: coded as such.
  const code = envelope.code ?? (!response.success && (response.command === "parse" || response.command === "unknown") ? "invalid_request" : undefined);
  return withEnvelope(json, envelope.agent, code);
}

export function withEnvelope(json: string, agent: string | undefined, code: ServerErrorCode | undefined): string {
  if (agent === undefined && code === undefined) return json;
  const head = `${agent === undefined ? "" : `"agent":${JSON.stringify(agent)},`}${code === undefined ? "" : `"code":"${code}",`}`;
  return `{${head}${json.slice(1)}`;
}

export function successJson(id: Id | undefined, command: string, data: unknown, rawId?: string): string {
  const response = (id === undefined ? { type: "response", command, success: true } : { id, type: "response", command, success: true }) as Response & { data?: unknown };
  if (data !== undefined) response.data = data;
  return responseJson(response, { rawId });
}

export function failureJson(id: Id | undefined, command: string, error: string, envelope: Envelope = {}): string {
  const response = (id === undefined ? { type: "response", command, success: false, error } : { id, type: "response", command, success: false, error }) as Response;
  return responseJson(response, envelope);
}
