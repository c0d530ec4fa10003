import "reflect-metadata";
import { afterAll, beforeAll, expect } from "vitest";
import { killStartedProcesses } from "./child-process.js";
import { reportFileTimes } from "./time-report.js";

// Whatever a file's tests did, no service it started outlives it.
afterAll(() => killStartedProcesses());

reportFileTimes(process.env.TEST_TIME_REPORT, { beforeAll, afterAll }, () => expect.getState().testPath);
