import { runInChild, serveOneJob } from "../child-job.js";
import { postgresCpuMs, treeCpuMs } from "../process-cpu.js";
import { connect, FlowTarget, percentile, runFlows, signIn, type Account } from "./flow-client.js";

/**
 * Booking-flow lanes in a process of their own, against a service in another: what the service
 * sustains, with none of the clients' work (HTTP, JSON, WebSockets) on its event loops.
 */
export interface DriveJob {
  baseUrl: string;
  tokenPath: string;
  password: string;
  productId: number;
  /** Consumer accounts; lanes take them in turn, each lane signed in and connected on its own. */
  usernames: string[];
  lanes: number;
  seconds: number;
  warmUpFlows: number;
  /** The service's process (its cluster workers are its children): its CPU time is read around the timed flows. */
  servicePid?: number;
}

export interface DriveResult {
  lanes: number;
  flows: number;
  seconds: number;
  flowsPerSecond: number;
  flowP50: number;
  flowP99: number;
  /** From the confirm response to the CONFIRMED message. */
  confirmP50: number;
  confirmP99: number;
  bySubscription: number;
  /** CPU time per flow of the timed flows, ms: the service's processes, PostgreSQL's, this driver's; NaN without servicePid. */
  cpuPerFlow: { service: number; postgres: number; driver: number };
}

function cpuNow(servicePid: number | undefined) {
  const own = process.cpuUsage();
  return {
    service: servicePid === undefined ? NaN : treeCpuMs(servicePid),
    postgres: servicePid === undefined ? NaN : postgresCpuMs(),
    driver: (own.user + own.system) / 1000,
  };
}

export async function driveFlows(job: DriveJob): Promise<DriveResult> {
  const target = new FlowTarget(job.baseUrl, job.tokenPath, job.password);
  target.productId = job.productId;
  const lanes: Account[] = Array.from({ length: job.lanes }, (_, i) => ({ username: job.usernames[i % job.usernames.length], token: "" }));
  try {
    for (const lane of lanes) {
      await signIn(target, lane);
      lane.client = await connect(target, lane);
    }
    if (job.warmUpFlows > 0) await runFlows(target, lanes.slice(0, 1), { total: job.warmUpFlows });
    const cpuBefore = cpuNow(job.servicePid);
    const { flows, seconds } = await runFlows(target, lanes, { deadline: performance.now() + job.seconds * 1000 });
    const cpuAfter = cpuNow(job.servicePid);
    const perFlow = (key: keyof typeof cpuBefore) => (cpuAfter[key] - cpuBefore[key]) / flows.length;
    const walls = flows.map((f) => f.wallMs);
    const confirmations = flows.map((f) => f.confirmationMs);
    return {
      lanes: job.lanes,
      flows: flows.length,
      seconds,
      flowsPerSecond: flows.length / seconds,
      flowP50: percentile(walls, 50),
      flowP99: percentile(walls, 99),
      confirmP50: percentile(confirmations, 50),
      confirmP99: percentile(confirmations, 99),
      bySubscription: flows.filter((f) => f.bySubscription).length,
      cpuPerFlow: { service: perFlow("service"), postgres: perFlow("postgres"), driver: perFlow("driver") },
    };
  } finally {
    await Promise.all(lanes.map((lane) => lane.client?.dispose()));
  }
}

/** Runs one job in a child process and resolves with its result. */
export const driveFlowsInOwnProcess = (job: DriveJob) => runInChild<DriveJob, DriveResult>(import.meta.url, job);

serveOneJob(import.meta.url, driveFlows);
