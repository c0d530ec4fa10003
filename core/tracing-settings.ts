/**
 * Tracing as the standard OpenTelemetry variables ask for it
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). Off unless
 * an exporter is named or an OTLP endpoint given; OTEL_SDK_DISABLED=true turns it off whatever
 * else is set. Read by loadConfig, so a wrong value stops start-up naming the variable.
 */

export type TraceExporterName = "otlp" | "console";
export type SamplerName = "always_on" | "always_off" | "traceidratio" | "parentbased_always_on" | "parentbased_always_off" | "parentbased_traceidratio";

export interface TracingSettings {
  exporters: TraceExporterName[];
  /** Where and how spans go when `exporters` has otlp. */
  otlp: { url: string; protocol: "http/protobuf" | "http/json"; headers: Record<string, string>; timeoutMs: number; compression: "gzip" | "none" };
  sampler: { name: SamplerName; ratio: number };
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, service.name excluded (it is `serviceName`). */
  resourceAttributes: Record<string, string>;
}

const SAMPLERS: readonly SamplerName[] = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"];
const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";

/** Every variable read here; a process's environment is looked at for these names only. */
export const otelVariables = [
  "OTEL_SDK_DISABLED",
  "OTEL_TRACES_EXPORTER",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
  "OTEL_EXPORTER_OTLP_COMPRESSION",
  "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION",
  "OTEL_SERVICE_NAME",
  "OTEL_RESOURCE_ATTRIBUTES",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_PROPAGATORS",
] as const;
type OtelVariable = (typeof otelVariables)[number];

export interface OtelReading {
  /** One per wrong variable, `NAME="value": why`, as the rest of the configuration reports them. */
  problems: string[];
  /** The settings once the role is known (it names the service by default); undefined when tracing is off. */
  settingsFor(role: string): TracingSettings | undefined;
}

