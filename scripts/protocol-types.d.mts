// Types of the generator, for the test that keeps lib/protocol-types/generated/ current.
export const GENERATED_FILES: readonly string[];
export function generateProtocolTypes(schema: Record<string, unknown>): Record<string, string>;
export function typeOf(schema: unknown, indent?: string): string;
