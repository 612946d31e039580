/**
 * Claude on Amazon Bedrock: `POST /model/{id}/invoke-with-response-stream`, answered in AWS's
 * binary event stream (`application/vnd.amazon.eventstream`): each Anthropic stream event is a
 * `chunk` message whose payload is `{"bytes":"<base64 of the event's JSON>"}`. A message is its
 * total and header lengths, a CRC32 of those, the headers (name, type 7 = string, value), the
 * payload and a CRC32 of everything before it.
 */
import { crc32 } from "node:zlib";
import { renderAnthropic } from "./render-anthropic.js";
import type { RenderContext, Rendered } from "./render-common.js";
import type { FakeReply } from "./types.js";

export const EVENTSTREAM_TYPE = "application/vnd.amazon.eventstream";

export function renderBedrock(reply: FakeReply, ctx: RenderContext): Rendered {
  const sse = renderAnthropic(reply, ctx);
  return { frames: sse.frames.map((frame) => bedrockFrame(dataOf(String(frame)))), malformedAfter: sse.malformedAfter };
}

/** A message of the event stream carrying `data` (an Anthropic event's JSON text). */
export function bedrockFrame(data: string): Buffer {
  const payload = Buffer.from(JSON.stringify({ bytes: Buffer.from(data).toString("base64") }));
  return eventMessage({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" }, payload);
}

export function eventMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name);
      const valueBytes = Buffer.from(value);
      const head = Buffer.alloc(1 + nameBytes.length + 3);
      head.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(head, 1);
      head.writeUInt8(7, 1 + nameBytes.length);
      head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      return Buffer.concat([head, valueBytes]);
    }),
  );
  const total = 12 + headerBytes.length + payload.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const body = Buffer.concat([prelude, headerBytes, payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([body, crc]);
}

/** The `data:` of one rendered SSE frame. */
function dataOf(frame: string): string {
  const line = frame.split(/\r?\n/).find((l) => l.startsWith("data: "));
  return line ? line.slice("data: ".length) : "{}";
}

/** Bedrock's error body (the type travels in `x-amzn-errortype`). */
export function bedrockError(_status: number, message: string): string {
  return JSON.stringify({ message });
}
