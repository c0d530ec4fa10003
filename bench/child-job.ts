import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * One job run by a benchmark module in a child process of its own, so that its work (a client's
 * HTTP and JSON) never shares the measured service's event loop. The module calls `serveOneJob`
 * at its top level; the benchmark calls `runInChild` with the module's URL.
 */
export function runInChild<TJob, TResult>(moduleUrl: string, job: TJob): Promise<TResult> {
  const child = fork(fileURLToPath(moduleUrl), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (message: TResult & { error?: string }) => {
      child.kill();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    child.once("exit", (code) => reject(new Error(`${fileURLToPath(moduleUrl)} exited with ${code}`)));
    child.send(job as object);
  });
}

/** In the child: runs the first job sent and answers with its result or its error. */
export function serveOneJob<TJob, TResult>(moduleUrl: string, run: (job: TJob) => Promise<TResult>): void {
  if (process.argv[1] !== fileURLToPath(moduleUrl) || !process.send) return;
  process.once("message", (job: TJob) => {
    run(job).then(
      (result) => process.send!(result),
      (error: Error) => process.send!({ error: error.message }),
    );
  });
}
