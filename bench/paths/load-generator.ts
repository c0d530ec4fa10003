import autocannon from "autocannon";

/**
 * The load generator, in its own process so that its work never shares the service's event loop:
 * the benchmark forks it and sends one job at a time over IPC. Each request of a job is the next
 * of `specs` (one spec repeated, or one per fresh state); latencies are taken per response so that
 * p95 is exact (autocannon's summary has p90 and p97.5, not p95).
 */
export interface RequestSpec {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadJob {
  id: number;
  url: string;
  specs: RequestSpec[];
  connections: number;
  /** Requests in all (fresh states: exactly specs.length); otherwise the job runs for `seconds`. */
  amount?: number;
  seconds?: number;
  /**
   * A timed job that completed fewer requests (autocannon drops those in flight when time is up,
   * so a page slower than `seconds` would have none) is run again for exactly this many.
   */
  minRequests?: number;
}

export interface LoadResult {
  id: number;
  requests: number;
  seconds: number;
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status and start of the first answer that was not 2xx, to say why. */
  firstFailure?: string;
}

async function run(job: LoadJob): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  let failure: string | undefined;
  let finished!: (result: autocannon.Result) => void;
  let failed!: (error: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finished = resolve), (failed = reject)));
  const instance = autocannon(
    {
      url: job.url,
      connections: job.connections,
      amount: job.amount,
      duration: job.seconds ?? 10,
      timeout: 60,
      // autocannon ends a run at its next sample tick (1 s by default): short jobs would wait for it.
      sampleInt: 50,
      requests: [
        {
          setupRequest: (request) => {
            const spec = job.specs[next++ % job.specs.length];
            return { ...request, method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
          },
          onResponse: (status, body) => {
            if ((status < 200 || status > 299) && !failure) failure = `${status} ${String(body).slice(0, 300)}`;
          },
        },
      ],
    },
    (error, result) => (error ? failed(error) : finished(result)),
  );
  // Throughput over the time requests were in flight (autocannon's own duration runs to its tick).
  const started = performance.now();
  let lastAnswer = started;
  instance.on("response", (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
    lastAnswer = performance.now();
  });
  const result = await done;
  return { id: job.id, requests: latencies.length, seconds: (lastAnswer - started) / 1000, latencies, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, firstFailure: failure };
}

async function runAtLeast(job: LoadJob): Promise<LoadResult> {
  const timed = await run(job);
  if (job.amount || !job.minRequests || timed.requests >= job.minRequests) return timed;
  return run({ ...job, amount: job.minRequests, connections: Math.min(job.connections, job.minRequests) });
}

process.on("message", (job: LoadJob) => {
  runAtLeast(job).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ id: job.id, error: String(error) }),
  );
});
process.send!({ ready: true });
