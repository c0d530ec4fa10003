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
  const raw = (name: OtelVariable): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const problems: string[] = [];
  // Exporter headers carry a collector's API key: a wrong one is named, never shown.
  const shown = (name: OtelVariable) => (name.endsWith("_HEADERS") ? "(not shown)" : JSON.stringify(raw(name)));
  const problem = (name: OtelVariable, message: string) => problems.push(`${name}=${shown(name)}: ${message}`);

  const disabledText = raw("OTEL_SDK_DISABLED")?.toLowerCase();
  if (disabledText !== undefined && disabledText !== "true" && disabledText !== "false") problem("OTEL_SDK_DISABLED", "must be true or false");
  const disabled = disabledText === "true";

  let exporters: TraceExporterName[] | undefined;
  const exporterText = raw("OTEL_TRACES_EXPORTER");
  if (exporterText !== undefined) {
    const names = exporterText.split(",").map((name) => name.trim().toLowerCase());
    if (names.some((name) => name !== "otlp" && name !== "console" && name !== "none")) problem("OTEL_TRACES_EXPORTER", "must be otlp, console or none (comma-separated); spans go out as OTLP over HTTP");
    else if (names.includes("none") && names.length > 1) problem("OTEL_TRACES_EXPORTER", "none means no exporter and cannot be combined with one");
    else exporters = [...new Set(names.filter((name): name is TraceExporterName => name !== "none"))];
  }

  const endpoint = (name: "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") => {
    const value = raw(name);
    if (value === undefined) return undefined;
    if (!/^https?:\/\/[^/]/.test(value) || !URL.canParse(value)) {
      problem(name, "must be an http:// or https:// URL");
      return undefined;
    }
    return value;
  };
  const baseEndpoint = endpoint("OTEL_EXPORTER_OTLP_ENDPOINT");
  const tracesEndpoint = endpoint("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");

  // The signal's own variable wins over the general one, as the specification has it.
  const either = <T>(general: OtelVariable, specific: OtelVariable, parse: (name: OtelVariable, value: string) => T | undefined): T | undefined => {
    const parsedGeneral = raw(general) === undefined ? undefined : parse(general, raw(general)!);
    const parsedSpecific = raw(specific) === undefined ? undefined : parse(specific, raw(specific)!);
    return parsedSpecific ?? parsedGeneral;
  };
  const protocol = either("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", (name, value) => {
    if (value === "http/protobuf" || value === "http/json") return value;
    problem(name, value === "grpc" ? "grpc is not supported: use http/protobuf (a collector's port 4318)" : "must be http/protobuf or http/json");
    return undefined;
  });
  const headers = either("OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", (name, value) => {
    const pairs = keyValuePairs(value);
    if (!pairs) problem(name, "must be key=value pairs separated by commas (values percent-encoded)");
    return pairs;
  });
  const timeoutMs = either("OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", (name, value) => {
    const ms = Number(value);
    if (Number.isInteger(ms) && ms >= 1 && ms <= 120_000) return ms;
    problem(name, "must be milliseconds, 1 to 120000");
    return undefined;
  });
  const compression = either("OTEL_EXPORTER_OTLP_COMPRESSION", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", (name, value) => {
    if (value === "gzip" || value === "none") return value;
    problem(name, "must be gzip or none");
    return undefined;
  });

  const resourceText = raw("OTEL_RESOURCE_ATTRIBUTES");
  const resourceAttributes = resourceText === undefined ? {} : keyValuePairs(resourceText);
  if (!resourceAttributes) problem("OTEL_RESOURCE_ATTRIBUTES", "must be key=value pairs separated by commas (values percent-encoded)");

  const samplerText = raw("OTEL_TRACES_SAMPLER")?.toLowerCase();
  let sampler: SamplerName = "parentbased_always_on";
  if (samplerText !== undefined) {
    if ((SAMPLERS as readonly string[]).includes(samplerText)) sampler = samplerText as SamplerName;
    else problem("OTEL_TRACES_SAMPLER", `must be one of ${SAMPLERS.join(", ")}`);
  }
  let ratio = 1;
  const ratioText = raw("OTEL_TRACES_SAMPLER_ARG");
  if (ratioText !== undefined) {
    if (!sampler.endsWith("traceidratio")) problem("OTEL_TRACES_SAMPLER_ARG", `only traceidratio and parentbased_traceidratio take an argument; OTEL_TRACES_SAMPLER is ${sampler}`);
    else if (!/^\d*\.?\d+$/.test(ratioText) || Number(ratioText) > 1) problem("OTEL_TRACES_SAMPLER_ARG", "must be the share of traces to record, 0 to 1");
    else ratio = Number(ratioText);
  }

  const propagators = raw("OTEL_PROPAGATORS");
  if (propagators !== undefined && propagators.split(",").some((name) => name.trim() !== "tracecontext")) {
    problem("OTEL_PROPAGATORS", "only tracecontext (W3C traceparent) is used");
  }

  const chosen = exporters ?? (baseEndpoint || tracesEndpoint ? ["otlp" as const] : []);
  return {
    problems,
    settingsFor(role) {
      if (disabled || chosen.length === 0) return undefined;
      const { "service.name": namedInResource, ...otherAttributes } = resourceAttributes ?? {};
      return {
        exporters: chosen,
        otlp: {
          url: tracesEndpoint ?? `${(baseEndpoint ?? DEFAULT_OTLP_ENDPOINT).replace(/\/$/, "")}/v1/traces`,
          protocol: protocol ?? "http/protobuf",
          headers: headers ?? {},
          timeoutMs: timeoutMs ?? 10_000,
          compression: compression ?? "none",
        },
        sampler: { name: sampler, ratio },
        serviceName: raw("OTEL_SERVICE_NAME") ?? namedInResource ?? (role === "all" ? "activities" : `activities-${role}`),
        resourceAttributes: otherAttributes,
      };
    },
  };
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