export function readOtelVariables(env: Record<string, string | undefined>): OtelReading {
  const reader = new OtelVariables(env);
  // Read in this order, so the problems are told in it.
  const disabled = reader.disabled();
  const exporters = reader.exporters();
  const baseEndpoint = reader.endpoint("OTEL_EXPORTER_OTLP_ENDPOINT");
  const tracesEndpoint = reader.endpoint("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const otlp = reader.otlpOptions();
  const resourceAttributes = reader.resourceAttributes();
  const sampler = reader.sampler();
  reader.checkPropagators();
  const chosen = exporters ?? (baseEndpoint || tracesEndpoint ? ["otlp" as const] : []);
  return {
    problems: reader.problems,
    settingsFor(role) {
      if (disabled || chosen.length === 0) return undefined;
      const { "service.name": namedInResource, ...otherAttributes } = resourceAttributes ?? {};
      return {
        exporters: chosen,
        otlp: {
          url: tracesEndpoint ?? `${(baseEndpoint ?? DEFAULT_OTLP_ENDPOINT).replace(/\/$/, "")}/v1/traces`,
          protocol: otlp.protocol ?? "http/protobuf",
          headers: otlp.headers ?? {},
          timeoutMs: otlp.timeoutMs ?? 10_000,
          compression: otlp.compression ?? "none",
        },
        sampler,
        serviceName: reader.raw("OTEL_SERVICE_NAME") ?? namedInResource ?? (role === "all" ? "activities" : `activities-${role}`),
        resourceAttributes: otherAttributes,
      };
    },
  };
}

/** The OTEL_* variables, each read by its rule, with what is wrong with them kept as problems. */
class OtelVariables {
  readonly problems: string[] = [];

  constructor(private readonly env: Record<string, string | undefined>) {}

  raw(name: OtelVariable): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  private problem(name: OtelVariable, message: string): void {
    // Exporter headers carry a collector's API key: a wrong one is named, never shown.
    const shown = name.endsWith("_HEADERS") ? "(not shown)" : JSON.stringify(this.raw(name));
    this.problems.push(`${name}=${shown}: ${message}`);
  }

  disabled(): boolean {
    const text = this.raw("OTEL_SDK_DISABLED")?.toLowerCase();
    if (text !== undefined && text !== "true" && text !== "false") this.problem("OTEL_SDK_DISABLED", "must be true or false");
    return text === "true";
  }

  exporters(): TraceExporterName[] | undefined {
    const text = this.raw("OTEL_TRACES_EXPORTER");
    if (text === undefined) return undefined;
    const names = text.split(",").map((name) => name.trim().toLowerCase());
    if (names.some((name) => name !== "otlp" && name !== "console" && name !== "none")) {
      this.problem("OTEL_TRACES_EXPORTER", "must be otlp, console or none (comma-separated); spans go out as OTLP over HTTP");
    } else if (names.includes("none") && names.length > 1) {
      this.problem("OTEL_TRACES_EXPORTER", "none means no exporter and cannot be combined with one");
    } else {
      return [...new Set(names.filter((name): name is TraceExporterName => name !== "none"))];
    }
    return undefined;
  }

  endpoint(name: "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (!/^https?:\/\/[^/]/.test(value) || !URL.canParse(value)) {
      this.problem(name, "must be an http:// or https:// URL");
      return undefined;
    }
    return value;
  }

  /** The exporter's protocol, headers, time-out and compression, each the signal's own or the general one. */
  otlpOptions(): Partial<TracingSettings["otlp"]> {
    const protocol = this.either<TracingSettings["otlp"]["protocol"]>("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", (name, value) => {
      if (value === "http/protobuf" || value === "http/json") return value;
      this.problem(name, value === "grpc" ? "grpc is not supported: use http/protobuf (a collector's port 4318)" : "must be http/protobuf or http/json");
      return undefined;
    });
    const headers = this.either("OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", (name, value) => {
      const pairs = keyValuePairs(value);
      if (!pairs) this.problem(name, "must be key=value pairs separated by commas (values percent-encoded)");
      return pairs;
    });
    const timeoutMs = this.either("OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", (name, value) => {
      const ms = Number(value);
      if (Number.isInteger(ms) && ms >= 1 && ms <= 120_000) return ms;
      this.problem(name, "must be milliseconds, 1 to 120000");
      return undefined;
    });
    const compression = this.either<TracingSettings["otlp"]["compression"]>("OTEL_EXPORTER_OTLP_COMPRESSION", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", (name, value) => {
      if (value === "gzip" || value === "none") return value;
      this.problem(name, "must be gzip or none");
      return undefined;
    });
    return { protocol, headers, timeoutMs, compression };
  }

  /** The signal's own variable wins over the general one, as the specification has it; both are judged. */
  private either<T>(general: OtelVariable, specific: OtelVariable, parse: (name: OtelVariable, value: string) => T | undefined): T | undefined {
    const generalText = this.raw(general);
    const specificText = this.raw(specific);
    const parsedGeneral = generalText === undefined ? undefined : parse(general, generalText);
    const parsedSpecific = specificText === undefined ? undefined : parse(specific, specificText);
    return parsedSpecific ?? parsedGeneral;
  }

  resourceAttributes(): Record<string, string> | undefined {
    const text = this.raw("OTEL_RESOURCE_ATTRIBUTES");
    const attributes = text === undefined ? {} : keyValuePairs(text);
    if (!attributes) this.problem("OTEL_RESOURCE_ATTRIBUTES", "must be key=value pairs separated by commas (values percent-encoded)");
    return attributes;
  }

  sampler(): { name: SamplerName; ratio: number } {
    const text = this.raw("OTEL_TRACES_SAMPLER")?.toLowerCase();
    let name: SamplerName = "parentbased_always_on";
    if (text !== undefined) {
      if ((SAMPLERS as readonly string[]).includes(text)) name = text as SamplerName;
      else this.problem("OTEL_TRACES_SAMPLER", `must be one of ${SAMPLERS.join(", ")}`);
    }
    let ratio = 1;
    const ratioText = this.raw("OTEL_TRACES_SAMPLER_ARG");
    if (ratioText !== undefined) {
      if (!name.endsWith("traceidratio")) this.problem("OTEL_TRACES_SAMPLER_ARG", `only traceidratio and parentbased_traceidratio take an argument; OTEL_TRACES_SAMPLER is ${name}`);
      else if (!/^\d*\.?\d+$/.test(ratioText) || Number(ratioText) > 1) this.problem("OTEL_TRACES_SAMPLER_ARG", "must be the share of traces to record, 0 to 1");
      else ratio = Number(ratioText);
    }
    return { name, ratio };
  }

  checkPropagators(): void {
    const propagators = this.raw("OTEL_PROPAGATORS");
    if (propagators !== undefined && propagators.split(",").some((name) => name.trim() !== "tracecontext")) {
      this.problem("OTEL_PROPAGATORS", "only tracecontext (W3C traceparent) is used");
    }
  }
}

/** `key=value,key=value` with percent-encoded values (W3C baggage form, as OTEL_* headers and attributes use). */
function keyValuePairs(text: string): Record<string, string> | undefined {
  const pairs: Record<string, string> = {};
  for (const item of text.split(",")) {
    if (!item.trim()) continue;
    const at = item.indexOf("=");
    if (at <= 0) return undefined;
    const key = item.slice(0, at).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(key)) return undefined;
    try {
      pairs[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return pairs;
}
