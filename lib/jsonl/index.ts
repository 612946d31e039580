/**
 * Strict JSON lines, shared by every line-oriented transport and the typed client: an LF-only,
 * byte-level reader (never readline, which splits on U+2028), a writer that serialises records
 * in order with backpressure and cheap `message_update` snapshots, exact numeric id echo, and a
 * stringify that survives records nested deeper than the stack.
 */
export { LineReader, MAX_LINE_BYTES } from "./line-reader.js";
export { RecordWriter, serialize, serializeParts, type LineSink } from "./record-writer.js";
export { rawNumericId, withRawId } from "./raw-id.js";
export { stringifyRecord, stringifyDeep } from "./deep-json.js";
