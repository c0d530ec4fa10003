import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it; it is closed again at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
