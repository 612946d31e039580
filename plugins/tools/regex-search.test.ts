import { afterEach, describe, expect, it } from "vitest";
import { RegexWorkers } from "./regex-search.js";

const pools: RegexWorkers[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

function pool(options: { maxIdle?: number; idleMs?: number }): RegexWorkers {
  const made = new RegexWorkers(options);
  pools.push(made);
  return made;
}

const text = (value: string) => new TextEncoder().encode(value);

async function searchOnce(workers: RegexWorkers, pattern: RegExp): Promise<number[][]> {
  const search = workers.start(pattern, new AbortController().signal);
  try {
    return await search.search([text("hay\nneedle\nhay")]);
  } finally {
    await search.close();
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("RegexWorkers: one pool for a process's grep calls", () => {
  it("reuses an idle worker for the next search, whoever makes it", async () => {
    const workers = pool({});
    expect(await searchOnce(workers, /needle/)).toEqual([[1]]);
    expect(await searchOnce(workers, /hay/)).toEqual([[0, 2]]);
    expect(workers.started).toBe(1);
    expect(workers.idleCount).toBe(1);
  });

  it("runs concurrent searches on their own workers and keeps at most maxIdle of them", async () => {
    const workers = pool({ maxIdle: 2 });
    const searches = [/needle/, /hay/, /e+/].map((pattern) => workers.start(pattern, new AbortController().signal));
    const results = await Promise.all(searches.map((search) => search.search([text("needle\nhay")])));
    expect(results).toEqual([[[0]], [[1]], [[0]]]);
    await Promise.all(searches.map((search) => search.close()));
    expect(workers.started).toBe(3);
    expect(workers.idleCount).toBe(2);
  });

  it("stops idle workers after idleMs; the next search starts a new one", async () => {
    const workers = pool({ idleMs: 20 });
    await searchOnce(workers, /needle/);
    await until(() => workers.idleCount === 0);
    expect(await searchOnce(workers, /needle/)).toEqual([[1]]);
    expect(workers.started).toBe(2);
  });
});
