/** A tool's JSON Schema as a zod validator (zod's own converter: types, enums, nesting, unions, defaults). */
import { z } from "zod";
import { kernelErrors } from "./errors.js";

/** Converts an object schema; one the converter rejects (an unknown type) fails naming the tool (`label`). */
export function jsonSchemaValidator(schema: Record<string, unknown>, label: string): z.ZodType {
  try {
    return z.fromJSONSchema({ ...schema, type: "object" } as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw kernelErrors.invalidInput(`${label}: parameters.jsonSchema is not valid: ${error instanceof Error ? error.message : String(error)}`);
  }
}
