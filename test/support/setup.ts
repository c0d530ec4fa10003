import "reflect-metadata";
import { afterAll } from "vitest";
import { killStartedProcesses } from "./child-process.js";

// Whatever a file's tests did, no service it started outlives it.
afterAll(() => killStartedProcesses());
