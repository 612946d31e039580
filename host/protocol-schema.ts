/**
 * The protocol as data: one JSON Schema document (draft 2020-12) generated from the zod schemas
 * of every registered command (input and response `data`) and every registered event, plus the
 * shared vocabulary they reference. `$defs` holds `Command`, `Response` and `Event` (each a
 * `oneOf`), one `<Type>Command`, `<Type>Response` and `<Type>Event` per record, `ErrorResponse`,
 * and the vocabulary (`AgentMessage`, `Model`, `SessionEntry`, ...). `atomic schema` prints it;
 * tests validate all traffic against it; docs/protocol.md is generated from it. A command's or an
 * event's `examples` (meta of its input or payload schema, without `type`) become whole records.
 */
import { z } from "zod";
import { NO_DATA, type CommandRegistry } from "../kernel/index.js";

export interface ProtocolSource {
  commands: Pick<CommandRegistry, "names" | "definition" | "inputSchema" | "respondsTo" | "lane">;
  eventSchemas: ReadonlyMap<string, { schema: () => z.ZodType }>;
  /** Named schemas records share (`AgentMessage`, `SessionEntry`): `$defs` of their own. */
  vocabulary: ReadonlyMap<string, { schema: () => z.ZodType }>;
}

export type JsonSchema = Record<string, unknown>;

/** `get_state` -> `GetState`. */
export function pascalCase(name: string): string {
  return name.replace(/(^|_)([a-z0-9])/g, (_, _sep: string, ch: string) => ch.toUpperCase());
}

const Id = () => z.union([z.string(), z.number()]).meta({ description: "Any string or number; echoed exactly in the command's response." });

function shapeOf(schema: z.ZodType): z.ZodRawShape {
  return schema instanceof z.ZodObject ? schema.shape : { payload: schema };
}

/**
 * An event record: `type` plus the payload's fields. A payload that is a union of objects (one
 * event, several shapes: `extension_ui_request` by `method`) gives a union of records.
 */
function eventRecord(name: string, payload: z.ZodType): z.ZodType {
  const meta = recordMeta(payload.meta(), { type: name });
  const options = payload instanceof z.ZodUnion ? (payload.options as z.ZodType[]) : undefined;
  if (options?.every((option) => option instanceof z.ZodObject)) {
    return z.union(options.map((option) => z.object({ type: z.literal(name), ...option.shape }).meta(recordMeta(option.meta(), { type: name })))).meta(meta);
  }
  const shape = shapeOf(payload);
  // A record without fields has one possible example: itself.
  if (!meta.examples && Object.keys(shape).length === 0) meta.examples = [{ type: name }];
  return z.object({ type: z.literal(name), ...shape }).meta(meta);
}

/** A payload's meta for its record: its examples completed with the record's envelope. */
function recordMeta(meta: Record<string, unknown> | undefined, envelope: Record<string, unknown>): Record<string, unknown> {
  const { examples, ...rest } = meta ?? {};
  return Array.isArray(examples) ? { ...rest, examples: examples.map((example) => ({ ...envelope, ...(example as object) })) } : rest;
}

/** A command's examples: its input's, or the bare command when it takes no fields. */
function commandExamples(name: string, input: z.ZodType): Record<string, unknown>[] | undefined {
  const examples = input.meta()?.examples;
  if (Array.isArray(examples)) return examples.map((example) => ({ id: "1", type: name, ...(example as object) }));
  return input instanceof z.ZodObject && Object.keys(input.shape).length === 0 ? [{ id: "1", type: name }] : undefined;
}

