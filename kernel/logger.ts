/** Diagnostics go to stderr only: stdout belongs to the transport. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createStderrLogger(write: (text: string) => void = (text) => process.stderr.write(text)): Logger {
  return {
    info: (message) => write(`[atomic] ${message}\n`),
    warn: (message) => write(`[atomic] warning: ${message}\n`),
    error: (message) => write(`[atomic] error: ${message}\n`),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
