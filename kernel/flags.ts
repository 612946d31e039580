/** Command-line flags as plugins declare them (the host composes and parses them). */
import { ErrorCode, KernelError } from "./errors.js";

export interface FlagSpec {
  /** Long form, e.g. "--record". */
  name: string;
  /** Short form, e.g. "-n". */
  alias?: string;
  /** The `CliOptions` key the value lands in. */
  key: string;
  /** Placeholder of the value (e.g. "<cassette>"); absent for a boolean flag. */
  value?: string;
  /** Given several times, the values collect into an array. */
  repeatable?: boolean;
  /**
   * The value may be left out (`--list-models` or `--list-models <pattern>`): the next argument
   * is taken only when it does not start with "-"; without one the key is `true`.
   */
  optionalValue?: boolean;
  /** Flags (by long name, any owner) that may not be given together with this one. */
  conflicts?: readonly string[];
  /** Flags a user may try for this one (`--port` for `--listen`): given, the error points here. */
  seeAlso?: readonly string[];
  description: string;
}

/** A mistake on the command line: the CLI prints the message as is and exits 2. */
export class UsageError extends KernelError {
  constructor(message: string) {
    super(ErrorCode.USAGE, message);
  }
}