/** Every `$def`, in order: vocabulary, commands, responses, events, then the three unions. */
export function protocolSchema(source: ProtocolSource): JsonSchema {
  const vocabulary = Object.fromEntries([...source.vocabulary].map(([id, { schema }]) => [id, schema()]));
  const commands: Record<string, z.ZodType> = {};
  const responses: Record<string, z.ZodType> = {};
  const events: Record<string, z.ZodType> = {};

  for (const name of source.commands.names().sort()) {
    const definition = source.commands.definition(name)!;
    const lane = source.commands.lane(name) === "immediate" ? " Immediate lane: handled as soon as read." : "";
    const reply = source.commands.respondsTo(name) ? "" : " A reply: it gets no response.";
    const input = source.commands.inputSchema(name);
    const examples = commandExamples(name, input);
    commands[`${pascalCase(name)}Command`] = z
      .object({ type: z.literal(name), id: Id().optional(), ...shapeOf(input) })
      .meta({ description: `${definition.description ?? name}${lane}${reply}`, ...(examples ? { examples } : {}) });
    if (!source.commands.respondsTo(name)) continue;
    const data =
      definition.output === NO_DATA
        ? {}
        : definition.output
          ? { data: definition.output() }
          : { data: z.unknown().optional().meta({ description: "Not declared by the plugin that registered the command." }) };
    responses[`${pascalCase(name)}Response`] = z
      .object({
        id: Id().optional(),
        type: z.literal("response"),
        command: z.literal(name).meta({ description: "The command answered." }),
        success: z.literal(true).meta({ description: "The command succeeded." }),
        ...data,
      })
      .meta({ description: `The successful response to \`${name}\`.` });
  }
  responses.ErrorResponse = z
    .object({
      id: Id().optional(),
      type: z.literal("response"),
      command: z.string().meta({ description: 'The command that failed ("parse" or "unknown" for a line that is not a command).' }),
      success: z.literal(false).meta({ description: "The command failed." }),
      error: z.string().meta({ description: "What went wrong, for people and for matching." }),
      code: z.string().optional().meta({
        description:
          "`atomic serve` only: a stable code for a failure the server answered itself: unknown_agent, missing_agent, session_in_use, limit_reached, server_overloaded, unauthorized, not_attached, shutting_down, invalid_request.",
      }),
    })
    .meta({ description: 'Any failed command; `command` is "parse" for a line that is not JSON and "unknown" for a record without a string `type`.' });

  for (const name of [...source.eventSchemas.keys()].sort()) {
    events[`${pascalCase(name)}Event`] = eventRecord(name, source.eventSchemas.get(name)!.schema());
  }

  // Commands accept unknown extra fields (docs/decisions.md#framing-and-envelope): their defs come from an input-mode pass.
  const inputDefs = toDefs({ ...vocabulary, ...commands }, "input");
  const outputDefs = toDefs({ ...vocabulary, ...responses, ...events }, "output");
  const defs: Record<string, JsonSchema> = {};
  for (const id of Object.keys(vocabulary)) defs[id] = outputDefs[id]!;
  for (const id of Object.keys(commands)) defs[id] = inputDefs[id]!;
  for (const id of [...Object.keys(responses), ...Object.keys(events)]) defs[id] = outputDefs[id]!;
  const oneOf = (ids: string[]) => ({ oneOf: ids.map((id) => ({ $ref: `#/$defs/${id}` })) });
  defs.Command = { description: "Every input record, discriminated by `type`.", ...oneOf(Object.keys(commands)) };
  defs.Response = { description: "Every response: a command's success, or ErrorResponse.", ...oneOf(Object.keys(responses)) };
  defs.Event = { description: "Every event, discriminated by `type`.", ...oneOf(Object.keys(events)) };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Atomic RPC protocol",
    description: "JSON lines on stdin (Command) and stdout (Response, Event). Generated from the zod schemas of the registered commands and events.",
    $defs: defs,
  };
}

/** JSON Schemas of named zod schemas, cross-referenced through `#/$defs/<id>`. */
function toDefs(named: Record<string, z.ZodType>, io: "input" | "output"): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", io, unrepresentable: "any", uri: (id) => `#/$defs/${id}` }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}
