// Types of the generator, for the test that keeps lib/protocol-types/generated.ts current.
export function generateProtocolTypes(schema: Record<string, unknown>): string;
export function typeOf(schema: unknown, indent?: string): string;
