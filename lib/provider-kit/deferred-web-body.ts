/**
 * A response's web body that becomes a real `ReadableStream` the first time it is used. Reading
 * `Response.body` is not using it: Anthropic's SDK reads it on every response only to register it
 * for a clean-up backstop, and building the stream then would load Node's web streams (~2 ms of a
 * first request) for a body the SSE reader takes as a Node stream anyway. Every method of the
 * standard class is here and acts on the real stream; only `instanceof ReadableStream` differs.
 */
export class DeferredWebBody<T> {
  readonly #make: () => ReadableStream<T>;
  #stream: ReadableStream<T> | undefined;

  constructor(make: () => ReadableStream<T>) {
    this.#make = make;
  }

  get locked(): boolean {
    return this.#stream?.locked ?? false;
  }

  cancel(reason?: unknown): Promise<void> {
    return this.#real().cancel(reason);
  }

  getReader(options?: ReadableStreamGetReaderOptions): ReadableStreamReader<T> {
    // The default reader unless a BYOB one is asked for, as the standard class decides.
    return options?.mode === "byob" ? this.#real().getReader({ mode: "byob" }) : this.#real().getReader();
  }

  pipeThrough<U>(transform: ReadableWritablePair<U, T>, options?: StreamPipeOptions): ReadableStream<U> {
    return this.#real().pipeThrough(transform, options);
  }

  pipeTo(destination: WritableStream<T>, options?: StreamPipeOptions): Promise<void> {
    return this.#real().pipeTo(destination, options);
  }

  tee(): [ReadableStream<T>, ReadableStream<T>] {
    return this.#real().tee();
  }

  values(options?: { preventCancel?: boolean }): AsyncIterableIterator<T> {
    return (this.#real() as unknown as { values(options?: { preventCancel?: boolean }): AsyncIterableIterator<T> }).values(options);
  }

  [Symbol.asyncIterator](options?: { preventCancel?: boolean }): AsyncIterableIterator<T> {
    return this.values(options);
  }

  get [Symbol.toStringTag](): string {
    return "ReadableStream";
  }

  /** The stream itself, made now if it was not yet. */
  #real(): ReadableStream<T> {
    return (this.#stream ??= this.#make());
  }
}
