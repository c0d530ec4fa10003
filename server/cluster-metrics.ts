import cluster from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

/**
 * With WEB_CONCURRENCY > 1 the port's connections go to the processes in turn, so a scrape that
 * answered from one process would see a different process each time. Instead the process that
 * takes the scrape asks the primary, which gathers every process's registry over the cluster's
 * IPC channel (prom-client's AggregatorRegistry) and answers them all; each series keeps its
 * `pid`, so nothing of one process is summed into another's.
 */

const ASK = "activities:cluster-metrics?";
const ANSWER = "activities:cluster-metrics";
/** prom-client gives up on a process after 5 s; this is that plus the way back. */
const ANSWER_WITHIN_MS = 6_000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answers each serving process's request with every process's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    const reply = (answer: Omit<Answer, "type" | "id">) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, ...answer });
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

/**
 * In a serving process of a cluster: its registry answers the primary's gathering, and the
 * returned function reads every process's metrics through the primary. Undefined outside a
 * cluster, where the process's own registry is the whole service's.
 */
export function clusterMetricsSource(registry: Registry): (() => Promise<string>) | undefined {
  if (!cluster.isWorker) return undefined;
  // Constructing one adds prom-client's listener that sends the registries below to the primary.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  let next = 0;
  process.on("message", (message: Answer) => {
    if (message?.type !== ANSWER) return;
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error !== undefined) pending.reject(new Error(`the cluster's metrics could not be gathered: ${message.error}`));
    else pending.resolve(message.text ?? "");
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary did not gather the cluster's metrics within ${ANSWER_WITHIN_MS} ms`));
      }, ANSWER_WITHIN_MS);
      waiting.set(id, { resolve, reject, timer });
      process.send!({ type: ASK, id });
    });
}
