import { describe, expect, it } from "vitest";
import { RemotePglite } from "../../drizzle/pglite-thread/remote.js";

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

/**
 * A process stopped during its start abandons the embedded database being made. Node counts
 * neither a promise nor a thread being stopped as work left, so a process with nothing else to do
 * ended before the thread had, silently and with code 0 (test/e2e/start.test.ts saw it now and
 * then): the stop itself must hold the process until the thread has ended.
 */
describe("stopping the embedded database's thread", () => {
  for (const stop of ["abandon", "close"] as const) {
    it(`${stop}: holds the process until the thread has ended, though no statement is waiting`, async () => {
      const client = new RemotePglite({ dataDir: "memory" } as never);
      await client.waitReady;
      await client.query("select 1");
      const before = timers();
      let stopped = false;
      const stopping = client[stop]().then(() => {
        stopped = true;
      });
      // close() asks the thread to close first: the hold comes with the thread's stop, once it has answered.
      let held = timers() > before;
      while (!held && !stopped) {
        await new Promise((resolve) => setImmediate(resolve));
        held ||= timers() > before;
      }
      expect(held).toBe(true);
      await stopping;
      expect(timers()).toBe(before);
    }, 30_000);
  }
});
