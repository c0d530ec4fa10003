import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { context, diag, DiagLogLevel, propagation, ProxyTracerProvider, trace, type Tracer, type TracerOptions, type TracerProvider } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { Logger } from "./logger.js";
import { TRACER_NAME, useTracer } from "./tracing.js";
import type { TracingSettings } from "./tracing-settings.js";

export interface Tracing {
  /** Stops making spans and sends what is left, waiting at most `timeoutMs`; rejects when that runs out or the export fails. */
  shutdown(timeoutMs: number): Promise<void>;
}

export interface TracingOptions {
  /** Where the SDK's own troubles (an exporter that cannot reach its collector) are reported. */
  logger: Logger;
  /** More processors besides the configured exporters' (tests collect spans in memory). */
  spanProcessors?: SpanProcessor[];
}

/**
 * The provider @opentelemetry/api hands to every library. A library keeps the tracer it got first
 * (@apollo/gateway takes its own when it loads, and the API's proxy keeps its delegate for good),
 * so the SDK provider of each start is reached through this one object, registered once per
 * process: a start after a stop (tests do both) still reaches the gateway's spans.
 */
class CurrentTracerProvider implements TracerProvider {
  target: TracerProvider | undefined;
  private readonly idle = new ProxyTracerProvider();

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    let resolvedFor: TracerProvider | undefined;
    let resolved: Tracer | undefined;
    const current = (): Tracer => {
      const target = this.target ?? this.idle;
      if (target !== resolvedFor) {
        resolvedFor = target;
        resolved = target.getTracer(name, version, options);
      }
      return resolved!;
    };
    return {
      startSpan: (...args) => current().startSpan(...args),
      startActiveSpan: ((...args: Parameters<Tracer["startActiveSpan"]>) => (current().startActiveSpan as (...rest: unknown[]) => unknown)(...args)) as Tracer["startActiveSpan"],
    };
  }
}

let registered: CurrentTracerProvider | undefined;
let running = false;

/**
 * Starts the OpenTelemetry SDK for this process: spans sampled and exported as the settings say,
 * context carried through async calls, W3C traceparent read and written. No resource detector
 * runs: the cloud ones would probe metadata addresses at start, so the resource is only what the
 * process knows about itself and what OTEL_RESOURCE_ATTRIBUTES adds.
 */
export async function startTracing(settings: TracingSettings, options: TracingOptions): Promise<Tracing> {
  // Loaded before anything global is set: from here to the end the start does not wait.
  const exporters = await Promise.all(settings.exporters.map((name) => exporterFor(name, settings)));
  if (running) throw new Error("tracing is already running in this process");
  if (!registered) {
    const provider = new CurrentTracerProvider();
    if (!trace.setGlobalTracerProvider(provider)) throw new Error("another OpenTelemetry tracer provider is registered in this process");
    registered = provider;
  }
  const log = options.logger.child({ component: "opentelemetry" });
  diag.setLogger(
    {
      error: (message, ...args) => log.error(diagFields(args), message),
      warn: (message, ...args) => log.warn(diagFields(args), message),
      info: (message, ...args) => log.info(diagFields(args), message),
      debug: (message, ...args) => log.debug(diagFields(args), message),
      verbose: (message, ...args) => log.trace(diagFields(args), message),
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  const processors = [...exporters.map((exporter) => new BatchSpanProcessor(exporter)), ...(options.spanProcessors ?? [])];
  const provider = new BasicTracerProvider({ resource: resourceOf(settings), sampler: samplerOf(settings.sampler), spanProcessors: processors });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  registered.target = provider;
  useTracer(provider.getTracer(TRACER_NAME));
  running = true;

  return {
    async shutdown(timeoutMs) {
      useTracer(undefined);
      registered!.target = undefined;
      context.disable();
      propagation.disable();
      running = false;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the last spans were not exported within ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      });
      try {
        await Promise.race([provider.shutdown(), late]);
      } finally {
        clearTimeout(timer);
        diag.disable();
      }
    },
  };
}

/** Only the configured protocol's exporter is loaded: each is a package of its own, with its own copy of the OTLP encoding. */
async function exporterFor(name: TracingSettings["exporters"][number], settings: TracingSettings): Promise<SpanExporter> {
  if (name === "console") return new ConsoleSpanExporter();
  const { url, protocol, headers, timeoutMs, compression } = settings.otlp;
  const config = { url, headers, timeoutMillis: timeoutMs, compression: compression as never };
  const { OTLPTraceExporter } = protocol === "http/json" ? await import("@opentelemetry/exporter-trace-otlp-http") : await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter(config);
}

function samplerOf({ name, ratio }: TracingSettings["sampler"]): Sampler {
  const root = name.endsWith("always_off") ? new AlwaysOffSampler() : name.endsWith("traceidratio") ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  return name.startsWith("parentbased_") ? new ParentBasedSampler({ root }) : root;
}

function resourceOf(settings: TracingSettings) {
  // What OTEL_RESOURCE_ATTRIBUTES says about the host or instance (a pod's name) wins over what
  // the process finds; OTEL_SERVICE_NAME wins over both.
  return defaultResource().merge(
    resourceFromAttributes({
      [ATTR_SERVICE_INSTANCE_ID]: randomUUID(),
      "host.name": hostname(),
      "process.pid": process.pid,
      ...(serviceVersion ? { [ATTR_SERVICE_VERSION]: serviceVersion } : {}),
      ...settings.resourceAttributes,
      [ATTR_SERVICE_NAME]: settings.serviceName,
    }),
  );
}

/** The version in the service's package.json, found from here whether this runs from source or from dist/. */
const serviceVersion = ((): string | undefined => {
  for (let folder = path.dirname(fileURLToPath(import.meta.url)); ; folder = path.dirname(folder)) {
    const file = path.join(folder, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (manifest.name === "activities-service") return manifest.version;
    }
    if (path.dirname(folder) === folder) return undefined;
  }
})();

function diagFields(args: unknown[]): Record<string, unknown> {
  const error = args.find((arg) => arg instanceof Error);
  if (error) return { err: error };
  return args.length ? { detail: args.map((arg) => (typeof arg === "object" ? JSON.stringify(arg) : String(arg))).join(" ") } : {};
}
