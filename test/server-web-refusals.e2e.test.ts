/**
 * What the web page of `atomic serve --web` says when what it shows goes away, in headless
 * Chromium: the agent two tabs show is closed by another client (both tabs say so, rather than
 * emptying in silence), and the page's token is refused (a wrong one, or one rotated away while
 * the tab was open: the page says to open the printed URL again and stops retrying, rather than
 * showing "reconnecting" for ever), and the server stops (SIGTERM: the page says it stopped and
 * that it keeps trying, not that it is restarting, and connects again once a server is back).
 * `GET /auth` tells a page whether its token is the reason.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, sayIfSkipped } from "./helpers/chromium.js";
import { REPLAY_ARGS } from "./helpers/server.js";
import { get, startWsServer, WsClient } from "./helpers/ws-server.js";

sayIfSkipped("server-web-refusals");

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

const noticeOf = (page: Page) => page.$eval("#notice", (element) => ((element as HTMLElement).hidden ? "" : element.textContent));

describe.skipIf(chromiumMissing)("the web page when its agent or its token goes away, in headless Chromium", { timeout: 180_000 }, () => {
  it("an agent closed by another client: each tab showing it says so and lets it go", async () => {
    const { server, url, token, page: address } = await startWsServer({ web: true, args: REPLAY_ARGS });
    const browser = await launchChromium();
    const first = await openPage(browser, address!);
    await first.waitForSelector('#conn[data-state="connected"]');
    await first.type("#open-name", "notes");
    await first.click('#open-form button[type="submit"]');
    await first.waitForSelector('#agents button[data-agent][aria-current="true"]');
    const second = await openPage(browser, address!);
    await second.waitForSelector("#agents button[data-agent] .name");
    await second.click("#agents button[data-agent]");
    await second.waitForSelector('#agents button[data-agent][aria-current="true"]');
    await second.waitForFunction(() => !(document.getElementById("prompt") as HTMLTextAreaElement).disabled);

    const other = await WsClient.open(url, token);
    const { agents } = await other.ok({ type: "agent_list" });
    await other.ok({ type: "agent_close", agent: agents[0].agent });
    for (const page of [first, second]) {
      await page.waitForFunction(() => !document.getElementById("notice")!.hidden, { timeout: 30_000 });
      expect(await noticeOf(page)).toBe('The agent "notes" was closed by another client. Open an agent, or choose one from the list.');
      expect(await page.$eval("#prompt", (element) => (element as HTMLTextAreaElement).disabled)).toBe(true);
      expect(await page.$$("#agents button[data-agent]")).toHaveLength(0);
    }
    // Opening another agent takes the notice away (in the tab in front: a tab behind is not drawn).
    await first.bringToFront();
    await first.click('#open-form button[type="submit"]');
    await first.waitForSelector('#agents button[data-agent][aria-current="true"]');
    expect(await noticeOf(first)).toBe("");
    await browser.close();
    await server.stop();
  });

  it("a token the server refuses: the page says to open the printed URL again and stops retrying", async () => {
    const first = await startWsServer({ web: true, args: REPLAY_ARGS });
    // The page's way to learn why its WebSocket was refused (a browser cannot read the 401).
    expect((await get(first.port, "/auth", { Authorization: `Bearer ${first.token}` })).status).toBe(200);
    expect(await get(first.port, "/auth", { Authorization: "Bearer wrong" })).toMatchObject({ status: 401, body: expect.stringContaining("The token is wrong") });
    expect((await get(first.port, "/auth")).status).toBe(401);

    const browser = await launchChromium();
    const wrong = await openPage(browser, first.page!.replace(/#token=.*/, "#token=wrong"));
    await wrong.waitForSelector('#conn[data-state="refused"]', { timeout: 30_000 });
    expect(await noticeOf(wrong)).toBe(
      "The server refused this page's token: it is not the one in <agent dir>/serve/token (a token is replaced when that file is deleted and the server restarts). Open the URL `atomic serve --web` printed.",
    );

    // Rotated while a tab was open: the server restarts with a new token.
    const page = await openPage(browser, first.page!);
    await page.waitForSelector('#conn[data-state="connected"]');
    await first.server.stop();
    rmSync(join(first.server.agentDir, "serve", "token"));
    const second = await startWsServer({ web: true, port: first.port, agentDir: first.server.agentDir, cwd: first.server.cwd, args: REPLAY_ARGS });
    expect(second.token).not.toBe(first.token);
    await page.waitForSelector('#conn[data-state="refused"]', { timeout: 30_000 });
    expect(await noticeOf(page)).toContain("The server refused this page's token");
    // The new URL works in the same tab (the fragment replaces the stored token).
    await page.goto(second.page!);
    await page.waitForSelector('#conn[data-state="connected"]', { timeout: 30_000 });
    expect(await noticeOf(page)).toBe("");
    await browser.close();
    await second.server.stop();
  });

  it("a server stopped by a signal: the page says it stopped and keeps trying to reconnect, and connects once it is started again", async () => {
    const first = await startWsServer({ web: true, args: REPLAY_ARGS });
    const browser = await launchChromium();
    const page = await openPage(browser, first.page!);
    await page.waitForSelector('#conn[data-state="connected"]');
    await page.bringToFront();
    expect(await first.server.stop()).toMatchObject({ code: 143 });
    await page.waitForSelector('#conn[data-state="stopped"]', { timeout: 30_000 });
    expect(await noticeOf(page)).toBe(
      "The server stopped (it was sent a signal). This page keeps trying to reconnect, and resumes where it was once the server is started again at this address.",
    );
    // Its retries after the socket closed keep saying so (not "restarting", not a bare close code).
    await page.waitForFunction(() => document.getElementById("conn")!.textContent === "server stopped, reconnecting", { timeout: 30_000 });
    expect(await page.$eval("#conn", (element) => element.getAttribute("data-state"))).toBe("stopped");

    const second = await startWsServer({ web: true, port: first.port, agentDir: first.server.agentDir, cwd: first.server.cwd, args: REPLAY_ARGS });
    expect(second.token).toBe(first.token);
    await page.waitForSelector('#conn[data-state="connected"]', { timeout: 30_000 });
    expect(await noticeOf(page)).toBe("");
    await browser.close();
    await second.server.stop();
  });
});
